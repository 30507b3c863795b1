/*
 * test_uia_recorder.c - the UIA record writer (recorder/trx_uia_*.c) checked
 * byte by byte with the test-only reader: packet header, records with 0, 1,
 * 2, 4 and 8 arguments (types, lengths, timestamps, event word), sequence
 * numbers and their wrap (5-bit PrevLen, 16-bit standard), the PrevLen
 * chain and terminator, the wrap policy read forward and backwards, the stop
 * policy with its dropped-count record, snapshots from 0 bytes to 65535
 * split as TI's loggers split them, hook records without trailing zero
 * words, the filter and the status codes. Built once per writer
 * configuration (CMakeLists.txt).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "trx/uia_recorder.h"
#include "uia_test_reader.h"

uint32_t uia_test_clock, uia_test_step = 1;

#define BIG_WORDS (96 * 1024)
static uint32_t big[BIG_WORDS];
#define lg trx_uia_default_logger /* the hooks' logger (TRX_UIA_HOOK_LOGGER) */
static char err[256];

#define ALL 0xFFFFFFFFu
#define HEAD_BYTES (4u * (2u + TRX_UIA_TIMESTAMP_BITS / 32u))
#if TRX_UIA_PREVLEN
#define EXPECT_EVENT_TYPE                                                                          \
    (TRX_UIA_TIMESTAMP_BITS == 64 ? 10u : TRX_UIA_TIMESTAMP_BITS == 32 ? 9u : 8u)
#define EXPECT_SNAP_TYPE (TRX_UIA_TIMESTAMP_BITS ? 12u : 11u)
#define SEQ_MASK 0x1Fu
#else
#define EXPECT_EVENT_TYPE (TRX_UIA_TIMESTAMP_BITS ? 1u : 0u)
#define EXPECT_SNAP_TYPE (TRX_UIA_TIMESTAMP_BITS ? 3u : 2u)
#define SEQ_MASK 0xFFFFu
#endif

static const uint8_t *bytes(void)
{
    return (const uint8_t *)big;
}

static int setup(void **state)
{
    (void)state;
    trx_uia_disable(&lg);
    memset(&lg, 0, sizeof lg);
    memset(big, 0xEE, sizeof big);
    uia_test_clock = 1000;
    uia_test_step = 7;
    return 0;
}

/* Enables `lg` over the first `size` bytes of big[]. */
static void enable(size_t size, UINT policy)
{
    assert_int_equal(trx_uia_enable(&lg, big, (ULONG)size, policy, 3), TX_SUCCESS);
}

/* Reads every record forward from the payload start; fails on a layout error. */
static size_t read_all(size_t size, uia_rec *recs, size_t max, size_t *term)
{
    size_t count = 0;
    long first_prev = lg.packet_seq != 0 ? -1 : 0; /* after a wrap: the older pass's last */
    if (uia_walk_forward(bytes(), size, 16, 0, first_prev, recs, max, &count, term, err,
                         sizeof err) < 0)
        fail_msg("%s", err);
    return count;
}

static void test_enable_status(void **state)
{
    (void)state;
    assert_int_equal(trx_uia_enable(&lg, NULL, 4096, TRX_UIA_POLICY_WRAP, 0), TX_PTR_ERROR);
    assert_int_equal(trx_uia_enable(&lg, (uint8_t *)big + 2, 4096, TRX_UIA_POLICY_WRAP, 0),
                     TX_PTR_ERROR);
    assert_int_equal(
        trx_uia_enable(&lg, big, trx_uia_min_size(TRX_UIA_POLICY_STOP) - 4, TRX_UIA_POLICY_STOP, 0),
        TX_SIZE_ERROR);
    assert_int_equal(trx_uia_enable(&lg, big, 4096, 2, 0), TX_SIZE_ERROR);
    assert_int_equal(trx_uia_disable(&lg), TX_NOT_DONE);
    assert_int_equal(
        trx_uia_enable(&lg, big, trx_uia_min_size(TRX_UIA_POLICY_STOP), TRX_UIA_POLICY_STOP, 0),
        TX_SUCCESS);
    assert_int_equal(trx_uia_enable(&lg, big, 4096, TRX_UIA_POLICY_WRAP, 0), TX_NOT_DONE);
    assert_int_equal(trx_uia_disable(&lg), TX_SUCCESS);
    assert_int_equal(trx_uia_disable(&lg), TX_NOT_DONE);
    /* off: nothing is written, user events say so */
    uint32_t before = big[4];
    trx_uia_write1(&lg, 0x10001u, 5, ALL);
    assert_int_equal(big[4], before);
    assert_int_equal(trx_uia_user_event_insert(4096, 1, 2, 3, 4), TX_NOT_DONE);
}

