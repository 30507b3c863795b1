/* txtb_scan.h - the TXTB open's one pass over the entries (txtb_scan.c): what
 * the open and the salvaging view need and, when asked, `trx info`'s per-core
 * counts and time check in the same pass, in parts on several threads. */
#ifndef TRX_TXTB_SCAN_H
#define TRX_TXTB_SCAN_H

#include <stdbool.h>
#include <stdint.h>

#include "decode/core_counts.h"
#include "decode/txtb_salvage.h"
#include "trx/trx.h"

/* Steps between time stamps counted so that the time check's figures follow
 * for either timer direction (voted on in the same pass, so not known while
 * the stamps are read): trx_time_both_check. `up` is a step's length counting
 * up, (ts - prev) modulo the timer range. */
typedef struct trx_time_tally {
    uint64_t ups, downs;                    /* steps whose stamp grows / shrinks */
    uint64_t span_up;                       /* the ups' lengths */
    uint64_t large, large_span, large_edge; /* up > mask / 2: count, lengths, up == mask / 2 + 1 */
} trx_time_tally;

/* The time check's figures over a trace's entries in time order. */
typedef struct trx_time_both {
    uint64_t steps;
    trx_time_tally tally;
    uint32_t first_stamp;
    uint64_t leading_same;
} trx_time_both;

/* What the open's pass counted for `trx info` (trx_open_options.core_counts):
 * the entries of TraceX's view, `used` entries from physical `oldest`. The
 * counts' first appearances are order keys, monotonic in the view's order. */
typedef struct trx_open_counts {
    uint32_t used, oldest;
    trx_core_counts counts;
    trx_time_both time;
} trx_open_counts;

/* Smallest number of entries a part of the pass has before the pass is cut
 * into parts, one a thread (tests lower it to cut small traces). */
extern uint32_t trx_txtb_scan_part_min;

/* The pass over t->entries into `r`, in up to `jobs` parts on as many threads
 * (0: as many as the machine has). With `count`, also the per-core counts and
 * time figures of TraceX's view into t->open_counts_ (left NULL when the
 * entries after the first zero thread word hold anything, or out of memory). */
void trx_txtb_scan(trx_trace *t, uint32_t jobs, bool count, trx_scan_result *r);

/* The time check of the figures for the trace's current timer direction. */
void trx_time_both_check(const trx_time_both *b, const trx_trace *t, trx_time_check *out);

/* Frees t->open_counts_. */
void trx_open_counts_free(trx_trace *t);

#endif
