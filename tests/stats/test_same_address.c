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
    trx_stats_free(&s);
    trx_trace_close(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_address_threads_share_counts_not_stacks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
