/* test_event_model.c - TraceX's event model on hand-built traces: next
 * contexts, the synthetic RUNNING event and its priority, event numbering,
 * thread ranges and the statistics, all worked out by hand from the rules in
 * research/tracex.md (2.1-2.10), independently of the corpus. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "trace_builder.h"
#include "trx/stats.h"

enum { A = 0x1000, B = 0x2000, ISR = 0xFFFFFFFFu, INIT = 0xF0F0F0F0u };

/* Thread-context priority word: priority, preemption-threshold, flag. */
static uint32_t prio(uint32_t p)
{
    return 0x80000000u | p << 16 | p;
}

/* Init, thread A, an ISR that resumes B, B suspends handing over to A, an
 * ISR arrives before A's next event, then A runs. */
static void build_scenario(test_trace *b, bool big_endian)
{
    tb_init(b, 4, 16, big_endian);
    tb_object(b, 0, TRX_OBJ_THREAD, A, "thread A", 0x30000, 1024, 5);
    tb_object(b, 1, TRX_OBJ_THREAD, B, "thread B", 0x31000, 1024, 10);
    tb_event(b, INIT, 0, 6, 100, 0, 0, 0, 0);
    tb_event(b, INIT, 0, 6, 110, 0, 0, 0, 0);
    tb_event(b, A, prio(5), 69, 120, 0x5000, 0, 0, 1);
    tb_event(b, ISR, A, 3, 130, 0x40000, 7, 1, 0);
    tb_event(b, ISR, A, 1, 140, B, 6, 0x31300, B);
    tb_event(b, ISR, A, 4, 150, 0x40000, 7, 1, 0);
    tb_event(b, B, prio(10), 69, 160, 0x5000, 0, 0, 2);
    tb_event(b, B, prio(10), 2, 170, B, 5, 0x31200, A);
    tb_event(b, ISR, A, 3, 180, 0x40000, 8, 1, 0);
    tb_event(b, ISR, A, 4, 190, 0x40000, 8, 1, 0);
    tb_event(b, A, prio(5), 69, 200, 0x5000, 0, 0, 3);
}

static void test_next_contexts_and_running_event(void **state)
{
    (void)state;
    for (int be = 0; be < 2; be++) {
        test_trace b;
        trx_trace t;
        build_scenario(&b, be);
        tb_open(&b, &t);
        assert_int_equal(t.used, 11);
        assert_true(t.counts_up);
        trx_trace_prepare(&t);
        assert_int_equal(t.total_events, 12);
        assert_int_equal(t.synthetic_events, 1);
        assert_int_equal(t.max_ticks, 100);

        /* index: context, next context, ticks, synthetic */
        const struct {
            uint32_t ctx, next;
            uint64_t ticks;
            bool synthetic;
        } want[12] = {
            {INIT, INIT, 0, false}, {INIT, A, 10, false},  {A, A, 20, false},
            {ISR, ISR, 30, false},  {ISR, ISR, 40, false}, {ISR, B, 50, false},
            {B, B, 60, false},      {B, A, 70, false},     {A, A, 70, true},
            {ISR, ISR, 80, false},  {ISR, A, 90, false},   {A, A, 100, false},
        };
        trx_cursor c;
        trx_event ev;
        uint64_t n = 0;
        assert_int_equal(trx_cursor_init(&c, &t), 0);
        while (trx_cursor_next(&c, &ev)) {
            assert_true(n < 12);
            assert_int_equal(ev.index, n);
            assert_int_equal(ev.context, want[n].ctx);
            assert_int_equal(ev.next_context, want[n].next);
            assert_int_equal(ev.ticks, want[n].ticks);
            assert_int_equal(ev.synthetic, want[n].synthetic);
            if (ev.synthetic) {
                /* RUNNING for A: priority and threshold from A's last event */
                assert_int_equal(ev.id, 6);
                assert_int_equal(ev.priority, 5);
                assert_int_equal(ev.threshold, 5);
                assert_int_equal(ev.timestamp, 170);
            }
            n++;
        }
        assert_int_equal(n, 12);

        trx_stats s;
        assert_int_equal(trx_stats_compute(&t, &s), 0);
        assert_int_equal(s.context_switches, 2);
        assert_int_equal(s.preemptions, 1);
        assert_int_equal(s.time_slices, 0);
        assert_int_equal(s.interrupts, 2);
        assert_int_equal(s.nested_interrupts, 0);
        assert_int_equal(s.suspensions, 1);
        assert_int_equal(s.resumptions, 1);
        assert_int_equal(s.interrupt_ticks, 30);
        assert_int_equal(s.idle_ticks, 0);
        assert_int_equal(t.thread_count, 2);
        assert_int_equal(s.threads[0].execution_ticks, 40); /* A */
        assert_int_equal(s.threads[1].execution_ticks, 20); /* B */
        assert_int_equal(s.threads[0].total_events, 3);     /* RUNNING included */
        assert_int_equal(s.threads[1].total_events, 2);
        assert_int_equal(s.threads[1].suspensions, 1);
        /* B's SUSPEND shows a stack pointer 0x200 above its stack start */
        assert_int_equal(s.threads[1].stack_min_available, 0x200);
        assert_int_equal(s.threads[1].stack_min_event, 7);
        assert_int_equal(t.threads[0].prio_lowest, 5);
        assert_int_equal(t.threads[0].pt_highest, 5);
        assert_int_equal(s.service_count, 5); /* 69, 3, 1, 4, 2 (RUNNING excluded) */
        assert_int_equal(s.services[0].id, 69);
        assert_int_equal(s.services[0].count, 3);
        /* TraceX's exchange sort: counts 3,2,1,2,1 in first-seen order -> 69,3,4,1,2 */
        assert_int_equal(s.services[1].id, 3);
        assert_int_equal(s.services[2].id, 4);
        assert_int_equal(s.services[3].id, 1);
        trx_stats_free(&s);
        trx_trace_close(&t);
    }
}

