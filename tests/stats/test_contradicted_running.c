/* test_contradicted_running.c - the correct mode's rule for a RUNNING event
 * TraceX inserts that the next event contradicts (docs/analyses.md,
 * "Contradicted RUNNING events"), on hand-built TXTB buffers: the release of
 * a mutex under priority inheritance, whose priority restore names the
 * middle thread as next while the holder goes on. In the correct mode the
 * middle thread does not run there: the inserted event names the holder, the
 * inversion is bounded, and the execution profile, the context switches, the
 * core tracker and the run slices give the time to the holder; TraceX's mode
 * keeps TraceX's guess. A RUNNING followed by an interrupt or by another
 * core's event stands, and so does a guessed interrupt; the thread named
 * instead is the next event's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../decode/trace_builder.h"
#include "output/timeline.h"
#include "trx/cores.h"
#include "trx/stats.h"

enum { ISR = 0xFFFFFFFFu };
enum { RESUME = 1, SUSPEND = 2, ISR_ENTER = 3, ISR_EXIT = 4, RUNNING = 6, USER = 4096 };
enum { MUTEX_GET = 52, MUTEX_PUT = 57, FOREVER = 0xFFFFFFFFu };
enum { SUSPENDED = 3, MUTEX_SUSP = 13, PRIORITY_CHANGE = 14 };
enum { H = 0x1000, M = 0x2000, L = 0x3000, X = 0x5000 };
enum { TH_H = 0, TH_M = 1, TH_L = 2 };   /* thread indexes: registry order */
enum { RESTORE_RESUME = 9, GUESS = 10 }; /* event indexes */

static uint32_t prio(uint32_t p)
{
    return 0x80000000u | p << 16 | p;
}

/* H (10) blocks on mutex X held by L (20), raising L to 10 (the SUSPEND /
 * RESUME pair of L with state 14 inside H's GET); L resumes M (15), which
 * stays ready; L puts X: the restore to 20 is a SUSPEND / RESUME pair of L
 * whose next thread is M, then L resumes H (its own event: M did not run).
 * H puts X and suspends; M runs; L runs. Event 10 is TraceX's RUNNING of M
 * at tick 332 (420 + 12, relative to 100). */
static void build(test_trace *b)
{
    memset(b, 0, sizeof *b);
    tb_init(b, 4, 32, false);
    tb_object(b, 0, TRX_OBJ_THREAD, H, "high", 0x10000, 1024, 10);
    tb_object(b, 1, TRX_OBJ_THREAD, M, "medium", 0x20000, 1024, 15);
    tb_object(b, 2, TRX_OBJ_THREAD, L, "low", 0x30000, 1024, 20);
    tb_object(b, 3, TRX_OBJ_MUTEX, X, "lock", 1, 0, 0);
    tb_event(b, L, prio(20), MUTEX_GET, 100, X, FOREVER, 0, 0);             /* 0 */
    tb_event(b, L, prio(20), RESUME, 110, H, SUSPENDED, 0x30200, H);        /* 1 */
    tb_event(b, H, prio(10), MUTEX_GET, 200, X, FOREVER, L, 0);             /* 2 */
    tb_event(b, H, prio(10), SUSPEND, 210, L, PRIORITY_CHANGE, 0x10200, H); /* 3 */
    tb_event(b, H, prio(10), RESUME, 220, L, PRIORITY_CHANGE, 0x10200, H);  /* 4 */
    tb_event(b, H, prio(10), SUSPEND, 230, H, MUTEX_SUSP, 0x10200, L);      /* 5 */
    tb_event(b, L, prio(10), RESUME, 300, M, SUSPENDED, 0x30200, L);        /* 6 */
    tb_event(b, L, prio(10), MUTEX_PUT, 400, X, L, 1, 0);                   /* 7 */
    tb_event(b, L, prio(10), SUSPEND, 410, L, PRIORITY_CHANGE, 0x30200, M); /* 8 */
    tb_event(b, L, prio(20), RESUME, 420, L, PRIORITY_CHANGE, 0x30200, M);  /* 9 */
    tb_event(b, L, prio(20), RESUME, 500, H, MUTEX_SUSP, 0x30200, H);       /* 11 */
    tb_event(b, H, prio(10), MUTEX_PUT, 600, X, H, 1, 0);                   /* 12 */
    tb_event(b, H, prio(10), SUSPEND, 700, H, SUSPENDED, 0x10200, M);       /* 13 */
    tb_event(b, M, prio(15), USER, 800, 0, 0, 0, 0);                        /* 14 */
    tb_event(b, M, prio(15), SUSPEND, 900, M, SUSPENDED, 0x20200, L);       /* 15 */
    tb_event(b, L, prio(20), USER, 1000, 0, 0, 0, 0);                       /* 16 */
}

