/* test_same_address.c - threads re-created at one address (three registry
 * entries for address X with different stacks) all get the figures of X's
 * events, as TraceX counts them; each one's stack figure follows from its own
 * stack. Truth worked out by hand from the events below. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "../decode/trace_builder.h"
#include "trx/stats.h"

enum { X = 0x1000, Y = 0x2000, RESUME = 1, SUSPEND = 2, USER = 4096 };

static uint32_t prio(uint32_t p)
{
    return 0x80000000u | p << 16 | p;
}

static void same_address_threads_share_counts_not_stacks(void **state)
{
    (void)state;
    static test_trace b;
    memset(&b, 0, sizeof b);
    tb_init(&b, 4, 16, false);
    /* A1: stack 0x10000..0x10400; A2: 0x20000..0x20400; A3: 0x10000..0x10800 */
    tb_object(&b, 0, TRX_OBJ_THREAD, X, "A1", 0x10000, 0x400, 10);
    tb_object(&b, 1, TRX_OBJ_THREAD, X, "A2", 0x20000, 0x400, 10);
    tb_object(&b, 2, TRX_OBJ_THREAD, X, "A3", 0x10000, 0x800, 10);
    tb_object(&b, 3, TRX_OBJ_THREAD, Y, "B", 0x30000, 0x400, 20);
    /* stack pointers in info 3 of RESUME / SUSPEND */
    tb_event(&b, X, prio(10), RESUME, 100, Y, 3, 0x20300, X);  /* 0: A2 0x300 free */
    tb_event(&b, X, prio(10), RESUME, 110, Y, 3, 0x10200, X);  /* 1: A1/A3 0x200; A2 below */
    tb_event(&b, X, prio(10), RESUME, 120, Y, 3, 0x10100, X);  /* 2: A1/A3 0x100; A2 below */
    tb_event(&b, X, prio(10), RESUME, 130, Y, 3, 0x20100, X);  /* 3: A2 stays 0; A1/A3 no */
    tb_event(&b, X, prio(10), USER, 140, 0, 0, 0, 0);          /* 4 */
    tb_event(&b, X, prio(10), SUSPEND, 150, X, 4, 0x10180, Y); /* 5: A2 below; A1/A3 no */
    tb_event(&b, Y, prio(20), USER, 190, 0, 0, 0, 0);          /* 6: X ran 100..150 */
    trx_trace t;
    trx_stats s;
    tb_open(&b, &t);
    t.mode = TRX_MODE_CORRECT;
    assert_int_equal(trx_stats_compute(&t, &s), 0);
    assert_int_equal(s.thread_count, 4);
    for (uint32_t i = 0; i < 3; i++) {
        const trx_thread_stats *a = &s.threads[i];
        assert_int_equal(t.threads[i].address, X);
        assert_int_equal(a->total_events, 6);
        assert_int_equal(a->resumptions, 4);
        assert_int_equal(a->suspensions, 1);
        assert_int_equal(a->execution_ticks, 50);
        assert_int_equal(a->service_count, 3); /* RESUME 4, USER 1, SUSPEND 1 */
        assert_int_equal(a->services[0].id, RESUME);
        assert_int_equal(a->services[0].count, 4);
    }
    assert_int_equal(s.threads[0].stack_min_available, 0x100); /* A1 */
    assert_int_equal(s.threads[0].stack_min_event, 2);
    assert_int_equal(s.threads[1].stack_min_available, 0);     /* A2: below its start */
    assert_int_equal(s.threads[1].stack_min_event, 5);         /* the last event below it */
    assert_int_equal(s.threads[2].stack_min_available, 0x100); /* A3 */
    assert_int_equal(s.threads[2].stack_min_event, 2);
    assert_int_equal(s.threads[3].total_events, 1);            /* B */
    assert_int_equal(s.threads[3].stack_min_available, 0x400); /* none seen: the size */
    /* which core ran what (one core): X's events and time go to the first
     * thread at X (A1) once, so that the core's time adds up (the core
     * tracker's one-core fast path leaves such a trace to the general
     * rules: its events' thread is the last object at X) */
    assert_non_null(s.cores);
    assert_int_equal(s.cores->core_count, 1);
    const trx_core_stats *c = s.cores;
    assert_int_equal(c->profile_count, 2); /* (0, A1): X's; (0, B) */
    assert_int_equal(c->profile[0].core, 0);
    assert_int_equal(c->profile[0].thread, 0);
    assert_int_equal(c->profile[0].events, 6);
    assert_int_equal(c->profile[0].ticks, 50); /* 100..150 */
    assert_int_equal(c->profile[1].core, 0);
    assert_int_equal(c->profile[1].thread, 3);
    assert_int_equal(c->profile[1].events, 1);
    assert_int_equal(c->profile[1].ticks, 40); /* 150..190 */
    const uint64_t run[4] = {50, 0, 0, 40}, mask[4] = {1, 0, 0, 1};
    for (uint32_t i = 0; i < 4; i++) {
        assert_int_equal(c->threads[i].run_ticks, run[i]);
        assert_int_equal(c->threads[i].core_mask, mask[i]);
        assert_int_equal(c->threads[i].migrations, 0);
        assert_int_equal(c->threads[i].first_migration, 0);
    }
    assert_int_equal(c->cores[0].events, 7);
    assert_int_equal(c->cores[0].thread_ticks, 90);
    assert_int_equal(c->cores[0].idle_ticks, 0);
    assert_int_equal(c->cores[0].interrupt_ticks, 0);
    assert_int_equal(c->cores[0].switches, 2);
    trx_stats_free(&s);
    trx_trace_close(&t);
}

