/* test_correct_scenarios.c - the correct mode of `trx stats` on hand-built
 * traces whose truth follows from the scenario written here, not from trx:
 * a semaphore used as a lock (an inversion TraceX cannot see), time slicing
 * between two equal-priority threads (TraceX's count is its stale-variable
 * quirk), two overlapping inversions on two mutexes (one bounded, one
 * unbounded), and stack usage where the thread using the most bytes is not
 * the one closest to overflow. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../decode/trace_builder.h"
#include "analyze/analyses.h"
#include "trx/stats.h"

enum { ISR = 0xFFFFFFFFu, INIT = 0xF0F0F0F0u };
enum { RESUME = 1, SUSPEND = 2, ISR_ENTER = 3, ISR_EXIT = 4, TIME_SLICE = 5, USER = 4096 };
enum { MUTEX_GET = 52, MUTEX_PUT = 57, SEM_GET = 83, SEM_PUT = 88, FOREVER = 0xFFFFFFFFu };

static uint32_t prio(uint32_t p)
{
    return 0x80000000u | p << 16 | p;
}

static void compute(test_trace *b, trx_mode mode, trx_trace *t, trx_stats *s)
{
    tb_open(b, t);
    t->mode = mode;
    assert_int_equal(trx_stats_compute(t, s), 0);
}

/* L (20) takes the last count of semaphore S; H (10) blocks on S; M (15)
 * runs while H waits; L puts S and resumes H. One unbounded inversion on a
 * semaphore, from H's GET (tick 200) until H runs again (after 410). */
static void test_semaphore_lock(void **state)
{
    (void)state;
    enum { H = 0x1000, M = 0x2000, L = 0x3000, S = 0x5000 };
    static test_trace b;
    memset(&b, 0, sizeof b);
    tb_init(&b, 4, 32, false);
    tb_object(&b, 0, TRX_OBJ_THREAD, H, "high", 0x10000, 1024, 10);
    tb_object(&b, 1, TRX_OBJ_THREAD, M, "medium", 0x20000, 1024, 15);
    tb_object(&b, 2, TRX_OBJ_THREAD, L, "low", 0x30000, 1024, 20);
    tb_object(&b, 3, TRX_OBJ_SEMAPHORE, S, "lock sem", 1, 0, 0);
    tb_event(&b, L, prio(20), SEM_GET, 100, S, FOREVER, 1, 0x30200);
    tb_event(&b, L, prio(20), RESUME, 110, H, 3, 0x30200, H);
    tb_event(&b, H, prio(10), SEM_GET, 200, S, FOREVER, 0, 0x10200);
    tb_event(&b, H, prio(10), SUSPEND, 210, H, 6, 0x10200, M);
    tb_event(&b, M, prio(15), USER, 300, 0, 0, 0, 0);
    tb_event(&b, M, prio(15), SUSPEND, 310, M, 4, 0x20200, L);
    tb_event(&b, L, prio(20), SEM_PUT, 400, S, 0, 1, 0x30200);
    tb_event(&b, L, prio(20), RESUME, 410, H, 6, 0x30200, H);
    tb_event(&b, H, prio(10), USER, 500, 0, 0, 0, 0);
    tb_event(&b, H, prio(10), SUSPEND, 600, H, 4, 0x10200, L);
    trx_trace t;
    trx_stats s;
    compute(&b, TRX_MODE_CORRECT, &t, &s);
    assert_int_equal(s.inversion_count, 1);
    assert_int_equal(s.inversions, 1);
    assert_int_equal(s.bad_inversions, 1);
    const trx_inversion *v = &s.inversion_list[0];
    assert_int_equal(v->lock, S);
    assert_int_equal(v->lock_type, TRX_LOCK_SEMAPHORE);
    assert_int_equal(v->waiter, H);
    assert_int_equal(v->waiter_priority, 10);
    assert_int_equal(v->holder, L);
    assert_int_equal(v->holder_priority, 20);
    assert_true(v->unbounded && v->closed);
    assert_int_equal(v->ran_inside, M);
    /* relative ticks: the first event (100) is 0 */
    assert_int_equal(v->start_ticks, 200 - 100);
    assert_true(v->end_ticks > 410 - 100 && v->end_ticks <= 500 - 100);
    trx_stats_free(&s);
    trx_trace_close(&t);
    /* TraceX sees inversions on mutexes only */
    compute(&b, TRX_MODE_TRACEX, &t, &s);
    assert_int_equal(s.inversions, 0);
    trx_stats_free(&s);
    trx_trace_close(&t);
}

