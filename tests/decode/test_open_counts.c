/* test_open_counts.c - the TXTB open's pass cut into parts (txtb_scan.c),
 * and counting for `trx info` in the same pass, gives what one pass and the
 * summary's own count give: both views field for field (entries, oldest,
 * wrap, votes, direction, every damaged entry, the order), the per-core
 * summary (per-core events, every (core, thread) row) and the time check,
 * in both modes, for every cut into 1 to 7 parts of each trace given on the
 * command line (the corpus) and of hand-built traces: timers counting up
 * and down, masks of 2^n - 1 and not, steps of exactly half the range,
 * both byte orders, checked entries, damaged and stale entries (where the
 * counts of the open cannot serve and the summary counts by itself). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyze/core_summary_split.h"
#include "decode/summary_asserts.h"
#include "decode/timer_traces.h"
#include "decode/trace_builder.h"
#include "decode/txtb_scan.h"
#include "trx/entry_check.h"

static int trace_count;
static char **trace_paths;

/* The current view of `a` and `b`, field for field, and its order. */
static void assert_same_view(trx_trace *a, trx_trace *b)
{
    assert_int_equal(a->used, b->used);
    assert_int_equal(a->oldest, b->oldest);
    assert_int_equal(a->wrapped, b->wrapped);
    assert_int_equal(a->counts_up, b->counts_up);
    assert_int_equal(a->votes_up, b->votes_up);
    assert_int_equal(a->votes_down, b->votes_down);
    for (uint32_t i = 0; i < a->used; i++)
        assert_int_equal(trx_trace_entry_index(a, i), trx_trace_entry_index(b, i));
}

static void assert_same_damage(const trx_trace *a, const trx_trace *b)
{
    assert_int_equal(a->damaged_count, b->damaged_count);
    assert_memory_equal(a->damaged_by_reason, b->damaged_by_reason, sizeof a->damaged_by_reason);
    for (uint32_t i = 0; i < a->damaged_count; i++) {
        assert_int_equal(a->damaged[i].index, b->damaged[i].index);
        assert_int_equal(a->damaged[i].reason, b->damaged[i].reason);
    }
}

/* Opens `bytes` (a copy: the trace owns its image) with the options. */
static void open_bytes(const uint8_t *bytes, size_t size, const trx_open_options *o, trx_trace *t)
{
    trx_image img;
    trx_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(trx_image_load_memory(&img, bytes, size, TRX_FORMAT_BIN, &err), 0);
    assert_int_equal(trx_trace_open_image_with(t, &img, "built", o, &err), 0);
}

/* Opens `bytes` in one pass without counts (the reference) and cut into
 * 1..7 parts with and without counts, and compares everything. Returns how
 * many of the counted opens kept counts that fit the salvaging view. */
static int parts_equal(const uint8_t *bytes, size_t size)
{
    trx_trace ref, t;
    trx_open_options one = {.jobs = 1}; /* and the default smallest part: one part */
    trx_txtb_scan_part_min = 1u << 19;
    open_bytes(bytes, size, &one, &ref);
    assert_null(ref.open_counts_);
    trx_core_summary want[2], got;
    trx_time_check want_tc[2], got_tc;
    for (int m = 0; m < 2; m++) {
        trx_trace_set_mode(&ref, m ? TRX_MODE_TRACEX : TRX_MODE_CORRECT);
        assert_int_equal(trx_core_summary_split(&ref, &want[m], &want_tc[m], 0, false), 0);
    }
    int fitting = 0;
    trx_txtb_scan_part_min = 1; /* cut even a small trace */
    for (uint32_t parts = 1; parts <= 7; parts++) {
        for (int count = 0; count < 2; count++) {
            trx_open_options o = {.jobs = parts, .core_counts = count != 0};
            open_bytes(bytes, size, &o, &t);
            if (!count)
                assert_null(t.open_counts_);
            assert_same_damage(&ref, &t);
            fitting += count && t.open_counts_ && !t.order_;
            for (int m = 0; m < 2; m++) {
                trx_trace_set_mode(&ref, m ? TRX_MODE_TRACEX : TRX_MODE_CORRECT);
                trx_trace_set_mode(&t, m ? TRX_MODE_TRACEX : TRX_MODE_CORRECT);
                assert_same_view(&ref, &t);
                assert_int_equal(trx_core_summary_compute_checked(&t, &got, &got_tc), 0);
                assert_same_summary(&want[m], &got);
                assert_same_check(&want_tc[m], &got_tc);
                trx_core_summary_free(&got);
            }
            trx_trace_close(&t);
        }
    }
    trx_txtb_scan_part_min = 1u << 19;
    trx_core_summary_free(&want[0]);
    trx_core_summary_free(&want[1]);
    trx_trace_close(&ref);
    return fitting;
}

static void test_corpus_every_cut(void **state)
{
    (void)state;
    assert_true(trace_count > 0);
    for (int i = 0; i < trace_count; i++) {
        trx_image img;
        trx_error err;
        memset(&err, 0, sizeof err);
        assert_int_equal(trx_image_load_file(&img, trace_paths[i], TRX_FORMAT_AUTO, &err), 0);
        assert_true(img.size > 1000);
        int fitting = parts_equal(img.data, img.size);
        trx_trace t;
        trx_open_options o = {.core_counts = true};
        open_bytes(img.data, img.size, &o, &t);
        if (t.damaged_count == 0) /* an intact trace: the open's counts serve */
            assert_int_equal(fitting, 7);
        trx_trace_close(&t);
        trx_image_free(&img);
    }
}

