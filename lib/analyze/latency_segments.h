/* latency_segments.h - trx latency (latency.c) over segments of a TXTB trace
 * on threads, merged in trace order (latency_segments.c; the scheme is
 * segment_merge.h's): the analysis's side of it - its state's fingerprint,
 * the warm-up's results cleared, the merge - and the driver. */
#ifndef TRX_LATENCY_SEGMENTS_H
#define TRX_LATENCY_SEGMENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "analyze/analyses.h"
#include "analyze/segment_merge.h"
#include "trx/latency.h"

/* trx_latency_compute_parallel: not on segments (the caller walks once). */
#define TRX_LATENCY_ONE_WALK 1
/* trx_latency_compute_segments of an unprepared trace whose events name a
 * context that is no registered thread: prepare it first (out is freed). */
#define TRX_LATENCY_UNPREPARED 2

/* What the merges did. */
typedef struct trx_latency_seg_report {
    uint32_t segments;
    uint64_t merged, walked_again, guesses_failed;
} trx_latency_seg_report;

/* trx_latency_start when the caller knows whether `t` is a ThreadX SMP
 * trace (trx_instance_rules_init_as; < 0: find out). */
int trx_latency_start_as(trx_latency *l, trx_trace *t, const trx_latency_options *o, int txtb_smp);

/* Adds the state of started analysis `l` (rules, open instances, the
 * paired user intervals open, each core's last ticks; event numbers as
 * number - base) to *f. */
void trx_latency_fingerprint(const trx_latency *l, trx_fingerprint *f, uint64_t base);

/* Forgets the results so far (a warm-up's), keeping the state; numbers[i]
 * (thread_count of them) gets thread i's instance count so far. 0, or -1
 * when out of memory. */
int trx_latency_clear_results(trx_latency *l, uint64_t *numbers);

/* Joins `later` (a segment whose state at its first event fingerprinted as
 * `earlier`'s state now; `later_numbers` from trx_latency_clear_results)
 * to `earlier`: later's results follow earlier's (instance numbers and
 * event numbers shifted: + offset), and earlier's state becomes later's
 * end state. Each thread's rule state is checked here, not fingerprinted:
 * one the segment's warm-up did not touch takes earlier's, if earlier's
 * makes the segment's first change of it. 0; TRX_MERGE_REFUSED (nothing
 * changed: a thread's state disagrees); -1 when out of memory. */
int trx_latency_merge(trx_latency *later, trx_latency *earlier, const uint64_t *later_numbers,
                      uint64_t offset);

/* trx_latency_compute over the segments starting at `cuts` (n raw
 * entries, ascending, moved on to threads' events), each starting its
 * walk `warm` entries before its first; `threads`: each on its own thread
 * (segment_driver.h). An unprepared trace is prepared by the segments'
 * walks in parts. `report` may be NULL. 0, -1 out of memory, or
 * TRX_LATENCY_UNPREPARED. */
int trx_latency_compute_segments(trx_trace *t, const trx_latency_options *o, trx_latency *out,
                                 const uint64_t *cuts, uint32_t n, uint64_t warm, bool threads,
                                 trx_latency_seg_report *report);

/* trx_latency_compute on segments, one per job (trx_trace_jobs) when the
 * trace is a TXTB trace large enough, with few threads, and the options
 * allow it (the trace is prepared then): 0, -1 (out of memory), or
 * TRX_LATENCY_ONE_WALK (out untouched, the trace maybe unprepared). */
int trx_latency_compute_parallel(trx_trace *t, const trx_latency_options *o, trx_latency *out);

/* trx latency as the statistics' caller's analysis (trx_stats_extra), so
 * that one walk over segments computes both (trx_stats_latency_compute):
 * trx_latency_extra_new starts `out` (NULL: out of memory, out untouched);
 * feed trx_latency_extra_of's analysis to the statistics; then
 * trx_latency_extra_end finishes `out` when the walk `fed` it the whole
 * trace (0, or -1: out of memory, out freed), else frees it (-1), and
 * frees e. */
typedef struct trx_latency_extra trx_latency_extra;
trx_latency_extra *trx_latency_extra_new(trx_trace *t, const trx_latency_options *o,
                                         trx_latency *out);
const trx_stats_extra *trx_latency_extra_of(const trx_latency_extra *e);
int trx_latency_extra_end(trx_latency_extra *e, bool fed);

#endif