/* The events of `b` in `mode`, into ev[] (at most `max`); how many. */
static size_t events_of(test_trace *b, trx_mode mode, trx_event *ev, size_t max)
{
    trx_trace t;
    tb_open(b, &t);
    t.mode = mode;
    trx_cursor c;
    assert_int_equal(trx_cursor_init(&c, &t), 0);
    size_t n = 0;
    while (n < max && trx_cursor_next(&c, &ev[n]))
        n++;
    trx_cursor_free(&c);
    trx_trace_close(&t);
    return n;
}

static void test_events(void **state)
{
    (void)state;
    static test_trace b;
    build(&b);
    trx_event ev[32];
    assert_int_equal(events_of(&b, TRX_MODE_CORRECT, ev, 32), 17);
    /* the restore's RESUME names M as next thread; L ran on */
    assert_int_equal(ev[RESTORE_RESUME].info[3], M);
    assert_int_equal(ev[RESTORE_RESUME].next_context, L);
    const trx_event *g = &ev[GUESS];
    assert_true(g->synthetic);
    assert_int_equal(g->id, RUNNING);
    assert_int_equal(g->index, GUESS);
    assert_int_equal(g->context, L);
    assert_int_equal(g->thread, TH_L);
    assert_int_equal(g->next_context, L);
    assert_int_equal(g->priority, 20);
    assert_int_equal(g->ticks, 420 + 12 - 100);
    assert_int_equal(ev[GUESS + 1].context, L);
    assert_int_equal(ev[GUESS + 1].index, GUESS + 1);
    /* TraceX's mode: the guess, same numbering */
    assert_int_equal(events_of(&b, TRX_MODE_TRACEX, ev, 32), 17);
    assert_int_equal(ev[RESTORE_RESUME].next_context, M);
    assert_true(ev[GUESS].synthetic);
    assert_int_equal(ev[GUESS].context, M);
    assert_int_equal(ev[GUESS].thread, TH_M);
    assert_int_equal(ev[GUESS].next_context, M);
    assert_int_equal(ev[GUESS].priority, 15);
    assert_int_equal(ev[GUESS].ticks, 420 + 12 - 100);
}

