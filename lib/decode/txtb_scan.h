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

/* What the open's pass counted (trx_open_options.core_counts or
 * time_counts): the entries of TraceX's view, `used` entries from physical
 * `oldest`. The counts' first appearances are order keys, monotonic in the
 * view's order. */
typedef struct trx_open_counts {
    uint32_t used, oldest;
    bool has_core_counts; /* `counts` filled (core_counts), else empty */
    trx_core_counts counts;
    trx_time_both time;
    uint8_t core_bits; /* the entries' core bytes (id bits 24-31) or-ed */
    /* the steps from the view's first entry through physical entry q (a
     * multiple of 2^tick_shift below `used`): their `up` lengths summed and
     * how many change the stamp (trx_time_tally's span_up, ups + downs), from
     * which the relative ticks follow in either timer direction (open_ticks.c) */
    uint32_t tick_shift;
    uint64_t *tick_span_up, *tick_changes;
} trx_open_counts;

/* log2 of the entries between two tick checkpoints (trx_open_counts; tests
 * lower it). */
extern uint32_t trx_txtb_tick_shift;

/* Smallest number of entries a part of the pass has before the pass is cut
 * into parts, one a thread (tests lower it to cut small traces). */
extern uint32_t trx_txtb_scan_part_min;

/* What the pass counts besides what the open needs. */
typedef enum trx_scan_counting {
    TRX_SCAN_COUNT_NONE = 0,
    TRX_SCAN_COUNT_TIME,  /* time figures, core bits, tick checkpoints (trx stats) */
    TRX_SCAN_COUNT_CORES, /* those and the per-core counts (trx info) */
} trx_scan_counting;

/* The pass over t->entries into `r`, in up to `jobs` parts on as many threads
 * (0: as many as the machine has). With `counting`, also the figures of
 * TraceX's view into t->open_counts_ (left NULL when the entries after the
 * first zero thread word hold anything, or out of memory). */
void trx_txtb_scan(trx_trace *t, uint32_t jobs, trx_scan_counting counting, trx_scan_result *r);

/* Whether t->open_counts_ describes the entries of the trace's current view
 * (TXTB, no order of the view's own, the same entries). */
bool trx_open_counts_fit(const trx_trace *t);

/* The time check of the figures for the trace's current timer direction. */
void trx_time_both_check(const trx_time_both *b, const trx_trace *t, trx_time_check *out);

/* Frees t->open_counts_. */
void trx_open_counts_free(trx_trace *t);

#endif