/* A and B (both 16) share the CPU by time slices: three timer ISRs each
 * end a slice and switch to the other. 3 time slices, 3 switches, no
 * preemption. */
static void test_time_slicing(void **state)
{
    (void)state;
    enum { A = 0x1000, B = 0x2000 };
    static test_trace b;
    memset(&b, 0, sizeof b);
    tb_init(&b, 2, 32, false);
    tb_object(&b, 0, TRX_OBJ_THREAD, A, "A", 0x10000, 1024, 16);
    tb_object(&b, 1, TRX_OBJ_THREAD, B, "B", 0x20000, 1024, 16);
    uint32_t ts = 100, run = A, other = B;
    tb_event(&b, A, prio(16), USER, ts, 0, 0, 0, 0);
    for (int k = 0; k < 3; k++) {
        tb_event(&b, ISR, run, ISR_ENTER, ts += 100, 0x9000, 0, 1, 0);
        tb_event(&b, ISR, run, TIME_SLICE, ts += 10, other, 1, 0, 0x9000);
        tb_event(&b, ISR, run, ISR_EXIT, ts += 10, 0x9000, 0, 1, 0);
        tb_event(&b, other, prio(16), USER, ts += 10, k, 0, 0, 0);
        uint32_t x = run;
        run = other;
        other = x;
    }
    trx_trace t;
    trx_stats s;
    compute(&b, TRX_MODE_CORRECT, &t, &s);
    assert_int_equal(s.time_slices, 3);
    assert_int_equal(s.context_switches, 3);
    assert_int_equal(s.preemptions, 0);
    assert_int_equal(s.interrupts, 3);
    assert_int_equal(s.nested_interrupts, 0);
    trx_stats_free(&s);
    trx_trace_close(&t);
    /* TraceX: the last event's next context is a thread and the first
     * event is no TIME_SLICE, so its stale-variable count says 0 */
    compute(&b, TRX_MODE_TRACEX, &t, &s);
    assert_int_equal(s.time_slices, 0);
    trx_stats_free(&s);
    trx_trace_close(&t);
}

/* Two windows that overlap in time on two mutexes: H1 (5) waits for M1 held
 * by L1 (20) while L2 (10), not M1's holder, runs: unbounded. Inside it, H2
 * (8) waits for M2 held by L2 and only L2 runs until H2 gets M2: bounded. */
