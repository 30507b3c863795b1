/* fuzz_txtb.c - lean libFuzzer target: the TXTB decoder alone on arbitrary
 * bytes taken as a binary buffer (no loader, no analyses, no output): open
 * (header, registry, entry order, timer vote), read every entry in
 * chronological order, run TraceX's event model once and walk its events.
 * Checks: a failed open leaves a one-line error inside the input; events are
 * numbered consecutively and as many as prepare counted; opened with the
 * time figures of the open's pass (time_counts: checkpoints), the ticks at
 * a few entries and the time check equal the linear passes'. */
#include <string.h>

#include "fuzz_check.h"

#include "decode/event_cursor_internal.h"
#include "trx/trx.h"

/* The open's checkpoints (time_counts) against the linear passes of `t`. */
static void same_ticks(const trx_trace *t, const uint8_t *data, size_t size)
{
    trx_trace c;
    if (!fuzz_open_trace_counted(&c, data, size, TRX_TRACE_TXTB, TRX_ENDIAN_AUTO, NULL, true))
        __builtin_trap(); /* the same bytes opened before */
    if (c.used != t->used)
        __builtin_trap();
    if (t->used > 0) {
        uint32_t at[3] = {0, t->used / 3, t->used - 1};
        uint64_t a[3], b[3];
        uint32_t sa[3], sb[3];
        trx_trace_ticks_at(t, at, 3, a, sa);
        trx_trace_ticks_at(&c, at, 3, b, sb);
        for (int k = 0; k < 3; k++)
            if (a[k] != b[k] || sa[k] != sb[k])
                __builtin_trap();
    }
    trx_time_check x, y;
    trx_trace_time_check(t, &x);
    trx_trace_time_check(&c, &y);
    if (x.verdict != y.verdict || x.steps != y.steps || x.span != y.span ||
        x.large_steps != y.large_steps)
        __builtin_trap();
    trx_trace_close(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    trx_trace t;
    if (!fuzz_open_trace(&t, data, size, TRX_TRACE_TXTB, TRX_ENDIAN_AUTO))
        return 0;
    if (t.used > t.capacity)
        __builtin_trap();
    uint32_t sum = 0;
    for (uint32_t i = 0; i < t.used; i++) {
        trx_entry e;
        trx_trace_entry(&t, i, &e);
        sum += e.id;
    }
    volatile uint32_t sink = sum;
    (void)sink;
    same_ticks(&t, data, size);
    trx_trace_prepare(&t);
    trx_cursor c;
    if (trx_cursor_init(&c, &t) == 0) {
        trx_event ev;
        uint64_t n = 0;
        while (trx_cursor_next(&c, &ev))
            if (ev.index != n++)
                __builtin_trap();
        if (n != t.total_events)
            __builtin_trap();
        trx_cursor_free(&c);
    }
    trx_trace_close(&t);
    return 0;
}
