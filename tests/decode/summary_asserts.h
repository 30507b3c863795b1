/* summary_asserts.h - two per-core summaries (trx/cores.h) and two time
 * checks compared field for field, for the tests of `trx info`'s summary
 * (test_core_summary_split, test_open_counts). Include after <cmocka.h>. */
#ifndef TRX_TEST_SUMMARY_ASSERTS_H
#define TRX_TEST_SUMMARY_ASSERTS_H

#include "trx/cores.h"
#include "trx/trx.h"

static inline void assert_same_check(const trx_time_check *a, const trx_time_check *b)
{
    assert_int_equal(a->verdict, b->verdict);
    assert_int_equal(a->steps, b->steps);
    assert_int_equal(a->changes, b->changes);
    assert_int_equal(a->large_steps, b->large_steps);
    assert_int_equal(a->span, b->span);
    assert_int_equal(a->large_span, b->large_span);
    assert_int_equal(a->first_stamp, b->first_stamp);
    assert_int_equal(a->leading_same, b->leading_same);
    assert_int_equal(a->late_start, b->late_start);
}

static inline void assert_same_summary(const trx_core_summary *a, const trx_core_summary *b)
{
    assert_int_equal(a->core_count, b->core_count);
    assert_int_equal(a->beyond, b->beyond);
    assert_memory_equal(a->events, b->events, sizeof a->events);
    assert_memory_equal(a->other_events, b->other_events, sizeof a->other_events);
    assert_int_equal(a->thread_entries, b->thread_entries);
    for (uint32_t i = 0; i < a->thread_entries; i++) {
        assert_int_equal(a->threads[i].core, b->threads[i].core);
        assert_int_equal(a->threads[i].thread, b->threads[i].thread);
        assert_int_equal(a->threads[i].events, b->threads[i].events);
        assert_int_equal(a->threads[i].ticks, b->threads[i].ticks);
        assert_int_equal(a->threads[i].address, b->threads[i].address);
    }
}

#endif
