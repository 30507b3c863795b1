/*
 * segment_driver.h - runs an analysis over segments of a trace, each walked
 * on a thread of its own, and merges them in trace order (the scheme is
 * segment_merge.h's): segment 0 walks from the start into the caller's
 * analysis; segment k >= 1 starts a fresh analysis a warm-up before its first
 * event, fingerprints each of its units there and forgets the warm-up's
 * results. At the merge, a unit of the part before whose state has the same
 * fingerprint (and whose cursor agrees with the segment's RUNNING guesses)
 * joins the segment's; any other walks the segment again itself, from a copy
 * of the segment's cursor made exact. An unprepared TXTB trace is prepared by
 * the segments' walks, in parts. Used by the statistics (stats_segments.c)
 * and trx latency (latency_segments.c).
 */
#ifndef TRX_SEGMENT_DRIVER_H
#define TRX_SEGMENT_DRIVER_H

#include <stdbool.h>
#include <stdint.h>

#include "analyze/segment_merge.h"
#include "trx/trx.h"

#define TRX_SEGMENT_UNITS 32u /* units of one analysis at most */

/* trx_segments_run on an unprepared TXTB trace whose events name a context
 * that is no registered thread: prepare it, then run again. */
#define TRX_SEGMENTS_UNPREPARED 1

/* What an analysis provides. `a` is one segment's analysis. */
typedef struct trx_segment_ops {
    /* Makes segment k's analysis (k = 0: the caller's, which the driver
     * never frees); `span`: the trace's largest relative ticks. 0 or -1. */
    int (*start)(void *ctx, uint32_t k, uint64_t span, void **a);
    /* Its units (bit k: unit k). */
    uint32_t (*units)(const void *a);
    /* Feeds one event to `units` of it (a walk again: some units). */
    void (*feed)(void *a, const trx_event *ev, uint32_t units);
    /* Feeds one event to all its units (the segments' own walks). */
    void (*feed_all)(void *a, const trx_event *ev);
    /* Adds one unit's state to *f (event numbers as number - base). */
    void (*fingerprint)(const void *a, uint32_t unit, trx_fingerprint *f, uint64_t base);
    /* Forgets one unit's results so far (the warm-up's). 0 or -1. */
    int (*clear)(void *a, uint32_t unit);
    /* Joins unit `unit` of segment `later` to `earlier` (their states
     * fingerprinted the same at later's first event): 0 when `earlier` now
     * holds the state after both and the results of both (later's event
     * numbers + offset), TRX_MERGE_REFUSED (nothing changed: walked
     * again), -1 out of memory. */
    int (*join)(void *later, void *earlier, uint32_t unit, uint64_t offset);
    /* Frees segment k >= 1's analysis. */
    void (*discard)(void *a);
} trx_segment_ops;

/* One run: set the inputs, call trx_segments_run, read the report. */
typedef struct trx_segment_run {
    trx_trace *t;
    const trx_segment_ops *ops;
    void *ctx;     /* given to ops->start */
    uint64_t warm; /* entries (UIA: events) of warm-up before each segment */
    bool threads;  /* each segment on a thread of its own (else one after another) */
    /* set by trx_segments_run */
    void *first;    /* segment 0's analysis (ops->start's, k = 0) */
    bool preparing; /* the trace is prepared by the segments' walks */
    uint32_t segments;
    uint64_t merged[TRX_SEGMENT_UNITS], walked_again[TRX_SEGMENT_UNITS];
    uint64_t guesses_failed; /* boundaries where the cursor's RUNNING priorities differed */
} trx_segment_run;

/* Runs r->ops over the segments starting at `cuts` (n, ascending: raw
 * entries of a TXTB trace, moved on to the next thread's event; event
 * numbers of a UIA trace). 0 (r->first holds the whole trace's analysis),
 * -1 (out of memory) or TRX_SEGMENTS_UNPREPARED; r->first is made (and the
 * caller's to finish or free) whenever it is not NULL. */
int trx_segments_run(trx_segment_run *r, const uint64_t *cuts, uint32_t n);

/* TXTB position `raw` moved on to the next entry of a thread's context (a
 * cursor started there knows its state), below `limit`; 0 when none. */
uint64_t trx_txtb_thread_entry_from(const trx_trace *t, uint64_t raw, uint64_t limit);

/* The cuts for `jobs` segments of a TXTB trace (thread events near equal
 * shares of the entries): how many it wrote to `cuts` (room for jobs - 1). */
uint32_t trx_segments_plan_cuts(const trx_trace *t, uint32_t jobs, uint64_t *cuts);

/* Each segment keeps its own per-thread state: segments only for a trace
 * with at most one thread per this many entries, so that several
 * segments' per-thread memory stays a small share of the trace's. */
#define TRX_SEGMENT_ENTRIES_PER_THREAD 64u

/* Whether trace t has few enough threads for segments. */
bool trx_segments_few_threads(const trx_trace *t);

/* The cuts for trx_trace_jobs(t) segments of trace t, each of
 * `min_entries` entries (UIA: records) at least, when it has few threads:
 * *cuts (malloc'd; free it) and how many (0: walk once, nothing
 * allocated), or -1 when out of memory. A UIA trace's are placed so that
 * the segments' threads end together although each walks the cursor from
 * the first record. */
int trx_segments_cuts_for_jobs(trx_trace *t, uint64_t min_entries, uint64_t **cuts);

#endif
