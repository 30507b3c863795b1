/* stats_json.h - TraceX's statistics of a trace as JSON. */
#ifndef TRX_STATS_JSON_H
#define TRX_STATS_JSON_H

#include <stdio.h>

#include "trx/stats.h"

/* Writes `s` (computed for `t`) as one JSON object. 0, or -1 on a write error. */
int trx_stats_write_json(FILE *f, const trx_trace *t, const trx_stats *s);

#endif