/* A wrapped buffer: the oldest pointer in the middle decides the order. */
static void test_wrapped_order(void **state)
{
    (void)state;
    test_trace b;
    trx_trace t;
    tb_init(&b, 1, 4, false);
    tb_object(&b, 0, TRX_OBJ_THREAD, A, "thread A", 0x30000, 1024, 5);
    tb_event(&b, A, prio(5), 69, 400, 0, 0, 0, 4); /* newest, physically first */
    tb_event(&b, A, prio(5), 69, 100, 0, 0, 0, 1); /* oldest */
    tb_event(&b, A, prio(5), 69, 200, 0, 0, 0, 2);
    tb_event(&b, A, prio(5), 69, 300, 0, 0, 0, 3);
    tb_oldest(&b, 1);
    tb_open(&b, &t);
    assert_true(t.wrapped);
    assert_int_equal(t.oldest, 1);
    trx_cursor c;
    trx_event ev;
    uint32_t seq = 1;
    assert_int_equal(trx_cursor_init(&c, &t), 0);
    while (trx_cursor_next(&c, &ev))
        assert_int_equal(ev.info[3], seq++);
    assert_int_equal(seq, 5);
    trx_trace_close(&t);
}

/* A full wrapped ring: the event physically last takes its next context
 * from the entry after it in time, physically the first (the cursor reads
 * the next entry in place only within a run of the ring). */
static void test_next_context_across_the_wrap(void **state)
{
    (void)state;
    test_trace b;
    trx_trace t;
    tb_init(&b, 2, 4, false);
    tb_object(&b, 0, TRX_OBJ_THREAD, A, "thread A", 0x30000, 1024, 5);
    tb_object(&b, 1, TRX_OBJ_THREAD, B, "thread B", 0x31000, 1024, 10);
    tb_event(&b, B, prio(10), 69, 400, 0, 0, 0, 4); /* newest, physically first */
    tb_event(&b, A, prio(5), 69, 100, 0, 0, 0, 1);  /* oldest */
    tb_event(&b, A, prio(5), 69, 200, 0, 0, 0, 2);
    tb_event(&b, A, prio(5), 69, 300, 0, 0, 0, 3); /* physically last: B runs next */
    tb_oldest(&b, 1);
    tb_open(&b, &t);
    assert_int_equal(t.oldest, 1);
    assert_int_equal(t.used, 4);
    const uint32_t context[4] = {A, A, A, B}, next[4] = {A, A, B, B}, entry[4] = {1, 2, 3, 0};
    trx_cursor c;
    trx_event ev;
    uint32_t k = 0;
    assert_int_equal(trx_cursor_init(&c, &t), 0);
    while (trx_cursor_next(&c, &ev)) {
        assert_true(k < 4);
        assert_false(ev.synthetic);
        assert_int_equal(ev.context, context[k]);
        assert_int_equal(ev.next_context, next[k]);
        assert_int_equal(ev.entry, entry[k]);
        assert_int_equal(ev.info[3], k + 1);
        assert_int_equal(ev.ticks, 100 * k);
        k++;
    }
    assert_int_equal(k, 4);
    trx_trace_close(&t);
}

