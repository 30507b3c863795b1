/*
 * test_halt_points.c - what a debugger halt inside an insert leaves, and what
 * the host reads from it. The recorder is built with TRX_HALT_POINTS=1: it
 * calls trx_test_halt_point() after every store of an insert, where this test
 * copies the whole buffer - the memory a halt right after that store shows.
 * Every copy is decoded (salvaging view): every complete entry must be listed
 * oldest first, the unfinished one reported with its reason, `wrapped` right.
 * Built three times: critical-section mode, the same with the entry check,
 * and lock-free mode (where a writer stalled for a lap also makes torn
 * entries: the hook then runs a whole lap of inserts of a second writer).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "trx/recorder.h"
#include "trx/trx.h"

#define CAP 16u
#define REGISTRY 2u
#define BUF_BYTES (48u + REGISTRY * (16u + TX_TRACE_OBJECT_REGISTRY_NAME) + CAP * 32u)
#define MAX_SNAPS 64
#define USER_ID 4200u
#define CTX_A 0x20001000u
#define CTX_B 0x20002000u
#define PRIO_WORD 0x80050005u

static ULONG buffer[BUF_BYTES / sizeof(ULONG)];
static uint8_t snaps[MAX_SNAPS][BUF_BYTES];
static int snap_count;
static bool recording;
/* Lock-free torn test: at this halt point of the recorded insert, a second
 * writer inserts a whole lap (then the first one goes on). */
static int preempt_at = -1, halt_no;
static uint32_t next_seq;

static void insert(uint32_t ctx, uint32_t seq)
{
    trx_trace_insert_with_context(ctx, ctx == CTX_A ? PRIO_WORD : PRIO_WORD + 1u, USER_ID, seq,
                                  ~seq, ctx, 7u, TX_TRACE_USER_EVENTS);
}

void trx_test_halt_point(void)
{
    if (!recording)
        return;
    halt_no++;
    if (halt_no == preempt_at) {
        recording = false; /* the other writer's stores are not halt points */
        for (uint32_t k = 0; k < CAP; k++)
            insert(CTX_B, next_seq++);
        recording = true;
    }
    assert_true(snap_count < MAX_SNAPS);
    memcpy(snaps[snap_count++], buffer, BUF_BYTES);
}

/* Enables tracing on a zeroed buffer and inserts `count` events (seq 1..). */
static void fill(uint32_t count)
{
    tx_trace_disable();
    memset(buffer, 0, sizeof buffer);
    assert_int_equal(tx_trace_enable(buffer, sizeof buffer, REGISTRY), TX_SUCCESS);
    next_seq = 1;
    for (uint32_t k = 0; k < count; k++)
        insert(CTX_A, next_seq++);
}

/* Opens a snapshot with the host library. */
static void open_snapshot(const uint8_t *bytes, trx_trace *t)
{
    trx_image img;
    trx_error err;
    memset(&err, 0, sizeof err);
    if (trx_image_load_memory(&img, bytes, BUF_BYTES, TRX_FORMAT_BIN, &err) != 0 ||
        trx_trace_open_image(t, &img, "snapshot", &err) != 0)
        fail_msg("snapshot does not open: %s", err.message);
}

/* The sequence numbers (info 1) of the user events in chronological order;
 * anything else may only be the two RUNNING events of tx_trace_enable first. */
static uint32_t listed(const trx_trace *t, uint32_t *seq)
{
    trx_entry e;
    uint32_t m = 0;
    for (uint32_t i = 0; i < t->used; i++) {
        trx_trace_entry(t, i, &e);
        if ((e.id & 0xFFFFu) == TX_TRACE_RUNNING && m == 0 && i < 2)
            continue;
        assert_int_equal(e.id & 0xFFFFu, USER_ID);
        assert_int_equal(e.info[1], ~e.info[0]);
        seq[m++] = e.info[0];
    }
    return m;
}

/* Records the snapshots of one insert (seq `s`) into slot k of a buffer that
 * holds entries s-CAP .. s-1 (wrapped) and checks each. */
static void check_insert_at(uint32_t k, bool wrapped)
{
    /* 2 RUNNING events from enable, then user events: slot k is next when
     * 2 + n = k (mod CAP); wrapped: at least two laps of user events. */
    uint32_t n = wrapped ? 2 * CAP + (k + 2 * CAP - 2) % CAP : k - 2;
    fill(n);
    uint32_t s = next_seq;
    snap_count = 0;
    halt_no = 0;
    recording = true;
    insert(CTX_A, next_seq++);
    recording = false;
    assert_true(snap_count >= 10);
    for (int p = 0; p < snap_count; p++) {
        bool complete = p == snap_count - 1;
        trx_trace t;
        open_snapshot(snaps[p], &t);
        uint32_t seq[CAP];
        uint32_t m = listed(&t, seq);
        uint32_t first = wrapped ? s - CAP + 1 : 1;
        uint32_t expect = s - first + complete;
        assert_int_equal(t.wrapped, wrapped);
        assert_int_equal(m, expect);
        for (uint32_t i = 0; i < m; i++)
            assert_int_equal(seq[i], first + i);
        if (complete) {
            assert_int_equal(t.damaged_count, 0);
        } else if (wrapped || !(TRX_RECORDER_LOCKFREE == 0 && p == 0)) {
            assert_int_equal(t.damaged_count, 1);
            assert_int_equal(t.damaged[0].index, k);
            trx_damage want =
                TRX_RECORDER_LOCKFREE && p == 0 ? TRX_DAMAGE_STALE : TRX_DAMAGE_HALF_WRITTEN;
            if (wrapped)
                assert_int_equal(t.damaged[0].reason, want);
        } else {
            assert_int_equal(t.damaged_count, 0); /* slot k was empty and still is */
        }
        if (wrapped && !complete && !(TRX_RECORDER_LOCKFREE && p == 0)) {
            /* TraceX's reading stops at the zero thread word (its dump is kept). */
            trx_trace_set_mode(&t, TRX_MODE_TRACEX);
            assert_int_equal(t.used, k);
            assert_false(t.wrapped);
        }
        trx_trace_close(&t);
    }
}

