/* test_salvage.c - the salvaging view on hand-built buffers: what a halt in a
 * ThreadX-style insert (thread word first, pointer last) leaves, the timer
 * range that decides about the ends, the pointer at the last entry, both
 * byte orders, switching to TraceX's reading and back, and a buffer with
 * nothing intact. Entries carry their sequence number in info 1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "trace_builder.h"

#define CAP 12u
#define T 0x20001000u
#define PRIO 0x80050005u

/* A wrapped buffer: entries 1 .. CAP + extra, time stamp 100 per entry. */
static void build_wrapped(test_trace *b, uint32_t extra, bool be)
{
    tb_init(b, 2, CAP, be);
    tb_object(b, 0, TRX_OBJ_THREAD, T, "t", 0x30000, 1024, 5);
    for (uint32_t s = 1; s <= CAP; s++)
        tb_event(b, T, PRIO, 4100, 1000 + 100 * s, s, 0, 0, 0);
    for (uint32_t s = CAP + 1; s <= CAP + extra; s++) {
        uint32_t i = (s - 1) % CAP;
        const uint32_t w[8] = {T, PRIO, 4100, 1000 + 100 * s, s, 0, 0, 0};
        for (unsigned k = 0; k < 8; k++)
            tb_entry_word(b, i, k, w[k]);
    }
    tb_oldest(b, (CAP + extra) % CAP);
}

/* The sequence numbers listed must be first .. first + count - 1. */
static void expect_run(trx_trace *t, uint32_t first, uint32_t count)
{
    assert_int_equal(t->used, count);
    trx_entry e;
    for (uint32_t i = 0; i < count; i++) {
        trx_trace_entry(t, i, &e);
        assert_int_equal(e.info[0], first + i);
    }
}

static void test_intact_wrapped_is_traceX_reading(void **state)
{
    (void)state;
    for (int be = 0; be < 2; be++) {
        test_trace b;
        trx_trace t;
        build_wrapped(&b, 5, be);
        tb_open(&b, &t);
        assert_true(t.wrapped);
        assert_int_equal(t.damaged_count, 0);
        assert_null(t.order_);
        expect_run(&t, 6, CAP);
        trx_trace_close(&t);
    }
}

/* ThreadX writes the thread word, ..., the time stamp, the info words, then
 * moves the pointer: halted after the time stamp, the entry at the pointer
 * (the oldest) holds the new entry's time: it is half-written. */
static void test_threadx_halt_over_oldest(void **state)
{
    (void)state;
    for (int be = 0; be < 2; be++) {
        test_trace b;
        trx_trace t;
        build_wrapped(&b, 5, be);
        uint32_t o = 5; /* oldest: entry 6 */
        tb_entry_word(&b, o, 3, 1000 + 100 * (CAP + 6));
        tb_open(&b, &t);
        assert_true(t.wrapped);
        assert_int_equal(t.damaged_count, 1);
        assert_int_equal(t.damaged[0].index, o);
        assert_int_equal(t.damaged[0].reason, TRX_DAMAGE_HALF_WRITTEN);
        expect_run(&t, 7, CAP - 1);
        assert_int_equal(t.oldest, o + 1);
        /* TraceX's reading keeps it, as the oldest entry */
        trx_trace_set_mode(&t, TRX_MODE_TRACEX);
        assert_int_equal(t.used, CAP);
        expect_run(&t, 6, CAP);
        trx_trace_set_mode(&t, TRX_MODE_CORRECT);
        expect_run(&t, 7, CAP - 1);
        trx_trace_close(&t);
    }
}

/* Not wrapped: a ThreadX insert halted before it moved the pointer leaves a
 * written entry at the pointer. */
