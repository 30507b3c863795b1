/* stats_text.h - `trx stats`: TraceX's statistics as a readable report. */
#ifndef TRX_STATS_TEXT_H
#define TRX_STATS_TEXT_H

#include "output/out_buffer.h"
#include "trx/stats.h"

/* Writes the report of `s` (computed for `t`). */
void trx_stats_write_text(const trx_trace *t, const trx_stats *s, trx_out *o);

#endif
