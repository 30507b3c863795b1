/* stats_segments.h - trx_stats computed over segments of a trace, each
 * walked on its own thread, and merged (segment_merge.h tells the scheme):
 * the results are the one walk's, byte for byte, for every cut. */
#ifndef TRX_STATS_SEGMENTS_H
#define TRX_STATS_SEGMENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "analyze/stats_walk.h"

/* What the merges did, per unit (STATS_U_* bit k at [k]): boundaries where
 * the segment's results were merged, and where the part before walked the
 * segment again (its state differed from the segment's start). */
typedef struct trx_segment_report {
    uint32_t segments;
    uint64_t merged[STATS_UNIT_COUNT], walked_again[STATS_UNIT_COUNT];
    uint64_t guesses_failed; /* boundaries where the cursor's RUNNING priorities differed */
} trx_segment_report;

/* trx_stats_compute_segments of an unprepared TXTB trace whose events name
 * a context that is no registered thread: the trace must be prepared (it
 * gains Un-named Threads) before its statistics; s is empty. */
#define TRX_STATS_SEGMENTS_UNPREPARED 1

/* The name of unit bit k (for reports). */
const char *trx_stats_unit_name(uint32_t k);

/* trx_stats_compute_windowed over the segments starting at `cuts` (n of
 * them, ascending: raw entries of a TXTB trace, moved on to the next
 * thread's event; event numbers of a UIA trace), each starting its
 * analyses `warm` entries (events) before its first one; `threads`: each
 * segment on a thread of its own (else one after the other). An
 * unprepared trace is prepared by the segments' walks (or not at all:
 * TRX_STATS_SEGMENTS_UNPREPARED). `report` (may be NULL) tells what merged.
 * 0, -1 out of memory, TRX_STATS_TOO_MANY_WINDOWS. */
int trx_stats_compute_segments(trx_trace *t, trx_stats *s, uint64_t window, const uint64_t *cuts,
                               uint32_t n, uint64_t warm, bool threads, trx_segment_report *report);

/* trx_stats_compute_segments keeping the first kept->keep inversions of
 * the default mode whole, as trx_stats_compute_kept: each other one goes to
 * kept->done once, with the number the one walk gives it, on the calling
 * thread only (segment 0's as they end, each later segment's at its merge). */
int trx_stats_compute_segments_kept(trx_trace *t, trx_stats *s, uint64_t window,
                                    const uint64_t *cuts, uint32_t n, uint64_t warm, bool threads,
                                    trx_segment_report *report, const trx_kept_inversions *kept);

/* trx_stats_compute_segments_kept feeding `x` (NULL: none; else with fork,
 * clear, join and discard) beside the statistics in every segment: a unit
 * of its own (STATS_U_EXTRA) that always joins. */
int trx_stats_compute_segments_with(trx_trace *t, trx_stats *s, uint64_t window,
                                    const uint64_t *cuts, uint32_t n, uint64_t warm, bool threads,
                                    trx_segment_report *report, const trx_kept_inversions *kept,
                                    const trx_stats_extra *x);

/* The cuts trx_stats_compute uses for `jobs` segments of a TXTB trace (thread
 * events near equal shares of the entries): how many it wrote to `cuts`
 * (room for jobs - 1). */
uint32_t trx_stats_plan_cuts(const trx_trace *t, uint32_t jobs, uint64_t *cuts);

#endif
