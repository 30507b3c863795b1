/* inversions_json.h - the members of `trx stats --json`'s "inversions" list,
 * written fast: each thread and lock name escaped once, the numbers and
 * words put straight into the buffer, long lists formatted in chunks on
 * helper threads and written in order (the same bytes whatever the jobs). */
#ifndef TRX_INVERSIONS_JSON_H
#define TRX_INVERSIONS_JSON_H

#include "output/out_buffer.h"
#include "trx/stats.h"

/* Inversions in a chunk a helper thread formats, unless told otherwise. */
#define TRX_INVERSIONS_JSON_CHUNK 4096u

/* Writes inversions first .. end-1 of `s` (end <= s->inversion_count) as
 * trx_stats_inversions_json does; with `jobs` > 1 and more than 2 `chunk`s
 * of them (0: TRX_INVERSIONS_JSON_CHUNK), chunks after the calling thread's
 * are formatted on up to jobs - 1 helper threads. Out of memory: the
 * error ENOMEM in `o` (trx_out_flush fails). */
void trx_inversions_json_write(trx_out *o, const trx_trace *t, const trx_stats *s, uint32_t first,
                               uint32_t end, uint32_t jobs, uint32_t chunk);

#endif
