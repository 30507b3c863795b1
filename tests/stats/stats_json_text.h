/* stats_json_text.h - the JSON `trx stats --json` writes, as a string (the
 * segment tests compare the one walk's with the segments' byte for byte). */
#ifndef TRX_TEST_STATS_JSON_TEXT_H
#define TRX_TEST_STATS_JSON_TEXT_H

#include "trx/stats.h"

/* The JSON of s (malloc'd; free it), or NULL when out of memory. */
char *stats_json_text(const trx_trace *t, const trx_stats *s);

#endif
