/*
 * latency.h - why was it late: every response of every thread (its
 * instances, or jobs) and the chain of causes behind any one of them.
 *
 * An instance of a thread runs from its release - the event that makes it
 * ready after it waited for a trigger (a sleep, a queue, semaphore, event
 * flags or message wait, a suspension, SYS/BIOS's LD_block) - to its next
 * such wait. Waiting for a lock inside an instance (a mutex; a semaphore
 * named in trx_latency_options.locks) is part of it: blocked on that lock.
 * Its response is end - release; its execution the ticks it ran. An
 * instance whose start or end the trace does not hold (before the first
 * event, after the last, across a lost-event gap) is incomplete: counted,
 * never given a figure.
 *
 * User intervals (trx_latency_options.from / to): from an event matching
 * `from` to the next one matching `to` (in the same thread, or with the
 * same value of a field when a pairing field is given: across threads).
 *
 * Figures are kept in log-linear histograms (exact below 64 ticks, then 32
 * buckets per power of two: a percentile is the top of the bucket that
 * holds it, clamped to [min, max]), so memory grows with threads, never
 * with the trace; the N worst instances of each thread are kept whole.
 */
#ifndef TRX_LATENCY_H
#define TRX_LATENCY_H

#include <stdbool.h>
#include <stdint.h>

#include "trx/trx.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An event pattern of a user interval: an event id (or a name resolved to
 * one by the caller), and optionally the info field (0..3) that pairs a
 * start with its end (field < 0: none, start and end pair in one thread). */
typedef struct trx_event_pattern {
    uint32_t id;
    int field; /* -1: no pairing field */
} trx_event_pattern;

#define TRX_LATENCY_MAX_LOCKS 16
#define TRX_LATENCY_MAX_WORST 1024

/* What to measure. Zeroed options: every thread's instances, 5 worst each. */
typedef struct trx_latency_options {
    uint32_t worst;                        /* worst instances kept per row (<= MAX_WORST) */
    uint32_t locks[TRX_LATENCY_MAX_LOCKS]; /* semaphores that count as locks (addresses) */
    uint32_t lock_count;
    bool intervals; /* user intervals from..to instead of instances */
    trx_event_pattern from, to;
} trx_latency_options;

#define TRX_LATENCY_BINS 32

/* A distribution of durations in ticks (see the top of this file). `bins`:
 * its histogram in TRX_LATENCY_BINS equal bins from min (bin k: [min + k x
 * bin_width, min + (k + 1) x bin_width)), each value placed by its
 * log-linear bucket's top (within 1/32 of it), as the percentiles are. */
typedef struct trx_latency_dist {
    uint64_t count, sum, min, max;
    uint64_t p50, p90, p99; /* set by trx_latency_finish */
    uint64_t bin_width;     /* set by trx_latency_finish (0: no values) */
    uint64_t bins[TRX_LATENCY_BINS];
    uint64_t *hist_; /* private: TRX_LATENCY_BUCKETS counters, or NULL */
} trx_latency_dist;

#define TRX_LATENCY_BUCKETS (64u + 58u * 32u)

/* One instance, as the worst lists keep it. Numbers count a row's instances
 * from 1 in release order (incomplete ones included). */
typedef struct trx_instance {
    uint64_t number;
    uint64_t release_index, end_index; /* event indexes of its release and end */
    uint64_t release_ticks, end_ticks;
    uint64_t response_ticks, execution_ticks;
} trx_instance;

/* The figures of one row: a thread (trace->threads index), or for user
 * intervals the thread that logged their start. */
typedef struct trx_latency_row {
    int32_t thread;      /* trace->threads index, -1: not a thread (an ISR) */
    uint32_t address;    /* the thread's address (context word) */
    uint64_t instances;  /* complete ones */
    uint64_t incomplete; /* begun or ended outside the trace or across a gap */
    trx_latency_dist response, execution;
    trx_instance *worst; /* the worst `worst_count`, longest response first */
    uint32_t worst_count;
} trx_latency_row;

/* The result: one row per thread that had instances (thread order). */
typedef struct trx_latency {
    trx_latency_row *rows;
    uint32_t row_count;
    uint64_t ticks_per_second; /* 0: unknown (set by the caller for *_us) */
    /* private */
    struct trx_latency_state *state_;
} trx_latency;

/* Computes every instance of `t` (one pass; trx_trace_prepare first). 0,
 * or -1 when out of memory. Free with trx_latency_free. */
int trx_latency_compute(trx_trace *t, const trx_latency_options *o, trx_latency *out);

/* trx_stats_compute (into *s) and trx_latency_compute (into *out) of one
 * trace, the same results, in one walk of the trace where the statistics
 * run on segments. 0 (free both), or -1 when out of memory (neither to free). */
struct trx_stats;
int trx_stats_latency_compute(trx_trace *t, struct trx_stats *s, const trx_latency_options *o,
                              trx_latency *out);

/* The incremental form (for a pass that feeds other analyses too):
 * start, feed every event in order, finish. */
int trx_latency_start(trx_latency *l, trx_trace *t, const trx_latency_options *o);
void trx_latency_feed(trx_latency *l, const trx_event *ev);
int trx_latency_finish(trx_latency *l);

void trx_latency_free(trx_latency *l);