static void test_halt_after_every_store_wrapped(void **state)
{
    (void)state;
    const uint32_t slots[] = {0, 1, 7, CAP - 2, CAP - 1};
    for (unsigned i = 0; i < sizeof slots / sizeof slots[0]; i++)
        check_insert_at(slots[i], true);
}

static void test_halt_after_every_store_not_wrapped(void **state)
{
    (void)state;
    check_insert_at(5, false);
    check_insert_at(CAP - 2, false);
}

/* The stores of one insert: 10 in both modes (thread word 0, the header or
 * the claim, 7 words, the thread word). */
static void test_store_count(void **state)
{
    (void)state;
    fill(40);
    snap_count = 0;
    halt_no = 0;
    recording = true;
    insert(CTX_A, next_seq++);
    recording = false;
    assert_int_equal(snap_count, 10);
}

#if TRX_RECORDER_LOCKFREE
/* A writer stalled after store p while a second one writes a whole lap into
 * the buffer: the slot they share mixes the two entries (torn), or holds the
 * stalled writer's complete older entry (stale), or - stalled before it took
 * its time stamp - its entry is simply the newest. Every other entry is the
 * second writer's, listed in order. */
static void test_torn_entry_detected(void **state)
{
    (void)state;
    for (int p = 1; p <= 10; p++) {
        fill(2 * CAP + 3);
        uint32_t k = (2 + 2 * CAP + 3) % CAP;
        snap_count = 0;
        halt_no = 0;
        preempt_at = p;
        recording = true;
        insert(CTX_A, next_seq++);
        recording = false;
        preempt_at = -1;
        trx_trace t;
        open_snapshot((const uint8_t *)buffer, &t);
        assert_true(t.entry_check);
        assert_true(t.wrapped);
        /* stalled after 1 store: its later time stamp makes its entry the
         * newest; after 2: its whole (older) entry lands on the other
         * writer's: stale; after 3-9: the halves mix: torn; after 10: done. */
        trx_damage want = p == 2 ? TRX_DAMAGE_STALE : p < 10 && p > 2 ? TRX_DAMAGE_TORN : 0;
        if (want) {
            assert_int_equal(t.damaged_count, 1);
            assert_int_equal(t.damaged[0].index, k);
            assert_int_equal(t.damaged[0].reason, want);
            assert_int_equal(t.used, CAP - 1);
        } else {
            assert_int_equal(t.damaged_count, 0);
            assert_int_equal(t.used, CAP);
        }
        trx_entry e;
        for (uint32_t i = 0; i < t.used; i++) {
            trx_trace_entry(&t, i, &e);
            bool first_writer = p == 1 && i == CAP - 1;
            assert_int_equal(e.context, first_writer ? CTX_A : CTX_B);
            if (i > 0 && !first_writer) {
                trx_entry prev;
                trx_trace_entry(&t, i - 1, &prev);
                assert_int_equal(e.info[0], prev.info[0] + 1);
            }
        }
        trx_trace_close(&t);
    }
}
#endif

#if TRX_RECORDER_ENTRY_CHECK
/* Mixes of two entries' words (some from one, the rest from the other) fail
 * the 8-bit check but for about 1 in 256; the entries themselves pass. The
 * data is fixed, so the count is too (16 of 3584 pass by chance). */
static void test_mixes_of_two_entries_fail_the_check(void **state)
{
    (void)state;
    fill(2 * CAP);
    trx_trace t;
    open_snapshot((const uint8_t *)buffer, &t);
    assert_true(t.entry_check);
    assert_int_equal(t.damaged_count, 0);
    trx_trace_close(&t);
    const uint32_t entries_off = 48u + REGISTRY * (16u + TX_TRACE_OBJECT_REGISTRY_NAME);
    static uint8_t copy[BUF_BYTES];
    unsigned mixes = 0, torn = 0;
    for (uint32_t a = 0; a < CAP; a++) {
        const uint8_t *orig = (const uint8_t *)buffer + entries_off + a * 32;
        const uint8_t *other = (const uint8_t *)buffer + entries_off + ((a + 5) % CAP) * 32;
        for (unsigned mix = 1; mix < 255; mix++) {
            memcpy(copy, buffer, BUF_BYTES);
            uint8_t *e = copy + entries_off + a * 32;
            for (int w = 0; w < 8; w++)
                if (mix >> w & 1)
                    memcpy(e + 4 * w, other + 4 * w, 4);
            if (memcmp(e, other, 32) == 0 || memcmp(e, orig, 32) == 0)
                continue;
            mixes++;
            open_snapshot(copy, &t);
            torn += t.damaged_count == 1 && t.damaged[0].index == a &&
                    t.damaged[0].reason == TRX_DAMAGE_TORN;
            trx_trace_close(&t);
        }
    }
    fprintf(stderr, "torn detected: %u of %u mixes\n", torn, mixes);
    assert_true(mixes > 3000);
    assert_true(mixes - torn <= mixes / 100);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_store_count),
        cmocka_unit_test(test_halt_after_every_store_wrapped),
        cmocka_unit_test(test_halt_after_every_store_not_wrapped),
#if TRX_RECORDER_LOCKFREE
        cmocka_unit_test(test_torn_entry_detected),
#endif
#if TRX_RECORDER_ENTRY_CHECK
        cmocka_unit_test(test_mixes_of_two_entries_fail_the_check),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
