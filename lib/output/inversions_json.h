/* inversions_json.h - the members of `trx stats --json`'s "inversions" list,
 * written fast: each thread and lock name escaped once, the numbers and
 * words put straight into the output buffer. */
#ifndef TRX_INVERSIONS_JSON_H
#define TRX_INVERSIONS_JSON_H

#include "output/out_buffer.h"
#include "trx/stats.h"

/* Writes inversions first .. end-1 of `s` (end <= s->inversion_count) as
 * the members of "inversions", comma-separated, without the brackets
 * (trx_stats_inversions_json). Out of memory: the error ENOMEM in `o`
 * (trx_out_flush fails). */
void trx_inversions_json_write(trx_out *o, const trx_trace *t, const trx_stats *s, uint32_t first,
                               uint32_t end);

#endif
