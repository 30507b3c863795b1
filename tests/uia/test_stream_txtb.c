/* test_stream_txtb.c - a stream of TXTB entries (what a TXTB drain sends:
 * docs/streaming.md) read as the TXTB trace it carries
 * (lib/decode/stream_txtb.c), at the library level: UIA packets written
 * here (uia_builder.c) with a registry snapshot whose file / line / format
 * words carry a 16-bit timer mask and FreeRTOS's profile, entries of two
 * tasks, a gap of three events; the opened trace must be FreeRTOS's with
 * that registry and mask, every event exactly the entry written (context,
 * priority word, id, time stamp, info words, ticks across the timer wrap),
 * the gap on the event after it with its index and ticks, also for a
 * cursor started after the gap; --trace-format uia keeps the records; a
 * stream whose rebuilt buffer has a damaged entry keeps every gap. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "decode/event_cursor_internal.h"
#include "trx/trx.h"
#include "uia_builder.h"

#define ALPHA 0x20001000u
#define IDLE 0x20002000u
#define QUEUE 0x20003000u
#define NAME_SIZE 16u
#define FREERTOS_8 (0x4652u << 16 | 8u) /* reserved3: FreeRTOS, configMAX_PRIORITIES 8 */

typedef struct entry {
    uint32_t seq; /* the record's sequence number: 4..6 are missing (lost) */
    uint32_t context, priority, id, ts, info[4];
} entry;

/* Time stamps of a 16-bit timer: wraps between the 3rd and the 4th entry. */
static const entry entries[] = {
    {1, 0xF0F0F0F0u, 0, 100, 0xFFF0, {ALPHA, 5, ALPHA + 0x400, 0x400}},
    {2, ALPHA, 0x80000005u, 69, 0xFFF8, {QUEUE, 0, 0xFFFFFFFFu, 1}},
    {3, ALPHA, 0x80000005u, 2, 0x0004, {ALPHA, 5, 0x20000F00u, IDLE}},
    {7, IDLE, 0x80000007u, 4096, 0x0100, {1, 2, 3, 4}},
    {8, IDLE, 0x80000007u, 1, 0x0108, {ALPHA, 5, 0x20001F00u, ALPHA}},
    {9, ALPHA, 0x80000005u, 4097, 0x0110, {0xFFFFFFEEu, 0, 0, 7}},
};
#define ENTRIES (sizeof entries / sizeof entries[0])
/* ticks of each: 0, +8, +12 (wrap at 0x10000), +252, +8, +8 */
static const uint64_t ticks[ENTRIES] = {0, 8, 20, 272, 280, 288};

static void registry_entry(uint8_t *e, uint8_t type, uint32_t address, uint32_t p1, uint32_t p2,
                           uint8_t r1, uint8_t r2, const char *name)
{
    memset(e, 0, 16 + NAME_SIZE);
    e[0] = 0; /* in use */
    e[1] = type;
    e[2] = r1;
    e[3] = r2;
    for (int k = 0; k < 4; k++) {
        e[4 + k] = (uint8_t)(address >> 8 * k);
        e[8 + k] = (uint8_t)(p1 >> 8 * k);
        e[12 + k] = (uint8_t)(p2 >> 8 * k);
    }
    memcpy(e + 16, name, strlen(name));
}

/* Whether the entries keep their sequence numbers (the gap of three) and
 * the snapshot has no time stamp, or (false) are numbered 1..6 after a
 * timed snapshot, their time stamps unwrapped (the same low 16 bits): then
 * every entry is read by the open's run of plain records (uia_open.c
 * add_run), none by add_record. */
static bool keep_gap = true;

/* Whether the entry after the gap is written with context word 0 (a
 * half-written entry, which the view skips). */
static bool damaged_after_gap = false;

/* The stream: one packet, the registry snapshot, then the entries. */
static void build(ub *b)
{
    uint8_t reg[3 * (16 + NAME_SIZE)];
    registry_entry(reg, 1, ALPHA, ALPHA - 0x400, 0x400, 0x80, 5, "alpha");
    registry_entry(reg + 32, 1, IDLE, IDLE - 0x200, 0x200, 0x80, 7, "IDLE");
    registry_entry(reg + 64, 3, QUEUE, 4, 16, 0, 0, "q");
    ub_init(b, false);
    size_t pkt = ub_packet_begin(b, 0, 0, 0, 0);
    ub_snapshot_ex(b, keep_gap ? 2 : 3, 0, keep_gap ? 0 : entries[0].ts, 5u << 16 | 0x5452u,
                   0xFFFFu, FREERTOS_8, NAME_SIZE, 0, reg, sizeof reg, sizeof reg, IDLE, false);
    for (size_t i = 0; i < ENTRIES; i++) {
        const entry *e = &entries[i];
        uint32_t context = damaged_after_gap && e->seq == 7 ? 0 : e->context;
        uint32_t a[8] = {e->info[0], e->info[1],  e->info[2], e->info[3],
                         context,    e->priority, e->id,      0x54585442u};
        if (keep_gap)
            ub_event(b, 1, e->seq, e->ts, e->id, 0, a, 8);
        else
            ub_event(b, 1, (uint32_t)i + 1, entries[0].ts + ticks[i], e->id, 0, a, 8);
    }
    ub_packet_end(b, pkt);
}

