/* stats_text.h - `trx stats`: TraceX's statistics as a readable report. */
#ifndef TRX_STATS_TEXT_H
#define TRX_STATS_TEXT_H

#include "output/out_buffer.h"
#include "trx/catalog.h"
#include "trx/stats.h"

/* Writes the report of `s` (computed for `t`); events named as `trx events`
 * names them (`ce`: custom events, or NULL). Tables of threads and
 * inversions list at most `rows` rows (the most telling: busiest, fullest
 * stack, longest, unbounded) and how many more; 0: every row. */
void trx_stats_write_text(const trx_trace *t, const trx_stats *s, const trx_custom_events *ce,
                          uint32_t rows, trx_out *o);

/* The part of the report that needs to know which thread or interrupt ran:
 * performance, inversions, execution profile, stacks, ISR / Swi durations,
 * latencies and CPU load. */
void trx_stats_context_text(const trx_trace *t, const trx_stats *s, uint32_t rows, trx_out *o);

/* The rows `trx stats` lists per table unless told otherwise. */
#define TRX_STATS_TEXT_ROWS 100u

#endif
