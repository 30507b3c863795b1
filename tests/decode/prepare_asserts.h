/* prepare_asserts.h - what trx_trace_prepare gives a trace, compared field
 * for field with a trace the segments' walks prepared in parts (the segment
 * tests: test_stats_segments, test_latency_segments). Include after
 * <cmocka.h>. */
#ifndef TRX_TEST_PREPARE_ASSERTS_H
#define TRX_TEST_PREPARE_ASSERTS_H

#include <stdio.h>

#include "trx/trx.h"

/* What trx_trace_prepare gives `ref` and the segments' walks gave `t`. */
static inline void assert_same_preparation(const trx_trace *ref, const trx_trace *t)
{
    assert_true(t->prepared);
    assert_int_equal(t->total_events, ref->total_events);
    assert_int_equal(t->synthetic_events, ref->synthetic_events);
    assert_int_equal(t->max_ticks, ref->max_ticks);
    assert_int_equal(t->thread_count, ref->thread_count);
    for (uint32_t i = 0; i < t->thread_count; i++) {
        const trx_thread *x = &t->threads[i], *y = &ref->threads[i];
        if (x->prio_lowest != y->prio_lowest || x->prio_highest != y->prio_highest ||
            x->pt_lowest != y->pt_lowest || x->pt_highest != y->pt_highest)
            fprintf(stderr, "thread %u: ranges %u-%u / %u-%u, trx_trace_prepare's %u-%u / %u-%u\n",
                    i, x->prio_highest, x->prio_lowest, x->pt_highest, x->pt_lowest,
                    y->prio_highest, y->prio_lowest, y->pt_highest, y->pt_lowest);
        assert_int_equal(x->prio_lowest, y->prio_lowest);
        assert_int_equal(x->prio_highest, y->prio_highest);
        assert_int_equal(x->pt_lowest, y->pt_lowest);
        assert_int_equal(x->pt_highest, y->pt_highest);
    }
}

#endif