static test_trace b;

/* Splits the built buffer every way; `fits`: the open's counts serve. */
static void built_parts_equal(bool fits)
{
    int fitting = parts_equal(b.bytes, b.size);
    assert_int_equal(fitting, fits ? 7 : 0);
}

/* Every stamp the same: the leading run crosses every cut. */
static void test_constant_stamps(void **state)
{
    (void)state;
    tb_init(&b, 0, 40, false);
    for (uint32_t i = 0; i < 30; i++)
        tb_event(&b, 0xF0F0F0F0u + (i % 3), 0, 4096, 0x1234, i, 0, 0, 0);
    built_parts_equal(true);
}

/* A timer that starts late: ten stamps 0, then counting, on two cores, big-endian. */
static void test_late_start(void **state)
{
    (void)state;
    tb_init(&b, 0, 64, true);
    for (uint32_t i = 0; i < 50; i++)
        tb_event(&b, 0xF0F0F0F0u + (i % 5), 0, 4096u | (i & 1) << 24, i < 10 ? 0 : i * 100, 0, 0, 0,
                 0);
    built_parts_equal(true);
}

/* A SysTick value (counting down) read with a 24-bit mask: long steps everywhere. */
static void test_implausible_steps(void **state)
{
    (void)state;
    tb_init(&b, 0, 64, false);
    tb_timer_mask(&b, 0xFFFFFF);
    uint64_t now = 0;
    for (int i = 0; i < 40; i++, now += 10000)
        tb_event(&b, 0xF0F0F0F0u, 0, 4096, (uint32_t)(24999 - now % 25000), 0, 0, 0, 0);
    built_parts_equal(true);
}

/* A wrapped buffer counting down through 0 of a 16-bit timer, with steps of
 * exactly half the range and one more (long either way, or one way only). */
static void test_wrapped_counting_down(void **state)
{
    (void)state;
    for (int be = 0; be < 2; be++) {
        timer_trace_down_wrapped(&b, be != 0);
        built_parts_equal(true);
    }
}

/* A mask that is no 2^n - 1 (a counter reloading at 99999), counting down
 * and wrapping, stamps equal to the first on both sides of the buffer's end. */
static void test_odd_mask_counting_down(void **state)
{
    (void)state;
    timer_trace_odd_mask(&b, 36, 0);
    built_parts_equal(true);
}

/* A half-written entry in a wrapped buffer: the salvaging view skips it
 * (an order of its own), TraceX's view reads it. */
static void test_half_written(void **state)
{
    (void)state;
    timer_trace_half_written(&b);
    built_parts_equal(false);
}

/* A buffer not wrapped with a stale entry after the first never-written
 * one: the open's counts end at TraceX's view, which that entry is outside. */
static void test_stale_after_end(void **state)
{
    (void)state;
    tb_init(&b, 0, 40, false);
    for (uint32_t i = 0; i < 25; i++)
        tb_event(&b, 0x20003000u, 0, 4096, 10 + i, 0, 0, 0, 0);
    tb_entry_word(&b, 33, 0, 0x20003000u);
    tb_entry_word(&b, 33, 2, 4096);
    tb_entry_word(&b, 33, 3, 5);
    built_parts_equal(false);
}

/* Entries carrying check values (a trx recorder's buffer), one torn. */
static void test_checked_entries(void **state)
{
    (void)state;
    for (int torn = 0; torn < 2; torn++) {
        tb_init(&b, 0, 30, false);
        b.bytes[16] = (uint8_t)(TRX_ENTRY_CHECK_MARK & 0xFF);
        b.bytes[17] = (uint8_t)(TRX_ENTRY_CHECK_MARK >> 8);
        for (uint32_t i = 0; i < 30; i++) {
            uint32_t ctx = 0x20004000u + 0x80 * (i % 2), id = 4096 + (i % 5), ts = 1000 + 3 * i;
            uint32_t check = trx_entry_check(ctx, 0, id, ts, i, 0, 0, 0);
            tb_event(&b, ctx, 0, id | check << TRX_ENTRY_CHECK_SHIFT, ts, i, 0, 0, 0);
        }
        if (torn)
            tb_entry_word(&b, 12, 4, 0xDEAD); /* info changed after the check: torn */
        tb_oldest(&b, 7);
        built_parts_equal(!torn);
    }
}

int main(int argc, char **argv)
{
    trace_count = argc - 1;
    trace_paths = argv + 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_every_cut),
        cmocka_unit_test(test_constant_stamps),
        cmocka_unit_test(test_late_start),
        cmocka_unit_test(test_implausible_steps),
        cmocka_unit_test(test_wrapped_counting_down),
        cmocka_unit_test(test_odd_mask_counting_down),
        cmocka_unit_test(test_half_written),
        cmocka_unit_test(test_stale_after_end),
        cmocka_unit_test(test_checked_entries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