static void test_stats(void **state)
{
    (void)state;
    static test_trace b;
    build(&b);
    trx_trace t;
    trx_stats s;
    tb_open(&b, &t);
    t.mode = TRX_MODE_CORRECT;
    assert_int_equal(trx_stats_compute(&t, &s), 0);
    assert_int_equal(s.inversions, 1);
    assert_int_equal(s.bad_inversions, 0);
    assert_int_equal(s.inversion_count, 1);
    const trx_inversion *v = &s.inversion_list[0];
    assert_int_equal(v->waiter, H);
    assert_int_equal(v->waiter_priority, 10);
    assert_int_equal(v->holder, L);
    assert_int_equal(v->holder_priority, 20);
    assert_int_equal(v->lock, X);
    assert_int_equal(v->lock_type, TRX_LOCK_MUTEX);
    assert_int_equal(v->start_index, 2);
    assert_int_equal(v->end_index, 12); /* H's MUTEX_PUT */
    assert_false(v->unbounded);
    assert_true(v->closed);
    assert_int_equal(v->ran_inside_count, 0);
    /* ticks (relative to 100): M 700-900; L 100-110, 230-500, 900-1000; H the rest */
    assert_int_equal(s.threads[TH_M].execution_ticks, 200);
    assert_int_equal(s.threads[TH_L].execution_ticks, 10 + 270 + 100);
    assert_int_equal(s.threads[TH_H].execution_ticks, 90 + 30 + 200);
    /* L -> H -> L -> H -> M -> L; L preempted twice (at 110 and 500) */
    assert_int_equal(s.context_switches, 5);
    assert_int_equal(s.preemptions, 2);
    trx_stats_free(&s);
    trx_core_stats cs;
    assert_int_equal(trx_core_stats_compute(&t, &cs), 0);
    assert_int_equal(cs.threads[TH_M].run_ticks, 200);
    assert_int_equal(cs.threads[TH_L].run_ticks, 380);
    assert_int_equal(cs.threads[TH_H].run_ticks, 320);
    trx_core_stats_free(&cs);
    trx_trace_close(&t);
    /* TraceX's mode: M runs 420-500 too */
    tb_open(&b, &t);
    t.mode = TRX_MODE_TRACEX;
    assert_int_equal(trx_stats_compute(&t, &s), 0);
    assert_int_equal(s.threads[TH_M].execution_ticks, 280);
    assert_int_equal(s.threads[TH_L].execution_ticks, 300);
    trx_stats_free(&s);
    trx_trace_close(&t);
}

/* The run slices (report and export lanes) of the correct mode. */
static void test_run_slices(void **state)
{
    (void)state;
    static test_trace b;
    build(&b);
    trx_trace t;
    tb_open(&b, &t);
    t.mode = TRX_MODE_CORRECT;
    trx_run_tracker r;
    assert_int_equal(trx_run_init(&r, &t), 0);
    trx_cursor c;
    assert_int_equal(trx_cursor_init(&c, &t), 0);
    trx_run_slice got[16], closed;
    size_t n = 0;
    trx_event ev;
    while (trx_cursor_next(&c, &ev))
        if ((trx_run_feed(&r, &t, &ev, &closed) & TRX_RUN_CLOSED) && n < 16)
            got[n++] = closed;
    trx_cursor_free(&c);
    const trx_run_slice want[] = {
        {TH_L, 0, 10, 0},     {TH_H, 10, 130, 1},   {TH_L, 130, 400, 5},
        {TH_H, 400, 600, 11}, {TH_M, 600, 800, 13},
    };
    assert_int_equal(n, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(got[i].lane, want[i].lane);
        assert_int_equal(got[i].start, want[i].start);
        assert_int_equal(got[i].end, want[i].end);
        assert_int_equal(got[i].first_event, want[i].first_event);
    }
    trx_run_free(&r);
    trx_trace_close(&t);
}

/* A RUNNING event followed by an interrupt (which may have run untraced) or
 * by another core's event is not contradicted: both modes keep it. A (20)
 * resumes B (10), an interrupt of B comes; B resumes C (5) on core 0, and
 * the next event is A's on core 1. */