static void test_packet_header(void **state)
{
    (void)state;
    uia_pkt p;
    enable(4096, TRX_UIA_POLICY_WRAP);
    assert_int_equal(uia_read_packet(bytes(), 4096, &p, err, sizeof err), 0);
    const uint8_t *b = bytes();
    assert_int_equal(b[0] >> 4, 10);   /* EventPkt in the top nibble of byte 0: big-endian */
    assert_int_equal(p.big_endian, 0); /* the host is little-endian */
    assert_int_equal(p.length, 4096);
    assert_int_equal(p.pkt_seq, 0);
    assert_int_equal(p.first_seq, 0);
    assert_int_equal(p.logger, 3);
    assert_int_equal(p.module, TRX_UIA_MODULE_RECORDER);
    assert_int_equal(p.dest, 0xFFFF);
    assert_int_equal(p.src, 3);
    assert_int_equal(uia_word(b, 16, 0), 0x40000000u); /* the first terminator */
    assert_int_equal(trx_uia_used_bytes(&lg), 20);
}

static void test_records_every_size(void **state)
{
    (void)state;
    uia_rec r[8];
    size_t term;
    enable(4096, TRX_UIA_POLICY_WRAP);
    trx_uia_write0(&lg, 0x00110022u, ALL);
    trx_uia_write1(&lg, 0x00120022u, 0xA1, ALL);
    trx_uia_write2(&lg, 0x00130022u, 0xB1, 0xB2, ALL);
    trx_uia_write4(&lg, 0x00140022u, 0xC1, 0xC2, 0xC3, 0xC4, ALL);
    trx_uia_write8(&lg, 0x00150022u, 1, 2, 3, 4, 5, 6, 7, 8, ALL);
    assert_int_equal(read_all(4096, r, 8, &term), 5);
    const uint32_t nargs[5] = {0, 1, 2, 4, 8};
    size_t off = 16;
    for (uint32_t i = 0; i < 5; i++) {
        assert_int_equal(r[i].offset, off);
        assert_int_equal(r[i].type, EXPECT_EVENT_TYPE);
        assert_int_equal(r[i].len, HEAD_BYTES + 4 * nargs[i]);
        assert_int_equal(r[i].seq, i);
        assert_int_equal(r[i].nargs, nargs[i]);
        assert_int_equal(r[i].event_id, 0x11 + i);
        assert_int_equal(r[i].module, 0x22);
#if TRX_UIA_TIMESTAMP_BITS
        assert_int_equal(r[i].ts, 1000 + 7 * (i + 1)); /* one clock read per record */
#endif
        if (TRX_UIA_PREVLEN)
            assert_int_equal(r[i].prev, i == 0 ? 0 : r[i - 1].len);
        off += r[i].len;
    }
    assert_int_equal(r[1].args[0], 0xA1);
    assert_int_equal(r[2].args[1], 0xB2);
    assert_int_equal(r[3].args[3], 0xC4);
    for (uint32_t k = 0; k < 8; k++)
        assert_int_equal(r[4].args[k], k + 1);
    assert_int_equal(term, off);
    assert_int_equal(trx_uia_used_bytes(&lg), off + 4);
}

