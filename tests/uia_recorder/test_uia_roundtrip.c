/*
 * test_uia_roundtrip.c - recorder -> decoder: buffers written by the UIA
 * record writer (recorder/trx_uia_*.c) opened with the host library
 * (trx_trace_open_image_with, lib/decode/uia_*) from memory:
 *   - wrap policy: exactly the records still in the buffer, oldest first
 *     (PrevLen: the older pass read backwards), sequence numbers across
 *     every 31 -> 0 (PrevLen) or 65535 -> 0 (standard) wrap, no loss;
 *   - stop policy with records removed from the bytes: the decoder reports
 *     exactly the removed count at exactly the right positions;
 *   - snapshots of 1 byte to 65535 bytes reassembled byte for byte.
 * Built for PrevLen and for standard records (CMakeLists.txt).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "trx/trx.h"
#include "trx/uia.h"
#include "trx/uia_recorder.h"

uint32_t uia_test_clock, uia_test_step = 1;

#define ALL 0xFFFFFFFFu
#define WORDS (80 * 1024)
static uint32_t buf[WORDS];
static uint32_t copy[WORDS];
#define lg trx_uia_default_logger

static int setup(void **state)
{
    (void)state;
    trx_uia_disable(&lg);
    memset(&lg, 0, sizeof lg);
    memset(buf, 0, sizeof buf);
    uia_test_clock = 500;
    uia_test_step = 3;
    return 0;
}

/* Opens `size` bytes as a trace (content detection: it must find UIA). */
static void open_bytes(trx_trace *t, const void *bytes, size_t size)
{
    trx_image img;
    trx_error err;
    memset(&img, 0, sizeof img);
    memset(t, 0, sizeof *t);
    if (trx_image_load_memory(&img, bytes, size, TRX_FORMAT_BIN, &err) != 0)
        fail_msg("load: %s", err.message);
    if (trx_trace_open_image_with(t, &img, "roundtrip", NULL, &err) != 0)
        fail_msg("open at %llu: %s", (unsigned long long)err.offset, err.message);
    assert_int_equal(t->format, TRX_TRACE_UIA);
}

/* Argument 0 of every record in decoded order into out[]; their count. */
static size_t first_args(trx_trace *t, uint32_t *out, size_t max)
{
    trx_cursor c;
    trx_event ev;
    size_t n = 0;
    assert_int_equal(trx_cursor_init(&c, t), 0);
    while (trx_cursor_next(&c, &ev)) {
        trx_uia_record r;
        assert_true(trx_uia_record_get(t, ev.entry, &r));
        assert_true(n < max);
        out[n++] = r.nargs > 0 ? trx_uia_record_arg(&r, 0) : UINT32_MAX;
    }
    return n;
}

static void test_wrap_keeps_every_present_record(void **state)
{
    (void)state;
    static uint32_t args[8192];
    const size_t size = 4096;
    const uint32_t totals[] = {50, 300, 1000, 65536 + 77};
    for (size_t k = 0; k < sizeof totals / sizeof totals[0]; k++) {
        setup(NULL);
        assert_int_equal(trx_uia_enable(&lg, buf, size, TRX_UIA_POLICY_WRAP, 1), TX_SUCCESS);
        for (uint32_t i = 0; i < totals[k]; i++) {
            if (i % 4 == 3)
                trx_uia_write8(&lg, 0x20001u, i, 1, 2, 3, 4, 5, 6, 7, ALL);
            else
                trx_uia_write2(&lg, 0x20001u, i, ~i, ALL);
        }
        trx_trace t;
        open_bytes(&t, buf, size);
        size_t n = first_args(&t, args, 8192);
        /* the newest record is there, and everything before it is contiguous */
        assert_true(n > 0);
        assert_int_equal(args[n - 1], totals[k] - 1);
        for (size_t i = 1; i < n; i++)
            assert_int_equal(args[i], args[i - 1] + 1);
        assert_int_equal(t.lost_events, 0);
        const trx_uia_info *u = trx_uia_info_of(&t);
        assert_non_null(u);
        if (totals[k] > 200 && TRX_UIA_PREVLEN) {
            /* records fill at least the buffer minus one largest record and the slack */
            assert_true(u->wrapped);
            assert_true(n * 40 >= size - 16 - 2 * 4 * TRX_UIA_SLACK_WORDS);
        }
        if (totals[k] <= 50)
            assert_int_equal(n, totals[k]);
        trx_trace_close(&t);
    }
}

/* Copies the packet and the records of buf except those whose argument 0 is
 * listed in `drop`, then a terminator; the new packet's length covers it. */