static void test_uncontradicted(void **state)
{
    (void)state;
    enum { A = 0x1000, B = 0x2000, C = 0x3000 };
    static test_trace b;
    memset(&b, 0, sizeof b);
    tb_init(&b, 3, 32, false);
    tb_object(&b, 0, TRX_OBJ_THREAD, A, "A", 0x10000, 1024, 20);
    tb_object(&b, 1, TRX_OBJ_THREAD, B, "B", 0x20000, 1024, 10);
    tb_object(&b, 2, TRX_OBJ_THREAD, C, "C", 0x30000, 1024, 5);
    tb_event(&b, A, prio(20), USER, 100, 0, 0, 0, 0);
    tb_event(&b, A, prio(20), RESUME, 110, B, SUSPENDED, 0x10200, B);
    tb_event(&b, ISR, B, ISR_ENTER, 200, 0x9000, 7, 1, 0);
    tb_event(&b, ISR, B, ISR_EXIT, 210, 0x9000, 7, 1, 0);
    tb_event(&b, B, prio(10), RESUME, 300, C, SUSPENDED, 0x20200, C);
    tb_event(&b, A, prio(20), 1u << 24 | USER, 400, 0, 0, 0, 0);
    tb_event(&b, C, prio(5), USER, 500, 0, 0, 0, 0);
    for (int mode = TRX_MODE_CORRECT; mode <= TRX_MODE_TRACEX; mode++) {
        trx_event ev[16];
        assert_int_equal(events_of(&b, (trx_mode)mode, ev, 16), 9);
        assert_true(ev[2].synthetic); /* after A's RESUME of B */
        assert_int_equal(ev[2].context, B);
        assert_int_equal(ev[1].next_context, B);
        assert_int_equal(ev[3].context, ISR);
        assert_true(ev[6].synthetic); /* after B's RESUME of C */
        assert_int_equal(ev[6].context, C);
        assert_int_equal(ev[6].core, 0);
        assert_int_equal(ev[5].next_context, C);
        assert_int_equal(ev[7].context, A);
        assert_int_equal(ev[7].core, 1);
    }
}

/* The thread the correct mode names is the next event's, not the previous
 * event's: A (20) resumes B (10), whose run TraceX guesses, but C (15) logs
 * the next event. A guessed interrupt stands: C's RESUME of D names the
 * interrupt context (as a damaged entry would) and D's event follows. */
static void test_named_thread(void **state)
{
    (void)state;
    enum { A = 0x1000, B = 0x2000, C = 0x3000, D = 0x4000 };
    static test_trace b;
    memset(&b, 0, sizeof b);
    tb_init(&b, 4, 32, false);
    tb_object(&b, 0, TRX_OBJ_THREAD, A, "A", 0x10000, 1024, 20);
    tb_object(&b, 1, TRX_OBJ_THREAD, B, "B", 0x20000, 1024, 10);
    tb_object(&b, 2, TRX_OBJ_THREAD, C, "C", 0x30000, 1024, 15);
    tb_object(&b, 3, TRX_OBJ_THREAD, D, "D", 0x40000, 1024, 12);
    tb_event(&b, A, prio(20), USER, 100, 0, 0, 0, 0);
    tb_event(&b, A, prio(20), RESUME, 110, B, SUSPENDED, 0x10200, B);
    tb_event(&b, C, prio(15), USER, 200, 0, 0, 0, 0);
    tb_event(&b, C, prio(15), RESUME, 300, D, SUSPENDED, 0x30200, ISR);
    tb_event(&b, D, prio(12), USER, 400, 0, 0, 0, 0);
    trx_event ev[16];
    assert_int_equal(events_of(&b, TRX_MODE_CORRECT, ev, 16), 7);
    assert_int_equal(ev[1].next_context, C);
    assert_true(ev[2].synthetic);
    assert_int_equal(ev[2].context, C);
    assert_int_equal(ev[2].thread, 2);
    assert_int_equal(ev[2].priority, 15);
    assert_int_equal(ev[4].next_context, ISR);
    assert_true(ev[5].synthetic);
    assert_int_equal(ev[5].context, ISR);
    assert_int_equal(ev[6].context, D);
    assert_int_equal(events_of(&b, TRX_MODE_TRACEX, ev, 16), 7);
    assert_int_equal(ev[1].next_context, B);
    assert_int_equal(ev[2].context, B);
    assert_int_equal(ev[2].thread, 1);
    assert_int_equal(ev[5].context, ISR);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_events),       cmocka_unit_test(test_stats),
        cmocka_unit_test(test_run_slices),   cmocka_unit_test(test_uncontradicted),
        cmocka_unit_test(test_named_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