static void test_overlapping_mutexes(void **state)
{
    (void)state;
    enum { H1 = 0x1000, H2 = 0x2000, L2 = 0x3000, L1 = 0x4000, M1 = 0x5000, M2 = 0x6000 };
    static test_trace b;
    memset(&b, 0, sizeof b);
    tb_init(&b, 6, 32, false);
    tb_object(&b, 0, TRX_OBJ_THREAD, H1, "H1", 0x10000, 1024, 5);
    tb_object(&b, 1, TRX_OBJ_THREAD, H2, "H2", 0x20000, 1024, 8);
    tb_object(&b, 2, TRX_OBJ_THREAD, L2, "L2", 0x30000, 1024, 10);
    tb_object(&b, 3, TRX_OBJ_THREAD, L1, "L1", 0x40000, 1024, 20);
    tb_object(&b, 4, TRX_OBJ_MUTEX, M1, "M1", 0, 0, 0);
    tb_object(&b, 5, TRX_OBJ_MUTEX, M2, "M2", 0, 0, 0);
    tb_event(&b, L1, prio(20), MUTEX_GET, 100, M1, FOREVER, 0, 0);
    tb_event(&b, L1, prio(20), RESUME, 110, L2, 3, 0x40200, L2);
    tb_event(&b, L2, prio(10), MUTEX_GET, 200, M2, FOREVER, 0, 0);
    tb_event(&b, L2, prio(10), RESUME, 210, H1, 3, 0x30200, H1);
    tb_event(&b, H1, prio(5), MUTEX_GET, 300, M1, FOREVER, L1, 1);
    tb_event(&b, H1, prio(5), SUSPEND, 310, H1, 13, 0x10200, L2);
    tb_event(&b, L2, prio(10), RESUME, 320, H2, 3, 0x30200, H2);
    tb_event(&b, H2, prio(8), MUTEX_GET, 400, M2, FOREVER, L2, 1);
    tb_event(&b, H2, prio(8), SUSPEND, 410, H2, 13, 0x20200, L2);
    tb_event(&b, L2, prio(10), MUTEX_PUT, 500, M2, L2, 1, 0x30200);
    tb_event(&b, L2, prio(10), RESUME, 510, H2, 13, 0x30200, H2);
    tb_event(&b, H2, prio(8), USER, 600, 0, 0, 0, 0);
    tb_event(&b, H2, prio(8), SUSPEND, 610, H2, 4, 0x20200, L2);
    tb_event(&b, L2, prio(10), SUSPEND, 700, L2, 4, 0x30200, L1);
    tb_event(&b, L1, prio(20), MUTEX_PUT, 800, M1, L1, 1, 0x40200);
    tb_event(&b, L1, prio(20), RESUME, 810, H1, 13, 0x40200, H1);
    tb_event(&b, H1, prio(5), USER, 900, 0, 0, 0, 0);
    trx_trace t;
    trx_stats s;
    compute(&b, TRX_MODE_CORRECT, &t, &s);
    assert_int_equal(s.inversion_count, 2);
    assert_int_equal(s.inversions, 2);
    assert_int_equal(s.bad_inversions, 1);
    const trx_inversion *w1 = &s.inversion_list[0], *w2 = &s.inversion_list[1];
    assert_int_equal(w1->lock, M1);
    assert_int_equal(w1->waiter, H1);
    assert_int_equal(w1->holder, L1);
    assert_true(w1->unbounded);
    assert_int_equal(w1->ran_inside, L2);
    /* L2 (10) and then H2 (8) ran while H1 (5) waited: both are lower than H1 */
    assert_int_equal(w1->ran_inside_count, 2);
    assert_int_equal(w1->ran_inside_list[0], L2);
    assert_int_equal(w1->ran_inside_list[1], H2);
    assert_false(w1->ran_inside_more);
    assert_int_equal(w1->start_ticks, 300 - 100); /* relative to the first event */
    assert_true(w1->end_ticks > 810 - 100 && w1->end_ticks <= 900 - 100);
    assert_int_equal(w2->lock, M2);
    assert_int_equal(w2->waiter, H2);
    assert_int_equal(w2->holder, L2);
    assert_false(w2->unbounded);
    assert_int_equal(w2->ran_inside, 0);
    assert_int_equal(w2->start_ticks, 400 - 100);
    assert_true(w2->end_ticks > 510 - 100 && w2->end_ticks <= 600 - 100);
    /* the windows overlap */
    assert_true(w1->start_ticks < w2->start_ticks && w2->end_ticks < w1->end_ticks);
    trx_stats_free(&s);
    trx_trace_close(&t);
}

/* H (10) blocks on mutex M held by L (30); ten threads T0..T9 (11..20, all
 * lower than H) run one after the other inside the window, T0 again, U (5,
 * higher than H) and the holder L too: the window lists T0..T7 in the order
 * they ran and says more ran. H2 (13) then blocks on mutex N held by L: of
 * T1 (12, higher than H2) and T5 (16) only T5 is listed there. */
