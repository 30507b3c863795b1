/* test_core_stats.c - the per-core analysis of `trx stats` on a hand-made
 * 2-core trace whose answer is worked out by hand: thread A runs on core 0
 * while B runs on core 1 (ticks 200-300), then A moves to core 1. Checks both
 * run times, the overlap, the migration, per-core time and load; that
 * --compat tracex leaves the per-core analysis out and gives the same numbers
 * with or without core bits; the same trace on one core (its own events per
 * thread); and the `trx stats --json` keys. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../decode/trace_builder.h"
#include "trx/stats.h"

enum { A = 0x1000, B = 0x2000, ISR = 0xFFFFFFFFu, INIT = 0xF0F0F0F0u };
enum { USER = 4096, RESUME = 1, SUSPEND = 2 };

static uint32_t prio(uint32_t p)
{
    return 0x80000000u | p << 16 | p;
}

/* The event id word as ThreadX SMP writes it: core in bits 24-31. */
static uint32_t on(uint32_t core, uint32_t id, bool core_bits)
{
    return core_bits ? core << 24 | id : id;
}

/* ticks  core  context  event
 *    0    0    init     user event
 *  100    0    A        user event             core 0 runs A
 *  200    1    B        user event             core 1 runs B (A and B in parallel)
 *  300    1    B        suspends itself, next 0: core 1 idle
 *  400    0    A        suspends itself, next 0: core 0 idle
 *  500    1    ISR      resumes A, next A:     core 1 runs A
 *  600    1    A        user event             A migrated from core 0 to core 1
 *  700    1    A        suspends itself, next 0: core 1 idle
 *  800    0    ISR      user event (the end) */
static void build(test_trace *b, bool core_bits)
{
    tb_init(b, 2, 16, false);
    tb_object(b, 0, TRX_OBJ_THREAD, A, "thread A", 0x30000, 1024, 5);
    tb_object(b, 1, TRX_OBJ_THREAD, B, "thread B", 0x31000, 1024, 5);
    tb_event(b, INIT, 0, on(0, USER, core_bits), 0, 0, 0, 0, 0);
    tb_event(b, A, prio(5), on(0, USER, core_bits), 100, 1, 0, 0, 0);
    tb_event(b, B, prio(5), on(1, USER, core_bits), 200, 2, 0, 0, 0);
    tb_event(b, B, prio(5), on(1, SUSPEND, core_bits), 300, B, 5, 0x31200, 0);
    tb_event(b, A, prio(5), on(0, SUSPEND, core_bits), 400, A, 5, 0x30200, 0);
    tb_event(b, ISR, 0, on(1, RESUME, core_bits), 500, A, 5, 0x40000, A);
    tb_event(b, A, prio(5), on(1, USER, core_bits), 600, 3, 0, 0, 0);
    tb_event(b, A, prio(5), on(1, SUSPEND, core_bits), 700, A, 5, 0x30100, 0);
    tb_event(b, ISR, 0, on(0, USER, core_bits), 800, 4, 0, 0, 0);
}

static void compute(bool core_bits, trx_mode mode, trx_trace *t, trx_stats *s)
{
    static test_trace b;
    memset(&b, 0, sizeof b);
    build(&b, core_bits);
    tb_open(&b, t);
    t->mode = mode;
    assert_int_equal(trx_stats_compute(t, s), 0);
}

/* Cores past 63 keep their own rows: A logs on cores 0, 70 and 200, B on 130. */
static void test_high_cores(void **state)
{
    (void)state;
    static test_trace b;
    memset(&b, 0, sizeof b);
    tb_init(&b, 2, 16, false);
    tb_object(&b, 0, TRX_OBJ_THREAD, A, "thread A", 0x30000, 1024, 5);
    tb_object(&b, 1, TRX_OBJ_THREAD, B, "thread B", 0x31000, 1024, 5);
    tb_event(&b, A, prio(5), on(0, USER, true), 100, 1, 0, 0, 0);
    tb_event(&b, A, prio(5), on(70, USER, true), 200, 2, 0, 0, 0);
    tb_event(&b, B, prio(5), on(130, USER, true), 300, 3, 0, 0, 0);
    tb_event(&b, A, prio(5), on(200, USER, true), 400, 4, 0, 0, 0);
    trx_trace t;
    trx_stats s;
    tb_open(&b, &t);
    assert_int_equal(trx_stats_compute(&t, &s), 0);
    const trx_core_stats *cs = s.cores;
    assert_non_null(cs);
    for (uint32_t c = 0; c < TRX_MAX_CORES + 2; c++) {
        bool a = c == 0 || c == 70 || c == 200, bb = c == 130;
        assert_int_equal(trx_core_stats_thread_has(cs, 0, c), a);
        assert_int_equal(trx_core_stats_thread_has(cs, 1, c), bb);
    }
    assert_false(trx_core_stats_thread_has(cs, 2, 0)); /* no such thread */
    /* the iterator gives the same cores, in order, from any start */
    for (uint32_t th = 0; th < 3; th++)
        for (uint32_t from = 0; from <= TRX_MAX_CORES; from++) {
            uint32_t want = from;
            while (want < TRX_MAX_CORES && !trx_core_stats_thread_has(cs, th, want))
                want++;
            assert_int_equal(trx_core_stats_thread_next_core(cs, th, from), want);
        }
    assert_int_equal(trx_core_stats_thread_next_core(cs, 0, 0), 0);
    assert_int_equal(trx_core_stats_thread_next_core(cs, 0, 1), 70);
    assert_int_equal(trx_core_stats_thread_next_core(cs, 0, 71), 200);
    assert_int_equal(trx_core_stats_thread_next_core(cs, 1, 0), 130);
    assert_int_equal(trx_core_stats_thread_next_core(cs, 0, 201), TRX_MAX_CORES);
    assert_int_equal(cs->threads[0].migrations, 2);
    trx_stats_free(&s);
    trx_trace_close(&t);
}

