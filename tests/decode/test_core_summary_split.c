/* test_core_summary_split.c - `trx info`'s summary counted in two parts and
 * merged (trx_core_summary_split) equals the one-part count, field for
 * field (per-core events, every (core, thread) row, the time check), for
 * every split point of each trace given on the command line (the corpus;
 * every TRX_TEST_SPARSE-th under the sanitizers: test_sparse.h),
 * in both modes, and of hand-built traces whose time check depends on the
 * seam: constant stamps, a late-starting timer, a SysTick value read with a
 * mask it does not wrap at, a wrapped buffer. A few splits also run the
 * later part on its helper thread. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyze/core_summary_split.h"
#include "decode/summary_asserts.h"
#include "decode/trace_builder.h"
#include "../test_sparse.h"

static int trace_count;
static char **trace_paths;

/* Every split of `t` (or `stride` apart) against the one-part count. */
static void splits_equal(trx_trace *t, uint32_t stride)
{
    trx_core_summary whole, part;
    trx_time_check whole_tc, part_tc;
    assert_int_equal(trx_core_summary_split(t, &whole, &whole_tc, 0, false), 0);
    for (uint32_t mid = 1; mid < t->used; mid += stride) {
        bool threaded = mid % 97 == 1;
        assert_int_equal(trx_core_summary_split(t, &part, &part_tc, mid, threaded), 0);
        assert_same_summary(&whole, &part);
        assert_same_check(&whole_tc, &part_tc);
        trx_core_summary_free(&part);
    }
    /* the library's own choice (two halves on two threads when large) */
    assert_int_equal(trx_core_summary_compute_checked(t, &part, &part_tc), 0);
    assert_same_summary(&whole, &part);
    assert_same_check(&whole_tc, &part_tc);
    trx_core_summary_free(&part);
    trx_core_summary_free(&whole);
}

static void test_corpus_every_split(void **state)
{
    (void)state;
    assert_true(trace_count > 0);
    for (int i = 0; i < trace_count; i++) {
        trx_trace t;
        trx_error err;
        memset(&t, 0, sizeof t);
        memset(&err, 0, sizeof err);
        assert_int_equal(trx_trace_open(&t, trace_paths[i], TRX_FORMAT_AUTO, &err), 0);
        assert_true(t.used > 100);
        splits_equal(&t, test_sparse());
        trx_trace_set_mode(&t, TRX_MODE_TRACEX);
        splits_equal(&t, test_sparse());
        trx_trace_close(&t);
    }
}

static test_trace b;

/* Opens the built buffer and splits it everywhere, both modes. */
static void built_splits_equal(void)
{
    trx_trace t;
    tb_open(&b, &t);
    splits_equal(&t, 1);
    trx_trace_set_mode(&t, TRX_MODE_TRACEX);
    splits_equal(&t, 1);
    trx_trace_close(&t);
}

/* Every stamp the same: the leading run crosses every seam. */
static void test_constant_stamps(void **state)
{
    (void)state;
    tb_init(&b, 0, 40, false);
    for (uint32_t i = 0; i < 30; i++)
        tb_event(&b, 0xF0F0F0F0u + (i % 3), 0, 4096, 0x1234, i, 0, 0, 0);
    built_splits_equal();
}

/* A timer that starts late: ten stamps 0, then counting, on two cores. */
static void test_late_start(void **state)
{
    (void)state;
    tb_init(&b, 0, 64, true);
    for (uint32_t i = 0; i < 50; i++)
        tb_event(&b, 0xF0F0F0F0u + (i % 5), 0, 4096u | (i & 1) << 24, i < 10 ? 0 : i * 100, 0, 0, 0,
                 0);
    built_splits_equal();
}

/* A SysTick value read with a 24-bit mask: large steps everywhere. */
static void test_implausible_steps(void **state)
{
    (void)state;
    tb_init(&b, 0, 64, false);
    tb_timer_mask(&b, 0xFFFFFF);
    uint64_t now = 0;
    for (int i = 0; i < 40; i++, now += 10000)
        tb_event(&b, 0xF0F0F0F0u, 0, 4096, (uint32_t)(24999 - now % 25000), 0, 0, 0, 0);
    built_splits_equal();
}

/* A wrapped buffer: the chronological order crosses the physical end. */
static void test_wrapped(void **state)
{
    (void)state;
    tb_init(&b, 0, 32, false);
    for (uint32_t i = 0; i < 32; i++)
        tb_event(&b, 0xF0F0F0F0u + (i % 4), 0, 4096, i < 20 ? 1000 + i * 10 : i * 10, i, 0, 0, 0);
    tb_oldest(&b, 20);
    built_splits_equal();
}

int main(int argc, char **argv)
{
    trace_count = argc - 1;
    trace_paths = argv + 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_every_split),
        cmocka_unit_test(test_constant_stamps),
        cmocka_unit_test(test_late_start),
        cmocka_unit_test(test_implausible_steps),
        cmocka_unit_test(test_wrapped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