static void test_ran_inside_list(void **state)
{
    (void)state;
    enum { H = 0x1000, H2 = 0x2000, L = 0x3000, U = 0x4000, T0 = 0x10000, M = 0x5000, N = 0x6000 };
    static test_trace b;
    memset(&b, 0, sizeof b);
    tb_init(&b, 16, 64, false);
    tb_object(&b, 0, TRX_OBJ_THREAD, H, "H", 0x100000, 1024, 10);
    tb_object(&b, 1, TRX_OBJ_THREAD, H2, "H2", 0x110000, 1024, 13);
    tb_object(&b, 2, TRX_OBJ_THREAD, L, "L", 0x120000, 1024, 30);
    tb_object(&b, 3, TRX_OBJ_THREAD, U, "U", 0x130000, 1024, 5);
    for (uint32_t i = 0; i < 10; i++) {
        char name[8];
        snprintf(name, sizeof name, "T%u", i);
        tb_object(&b, 4 + i, TRX_OBJ_THREAD, T0 + 0x100 * i, name, 0x200000 + 0x10000 * i, 1024,
                  11 + i);
    }
    tb_object(&b, 14, TRX_OBJ_MUTEX, M, "M", 0, 0, 0);
    tb_object(&b, 15, TRX_OBJ_MUTEX, N, "N", 0, 0, 0);
    tb_event(&b, L, prio(30), MUTEX_GET, 100, M, FOREVER, 0, 0);
    tb_event(&b, L, prio(30), RESUME, 110, H, 3, 0x120200, H);
    tb_event(&b, H, prio(10), MUTEX_GET, 200, M, FOREVER, L, 1);
    tb_event(&b, H, prio(10), SUSPEND, 210, H, 13, 0x100200, T0);
    for (uint32_t i = 0; i < 10; i++)
        tb_event(&b, T0 + 0x100 * i, prio(11 + i), USER, 220 + 10 * i, 0, 0, 0, 0);
    tb_event(&b, U, prio(5), USER, 320, 0, 0, 0, 0);
    tb_event(&b, L, prio(30), USER, 330, 0, 0, 0, 0);
    tb_event(&b, T0, prio(11), USER, 340, 0, 0, 0, 0);
    tb_event(&b, H2, prio(13), MUTEX_GET, 350, N, FOREVER, L, 1);
    tb_event(&b, H2, prio(13), SUSPEND, 360, H2, 13, 0x110200, T0 + 0x100);
    tb_event(&b, T0 + 0x500, prio(16), USER, 370, 0, 0, 0, 0);
    tb_event(&b, T0 + 0x100, prio(12), USER, 380, 0, 0, 0, 0);
    trx_trace t;
    trx_stats s;
    compute(&b, TRX_MODE_CORRECT, &t, &s);
    assert_int_equal(s.inversion_count, 2);
    const trx_inversion *w1 = &s.inversion_list[0], *w2 = &s.inversion_list[1];
    assert_int_equal(w1->waiter, H);
    assert_true(w1->unbounded);
    assert_int_equal(w1->ran_inside, T0);
    assert_int_equal(w1->ran_inside_count, TRX_RAN_INSIDE_MAX);
    for (uint32_t i = 0; i < TRX_RAN_INSIDE_MAX; i++)
        assert_int_equal(w1->ran_inside_list[i], T0 + 0x100 * i);
    assert_true(w1->ran_inside_more);
    assert_int_equal(w2->waiter, H2);
    assert_true(w2->unbounded);
    assert_int_equal(w2->ran_inside_count, 1);
    assert_int_equal(w2->ran_inside_list[0], T0 + 0x500);
    assert_false(w2->ran_inside_more);
    trx_stats_free(&s);
    trx_trace_close(&t);
}

/* Thread "big" (4096-byte stack) uses 2000 bytes at most; "small" (1024)
 * uses 900: big uses more bytes, small is closer to overflow (124 free). */
static void test_stack(void **state)
{
    (void)state;
    enum { BIG = 0x1000, SMALL = 0x2000, BIG_S = 0x10000, SMALL_S = 0x20000 };
    static test_trace b;
    memset(&b, 0, sizeof b);
    tb_init(&b, 2, 32, false);
    tb_object(&b, 0, TRX_OBJ_THREAD, BIG, "big", BIG_S, 4096, 10);
    tb_object(&b, 1, TRX_OBJ_THREAD, SMALL, "small", SMALL_S, 1024, 10);
    /* stack pointers (info3 of RESUME/SUSPEND): free = SP - stack start */
    tb_event(&b, BIG, prio(10), RESUME, 100, SMALL, 3, BIG_S + 3000, SMALL);
    tb_event(&b, SMALL, prio(10), SUSPEND, 200, SMALL, 4, SMALL_S + 500, BIG);
    tb_event(&b, BIG, prio(10), RESUME, 300, SMALL, 3, BIG_S + 4096 - 2000, SMALL);
    tb_event(&b, SMALL, prio(10), SUSPEND, 400, SMALL, 4, SMALL_S + 1024 - 900, BIG);
    tb_event(&b, BIG, prio(10), SUSPEND, 500, BIG, 4, BIG_S + 3500, 0);
    trx_trace t;
    trx_stats s;
    compute(&b, TRX_MODE_CORRECT, &t, &s);
    uint32_t used_big = 4096 - s.threads[0].stack_min_available;
    uint32_t used_small = 1024 - s.threads[1].stack_min_available;
    assert_int_equal(used_big, 2000);
    assert_int_equal(used_small, 900);
    assert_int_equal(s.threads[1].stack_min_available, 124);
    assert_true(used_big > used_small);
    assert_true(s.threads[1].stack_min_available < s.threads[0].stack_min_available);
    trx_stats_free(&s);
    trx_trace_close(&t);
}

