/* uia_stats.h - `trx stats` for a UIA trace: what needs no thread context -
 * events per (module, id) most frequent first, per-stream records, rates and
 * losses, and the lost-event gaps (text and --json). */
#ifndef TRX_UIA_STATS_H
#define TRX_UIA_STATS_H

#include "output/out_buffer.h"
#include "trx/catalog.h"
#include "trx/trx.h"

/* Writes the statistics of UIA trace `t`; 0, or -1 when out of memory. */
int trx_uia_stats_write(trx_trace *t, const trx_custom_events *ce, bool json, trx_out *o);

#endif