/* An interrupt's TIME_SLICE names the next thread in info1 (not info4): it
 * runs after the interrupt, shown by the RUNNING event TraceX inserts when
 * another interrupt follows. */
static void test_time_slice_in_an_interrupt(void **state)
{
    (void)state;
    test_trace b;
    trx_trace t;
    const uint32_t X = 0x3000; /* no thread: what info4 holds */
    tb_init(&b, 2, 16, false);
    tb_object(&b, 0, TRX_OBJ_THREAD, A, "thread A", 0x30000, 1024, 5);
    tb_object(&b, 1, TRX_OBJ_THREAD, B, "thread B", 0x31000, 1024, 10);
    tb_event(&b, A, prio(5), 69, 100, 0, 0, 0, 0);
    tb_event(&b, A, prio(5), 69, 110, 0, 0, 0, 0);
    tb_event(&b, ISR, A, 3, 120, 0x40000, 7, 1, 0);
    tb_event(&b, ISR, A, 5, 130, B, 0, 0, X);
    tb_event(&b, ISR, A, 4, 140, 0x40000, 7, 1, 0);
    tb_event(&b, ISR, 0, 3, 150, 0x40000, 8, 1, 0);
    tb_event(&b, ISR, 0, 4, 160, 0x40000, 8, 1, 0);
    tb_event(&b, B, prio(10), 69, 170, 0, 0, 0, 0);
    tb_open(&b, &t);
    const uint32_t context[9] = {A, A, ISR, ISR, ISR, B, ISR, ISR, B};
    const uint32_t next[9] = {A, A, ISR, ISR, B, B, ISR, B, B};
    const uint32_t id[9] = {69, 69, 3, 5, 4, TRX_EVENT_RUNNING, 3, 4, 69};
    trx_cursor c;
    trx_event ev;
    uint32_t k = 0;
    assert_int_equal(trx_cursor_init(&c, &t), 0);
    while (trx_cursor_next(&c, &ev)) {
        assert_true(k < 9);
        assert_int_equal(ev.context, context[k]);
        assert_int_equal(ev.next_context, next[k]);
        assert_int_equal(ev.id, id[k]);
        assert_int_equal(ev.synthetic, k == 5);
        k++;
    }
    assert_int_equal(k, 9);
    trx_trace_close(&t);
}

/* A 16-bit down-counting timer that wraps: relative ticks still grow. */
static void test_down_counting_timer(void **state)
{
    (void)state;
    test_trace b;
    trx_trace t;
    tb_init(&b, 1, 8, false);
    tb_object(&b, 0, TRX_OBJ_THREAD, A, "thread A", 0x30000, 1024, 5);
    /* the header says 16 valid bits */
    b.bytes[4] = 0xFF, b.bytes[5] = 0xFF, b.bytes[6] = 0, b.bytes[7] = 0;
    const uint32_t ts[5] = {0x0100, 0x00A0, 0x0040, 0xFFF0, 0xFF00};
    for (int i = 0; i < 5; i++)
        tb_event(&b, A, prio(5), 69, ts[i] | 0xABCD0000u, 0, 0, 0, 0);
    tb_open(&b, &t);
    assert_false(t.counts_up);
    assert_int_equal(trx_trace_span_ticks(&t), 0x60 + 0x60 + 0x50 + 0xF0);
    trx_trace_close(&t);
}

/* The cursor's ticks and stamps of five events of thread A with time stamps
 * `ts` under timer mask `mask` (a test of each rule of the tick steps). */
