/* timer_traces.h - built TXTB buffers whose time stamps test the open's
 * pass (test_open_counts: its parts; test_open_ticks: its checkpoints):
 * timers counting down through 0, masks that are no 2^n - 1, a half-written
 * entry. Include after trace_builder.h. */
#ifndef TRX_TEST_TIMER_TRACES_H
#define TRX_TEST_TIMER_TRACES_H

#include <stdbool.h>
#include <stdint.h>

#include "decode/trace_builder.h"

/* A wrapped buffer (at 29) counting down through 0 of a 16-bit timer, with
 * steps of exactly half the range and one more, and equal stamps. */
static inline void timer_trace_down_wrapped(test_trace *b, bool big_endian)
{
    tb_init(b, 0, 48, big_endian);
    tb_timer_mask(b, 0xFFFF);
    static const uint32_t steps[] = {3, 0x7FFF, 5, 0x8000, 0, 7, 0x8001, 1};
    uint32_t ts = 0x10;
    for (uint32_t i = 0; i < 48; i++) {
        tb_event(b, 0x20001000u + 0x100 * (i % 4), 0, 4096 + i, ts, 0, 0, 0, 0);
        ts = (ts - steps[i % 8]) & 0xFFFF;
    }
    tb_oldest(b, 29);
}

/* `entries` entries of a counter reloading at 99999 (a mask that is no
 * 2^n - 1) counting down and wrapping, wrapped at 20; entries 20-22 carry
 * `high` above the mask (masked off by the reader). */
static inline void timer_trace_odd_mask(test_trace *b, uint32_t entries, uint32_t high)
{
    tb_init(b, 0, entries, false);
    tb_timer_mask(b, 99999);
    uint32_t ts = 500;
    for (uint32_t i = 0; i < entries; i++) {
        uint32_t stamp = i < 20 ? 90000 + i : i < 23 ? 700 | high : ts;
        tb_event(b, 0xFFFFFFFFu - (i % 2), 0, 4096, stamp, 0, 0, 0, 0);
        ts = ts >= 37 ? ts - 37 : ts + 99963;
    }
    tb_oldest(b, 20);
}

/* A wrapped buffer (at 11) on two cores with a half-written entry (17: id 0,
 * its info left): the salvaging view skips it, TraceX's view reads it. */
static inline void timer_trace_half_written(test_trace *b)
{
    tb_init(b, 0, 40, false);
    for (uint32_t i = 0; i < 40; i++)
        tb_event(b, 0x20002000u + 0x40 * (i % 3), 0, 4096 | (i % 2) << 24, 100 + i * 9, 1, 0, 0, 0);
    tb_entry_word(b, 17, 2, 0);
    tb_oldest(b, 11);
}

#endif
