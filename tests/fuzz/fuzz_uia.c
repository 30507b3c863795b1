/* fuzz_uia.c - lean libFuzzer target: the UIA decoder alone on arbitrary
 * bytes (forced UIA, byte order detected; no loader, no analyses, no
 * output): open (packets, halted/wrapped buffers, raw records, snapshots),
 * walk every event and decode its record. Checks: a failed open leaves a
 * one-line error inside the input; events are numbered consecutively, one
 * per record; every record lies inside the input; the gaps add up to the
 * lost total, each at an existing event; snapshots hold at most their total. */
#include <string.h>

#include "fuzz_check.h"

#include "trx/uia.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    trx_trace t;
    trx_endian endian = size > 0 && (data[size - 1] & 1) ? TRX_ENDIAN_AUTO : TRX_ENDIAN_LITTLE;
    if (!fuzz_open_trace(&t, data, size, TRX_TRACE_UIA, endian))
        return 0;
    const trx_uia_info *u = trx_uia_info_of(&t);
    if (!u || u->records == 0)
        __builtin_trap();
    uint64_t lost = 0;
    for (uint64_t g = 0; g < t.gap_count; g++) {
        if (t.gaps[g].index > u->records || t.gaps[g].lost == 0 ||
            (g && t.gaps[g].index <= t.gaps[g - 1].index))
            __builtin_trap();
        lost += t.gaps[g].lost;
    }
    if (lost != t.lost_events)
        __builtin_trap();
    for (uint32_t s = 0; s < u->snapshot_count; s++)
        if (u->snapshots[s].length > u->snapshots[s].total_length)
            __builtin_trap();
    trx_cursor c;
    if (trx_cursor_init(&c, &t) == 0) {
        trx_event ev;
        uint64_t n = 0, lost_seen = 0;
        while (trx_cursor_next(&c, &ev)) {
            if (ev.index != n++)
                __builtin_trap();
            trx_uia_record r;
            if (!trx_uia_record_get(&t, ev.entry, &r) || r.offset + r.length > size ||
                r.hdr_type > 12)
                __builtin_trap();
            lost_seen += ev.lost_before;
        }
        if (n != u->records || lost_seen + u->target_dropped != t.lost_events)
            __builtin_trap();
        trx_cursor_free(&c);
    }
    trx_trace_close(&t);
    return 0;
}
