/* stats_json.h - TraceX's statistics of a trace as JSON. */
#ifndef TRX_STATS_JSON_H
#define TRX_STATS_JSON_H

#include "output/out_buffer.h"
#include "trx/catalog.h"
#include "trx/stats.h"

/* Writes `s` (computed for `t`) as one JSON object; write errors stay in `o`.
 * Events are named as `trx events` names them (`ce`: custom events, or NULL). */
void trx_stats_write_json(const trx_trace *t, const trx_stats *s, const trx_custom_events *ce,
                          trx_out *o);

/* Inversions first .. first+count-1 of s (clamped) as the members of
 * "inversions" are written, comma-separated, without the brackets. */
void trx_stats_inversions_json(trx_out *o, const trx_trace *t, const trx_stats *s, uint32_t first,
                               uint32_t count);

/* The members that need to know which thread or ISR ran (threads,
 * performance, execution_profile, stack_usage, inversions, ticks_per_second,
 * isr, latency, cpu_load), each line ending in ",\n". */
void trx_stats_context_json(trx_out *o, const trx_trace *t, const trx_stats *s);

/* "swi": the software interrupts' durations by handle, ending in ",\n". */
void trx_stats_swi_json(trx_out *o, const trx_trace *t, const trx_stats *s);

#endif