static void cursor_ticks_are(uint32_t mask, const uint32_t ts[5], bool up, const uint64_t ticks[5])
{
    test_trace b;
    trx_trace t;
    tb_init(&b, 1, 8, false);
    tb_object(&b, 0, TRX_OBJ_THREAD, A, "thread A", 0x30000, 1024, 5);
    tb_timer_mask(&b, mask);
    for (int i = 0; i < 5; i++)
        tb_event(&b, A, prio(5), 69, ts[i], 0, 0, 0, 0);
    tb_open(&b, &t);
    assert_int_equal(t.counts_up, up);
    trx_cursor c;
    assert_int_equal(trx_cursor_init(&c, &t), 0);
    for (int i = 0; i < 5; i++) {
        const trx_event *ev = trx_cursor_next_ref(&c);
        assert_non_null(ev);
        assert_int_equal(ev->ticks, ticks[i]);
        assert_int_equal(ev->timestamp, ts[i] & mask);
        assert_int_equal(ev->time, ts[i] & mask);
    }
    assert_null(trx_cursor_next_ref(&c));
    trx_cursor_free(&c);
    trx_trace_close(&t);
}

/* Tick steps in the timer's direction, a wrap adding the timer's period:
 * masks 2^k - 1 (the cursor steps modulo 2^k) and one that is not (a
 * counter reloading at 99999: the general rule). */
static void test_cursor_ticks_by_mask(void **state)
{
    (void)state;
    const uint32_t down16[5] = {0xABCD0100u, 0xABCD00A0u, 0xABCD0040u, 0xABCDFFF0u, 0xABCDFF00u};
    const uint64_t down16_ticks[5] = {0, 0x60, 0xC0, 0x110, 0x200};
    cursor_ticks_are(0xFFFF, down16, false, down16_ticks);
    const uint32_t up32[5] = {0xFFFFFF00u, 0xFFFFFFF0u, 0x10, 0x100, 0x180};
    const uint64_t up32_ticks[5] = {0, 0xF0, 0x110, 0x200, 0x280};
    cursor_ticks_are(0xFFFFFFFFu, up32, true, up32_ticks);
    /* stamps of 99999's bits only (unchanged by the mask), steps not all of them */
    const uint32_t odd[5] = {1536, 1152, 543, 99984, 99840};
    const uint64_t odd_ticks[5] = {0, 384, 993, 1552, 1696};
    cursor_ticks_are(99999, odd, false, odd_ticks);
}

/* An empty registry: every context becomes an Un-named Thread. */
static void test_unregistered_contexts(void **state)
{
    (void)state;
    test_trace b;
    trx_trace t;
    tb_init(&b, 0, 4, false);
    tb_event(&b, A, prio(3), 69, 10, 0, 0, 0, 0);
    tb_event(&b, B, prio(4), 69, 20, 0, 0, 0, 0);
    tb_event(&b, A, prio(6), 69, 30, 0, 0, 0, 0);
    tb_open(&b, &t);
    trx_trace_prepare(&t);
    assert_int_equal(t.thread_count, 2);
    assert_int_equal(t.object_count, 2);
    assert_string_equal(t.objects[t.threads[0].object_index].name, "Un-named Thread");
    assert_int_equal(t.threads[0].address, A);
    assert_int_equal(t.threads[0].prio_lowest, 6);
    assert_int_equal(t.threads[0].prio_highest, 3);
    trx_trace_close(&t);
}

/* No entry written: nothing to iterate, the statistics are all zero. */
static void test_empty_buffer(void **state)
{
    (void)state;
    test_trace b;
    trx_trace t;
    trx_stats s;
    tb_init(&b, 2, 4, true);
    tb_object(&b, 0, TRX_OBJ_MUTEX, 0x7000, "m", 1, 0, 0);
    tb_open(&b, &t);
    assert_int_equal(t.used, 0);
    assert_int_equal(trx_stats_compute(&t, &s), 0);
    assert_int_equal(t.total_events, 0);
    assert_int_equal(s.context_switches + s.interrupts + s.service_count, 0);
    trx_stats_free(&s);
    trx_trace_close(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_next_contexts_and_running_event),
        cmocka_unit_test(test_wrapped_order),
        cmocka_unit_test(test_next_context_across_the_wrap),
        cmocka_unit_test(test_time_slice_in_an_interrupt),
        cmocka_unit_test(test_down_counting_timer),
        cmocka_unit_test(test_cursor_ticks_by_mask),
        cmocka_unit_test(test_unregistered_contexts),
        cmocka_unit_test(test_empty_buffer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