static void test_threadx_halt_not_wrapped(void **state)
{
    (void)state;
    test_trace b;
    trx_trace t;
    tb_init(&b, 2, CAP, false);
    for (uint32_t s = 1; s <= 6; s++)
        tb_event(&b, T, PRIO, 4100, 1000 + 100 * s, s, 0, 0, 0);
    tb_entry_word(&b, 6, 0, T); /* thread word of the next entry, nothing else */
    tb_open(&b, &t);
    assert_false(t.wrapped);
    expect_run(&t, 1, 6);
    assert_int_equal(t.damaged_count, 1);
    assert_int_equal(t.damaged[0].index, 6);
    assert_int_equal(t.damaged[0].reason, TRX_DAMAGE_HALF_WRITTEN);
    trx_trace_set_mode(&t, TRX_MODE_TRACEX);
    assert_int_equal(t.used, 7); /* TraceX lists it */
    trx_trace_close(&t);
}

/* Entries 5000 ticks apart, oldest at index 4; the newest (index 3) holds a
 * time stamp 10 ticks before the oldest's. */
static void build_stale_candidate(test_trace *b, uint32_t mask)
{
    tb_init(b, 2, CAP, false);
    tb_timer_mask(b, mask);
    for (uint32_t k = 0; k < CAP; k++) { /* k-th oldest at index (4 + k) % CAP */
        const uint32_t w[8] = {T, PRIO, 4100, (5000 * (k + 1)) & mask, k + 1, 0, 0, 0};
        for (unsigned x = 0; x < 8; x++)
            tb_entry_word(b, (4 + k) % CAP, x, w[x]);
    }
    tb_oldest(b, 4);
    tb_entry_word(b, 3, 3, (5000 - 10) & mask);
}

/* A 16-bit timer whose entries span more than half its range cannot decide
 * whether the newest entry is stale: it is listed. A 32-bit timer decides. */
static void test_timer_range_decides(void **state)
{
    (void)state;
    test_trace b;
    trx_trace t;
    build_stale_candidate(&b, 0xFFFF);
    tb_open(&b, &t);
    assert_int_equal(t.damaged_count, 0);
    assert_int_equal(t.used, CAP);
    trx_trace_close(&t);
    build_stale_candidate(&b, 0xFFFFFFFFu);
    tb_open(&b, &t);
    assert_int_equal(t.damaged_count, 1);
    assert_int_equal(t.damaged[0].reason, TRX_DAMAGE_STALE);
    assert_int_equal(t.damaged[0].index, 3);
    assert_int_equal(t.used, CAP - 1);
    trx_trace_close(&t);
}

/* The pointer at the last entry: wrapped when that entry holds anything. */
static void test_pointer_at_last_entry(void **state)
{
    (void)state;
    test_trace b;
    trx_trace t;
    build_wrapped(&b, CAP - 1, false); /* oldest = last entry, entry 12 */
    tb_open(&b, &t);
    assert_true(t.wrapped);
    expect_run(&t, CAP, CAP);
    trx_trace_close(&t);
    tb_entry_word(&b, CAP - 1, 0, 0); /* its thread word cleared: half-written */
    tb_open(&b, &t);
    assert_true(t.wrapped);
    assert_int_equal(t.damaged_count, 1);
    expect_run(&t, CAP + 1, CAP - 1);
    trx_trace_close(&t);
    for (unsigned k = 1; k < 8; k++) /* nothing at all: never written, not wrapped */
        tb_entry_word(&b, CAP - 1, k, 0);
    tb_open(&b, &t);
    assert_false(t.wrapped);
    assert_int_equal(t.damaged_count, 0);
    expect_run(&t, CAP + 1, CAP - 1);
    trx_trace_close(&t);
}

