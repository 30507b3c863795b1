/* test_open_ticks.c - what the statistics take from the TXTB open's pass
 * (trx_open_options.time_counts / core_counts) instead of a serial pass of
 * their own equals that pass: the relative ticks and stamp of every entry
 * (trx_trace_ticks_at from the tick checkpoints, open_ticks.c, against one
 * linear pass of a trace opened without counts), the span, the time check
 * and whether any entry names a core other than 0; in both modes (views),
 * for the open cut into 1 to 7 parts and checkpoints every 1, 2, 4, 8 and
 * 1024 entries, of each trace given on the command line (the corpus) and of
 * hand-built ones: timers counting up and down, a mask that is no 2^n - 1,
 * wrapped buffers, both byte orders, two cores, and a damaged entry (the
 * salvaging view's own order, where the linear pass serves). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyze/core_tracker.h"
#include "decode/event_cursor_internal.h"
#include "decode/open_ticks.h"
#include "decode/summary_asserts.h"
#include "decode/timer_traces.h"
#include "decode/trace_builder.h"
#include "decode/txtb_scan.h"

static int trace_count;
static char **trace_paths;

/* Opens `bytes` (a copy: the trace owns its image) with the options. */
static void open_bytes(const uint8_t *bytes, size_t size, const trx_open_options *o, trx_trace *t)
{
    trx_image img;
    trx_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(trx_image_load_memory(&img, bytes, size, TRX_FORMAT_BIN, &err), 0);
    assert_int_equal(trx_trace_open_image_with(t, &img, "built", o, &err), 0);
}

/* The reference of one view: every entry's ticks and stamp by one linear pass. */
typedef struct reference {
    uint32_t used;
    uint32_t *last, *stamps;
    uint64_t *ticks;
    uint64_t span;
    trx_time_check tc;
    bool multi_core;
} reference;

static void reference_make(trx_trace *t, reference *r)
{
    assert_null(t->open_counts_); /* opened without counts: the linear passes */
    r->used = t->used;
    r->last = calloc(t->used + 1, sizeof *r->last);
    r->stamps = calloc(t->used + 1, sizeof *r->stamps);
    r->ticks = calloc(t->used + 1, sizeof *r->ticks);
    assert_non_null(r->last);
    assert_non_null(r->stamps);
    assert_non_null(r->ticks);
    for (uint32_t i = 0; i < t->used; i++)
        r->last[i] = i;
    trx_trace_ticks_at(t, r->last, t->used, r->ticks, r->stamps);
    r->span = trx_trace_span_ticks(t);
    trx_trace_time_check(t, &r->tc);
    r->multi_core = trx_txtb_multi_core(t);
}

static void reference_free(reference *r)
{
    free(r->last);
    free(r->stamps);
    free(r->ticks);
}

/* `t`'s figures against the reference; `fast`: from the open's pass. */
static void assert_same_as(trx_trace *t, const reference *r, bool fast)
{
    assert_int_equal(t->used, r->used);
    assert_int_equal(trx_open_counts_fit(t), fast);
    for (uint32_t i = 0; i < t->used; i++) {
        uint64_t ticks = 0;
        uint32_t stamp = 0;
        if (fast)
            assert_true(trx_open_ticks_at(t, i, &ticks, &stamp));
        else
            trx_trace_ticks_at(t, &i, 1, &ticks, &stamp);
        if (ticks != r->ticks[i] || stamp != r->stamps[i])
            fail_msg("entry %u of %u: ticks %llu stamp %u, the linear pass %llu %u", i, t->used,
                     (unsigned long long)ticks, stamp, (unsigned long long)r->ticks[i],
                     r->stamps[i]);
    }
    /* several at once, as the segments ask */
    uint32_t n = t->used < 5 ? t->used : 5, last[5];
    uint64_t ticks[5];
    uint32_t stamps[5];
    for (uint32_t k = 0; k < n; k++)
        last[k] = (uint32_t)((uint64_t)t->used * k / n);
    trx_trace_ticks_at(t, last, n, ticks, stamps);
    for (uint32_t k = 0; k < n; k++) {
        assert_int_equal(ticks[k], r->ticks[last[k]]);
        assert_int_equal(stamps[k], r->stamps[last[k]]);
    }
    assert_int_equal(trx_trace_span_ticks(t), r->span);
    trx_time_check tc;
    trx_trace_time_check(t, &tc);
    assert_same_check(&r->tc, &tc);
    assert_int_equal(trx_txtb_multi_core(t), r->multi_core);
}

/* Opens `bytes` without counts (the reference) and with counts cut every way;
 * `fits`: the open's figures serve the salvaging view (an intact trace).
 */