static void open_stream(trx_trace *t, bool force_uia)
{
    ub b;
    build(&b);
    trx_image img;
    trx_error err;
    assert_int_equal(trx_image_load_memory(&img, b.buf, b.len, TRX_FORMAT_BIN, &err), 0);
    ub_free(&b);
    trx_open_options o;
    memset(&o, 0, sizeof o);
    o.force_format = force_uia;
    o.trace_format = TRX_TRACE_UIA;
    assert_int_equal(trx_trace_open_image_with(t, &img, "stream.uia", &o, &err), 0);
}

/* Checks event `ev` is entry `i`, as written, `lost` events before it. */
static void same_entry(const trx_event *ev, size_t i, uint32_t lost)
{
    const entry *e = &entries[i];
    assert_false(ev->synthetic);
    assert_int_equal(ev->context, e->context);
    assert_int_equal(ev->raw_priority, e->priority);
    assert_int_equal(ev->id, e->id);
    assert_int_equal(ev->timestamp, e->ts);
    assert_int_equal(ev->ticks, ticks[i]);
    for (int k = 0; k < 4; k++)
        assert_int_equal(ev->info[k], e->info[k]);
    assert_int_equal(ev->lost_before, lost);
}

static void test_read_as_its_rtos(void **state)
{
    (void)state;
    trx_trace t;
    open_stream(&t, false);
    assert_int_equal(t.format, TRX_TRACE_TXTB);
    assert_non_null(t.stream_source);
    assert_int_equal(t.stream_source->format, TRX_TRACE_UIA);
    assert_int_equal(t.rtos, TRX_RTOS_FREERTOS);
    assert_int_equal(t.rtos_priorities, 8);
    assert_int_equal(t.idle_task, IDLE);
    assert_int_equal(t.header.timer_mask, 0xFFFFu);
    assert_int_equal(t.header.name_size, NAME_SIZE);
    assert_int_equal(t.registry_entries, 3);
    assert_int_equal(t.registry_used, 3);
    assert_false(trx_registry_full(&t) && t.registry_free != 0);
    assert_false(t.wrapped);
    assert_int_equal(t.used, ENTRIES);
    assert_string_equal(trx_context_name(&t, ALPHA), "alpha");
    assert_int_equal(trx_shown_priority(&t, 5), 2); /* FreeRTOS's own numbering */
    assert_int_equal(t.gap_count, 1);
    assert_int_equal(t.lost_events, 3);
    trx_trace_close(&t);
}

static void test_every_event_and_the_gap(void **state)
{
    (void)state;
    trx_trace t;
    open_stream(&t, false);
    trx_trace_set_mode(&t, TRX_MODE_TRACEX); /* the entries as stored, idle task a thread */
    trx_cursor c;
    assert_int_equal(trx_cursor_init(&c, &t), 0);
    const trx_event *ev;
    size_t i = 0;
    uint64_t prev_ticks = 0, gap_index = UINT64_MAX;
    while ((ev = trx_cursor_next_ref(&c)) != NULL) {
        if (ev->synthetic) {
            assert_int_equal(ev->lost_before, 0);
            prev_ticks = ev->ticks;
            continue;
        }
        assert_true(i < ENTRIES);
        same_entry(ev, i, entries[i].seq == 7 ? 3 : 0);
        if (entries[i].seq == 7) {
            gap_index = ev->index;
            assert_int_equal(t.gaps[0].from_ticks, prev_ticks);
        }
        prev_ticks = ev->ticks;
        i++;
    }
    assert_int_equal(i, ENTRIES);
    assert_int_equal(t.gaps[0].index, gap_index);
    assert_int_equal(t.gaps[0].lost, 3);
    assert_int_equal(t.gaps[0].to_ticks, ticks[3]);
    trx_trace_close(&t);
}

/* Cursors started after the first entry (trx serve's checkpoints, the
 * overview's halves): the gap is met only when they pass it. */
static void test_cursor_started_inside(void **state)
{
    (void)state;
    trx_trace t;
    open_stream(&t, false);
    for (uint32_t raw = 1; raw < ENTRIES; raw++) {
        trx_cursor c;
        assert_int_equal(trx_cursor_init_at(&c, &t, raw), 0);
        const trx_event *ev;
        uint64_t lost = 0;
        size_t i = raw;
        while ((ev = trx_cursor_next_ref(&c)) != NULL) {
            lost += ev->lost_before;
            if (!ev->synthetic && i < ENTRIES)
                assert_int_equal(ev->lost_before, entries[i++].seq == 7 ? 3 : 0);
        }
        assert_int_equal(lost, raw <= 3 ? 3 : 0);
    }
    trx_trace_close(&t);
}