#if TRX_UIA_TIMESTAMP_BITS == 64 && TRX_UIA_TIME_MASK == 0xFFFFFFFFUL
/* A 32-bit clock that wraps: the high word counts the wraps. */
static void test_timestamp_crosses_2_32(void **state)
{
    (void)state;
    uia_rec r[4];
    size_t term;
    enable(4096, TRX_UIA_POLICY_WRAP);
    uia_test_clock = 0xFFFFFFF0u;
    uia_test_step = 8;
    trx_uia_write0(&lg, 0x10001u, ALL); /* 0xFFFFFFF8 */
    trx_uia_write0(&lg, 0x10001u, ALL); /* 0x1_00000000 */
    trx_uia_write0(&lg, 0x10001u, ALL); /* 0x1_00000008 */
    assert_int_equal(read_all(4096, r, 4, &term), 3);
    assert_true(r[0].ts == 0xFFFFFFF8ull);
    assert_true(r[1].ts == 0x100000000ull);
    assert_true(r[2].ts == 0x100000008ull);
}
#endif

#if TRX_UIA_TIMESTAMP_BITS != 0 && TRX_UIA_TIME_MASK != 0xFFFFFFFFUL
/* A counter narrower than 32 bits (TRX_UIA_TIME_MASK, e.g. the raw 24-bit
 * SysTick): the writer counts its wraps, so timestamps keep rising past the
 * mask and, with 32-bit timestamps, wrap only at 2^32. Bits of the source
 * above the mask are ignored. */
static void test_timestamp_narrow_counter(void **state)
{
    (void)state;
    static uia_rec r[512];
    size_t term, n;
    const uint64_t period = (uint64_t)TRX_UIA_TIME_MASK + 1u;
    const uint64_t step = period / 2u + 3u; /* under one period: every wrap seen */
    const uint32_t total = (uint32_t)(3u * (0x100000000ull / step)) + 5u;
    enable(8192, TRX_UIA_POLICY_WRAP);
    uia_test_clock = 0xA5000000u; /* garbage above the mask */
    uia_test_step = (uint32_t)step;
    for (uint32_t i = 0; i < total; i++)
        trx_uia_write1(&lg, 0x10001u, i, ALL);
    n = read_all(8192, r, 512, &term);
    assert_true(n > 10);
    for (size_t i = 0; i < n; i++) {
        uint64_t k = (uint64_t)r[i].args[0] + 1u; /* clock reads so far */
        uint64_t expect = ((0xA5000000ull + k * step) & TRX_UIA_TIME_MASK) +
                          ((k * step + (0xA5000000ull & TRX_UIA_TIME_MASK)) / period) * period;
#if TRX_UIA_TIMESTAMP_BITS == 32
        expect &= 0xFFFFFFFFull;
#endif
        assert_true(r[i].ts == expect);
    }
}
#endif

/* 70000 records through a small wrapping buffer: the newest pass holds
 * sequence numbers across 65535 -> 0 (and many 31 -> 0 wraps). */
static void test_sequence_wrap(void **state)
{
    (void)state;
    static uia_rec r[512];
    size_t term, n;
    const size_t size = 4096;
    const uint32_t total = 65536 + 40;
    enable(size, TRX_UIA_POLICY_WRAP);
    for (uint32_t i = 0; i < total; i++)
        trx_uia_write1(&lg, 0x10001u, i, ALL);
    n = read_all(size, r, 512, &term);
    assert_true(n > 40);
    for (size_t i = 0; i < n; i++) {
        uint32_t index = r[i].args[0];
        assert_int_equal(index, total - n + i); /* the newest pass, in order */
        assert_int_equal(r[i].seq, index & SEQ_MASK);
    }
    uia_pkt p;
    assert_int_equal(uia_read_packet(bytes(), size, &p, err, sizeof err), 0);
    /* first record of this pass: its sequence number as records carry it */
    assert_int_equal(p.first_seq, r[0].args[0] & SEQ_MASK & 0x3FFFu);
    assert_true(p.pkt_seq > 0);
}

#if TRX_UIA_PREVLEN
/* Records of mixed sizes through a wrapping buffer: forward from the start
 * to the write position, then back from the older pass's terminator: exactly
 * the records still present, oldest first, none missing between. */
