/*
 * intervals.h - the one interval engine: pairs a start with a stop and
 * keeps the figures of the complete intervals. Two parts:
 *
 * Results (trx_interval_result): one group's (a thread's responses, one
 * UIABenchmark name on one core) complete and incomplete counts, the
 * distribution of durations (and optionally of a second figure, the work
 * done inside: a response's execution) in log-linear histograms, and the N
 * worst intervals (longest first; ties: the earlier first). Memory grows
 * with the groups, never with the trace.
 *
 * Matcher (trx_interval_matcher): the intervals open now, by a 64-bit key
 * (a field value; core << 32 | a name's address ...). A start opens one (a
 * start of a key already open: the earlier never completes - the caller
 * counts it incomplete); a stop closes the open one of its key (none open:
 * an unmatched stop). Lost events: trx_interval_gap marks a gap on one lane
 * (a core) or on all; an interval that crossed a gap of its lane (or of all
 * lanes) is incomplete, never given a figure. An interval still open at the
 * end is incomplete. How many may be open at once is capped (max_open):
 * a start beyond it is refused (the caller counts it incomplete).
 *
 * Segments (issue 33: analysing parts of a trace apart, then merging): the
 * state of a segment is its open intervals, its results, and - when the
 * matcher was made with `segment` - each key's first touch in the segment:
 * a start (an interval of that key open in the segment before it never
 * completes), or a stop without a start (an orphan stop, kept with whether
 * a gap of its lane came before it in the segment: it may close the
 * previous segment's open interval). trx_interval_matcher_merge joins a
 * segment to the one before it; trx_interval_result_merge adds results.
 * Merging segments in order gives the figures of one pass over them all.
 */
#ifndef TRX_INTERVALS_H
#define TRX_INTERVALS_H

#include <stdbool.h>
#include <stdint.h>

#include "trx/latency.h"
#include "util/key_map.h"

/* --------------------------------------------------------------- results */

/* A group's figures: duration (and work) distributions, the worst ones. */
typedef struct trx_interval_result {
    uint64_t complete;   /* intervals with a figure */
    uint64_t incomplete; /* started or stopped outside the trace, across a gap, restarted */
    trx_latency_dist duration, work;
    trx_instance *worst; /* the `worst_count` longest, longest first */
    uint32_t worst_count, keep;
} trx_interval_result;

/* Zeroes `r` and makes room for the `keep` worst; 0, or -1 when out of memory. */
int trx_interval_result_init(trx_interval_result *r, uint32_t keep);

/* Adds a complete interval: its duration is in->response_ticks, its work
 * in->execution_ticks (counted in `work` only when with_work). */
void trx_interval_result_add(trx_interval_result *r, const trx_instance *in, bool with_work);

/* Adds `from` (a later segment's results of the same group, not finished)
 * to `into`. 0, or -1 when out of memory. */
int trx_interval_result_merge(trx_interval_result *into, const trx_interval_result *from);

/* Computes the percentiles and bins of the distributions (their histograms
 * are freed: no more adding or merging). */
void trx_interval_result_finish(trx_interval_result *r);

void trx_interval_result_free(trx_interval_result *r);

/* --------------------------------------------------------------- matcher */

#define TRX_INTERVAL_LANES 256u           /* lanes with gaps of their own (cores) */
#define TRX_INTERVAL_ALL_LANES UINT32_MAX /* a gap on every lane */

/* An interval open now. `owner`: the group it counts for (-1: none). */
typedef struct trx_open_interval {
    uint64_t key;
    int64_t owner;
    uint32_t lane;
    bool used;
    bool tainted; /* crossed a gap of an earlier segment (merge) */
    uint64_t start_index, start_ticks;
    uint64_t all_mark, lane_mark; /* gap counts when it started */
} trx_open_interval;

/* A segment's first stop of a key that had no start in the segment. */
typedef struct trx_orphan_stop {
    uint64_t key;
    uint32_t lane;
    bool after_gap; /* a gap of its lane came before it in the segment */
    uint64_t stop_index, stop_ticks;
} trx_orphan_stop;

typedef struct trx_interval_matcher {
    trx_open_interval *open; /* a pool: entries with `used` are open */
    uint32_t pool_size, open_count, max_open;
    uint32_t *free_list; /* unused pool entries */
    uint32_t free_count;
    trx_key_map by_key; /* key -> pool index */
    uint64_t all_gaps, lane_gaps[TRX_INTERVAL_LANES];
    /* segment: each key's first touch (value 0: a start; k + 1: orphans[k]) */
    bool segment;
    trx_key_map touched;
    trx_orphan_stop *orphans;
    uint32_t orphan_count, orphan_cap;
} trx_interval_matcher;

/* An empty matcher holding at most `max_open` open intervals (0: no cap),
 * keeping first touches when `segment`. 0, or -1 when out of memory. */
int trx_interval_matcher_init(trx_interval_matcher *m, uint32_t max_open, bool segment);

void trx_interval_matcher_free(trx_interval_matcher *m);

/* Events were lost here on `lane` (TRX_INTERVAL_ALL_LANES: on every lane). */
void trx_interval_gap(trx_interval_matcher *m, uint32_t lane);

enum {
    TRX_INTERVAL_OPENED = 0,    /* opened */
    TRX_INTERVAL_RESTARTED = 1, /* opened; *replaced: the earlier one of its key */
    TRX_INTERVAL_FULL = 2       /* max_open are open: not opened */
};

/* A start of `key` at event `index` / `ticks`: TRX_INTERVAL_*, or -1 when
 * out of memory (not opened). */
int trx_interval_start(trx_interval_matcher *m, uint64_t key, int64_t owner, uint32_t lane,
                       uint64_t index, uint64_t ticks, trx_open_interval *replaced);

/* A stop of `key`: 1 with *out the interval it closes (no longer open), 0
 * when none of its key is open (kept as an orphan when the segment has not
 * touched the key yet), -1 when out of memory. */
int trx_interval_stop(trx_interval_matcher *m, uint64_t key, uint32_t lane, uint64_t index,
                      uint64_t ticks, trx_open_interval *out);

/* True when open interval `o` crossed a gap of its lane (or of all lanes). */
bool trx_interval_crossed_gap(const trx_interval_matcher *m, const trx_open_interval *o);

/* What a merge resolves: an interval open at the end of the earlier segment
 * either closed by the later segment's orphan `stop`, complete (crossed no
 * gap), or incomplete (`stop` NULL: restarted, or a gap in between). */
typedef void (*trx_interval_resolved)(void *ctx, const trx_open_interval *start,
                                      const trx_orphan_stop *stop);

/* Joins `later` (the next segment, both made with `segment`) to `earlier`:
 * afterwards `earlier` is the state after both (later's open intervals
 * moved in; `later` is left empty). 0, or -1 when out of memory. */
int trx_interval_matcher_merge(trx_interval_matcher *earlier, trx_interval_matcher *later,
                               trx_interval_resolved resolved, void *ctx);

#endif
