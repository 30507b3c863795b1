/* stats_json_text.h - the segment tests' helpers: the JSON `trx stats
 * --json` and `trx latency --json` write, as a string (they compare the
 * one walk's with the segments' byte for byte), and how densely they cut
 * (test_sparse.h). */
#ifndef TRX_TEST_STATS_JSON_TEXT_H
#define TRX_TEST_STATS_JSON_TEXT_H

#include "trx/latency.h"
#include "trx/stats.h"
#include "../test_sparse.h"

/* The JSON of s (malloc'd; free it), or NULL when out of memory. */
char *stats_json_text(const trx_trace *t, const trx_stats *s);

/* The JSON of l (user intervals: `intervals`), malloc'd, or NULL. */
char *latency_json_text(const trx_trace *t, const trx_latency *l, bool intervals);

#endif
