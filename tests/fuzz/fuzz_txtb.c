/* fuzz_txtb.c - lean libFuzzer target: the TXTB decoder alone on arbitrary
 * bytes taken as a binary buffer (no loader, no analyses, no output): open
 * (header, registry, entry order, timer vote), read every entry in
 * chronological order, run TraceX's event model once and walk its events.
 * Checks: a failed open leaves a one-line error inside the input; events are
 * numbered consecutively and as many as prepare counted. */
#include <string.h>

#include "fuzz_check.h"

#include "trx/trx.h"

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