/* -------------------------------------------------- the critical path */

/* What a thread was doing during a segment of an instance. */
typedef enum trx_segment_state {
    TRX_SEG_RUNNING = 0,     /* it ran */
    TRX_SEG_PREEMPTED = 1,   /* ready while another thread ran on the core it could use */
    TRX_SEG_INTERRUPTED = 2, /* ready while an ISR (Hwi, Swi) ran */
    TRX_SEG_BLOCKED = 3,     /* waiting for a lock held by another thread */
    TRX_SEG_READY = 4,       /* ready while nothing known ran (idle, initialization) */
    TRX_SEG_WAITING = 5      /* a lock holder only: it waited for a trigger (a sleep, a
                                queue ...) with the lock held; `object`: what it asked for */
} trx_segment_state;

/* "running", "preempted", "interrupted", "blocked", "ready", "waiting". */
const char *trx_segment_state_name(trx_segment_state s);

/* One segment of a path: [start_ticks, end_ticks) in one state. `context`:
 * what ran (the thread itself, the preempting thread, TRX_CONTEXT_ISR with
 * `isr` its number - a Swi's handle when `swi` -, for ready the idle (0)
 * or initialization context); blocked: `object` the lock, `holder` its
 * holder, and the holder's own split of the interval as children
 * (first_child .. first_child + child_count - 1 in trx_path.segments; none
 * when the holder is unknown or already waits further up the chain: a
 * cycle). `unbounded`: a thread of lower priority (numerically larger, as
 * the events carry priorities) than the instance's thread ran instead of
 * the holder while it waited (an unbounded priority inversion). */
typedef struct trx_segment {
    uint64_t start_ticks, end_ticks;
    uint8_t state;
    bool unbounded;
    bool swi;
    uint32_t context, isr;
    uint32_t object, holder;
    uint32_t depth; /* 0: the instance's thread; 1: a holder of its lock; ... */
    uint32_t first_child, child_count;
} trx_segment;

/* The critical path of one instance. Top-level segments (depth 0) add up
 * to the response exactly; a blocked segment's children to its ticks. A
 * waker's path (trx_path.waker) ends at the event that released the
 * instance after it (its instance.end_index). */
typedef struct trx_path {
    uint32_t thread; /* address of the instance's thread */
    trx_instance instance;
    uint32_t released_by;  /* context of the releasing event (thread / ISR / init) */
    uint32_t released_isr; /* ISR: the innermost interrupt there (a Swi handle when ..._swi) */
    bool released_swi;
    uint64_t released_index;  /* its event index */
    uint32_t released_object; /* the object it posted, sent or gave last (0: none seen) */
    trx_segment *segments;    /* top level first (segments[0 .. top_count - 1]), then children */
    uint32_t segment_count, top_count;
    struct trx_path *waker; /* --depth: the waker's own instance up to its post, or NULL */
} trx_path;

/* Finds instance `number` (1-based, as trx_latency numbers them) of the
 * thread at `address`, or the first one containing `at_ticks` (release <=
 * at_ticks <= end) when number is 0, and computes its critical path in one
 * pass (trx_trace_prepare first), following wakers `depth` levels back (a
 * pass each; a waker that is not a thread, or whose instance the trace
 * does not hold whole, ends the chain). Memory grows with the segments,
 * not with the trace. 0; 1 when there is no such instance; 2 when it is
 * incomplete (its release or end outside the trace, or a lost-event gap
 * inside); -1 when out of memory. Free with trx_path_free (also after 1/2). */
int trx_path_compute(trx_trace *t, const trx_latency_options *o, uint32_t address, uint64_t number,
                     uint64_t at_ticks, uint32_t depth, trx_path *out);

void trx_path_free(trx_path *p);

/* Saved states of trx_path_compute's walk (a seek index for trx why in a
 * server): one every `interval` events, O(threads) bytes plus a cursor
 * copy each. */
typedef struct trx_path_index trx_path_index;

/* One pass over `t` saving the walk's state every `interval` events; when
 * `max_snapshots` are held, every other one is dropped and the interval
 * doubles, so memory stays within max_snapshots x (threads + cursor).
 * 0, or -1 when out of memory (*out NULL). Free with trx_path_index_free. */
int trx_path_index_build(trx_trace *t, const trx_latency_options *o, uint64_t interval,
                         uint32_t max_snapshots, trx_path_index **out);

/* trx_path_compute, starting each pass (the instance's and its wakers') at
 * the last saved state before the instance's release: the same result
 * (from the start when `x` is NULL, built with other locks, or the
 * instance is asked by time). Safe to call from several threads on one
 * index. */
int trx_path_compute_indexed(trx_trace *t, const trx_latency_options *o, const trx_path_index *x,
                             uint32_t address, uint64_t number, uint64_t at_ticks, uint32_t depth,
                             trx_path *out);

/* Bytes the index holds; its snapshot count; its final interval (events). */
size_t trx_path_index_memory(const trx_path_index *x);
uint32_t trx_path_index_snapshots(const trx_path_index *x);
uint64_t trx_path_index_interval(const trx_path_index *x);

void trx_path_index_free(trx_path_index *x);

#ifdef __cplusplus
}
#endif
#endif /* TRX_LATENCY_H */
