/*
 * damage_summary.c - one line saying what of a trace could not be trusted
 * and was skipped, whatever its format: TXTB entries a salvage skipped
 * (empty, half-written, stale, torn), UIA bytes that were no packet and
 * trx stream packets that failed their check. Every command that reads
 * events warns with it.
 */
#include <inttypes.h>
#include <stdio.h>

#include "trx/trx.h"
#include "trx/uia.h"

const char *trx_damage_name(trx_damage reason)
{
    switch (reason) {
    case TRX_DAMAGE_EMPTY:
        return "empty";
    case TRX_DAMAGE_HALF_WRITTEN:
        return "half-written";
    case TRX_DAMAGE_STALE:
        return "stale";
    case TRX_DAMAGE_TORN:
        return "torn";
    default:
        return "intact";
    }
}

void trx_trace_damage_summary(const trx_trace *t, char *buf, size_t size)
{
    if (size == 0)
        return;
    buf[0] = 0;
    const trx_uia_info *u = trx_uia_info_of(t);
    if (u && (u->garbage_bytes || u->corrupt_packets)) {
        snprintf(buf, size,
                 "%" PRIu64 " bytes that are no UIA packet (%" PRIu32 " place%s, %" PRIu32
                 " failing the check)",
                 u->garbage_bytes, u->garbage_runs, u->garbage_runs == 1 ? "" : "s",
                 u->corrupt_packets);
        return;
    }
    if (t->damaged_count == 0)
        return;
    int n = snprintf(buf, size, "%u damaged %s (", t->damaged_count,
                     t->damaged_count == 1 ? "entry" : "entries");
    const char *sep = "";
    for (int r = TRX_DAMAGE_EMPTY; r < TRX_DAMAGE_KINDS && n >= 0 && (size_t)n < size; r++) {
        if (t->damaged_by_reason[r] == 0)
            continue;
        n += snprintf(buf + n, size - (size_t)n, "%s%u %s", sep, t->damaged_by_reason[r],
                      trx_damage_name((trx_damage)r));
        sep = ", ";
    }
    if (n >= 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, ")");
}
