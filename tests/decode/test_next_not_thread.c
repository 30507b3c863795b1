/* test_next_not_thread.c - a next context that is not a thread (an internal
 * SUSPEND handing over to an unknown address, or to a registered queue, as
 * when the registry was too full to hold the thread): TraceX's rules in
 * `trx dump` / TRX_MODE_TRACEX (no Un-named Thread, the RUNNING event shown
 * as thread index 0, the next-context column naming the object or printing
 * "No Name Found" with the stale address) and the correct mode (the address
 * listed as an unknown thread). Expected text worked out by hand from the
 * issue's statement of TraceX's behaviour and research/tracex.md 2.4-2.5,
 * 3.3. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "output/dump_text.h"
#include "trace_builder.h"
#include "trx/stats.h"

/* Thread Z is registered first (thread index 0) and never runs. */
enum { Z = 0x900, A = 0x1000, B = 0x2000, Q = 0x5000, U = 0x7000 };

static uint32_t prio(uint32_t p)
{
    return 0x80000000u | p << 16 | p;
}

/* A sends, then suspends handing over to `next`; B runs 30 ticks later. */
static void build(test_trace *b, uint32_t next)
{
    tb_init(b, 4, 8, false);
    tb_object(b, 0, TRX_OBJ_THREAD, Z, "thread Z", 0x30000, 1024, 1);
    tb_object(b, 1, TRX_OBJ_THREAD, A, "thread A", 0x31000, 1024, 5);
    tb_object(b, 2, TRX_OBJ_THREAD, B, "thread B", 0x32000, 1024, 10);
    tb_object(b, 3, TRX_OBJ_QUEUE, Q, "queue 0", 4, 16, 0);
    tb_event(b, A, prio(5), 69, 100, Q, 0, 0, 0);
    tb_event(b, A, prio(5), 2, 110, A, 5, 0x31200, next);
    tb_event(b, B, prio(10), 69, 140, Q, 0, 0, 0);
    tb_event(b, B, prio(10), 69, 150, Q, 0, 0, 0);
}

/* The whole dump of `t` as a NUL-terminated string (caller frees). */
static char *dump_of(trx_trace *t)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    trx_out *o = malloc(sizeof *o);
    assert_non_null(o);
    trx_out_init(o, f, false);
    assert_int_equal(trx_dump_write(t, o, "in.trx", "out.txt"), 0);
    assert_int_equal(trx_out_flush(o), 0);
    free(o);
    long n = ftell(f);
    assert_true(n > 0);
    char *text = malloc((size_t)n + 1);
    assert_non_null(text);
    rewind(f);
    assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = '\0';
    fclose(f);
    return text;
}

/* The dump line of event `index` (without its newline), in a static buffer. */
static const char *event_line(const char *dump, unsigned index)
{
    static char line[512];
    char head[32];
    snprintf(head, sizeof head, "\n%8u        0000", index);
    const char *p = strstr(dump, head);
    assert_non_null(p);
    p++;
    size_t n = strcspn(p, "\n");
    assert_true(n < sizeof line);
    memcpy(line, p, n);
    line[n] = '\0';
    return line;
}

static void assert_contains(const char *text, const char *part)
{
    if (!strstr(text, part)) {
        fprintf(stderr, "missing \"%s\" in:\n%s\n", part, text);
        fail();
    }
}

/* Thread list and object list of the dump: registry threads and objects only. */
static void assert_tables(const char *d)
{
    assert_contains(d, "Total Threads:       3\n");
    assert_contains(d, "Total Events:        5\n");
    assert_contains(d, "  00000900  00030000-00030400         0  thread Z (Priority: 1/1)");
    assert_contains(d, "  00001000  00031000-00031400         2  thread A (Priority: 5/5)");
    assert_contains(d, "  00002000  00032000-00032400         2  thread B (Priority: 10/10)");
    assert_true(strstr(d, "Un-named Thread") == NULL);
    assert_contains(d, "  00005000   QUEUE                                 queue 0         00");
    /* execution profile: the stretch after the SUSPEND (30 ticks) is nobody's */
    assert_contains(d, " 00000000000000000010        20%  thread A\n");
    assert_contains(d, " 00000000000000000010        20%  thread B\n");
}

static void test_unknown_next_thread_tracex(void **state)
{
    (void)state;
    test_trace b;
    trx_trace t;
    build(&b, U);
    tb_open(&b, &t);
    t.mode = TRX_MODE_TRACEX;
    char *d = dump_of(&t);
    assert_int_equal(t.thread_count, 3);
    assert_int_equal(t.object_count, 4);
    assert_tables(d);
    /* the SUSPEND: next context unknown, the stale address is A's own */
    const char *l = event_line(d, 1);
    assert_contains(l, "TX INTERNAL SUSPEND        (    2)       thread A (00001000)   ");
    assert_contains(l, "       No Name Found (00001000)        I1: 00001000");
    /* the RUNNING: thread index 0's name and address, priority 0 */
    l = event_line(d, 2);
    assert_contains(l, "00000000000000000022    TX RUNNING                 (    6)       "
                       "thread Z (00000900)                   0 (   0)    ");
    assert_contains(l, "       No Name Found (00000900)        I1: 00000000");
    assert_contains(l, "--------          --------");
    /* B's events are B's again */
    assert_contains(event_line(d, 3), "thread B (00002000)                  10 (  10)           "
                                      "thread B (00002000)");
    free(d);
    trx_trace_close(&t);
}