static size_t without(const uint32_t *drop, size_t drops, size_t records)
{
    size_t out = 4, in = 4;
    memcpy(copy, buf, 16);
    for (size_t r = 0; r < records; r++) {
        uint32_t len = (buf[in] >> 16) & 0x7FFu;
        uint32_t arg0 = buf[in + TRX_UIA_HEAD_WORDS];
        int dropped = 0;
        for (size_t d = 0; d < drops; d++)
            dropped |= drop[d] == arg0;
        if (!dropped) {
            memcpy(&copy[out], &buf[in], len);
            out += len / 4;
        }
        in += len / 4;
    }
    copy[out++] = buf[in]; /* the terminator (its PrevLen may now be wrong: unused) */
    uint32_t bytes = (uint32_t)out * 4;
    uint8_t *h = (uint8_t *)copy;
    h[0] = (uint8_t)(0xA0 | (h[0] & 0x08) | ((bytes >> 24) & 0x07));
    h[1] = (uint8_t)(bytes >> 16);
    h[2] = (uint8_t)(bytes >> 8);
    h[3] = (uint8_t)bytes;
    return bytes;
}

static void test_removed_records_are_reported(void **state)
{
    (void)state;
    static uint32_t args[512];
    const uint32_t total = 200;
    /* single records, a pair, a run of 5, one at the very end */
    const uint32_t drop[] = {3, 10, 11, 40, 41, 42, 43, 44, 150, 198};
    const uint32_t gap_after[] = {2, 9, 39, 149, 197}; /* last record before each gap */
    const uint32_t gap_lost[] = {1, 2, 5, 1, 1};
    assert_int_equal(trx_uia_enable(&lg, buf, sizeof buf, TRX_UIA_POLICY_STOP, 0), TX_SUCCESS);
    for (uint32_t i = 0; i < total; i++)
        trx_uia_write1(&lg, 0x30001u, i, ALL);
    size_t bytes = without(drop, sizeof drop / sizeof drop[0], total);
    trx_trace t;
    open_bytes(&t, copy, bytes);
    size_t n = first_args(&t, args, 512);
    assert_int_equal(n, total - sizeof drop / sizeof drop[0]);
    assert_int_equal(t.lost_events, sizeof drop / sizeof drop[0]);
    assert_int_equal(t.gap_count, 5);
    for (size_t g = 0; g < 5; g++) {
        assert_int_equal(t.gaps[g].lost, gap_lost[g]);
        /* the gap lies right before the first record after it */
        assert_true(t.gaps[g].index >= 1 && t.gaps[g].index < n);
        assert_int_equal(args[t.gaps[g].index - 1], gap_after[g]);
        assert_int_equal(args[t.gaps[g].index], gap_after[g] + gap_lost[g] + 1);
    }
    trx_trace_close(&t);

    /* nothing removed: no gap */
    size_t whole = without(NULL, 0, total);
    open_bytes(&t, copy, whole);
    assert_int_equal(t.lost_events, 0);
    assert_int_equal(t.gap_count, 0);
    trx_trace_close(&t);
}

static void test_snapshots_reassemble(void **state)
{
    (void)state;
    static uint8_t data[65535];
    const size_t sizes[] = {1, 2, 3, 4, 471, 472, 473, 4096, 30001, 65535};
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 7u + (i >> 8));
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        setup(NULL);
        assert_int_equal(trx_uia_enable(&lg, buf, sizeof buf, TRX_UIA_POLICY_STOP, 0), TX_SUCCESS);
        trx_uia_write1(&lg, 0x30001u, 1, ALL);
        assert_int_equal(trx_uia_snapshot_memory(&lg, 1000 + (ULONG)k, data, (ULONG)sizes[k]),
                         TX_SUCCESS);
        trx_uia_write1(&lg, 0x30001u, 2, ALL);
        trx_trace t;
        open_bytes(&t, buf, sizeof buf); /* the packet length is the whole buffer */
        const trx_uia_info *u = trx_uia_info_of(&t);
        assert_non_null(u);
        assert_int_equal(u->snapshot_count, 1);
        const trx_uia_snapshot *s = &u->snapshots[0];
        assert_int_equal(s->id, 1000 + k);
        assert_false(s->incomplete);
        assert_int_equal(s->total_length, sizes[k]);
        assert_int_equal(s->length, sizes[k]);
        assert_int_equal(s->address, (uint32_t)(uintptr_t)data);
        assert_memory_equal(s->data, data, sizes[k]);
        assert_int_equal(t.lost_events, 0);
        trx_trace_close(&t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_wrap_keeps_every_present_record, setup),
        cmocka_unit_test_setup(test_removed_records_are_reported, setup),
        cmocka_unit_test_setup(test_snapshots_reassemble, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
