/* stats_json.h - TraceX's statistics of a trace as JSON. */
#ifndef TRX_STATS_JSON_H
#define TRX_STATS_JSON_H

#include "output/out_buffer.h"
#include "trx/stats.h"

/* Writes `s` (computed for `t`) as one JSON object; write errors stay in `o`. */
void trx_stats_write_json(const trx_trace *t, const trx_stats *s, trx_out *o);

#endif
