/* uia_stats.h - `trx stats` for a UIA trace: events per (module, id) most
 * frequent first, per-stream records, rates and losses, the lost-event gaps,
 * the target's own Load reports, and - when the names mark SYS/BIOS's
 * scheduler events - tasks, interrupts, Swis, load and per-core figures from
 * the common analyses (text and --json). */
#ifndef TRX_UIA_STATS_H
#define TRX_UIA_STATS_H

#include "output/out_buffer.h"
#include "trx/catalog.h"
#include "trx/stats.h"
#include "trx/trx.h"

typedef struct trx_uia_stats_options {
    bool json;
    uint64_t window;           /* CPU load window in ticks, 0: a hundredth of the span */
    uint64_t ticks_per_second; /* 0: times in ticks */
    uint32_t rows;             /* text tables' rows, 0: all */
} trx_uia_stats_options;

/* Writes the statistics of UIA trace `t`: with SYS/BIOS's scheduler named,
 * the common analyses (the TXTB statistics' schema) in the same walk; 0, -1
 * when out of memory, or TRX_STATS_TOO_MANY_WINDOWS. */
int trx_uia_stats_write(trx_trace *t, const trx_custom_events *ce, const trx_uia_stats_options *opt,
                        trx_out *o);

#endif