static void test_wrap_read_backwards(void **state)
{
    (void)state;
    static uia_rec newer[512], older[512];
    const size_t size = 2048;
    for (uint32_t total = 150; total < 260; total += 7) {
        setup(NULL);
        enable(size, TRX_UIA_POLICY_WRAP);
        for (uint32_t i = 0; i < total; i++) {
            switch (i % 3) {
            case 0:
                trx_uia_write1(&lg, 0x10001u, i, ALL);
                break;
            case 1:
                trx_uia_write8(&lg, 0x10001u, i, 0, 0, 0, 0, 0, 0, i, ALL);
                break;
            default:
                trx_uia_write4(&lg, 0x10001u, i, 1, 2, 3, ALL);
                break;
            }
        }
        uia_pkt p;
        size_t n_new, n_old, write;
        assert_int_equal(uia_read_packet(bytes(), size, &p, err, sizeof err), 0);
        assert_true(p.pkt_seq > 0);
        n_new = read_all(size, newer, 512, &write);
        assert_int_equal(uia_walk_back(bytes(), size, p.length, write + 4, 0, older, 512, &n_old,
                                       err, sizeof err),
                         0);
        assert_true(n_old > 0);
        /* the oldest surviving record: its predecessor reached into the new pass */
        assert_true(older[0].offset >= write + 4);
        assert_true(older[0].offset - older[0].prev < write + 4);
        assert_int_equal(older[n_old - 1].offset + older[n_old - 1].len, p.length);
        uint32_t expect = older[0].args[0];
        for (size_t i = 0; i < n_old; i++, expect++)
            assert_int_equal(older[i].args[0], expect);
        for (size_t i = 0; i < n_new; i++, expect++)
            assert_int_equal(newer[i].args[0], expect);
        assert_int_equal(expect, total);
        if (n_new > 0)
            assert_int_equal(newer[0].prev, older[n_old - 1].len); /* chain across the wrap */
    }
}
#endif

static void test_stop_policy(void **state)
{
    (void)state;
    static uia_rec r[512];
    const size_t size = 1024;
    size_t term, n;
    enable(size, TRX_UIA_POLICY_STOP);
    for (uint32_t i = 0; i < 300; i++)
        trx_uia_write2(&lg, 0x10001u, i, ~i, ALL);
    assert_int_equal(trx_uia_snapshot_memory(&lg, 9, big, 8), TX_NOT_DONE);
    n = read_all(size, r, 512, &term);
    assert_true(n > 10);
    for (size_t i = 0; i + 1 < n; i++) {
        assert_int_equal(r[i].args[0], i);
        assert_int_equal(r[i].seq, i & SEQ_MASK);
    }
    const uia_rec *m = &r[n - 1]; /* the dropped-count record */
    assert_int_equal(m->module, TRX_UIA_MODULE_RECORDER);
    assert_int_equal(m->event_id, TRX_UIA_EVENT_DROPPED);
    assert_int_equal(m->nargs, 1);
    assert_int_equal(m->seq, (n - 1) & SEQ_MASK);
    uint32_t kept = (uint32_t)n - 1;
    assert_int_equal(m->args[0], 300 - kept + 1); /* + the snapshot record */
    assert_int_equal(trx_uia_dropped(&lg), 300 - kept + 1);
    uia_pkt p;
    assert_int_equal(uia_read_packet(bytes(), size, &p, err, sizeof err), 0);
    assert_int_equal(p.length, term); /* the packet ends at the last record */
    assert_int_equal(p.pkt_seq, 0);
    assert_int_equal(trx_uia_used_bytes(&lg), term + 4);
    assert_true(term + 4 <= size);
}