/* A stream whose rebuilt buffer has a damaged entry the view skips
 * (stream_damaged_gaps.bin, found by fuzz_segments: 16 gaps, 524 events
 * lost, entry 126 half-written): every gap reaches an event - the one walk
 * carries all the events lost - and a cursor started at any entry gives
 * each entry's event the one walk's lost count (a cursor started past the
 * skipped entry once looked for a gap at an entry it never meets, and
 * lost every later gap). */
static void test_gaps_past_a_skipped_entry(void **state)
{
    (void)state;
    trx_trace t;
    trx_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(trx_trace_open(&t, TRX_SOURCE_DIR "/tests/uia/stream_damaged_gaps.bin",
                                    TRX_FORMAT_AUTO, &err),
                     0);
    assert_int_equal(t.damaged_count, 1);
    assert_true(t.gap_count > 1);
    uint32_t *lost_at = calloc(t.capacity, sizeof *lost_at); /* by physical entry */
    assert_non_null(lost_at);
    trx_cursor c;
    assert_int_equal(trx_cursor_init(&c, &t), 0);
    const trx_event *ev;
    uint64_t lost = 0;
    while ((ev = trx_cursor_next_ref(&c)) != NULL) {
        lost += ev->lost_before;
        if (!ev->synthetic)
            lost_at[ev->entry] = ev->lost_before;
        else
            assert_int_equal(ev->lost_before, 0);
    }
    assert_int_equal(lost, t.lost_events);
    for (uint32_t raw = 1; raw < t.used; raw++) {
        assert_int_equal(trx_cursor_init_at(&c, &t, raw), 0);
        while ((ev = trx_cursor_next_ref(&c)) != NULL)
            if (!ev->synthetic)
                assert_int_equal(ev->lost_before, lost_at[ev->entry]);
    }
    free(lost_at);
    trx_trace_close(&t);
}

/* The gap's entry (after it) is half-written: the three events lost go to
 * the next entry's event, in the one walk and from every start. */
static void test_gap_before_a_skipped_entry(void **state)
{
    (void)state;
    trx_trace t;
    damaged_after_gap = true;
    open_stream(&t, false);
    damaged_after_gap = false;
    assert_int_equal(t.damaged_count, 1);
    assert_int_equal(t.lost_events, 3);
    for (uint32_t raw = 0; raw < t.used; raw++) {
        trx_cursor c;
        assert_int_equal(raw ? trx_cursor_init_at(&c, &t, raw) : trx_cursor_init(&c, &t), 0);
        const trx_event *ev;
        uint64_t lost = 0;
        while ((ev = trx_cursor_next_ref(&c)) != NULL) {
            if (!ev->synthetic && ev->entry == 4) { /* seq 8: the first entry after the gap read */
                assert_int_equal(ev->lost_before, 3);
                if (raw == 0) { /* the gap numbered as its event */
                    assert_int_equal(t.gaps[0].index, ev->index);
                    assert_int_equal(t.gaps[0].to_ticks, ev->ticks);
                }
            }
            lost += ev->lost_before;
        }
        assert_int_equal(lost, raw <= 3 ? 3 : 0); /* raw 3: the entry of seq 8 */
    }
    trx_trace_close(&t);
}

static void test_records_view_kept(void **state)
{
    (void)state;
    trx_trace t;
    open_stream(&t, true);
    assert_int_equal(t.format, TRX_TRACE_UIA);
    assert_null(t.stream_source);
    assert_int_equal(t.lost_events, 3);
    trx_trace_close(&t);
}

/* No gap: the open's run of plain records reads every entry; the stream
 * is still told a TXTB one (trx_uia_has_record_like finds its entries'
 * module among the run's records) and every entry read as written. */
static void test_entries_in_one_run(void **state)
{
    (void)state;
    keep_gap = false;
    trx_trace t;
    open_stream(&t, false);
    keep_gap = true;
    assert_int_equal(t.format, TRX_TRACE_TXTB);
    assert_non_null(t.stream_source);
    assert_int_equal(t.rtos, TRX_RTOS_FREERTOS);
    assert_int_equal(t.used, ENTRIES);
    assert_int_equal(t.gap_count, 0);
    assert_int_equal(t.lost_events, 0);
    trx_trace_set_mode(&t, TRX_MODE_TRACEX);
    trx_cursor c;
    assert_int_equal(trx_cursor_init(&c, &t), 0);
    const trx_event *ev;
    size_t i = 0;
    while ((ev = trx_cursor_next_ref(&c)) != NULL) {
        if (ev->synthetic)
            continue;
        assert_true(i < ENTRIES);
        same_entry(ev, i, 0);
        i++;
    }
    assert_int_equal(i, ENTRIES);
    trx_trace_close(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_as_its_rtos),
        cmocka_unit_test(test_every_event_and_the_gap),
        cmocka_unit_test(test_cursor_started_inside),
        cmocka_unit_test(test_gaps_past_a_skipped_entry),
        cmocka_unit_test(test_gap_before_a_skipped_entry),
        cmocka_unit_test(test_records_view_kept),
        cmocka_unit_test(test_entries_in_one_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