/* Timing: ISR 7 (ticks 200-320 relative 100-220) has ISR 9 nested inside
 * for 30 ticks and resumes B, whose first event comes at 330; a second ISR 7
 * lasts 40; B suspends at 400 and nothing runs until 600. */
static void test_timing(void **state)
{
    (void)state;
    enum { A = 0x1000, B = 0x2000 };
    static test_trace b;
    memset(&b, 0, sizeof b);
    tb_init(&b, 2, 32, false);
    tb_object(&b, 0, TRX_OBJ_THREAD, A, "A", 0x10000, 1024, 10);
    tb_object(&b, 1, TRX_OBJ_THREAD, B, "B", 0x20000, 1024, 5);
    tb_event(&b, A, prio(10), SUSPEND, 100, A, 4, 0x10200, 0);
    tb_event(&b, ISR, 0, ISR_ENTER, 200, 0x9000, 7, 1, 0);
    tb_event(&b, ISR, 0, ISR_ENTER, 250, 0x8f00, 9, 2, 0);
    tb_event(&b, ISR, 0, ISR_EXIT, 280, 0x8f00, 9, 2, 0);
    tb_event(&b, ISR, 0, RESUME, 300, B, 4, 0x9000, B);
    tb_event(&b, ISR, 0, ISR_EXIT, 320, 0x9000, 7, 1, 0);
    tb_event(&b, B, prio(5), USER, 330, 0, 0, 0, 0);
    tb_event(&b, B, prio(5), SUSPEND, 400, B, 4, 0x20200, 0);
    tb_event(&b, ISR, 0, ISR_ENTER, 600, 0x9000, 7, 1, 0);
    tb_event(&b, ISR, 0, ISR_EXIT, 640, 0x9000, 7, 1, 0);
    trx_trace t;
    trx_stats s;
    tb_open(&b, &t);
    t.mode = TRX_MODE_CORRECT;
    assert_int_equal(trx_stats_compute_windowed(&t, &s, 100), 0);
    assert_int_equal(s.isr_count, 2);
    const trx_keyed_duration *i7 = &s.isr[0], *i9 = &s.isr[1];
    assert_int_equal(i7->key, 7);
    assert_int_equal(i7->d.count, 2);
    assert_int_equal(i7->d.min, 40);
    assert_int_equal(i7->d.max, 120);
    assert_int_equal(i7->d.sum, 160);
    assert_int_equal(i7->d.p99, 120);
    assert_int_equal(i7->min_excl, 40);
    assert_int_equal(i7->max_excl, 90);
    assert_int_equal(i9->key, 9);
    assert_int_equal(i9->d.count, 1);
    assert_int_equal(i9->d.max, 30);
    assert_int_equal(s.latency_count, 1);
    assert_int_equal(s.latency[0].key, B);
    /* ENTER of the outer ISR 7 at 200 -> its EXIT at 320, after which B runs
     * (B's own first event at 330 comes later) */
    assert_int_equal(s.latency[0].d.max, 120);
    assert_int_equal(s.response_count, 1);
    assert_int_equal(s.response[0].key, B);
    assert_int_equal(s.response[0].d.max, 20); /* RESUME at 300 -> the EXIT at 320 */
    assert_int_equal(s.load_window, 100);
    assert_int_equal(s.load_span, 540);
    assert_true(s.load_count >= 5);
    assert_int_equal(s.load_busy[1], 100); /* 200-300: ISRs */
    assert_int_equal(s.load_busy[3], 0);   /* 400-500: idle after B's SUSPEND */
    assert_int_equal(s.load_busy[4], 0);
    trx_stats_free(&s);
    trx_trace_close(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_semaphore_lock),
        cmocka_unit_test(test_time_slicing),
        cmocka_unit_test(test_overlapping_mutexes),
        cmocka_unit_test(test_ran_inside_list),
        cmocka_unit_test(test_stack),
        cmocka_unit_test(test_timing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