static void test_queue_as_next_thread_tracex(void **state)
{
    (void)state;
    test_trace b;
    trx_trace t;
    build(&b, Q);
    tb_open(&b, &t);
    t.mode = TRX_MODE_TRACEX;
    char *d = dump_of(&t);
    assert_int_equal(t.thread_count, 3);
    assert_int_equal(t.object_count, 4);
    assert_tables(d);
    assert_contains(event_line(d, 1), "thread A (00001000)                   5 (   5)           "
                                      "queue 0 (00005000)             I1: 00001000");
    assert_contains(event_line(d, 2), "TX RUNNING                 (    6)       thread Z (00000900)"
                                      "                   0 (   0)           queue 0 (00005000)  "
                                      "           I1: 00000000");
    free(d);
    trx_trace_close(&t);
}

/* The events of the TraceX mode: the RUNNING event carries thread index 0 but
 * keeps the real next context, so per-thread totals and the profile give it
 * to nobody. */
static void test_tracex_events_and_stats(void **state)
{
    (void)state;
    test_trace b;
    trx_trace t;
    trx_stats s;
    build(&b, U);
    tb_open(&b, &t);
    t.mode = TRX_MODE_TRACEX;
    assert_int_equal(trx_stats_compute(&t, &s), 0);
    assert_int_equal(s.threads[0].total_events, 0);
    assert_int_equal(s.threads[0].execution_ticks, 0);
    assert_int_equal(s.threads[1].execution_ticks, 10);
    assert_int_equal(s.threads[2].execution_ticks, 10);
    trx_stats_free(&s);
    trx_cursor c;
    trx_event ev;
    assert_int_equal(trx_cursor_init(&c, &t), 0);
    for (int n = 0; n < 3; n++)
        assert_true(trx_cursor_next(&c, &ev));
    assert_true(ev.synthetic);
    assert_int_equal(ev.context, U);
    assert_int_equal(ev.next_context, U);
    assert_int_equal(ev.thread, 0);
    trx_cursor_free(&c);
    trx_trace_close(&t);
}

/* The correct mode: the RUNNING TraceX would insert for the unknown address
 * is a guess the next event contradicts (B's own event follows on the same
 * core: B ran, docs/analyses.md "Contradicted RUNNING events"), so the
 * RUNNING is B's, the SUSPEND hands over to B, and the address never becomes
 * a thread (no thread-0 attribution either). Same for a queue's address. */
static void test_correct_mode_unknown_thread(void **state)
{
    (void)state;
    const uint32_t nexts[2] = {U, Q};
    for (int k = 0; k < 2; k++) {
        test_trace b;
        trx_trace t;
        trx_stats s;
        build(&b, nexts[k]);
        tb_open(&b, &t);
        assert_int_equal(t.mode, TRX_MODE_CORRECT);
        assert_int_equal(trx_stats_compute(&t, &s), 0);
        assert_int_equal(t.thread_count, 3);
        assert_int_equal(t.object_count, 4);
        assert_true(trx_trace_find_thread(&t, nexts[k]) < 0);
        assert_int_equal(s.threads[2].total_events, 3); /* B: the RUNNING and its two sends */
        assert_int_equal(s.threads[2].execution_ticks, 40);
        assert_int_equal(s.threads[0].total_events, 0);
        trx_stats_free(&s);
        trx_cursor c;
        trx_event ev;
        assert_int_equal(trx_cursor_init(&c, &t), 0);
        assert_true(trx_cursor_next(&c, &ev));
        assert_true(trx_cursor_next(&c, &ev));
        assert_int_equal(ev.next_context, B); /* the SUSPEND hands over to B */
        assert_true(trx_cursor_next(&c, &ev));
        assert_true(ev.synthetic);
        assert_int_equal(ev.context, B);
        assert_int_equal(ev.thread, 2);
        trx_cursor_free(&c);
        trx_trace_close(&t);
    }
}

/* An ISR whose interrupted-thread word is unknown: the same rules apply to
 * the next context it patches into the event before it. */
static void test_isr_interrupted_unknown(void **state)
{
    (void)state;
    test_trace b;
    trx_trace t;
    tb_init(&b, 2, 8, false);
    tb_object(&b, 0, TRX_OBJ_THREAD, Z, "thread Z", 0x30000, 1024, 1);
    tb_object(&b, 1, TRX_OBJ_THREAD, A, "thread A", 0x31000, 1024, 5);
    tb_event(&b, A, prio(5), 69, 90, Q, 0, 0, 0);
    tb_event(&b, A, prio(5), 69, 100, Q, 0, 0, 0);
    tb_event(&b, 0xFFFFFFFFu, U, 3, 110, 0x40000, 7, 1, 0);
    tb_event(&b, 0xFFFFFFFFu, U, 4, 120, 0x40000, 7, 1, 0);
    tb_event(&b, A, prio(5), 69, 150, Q, 0, 0, 0);
    tb_open(&b, &t);
    t.mode = TRX_MODE_TRACEX;
    char *d = dump_of(&t);
    assert_contains(d, "Total Threads:       2\n");
    assert_true(strstr(d, "Un-named Thread") == NULL);
    /* A's second event hands over to U (patched by the ISR, which
     * interrupted U): a RUNNING event attributed to thread Z shows U */
    assert_contains(event_line(d, 1), "       No Name Found (00001000)        I1: 00005000");
    const char *l = event_line(d, 2);
    assert_contains(l, "TX RUNNING                 (    6)       thread Z (00000900)");
    assert_contains(l, "       No Name Found (00000900)        I1: 00000000");
    assert_contains(event_line(d, 3), "ISR ENTER");
    free(d);
    trx_trace_close(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unknown_next_thread_tracex),
        cmocka_unit_test(test_queue_as_next_thread_tracex),
        cmocka_unit_test(test_tracex_events_and_stats),
        cmocka_unit_test(test_correct_mode_unknown_thread),
        cmocka_unit_test(test_isr_interrupted_unknown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