static void test_two_cores(void **state)
{
    (void)state;
    trx_trace t;
    trx_stats s;
    compute(true, TRX_MODE_CORRECT, &t, &s);
    const trx_core_stats *cs = s.cores;
    assert_non_null(cs);
    assert_int_equal(cs->core_count, 2);
    assert_int_equal(cs->span_ticks, 800);
    /* A: core 0 100-400, core 1 500-700; B: core 1 200-300 */
    assert_int_equal(cs->threads[0].run_ticks, 500);
    assert_int_equal(cs->threads[1].run_ticks, 100);
    assert_int_equal(cs->parallel_ticks, 100); /* 200-300 */
    assert_int_equal(cs->max_parallel, 2);
    assert_int_equal(cs->threads[0].migrations, 1);
    assert_int_equal(cs->threads[1].migrations, 0);
    assert_true(trx_core_stats_thread_has(cs, 0, 0));
    assert_true(trx_core_stats_thread_has(cs, 0, 1));
    assert_false(trx_core_stats_thread_has(cs, 1, 0));
    assert_true(trx_core_stats_thread_has(cs, 1, 1));
    /* core 0: init 0-100, A 100-400, idle 400-800 */
    const trx_core_profile *c0 = &cs->cores[0], *c1 = &cs->cores[1];
    assert_int_equal(c0->events, 4);
    assert_int_equal(c0->init_ticks, 100);
    assert_int_equal(c0->thread_ticks, 300);
    assert_int_equal(c0->idle_ticks, 400);
    assert_int_equal(c0->unknown_ticks + c0->interrupt_ticks, 0);
    /* core 1: unknown 0-200, B 200-300, idle 300-500, A 500-700, idle 700-800 */
    assert_int_equal(c1->events, 5);
    assert_int_equal(c1->unknown_ticks, 200);
    assert_int_equal(c1->thread_ticks, 300);
    assert_int_equal(c1->idle_ticks, 300);
    assert_int_equal(c1->init_ticks + c1->interrupt_ticks, 0);
    /* per (core, thread): A 300 on core 0; B 100 and A 200 on core 1 */
    assert_int_equal(cs->profile_count, 3);
    assert_int_equal(cs->profile[0].core, 0);
    assert_int_equal(cs->profile[0].thread, 0);
    assert_int_equal(cs->profile[0].ticks, 300);
    assert_int_equal(cs->profile[1].core, 1);
    assert_int_equal(cs->profile[1].thread, 0);
    assert_int_equal(cs->profile[1].ticks, 200);
    assert_int_equal(cs->profile[1].events, 2);
    assert_int_equal(cs->profile[2].thread, 1);
    assert_int_equal(cs->profile[2].ticks, 100);
    trx_stats_free(&s);
    trx_trace_close(&t);
}

/* The same events without core bits: one core, followed by the event model
 * (core_tracker.c's one-core path); core 0's (core, thread) pairs carry each
 * thread's own events: A logs 4 (100, 400, 600, 700), B 2 (200, 300). */