/* A queue registered at X before the thread there (an address reused): the
 * thread is X's first thread, which the per-thread and per-core figures
 * name for X's events; the core tracker's one-core fast path, which takes
 * the cursor's look-up (no thread: the queue is X's first object), is not
 * taken on such a trace. */
static void queue_first_then_thread_at_one_address(void **state)
{
    (void)state;
    static test_trace b;
    memset(&b, 0, sizeof b);
    tb_init(&b, 3, 16, false);
    tb_object(&b, 0, TRX_OBJ_QUEUE, X, "Q", 0, 0, 0);
    tb_object(&b, 1, TRX_OBJ_THREAD, X, "A", 0x10000, 0x400, 10);
    tb_object(&b, 2, TRX_OBJ_THREAD, Y, "B", 0x30000, 0x400, 20);
    tb_event(&b, Y, prio(20), USER, 100, 0, 0, 0, 0);          /* 0 */
    tb_event(&b, Y, prio(20), SUSPEND, 110, Y, 4, 0x30100, X); /* 1: B waits, A next */
    tb_event(&b, X, prio(10), USER, 130, 0, 0, 0, 0);          /* 2 */
    tb_event(&b, X, prio(10), RESUME, 160, Y, 3, 0x10200, Y);  /* 3: B resumed, runs next */
    tb_event(&b, Y, prio(20), USER, 200, 0, 0, 0, 0);          /* 4 */
    trx_trace t;
    trx_stats s;
    tb_open(&b, &t);
    t.mode = TRX_MODE_CORRECT;
    assert_int_equal(trx_stats_compute(&t, &s), 0);
    assert_non_null(s.cores);
    const trx_core_stats *c = s.cores;
    /* threads: A, B, and the Un-named Thread the preparation adds for X
     * (its first object is no thread) */
    assert_int_equal(t.thread_count, 3);
    assert_int_equal(c->profile_count, 2);
    const uint32_t thread[2] = {0, 1};
    const uint64_t events[2] = {2, 3}, ticks[2] = {50, 50}; /* A 110..160; B 100..110, 160..200 */
    for (uint32_t i = 0; i < 2; i++) {
        assert_int_equal(c->profile[i].core, 0);
        assert_int_equal(c->profile[i].thread, thread[i]);
        assert_int_equal(c->profile[i].events, events[i]);
        assert_int_equal(c->profile[i].ticks, ticks[i]);
    }
    const uint64_t run[3] = {50, 50, 0}, mask[3] = {1, 1, 0};
    for (uint32_t i = 0; i < 3; i++) {
        assert_int_equal(c->threads[i].run_ticks, run[i]);
        assert_int_equal(c->threads[i].core_mask, mask[i]);
    }
    assert_int_equal(c->cores[0].events, 5);
    assert_int_equal(c->cores[0].thread_ticks, 100);
    assert_int_equal(c->cores[0].switches, 3);
    assert_int_equal(s.threads[0].execution_ticks, 50);
    assert_int_equal(s.threads[1].execution_ticks, 50);
    trx_stats_free(&s);
    trx_trace_close(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_address_threads_share_counts_not_stacks),
        cmocka_unit_test(queue_first_then_thread_at_one_address),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