/* Snapshot records of one snapshot: split, lengths word, address, data. */
static void check_snapshot(size_t length, size_t size)
{
    static uint8_t data[65536], joined[65536];
    static uia_rec r[512];
    size_t term, n, got;
    setup(NULL);
    enable(size, TRX_UIA_POLICY_STOP);
    for (size_t i = 0; i < length; i++)
        data[i] = (uint8_t)(i * 131u + 7u);
    trx_uia_write0(&lg, 0x10001u, ALL);
    assert_int_equal(
        trx_uia_snapshot_write(&lg, 0x00420005u, 77, 0x1000, 42, 0x2000, data, (ULONG)length),
        TX_SUCCESS);
    trx_uia_write0(&lg, 0x10001u, ALL);
    n = read_all(size, r, 512, &term);
    const size_t chunk = TRX_UIA_MAX_RECORD_BYTES - 4u * (8u + (TRX_UIA_TIMESTAMP_BITS ? 2u : 0u));
    const size_t records = length == 0 ? 1 : (length + chunk - 1) / chunk;
    assert_int_equal(n, records + 2);
    for (size_t i = 1; i <= records; i++) {
        assert_int_equal(r[i].type, EXPECT_SNAP_TYPE);
        assert_true(r[i].snapshot);
        assert_int_equal(r[i].snapshot_id, 77);
        assert_int_equal(r[i].evt, 0x00420005u);
        assert_int_equal(r[i].file, 0x1000);
        assert_int_equal(r[i].line, 42);
        assert_int_equal(r[i].fmt, 0x2000);
        assert_int_equal(r[i].total_len, length);
        assert_int_equal(r[i].this_len, i < records ? chunk : length - (records - 1) * chunk);
        assert_int_equal(r[i].address, (uint32_t)(uintptr_t)data + (i - 1) * chunk);
        assert_true(r[i].len <= TRX_UIA_MAX_RECORD_BYTES);
        assert_int_equal(r[i].seq, i & SEQ_MASK);
    }
    assert_int_equal(uia_snapshot_join(r, n, 77, joined, sizeof joined, &got, err, sizeof err), 0);
    assert_int_equal(got, length);
    assert_memory_equal(joined, data, length);
}

static void test_snapshot_sizes(void **state)
{
    (void)state;
    const size_t chunk = TRX_UIA_MAX_RECORD_BYTES - 4u * (8u + (TRX_UIA_TIMESTAMP_BITS ? 2u : 0u));
    const size_t sizes[] = {0, 1, 2, 3, 4, 5, chunk - 1, chunk, chunk + 1, 1000, 4099, 65535};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        check_snapshot(sizes[i], sizeof big);
    assert_int_equal(trx_uia_snapshot_write(&lg, 0x10001u, 1, 0, 0, 0, big, 65536), TX_SIZE_ERROR);
}

static void test_snapshot_string(void **state)
{
    (void)state;
    uia_rec r[4];
    size_t term;
    enable(4096, TRX_UIA_POLICY_WRAP);
    assert_int_equal(trx_uia_snapshot_string(&lg, 5, "sensor", 0), TX_SUCCESS);
    assert_int_equal(read_all(4096, r, 4, &term), 1);
    assert_int_equal(r[0].event_id, TRX_UIA_EVENT_SNAPSHOT_STRING);
    assert_int_equal(r[0].module, TRX_UIA_MODULE_RECORDER);
    assert_int_equal(r[0].this_len, 6);
    assert_int_equal(r[0].total_len, 6);
    assert_memory_equal(r[0].data, "sensor", 6);
    assert_int_equal(r[0].data[6], 0); /* padding to the word */
    assert_int_equal(r[0].data[7], 0);
}

/* A snapshot in a wrapping buffer: records never straddle the end. */
static void test_snapshot_wraps(void **state)
{
    (void)state;
    static uint8_t data[3000];
    static uia_rec r[512];
    size_t term;
    const size_t size = 2048;
    enable(size, TRX_UIA_POLICY_WRAP);
    for (int k = 0; k < 10; k++) {
        trx_uia_write2(&lg, 0x10001u, 1, 2, ALL);
        assert_int_equal(trx_uia_snapshot_memory(&lg, (ULONG)k, data, 700), TX_SUCCESS);
    }
    size_t n = read_all(size, r, 512, &term);
    assert_true(n >= 1);
    uia_pkt p;
    assert_int_equal(uia_read_packet(bytes(), size, &p, err, sizeof err), 0);
    assert_true(p.pkt_seq > 0);
    assert_true(p.length <= size - 4);
    /* a record larger than the whole buffer: dropped and counted */
    setup(NULL);
    enable(trx_uia_min_size(TRX_UIA_POLICY_WRAP), TRX_UIA_POLICY_WRAP);
    assert_int_equal(trx_uia_snapshot_memory(&lg, 99, data, 400), TX_NOT_DONE);
    assert_int_equal(trx_uia_dropped(&lg), 1);
    assert_int_equal(trx_uia_snapshot_memory(&lg, 99, data, 4), TX_SUCCESS);
}