static void test_one_core_own_events(void **state)
{
    (void)state;
    trx_trace t;
    trx_stats s;
    compute(false, TRX_MODE_CORRECT, &t, &s);
    const trx_core_stats *cs = s.cores;
    assert_non_null(cs);
    assert_int_equal(cs->core_count, 1);
    assert_int_equal(cs->cores[0].events, 9);
    assert_int_equal(cs->profile_count, 2);
    assert_int_equal(cs->profile[0].core, 0);
    assert_int_equal(cs->profile[0].thread, 0);
    assert_int_equal(cs->profile[0].events, 4);
    assert_int_equal(cs->profile[0].ticks, cs->threads[0].run_ticks);
    assert_int_equal(cs->profile[1].core, 0);
    assert_int_equal(cs->profile[1].thread, 1);
    assert_int_equal(cs->profile[1].events, 2);
    assert_int_equal(cs->profile[1].ticks, cs->threads[1].run_ticks);
    assert_true(trx_core_stats_thread_has(cs, 0, 0));
    assert_true(trx_core_stats_thread_has(cs, 1, 0));
    assert_false(trx_core_stats_thread_has(cs, 0, 1));
    assert_int_equal(cs->threads[0].migrations, 0);
    trx_stats_free(&s);
    trx_trace_close(&t);
}

/* TraceX's numbers: the same with or without core bits, and no per-core part. */
static void test_compat_tracex(void **state)
{
    (void)state;
    trx_trace t1, t2;
    trx_stats s1, s2;
    compute(true, TRX_MODE_TRACEX, &t1, &s1);
    compute(false, TRX_MODE_TRACEX, &t2, &s2);
    assert_null(s1.cores);
    assert_null(s2.cores);
    /* TraceX, core-blind: the ticks after each event go to its next context,
     * the next entry's context by default. 0-100 A (the init event's next),
     * 100-200 B (A's event is followed by B's: a "switch"), 200-300 B,
     * 300-400 idle (B's suspend, next 0), 400-500 idle (A's suspend), 500-600
     * A (the ISR resume's next), 600-700 A, 700-800 idle: A 300, B 200 -
     * B's run time doubled and the parallelism lost. */
    assert_int_equal(s1.threads[0].execution_ticks, 300);
    assert_int_equal(s1.threads[1].execution_ticks, 200);
    assert_int_equal(s1.idle_ticks, 300);
    assert_int_equal(s1.interrupt_ticks, 0);
    assert_int_equal(s1.threads[0].execution_ticks, s2.threads[0].execution_ticks);
    assert_int_equal(s1.threads[1].execution_ticks, s2.threads[1].execution_ticks);
    assert_int_equal(s1.idle_ticks, s2.idle_ticks);
    assert_int_equal(s1.context_switches, s2.context_switches);
    assert_int_equal(s1.suspensions, s2.suspensions);
    assert_int_equal(s1.resumptions, s2.resumptions);
    assert_int_equal(s1.interrupts, s2.interrupts);
    assert_int_equal(t1.total_events, t2.total_events);
    trx_stats_free(&s1);
    trx_stats_free(&s2);
    trx_trace_close(&t1);
    trx_trace_close(&t2);
}

/* `trx stats --json` on the trace written to a file: the per-core keys. */
static void test_cli_json(void **state)
{
    (void)state;
    static test_trace b;
    memset(&b, 0, sizeof b);
    build(&b, true);
    char path[] = "/tmp/trx_core_stats_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b.bytes, 1, b.size, f), b.size);
    fclose(f);
    char cmd[512], out[8192];
    snprintf(cmd, sizeof cmd, "'%s' stats --json '%s'", TRX_CLI_PATH, path);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    assert_int_equal(pclose(p), 0);
    assert_non_null(strstr(out, "\"smp\": {\"cores\": 2, \"span_ticks\": 800, "
                                "\"parallel_ticks\": 100, \"max_parallel\": 2,"));
    assert_non_null(strstr(out, "{\"name\": \"thread A\", \"address\": 4096, \"run_ticks\": 500, "
                                "\"cores\": [0, 1], \"migrations\": 1,"));
    assert_non_null(strstr(out, "{\"name\": \"thread B\", \"address\": 8192, \"run_ticks\": 100, "
                                "\"cores\": [1], \"migrations\": 0,"));
    assert_non_null(strstr(out, "{\"core\": 0, \"events\": 4, \"load_percent\": 42.86,"));
    assert_non_null(strstr(out, "{\"core\": 1, \"events\": 5, \"load_percent\": 50.00,"));
    snprintf(cmd, sizeof cmd, "'%s' stats --json --compat tracex '%s'", TRX_CLI_PATH, path);
    p = popen(cmd, "r");
    assert_non_null(p);
    n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    assert_int_equal(pclose(p), 0);
    assert_null(strstr(out, "\"smp\""));
    remove(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_cores),
        cmocka_unit_test(test_high_cores),
        cmocka_unit_test(test_one_core_own_events),
        cmocka_unit_test(test_compat_tracex),
        cmocka_unit_test(test_cli_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
