/* durations_output.h - the UIABenchmark durations (analyze/durations.h) as
 * JSON (`stats --json`, the report's data, /api/stats: one writer) and as
 * the text section of `trx stats`. */
#ifndef TRX_DURATIONS_OUTPUT_H
#define TRX_DURATIONS_OUTPUT_H

#include "analyze/durations.h"
#include "output/out_buffer.h"

/* The rows as a JSON array: [{"name", "core", "address", "count",
 * "incomplete", "unmatched_stops", "min_ticks", "mean_ticks", "max_ticks",
 * "worst": [{"start_ticks", "end_ticks", "ticks", "start_index",
 * "end_index"}, ...]}, ...] (docs/analyses.md). */
void trx_durations_write_json(trx_out *o, const trx_durations *d);

/* The text section: a row per (name, core), its worst interval. */
void trx_durations_write_text(trx_out *o, const trx_durations *d);

#endif