/* Holes in the middle, both byte orders: skipped, the rest in order. */
static void test_holes_in_the_middle(void **state)
{
    (void)state;
    for (int be = 0; be < 2; be++) {
        test_trace b;
        trx_trace t;
        build_wrapped(&b, 3, be);   /* oldest: entry 4 at index 3 */
        tb_entry_word(&b, 7, 0, 0); /* entry 8: half-written */
        for (unsigned k = 0; k < 8; k++)
            tb_entry_word(&b, 9, k, 0); /* entry 10: empty */
        tb_entry_word(&b, 1, 2, 0);     /* entry 14: id 0 with data */
        tb_open(&b, &t);
        assert_true(t.wrapped);
        assert_int_equal(t.damaged_count, 3);
        assert_int_equal(t.damaged[0].index, 1);
        assert_int_equal(t.damaged[0].reason, TRX_DAMAGE_HALF_WRITTEN);
        assert_int_equal(t.damaged[1].index, 7);
        assert_int_equal(t.damaged[2].index, 9);
        assert_int_equal(t.damaged[2].reason, TRX_DAMAGE_EMPTY);
        assert_int_equal(t.damaged_by_reason[TRX_DAMAGE_HALF_WRITTEN], 2);
        const uint32_t want[] = {4, 5, 6, 7, 9, 11, 12, 13, 15};
        assert_int_equal(t.used, 9);
        trx_entry e;
        for (uint32_t i = 0; i < 9; i++) {
            trx_trace_entry(&t, i, &e);
            assert_int_equal(e.info[0], want[i]);
        }
        char text[120];
        trx_trace_damage_summary(&t, text, sizeof text);
        assert_string_equal(text, "3 damaged entries (1 empty, 2 half-written)");
        trx_trace_close(&t);
    }
}

/* The cursor walks the salvaging view's own order: the events of the
 * intact entries only, in time order, each with its physical index and its
 * ticks (the cursor reads the next entry in place only where the view's
 * order follows the ring). */
static void test_cursor_skips_the_holes(void **state)
{
    (void)state;
    for (int be = 0; be < 2; be++) {
        test_trace b;
        trx_trace t;
        build_wrapped(&b, 3, be);
        tb_entry_word(&b, 7, 0, 0); /* entry 8: half-written */
        for (unsigned k = 0; k < 8; k++)
            tb_entry_word(&b, 9, k, 0); /* entry 10: empty */
        tb_entry_word(&b, 1, 2, 0);     /* entry 14: id 0 with data */
        tb_open(&b, &t);
        assert_int_equal(t.damaged_count, 3);
        const uint32_t want[] = {4, 5, 6, 7, 9, 11, 12, 13, 15};
        trx_cursor c;
        trx_event ev;
        uint32_t k = 0;
        assert_int_equal(trx_cursor_init(&c, &t), 0);
        while (trx_cursor_next(&c, &ev)) {
            assert_true(k < 9);
            assert_false(ev.synthetic);
            assert_int_equal(ev.info[0], want[k]);
            assert_int_equal(ev.entry, (want[k] - 1) % CAP);
            assert_int_equal(ev.ticks, 100 * (want[k] - 4));
            assert_int_equal(ev.context, T);
            assert_int_equal(ev.next_context, T);
            k++;
        }
        assert_int_equal(k, 9);
        trx_trace_close(&t);
    }
}

static void test_nothing_intact(void **state)
{
    (void)state;
    test_trace b;
    trx_trace t;
    build_wrapped(&b, 3, false);
    for (uint32_t i = 0; i < CAP; i++)
        tb_entry_word(&b, i, 0, 0);
    tb_entry_word(&b, 5, 0, T); /* one thread word after the pointer, no data: id 0 ... */
    tb_entry_word(&b, 5, 2, 0);
    trx_image img;
    trx_error err;
    assert_int_equal(trx_image_load_memory(&img, b.bytes, b.size, TRX_FORMAT_BIN, &err), 0);
    assert_int_equal(trx_trace_open_image(&t, &img, "built", &err), -1);
    assert_non_null(strstr(err.message, "no intact trace entry"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_intact_wrapped_is_traceX_reading),
        cmocka_unit_test(test_threadx_halt_over_oldest),
        cmocka_unit_test(test_threadx_halt_not_wrapped),
        cmocka_unit_test(test_timer_range_decides),
        cmocka_unit_test(test_pointer_at_last_entry),
        cmocka_unit_test(test_holes_in_the_middle),
        cmocka_unit_test(test_cursor_skips_the_holes),
        cmocka_unit_test(test_nothing_intact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