/* Hook records: TXTB event id, module "TX", info words without trailing zeros. */
static void test_hook_records(void **state)
{
    (void)state;
    uia_rec r[8];
    size_t term;
    enable(4096, TRX_UIA_POLICY_WRAP);
    trx_uia_hook_event(&lg, 1, 0x100, 2, 0, 0, TX_TRACE_INTERNAL_EVENTS);
    trx_uia_hook_event(&lg, 2, 0, 0, 0, 0, TX_TRACE_INTERNAL_EVENTS);
    trx_uia_hook_event(&lg, 3, 0, 0, 7, 0, TX_TRACE_INTERNAL_EVENTS);
    trx_uia_hook_event(&lg, 4, 0, 0, 0, 9, TX_TRACE_INTERNAL_EVENTS);
    trx_uia_event_filter(&lg, TX_TRACE_INTERNAL_EVENTS);
    trx_uia_hook_event(&lg, 5, 1, 1, 1, 1, TX_TRACE_INTERNAL_EVENTS); /* filtered */
    assert_int_equal(trx_uia_user_event_insert(4100, 11, 12, 0, 0), TX_SUCCESS);
    trx_uia_event_unfilter(&lg, TX_TRACE_INTERNAL_EVENTS);
    trx_uia_isr_enter_insert(6);
    trx_uia_isr_exit_insert(6);
    assert_int_equal(read_all(4096, r, 8, &term), 7);
    const uint32_t ids[7] = {1, 2, 3, 4, 4100, TX_TRACE_ISR_ENTER, TX_TRACE_ISR_EXIT};
    const uint32_t nargs[7] = {2, 0, 3, 4, 2, 3, 3};
    for (int i = 0; i < 7; i++) {
        assert_int_equal(r[i].event_id, ids[i]);
        assert_int_equal(r[i].module, TRX_UIA_MODULE_TX);
        assert_int_equal(r[i].nargs, nargs[i]);
        assert_int_equal(r[i].seq, (uint32_t)i);
    }
    assert_int_equal(r[0].args[0], 0x100);
    assert_int_equal(r[2].args[2], 7);
    assert_int_equal(r[3].args[3], 9);
    assert_int_equal(r[4].args[1], 12);
    /* ISR: stack pointer, ISR id, nesting level 1 in both, preempt-disable 0 */
    assert_int_equal(r[5].args[0], 0x20001000u);
    assert_int_equal(r[5].args[1], 6);
    assert_int_equal(r[5].args[2], 1);
    assert_int_equal(r[6].args[2], 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_enable_status, setup),
        cmocka_unit_test_setup(test_packet_header, setup),
        cmocka_unit_test_setup(test_records_every_size, setup),
#if TRX_UIA_TIMESTAMP_BITS == 64 && TRX_UIA_TIME_MASK == 0xFFFFFFFFUL
        cmocka_unit_test_setup(test_timestamp_crosses_2_32, setup),
#endif
#if TRX_UIA_TIMESTAMP_BITS != 0 && TRX_UIA_TIME_MASK != 0xFFFFFFFFUL
        cmocka_unit_test_setup(test_timestamp_narrow_counter, setup),
#endif
        cmocka_unit_test_setup(test_sequence_wrap, setup),
#if TRX_UIA_PREVLEN
        cmocka_unit_test_setup(test_wrap_read_backwards, setup),
#endif
        cmocka_unit_test_setup(test_stop_policy, setup),
        cmocka_unit_test_setup(test_snapshot_sizes, setup),
        cmocka_unit_test_setup(test_snapshot_string, setup),
        cmocka_unit_test_setup(test_snapshot_wraps, setup),
        cmocka_unit_test_setup(test_hook_records, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