static void every_way_equal(const uint8_t *bytes, size_t size, bool fits)
{
    trx_trace ref, t;
    trx_open_options one = {.jobs = 1};
    trx_txtb_scan_part_min = 1u << 19;
    open_bytes(bytes, size, &one, &ref);
    reference want[2];
    for (int m = 0; m < 2; m++) {
        trx_trace_set_mode(&ref, m ? TRX_MODE_TRACEX : TRX_MODE_CORRECT);
        reference_make(&ref, &want[m]);
    }
    static const uint32_t shifts[] = {0, 1, 2, 3, 10};
    trx_txtb_scan_part_min = 1; /* cut even a small trace */
    for (uint32_t s = 0; s < sizeof shifts / sizeof shifts[0]; s++) {
        trx_txtb_tick_shift = shifts[s];
        for (uint32_t parts = 1; parts <= 7; parts++) {
            for (int cores = 0; cores < 2; cores++) {
                trx_open_options o = {.jobs = parts, .time_counts = !cores, .core_counts = cores};
                open_bytes(bytes, size, &o, &t);
                assert_non_null(t.open_counts_);
                assert_int_equal(t.open_counts_->has_core_counts, cores);
                for (int m = 0; m < 2; m++) {
                    trx_trace_set_mode(&t, m ? TRX_MODE_TRACEX : TRX_MODE_CORRECT);
                    /* TraceX's view is the one the open counted */
                    assert_same_as(&t, &want[m], m || fits);
                }
                trx_trace_close(&t);
            }
        }
    }
    trx_txtb_tick_shift = 10;
    trx_txtb_scan_part_min = 1u << 19;
    reference_free(&want[0]);
    reference_free(&want[1]);
    trx_trace_close(&ref);
}

static void test_corpus(void **state)
{
    (void)state;
    assert_true(trace_count > 0);
    for (int i = 0; i < trace_count; i++) {
        trx_image img;
        trx_error err;
        memset(&err, 0, sizeof err);
        assert_int_equal(trx_image_load_file(&img, trace_paths[i], TRX_FORMAT_AUTO, &err), 0);
        assert_true(img.size > 1000);
        trx_trace t;
        trx_open_options o = {.time_counts = true};
        open_bytes(img.data, img.size, &o, &t);
        bool intact = t.damaged_count == 0;
        trx_trace_close(&t);
        every_way_equal(img.data, img.size, intact);
        trx_image_free(&img);
    }
}

static test_trace b;

/* A 16-bit timer counting up through its wrap, on two cores, wrapped at 29,
 * both byte orders. */
static void test_up_wrapped_two_cores(void **state)
{
    (void)state;
    for (int be = 0; be < 2; be++) {
        tb_init(&b, 0, 61, be != 0);
        tb_timer_mask(&b, 0xFFFF);
        uint32_t ts = 0xFF00;
        for (uint32_t i = 0; i < 61; i++) {
            tb_event(&b, 0x20001000u + 0x100 * (i % 3), 0, 4096u | (i % 7 == 3) << 24, ts, 0, 0, 0,
                     0);
            ts = (ts + 1 + i * 37 % 300) & 0xFFFF;
        }
        tb_oldest(&b, 29);
        every_way_equal(b.bytes, b.size, true);
    }
}

/* Counting down through 0 of a 16-bit timer with steps of exactly half the
 * range and one more, equal stamps, wrapped, both byte orders. */
static void test_down_wrapped(void **state)
{
    (void)state;
    for (int be = 0; be < 2; be++) {
        timer_trace_down_wrapped(&b, be != 0);
        every_way_equal(b.bytes, b.size, true);
    }
}

/* A mask that is no 2^n - 1 (a counter reloading at 99999) counting down and
 * wrapping, stamps above the mask (masked off), wrapped at 20. */
static void test_odd_mask(void **state)
{
    (void)state;
    timer_trace_odd_mask(&b, 45, 0x80000000u);
    every_way_equal(b.bytes, b.size, true);
}

/* A buffer not full (no wrap): the checkpoints end at the first empty entry. */
static void test_not_full(void **state)
{
    (void)state;
    tb_init(&b, 0, 64, true);
    for (uint32_t i = 0; i < 37; i++)
        tb_event(&b, 0x20003000u, 0, 4096, 1000 + i * i, 0, 0, 0, 0);
    every_way_equal(b.bytes, b.size, true);
}

/* A half-written entry in a wrapped buffer: the salvaging view has an order
 * of its own (the linear pass), TraceX's view is the open's. */
static void test_salvaged_order(void **state)
{
    (void)state;
    timer_trace_half_written(&b);
    every_way_equal(b.bytes, b.size, false);
}

int main(int argc, char **argv)
{
    trace_count = argc - 1;
    trace_paths = argv + 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus),       cmocka_unit_test(test_up_wrapped_two_cores),
        cmocka_unit_test(test_down_wrapped), cmocka_unit_test(test_odd_mask),
        cmocka_unit_test(test_not_full),     cmocka_unit_test(test_salvaged_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
