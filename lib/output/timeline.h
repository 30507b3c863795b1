/*
 * timeline.h - what the picture-making outputs (exports, report) share:
 * lanes (one per thread address, then Interrupt, Initialization, Idle and
 * Unknown), run slices (who executes between two events, as the execution
 * profile counts it) and cause-and-effect flows (ISR -> the thread it
 * resumes, queue send -> receive, semaphore put -> get). All state is
 * O(threads + registry objects), never O(events).
 */
#ifndef TRX_TIMELINE_H
#define TRX_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "trx/trx.h"

/* ------------------------------------------------------------- lanes */

/* Lanes 0..thread_count-1 are thread indexes (the first thread at each
 * address; later threads at that address share its lane), then these; then,
 * when several cores carry contexts of their own (trx_trace_context_cores),
 * one interrupt lane per core (TRX_LANE_CORE_ISR + core), the Interrupt
 * lane unused. */
enum {
    TRX_LANE_ISR = 0,
    TRX_LANE_INIT = 1,
    TRX_LANE_IDLE = 2,
    TRX_LANE_UNKNOWN = 3,
    TRX_LANE_CORE_ISR = 4
};

/* The lane of an execution context (thread address, ISR, init, idle). */
uint32_t trx_lane_of(const trx_trace *t, uint32_t context);

/* The lane of `context` as event `ev`'s core runs it: an interrupt lands on
 * that core's interrupt lane when the cores carry contexts of their own. */
uint32_t trx_lane_of_event(const trx_trace *t, const trx_event *ev, uint32_t context);

/* Number of lanes: thread_count + 4, + the cores' interrupt lanes. */
uint32_t trx_lane_count(const trx_trace *t);

/* True when lane `l` is a thread lane that is the first of its address. */
bool trx_lane_is_used_thread(const trx_trace *t, uint32_t l);

/* Display name of lane `l` ("Interrupt", thread name ...). */
const char *trx_lane_name(const trx_trace *t, uint32_t l);

/* Lane index of the "Lost events" lane (after all others; only where the model has gaps). */
static inline uint32_t trx_lane_lost(const trx_trace *t)
{
    return trx_lane_count(t);
}

/* The gap right before `ev` (when ev->lost_before > 0), found by walking
 * `*at` (start at 0) forward through t->gaps; NULL if none. */
const trx_gap *trx_gap_before(const trx_trace *t, const trx_event *ev, uint64_t *at);

/* ----------------------------------------------------------- run slices */

/* One stretch of execution: `lane` runs from `start` to `end` (ticks). */
typedef struct trx_run_slice {
    uint32_t lane;
    uint64_t start, end;
    uint64_t first_event; /* index of the event that started it */
} trx_run_slice;

/* Follows next contexts, per core of the trace's contexts; a slice closes
 * when the running lane of its core changes. */
typedef struct trx_run_core {
    bool have;
    trx_run_slice cur;
} trx_run_core;
typedef struct trx_run_tracker {
    bool have;         /* of the core of the last event fed: */
    trx_run_slice cur; /* its current slice */
    uint32_t cores;
    trx_run_core *per_core; /* several cores' contexts: each core's own */
} trx_run_tracker;

/* 0, or -1 when out of memory. */
int trx_run_init(trx_run_tracker *r, const trx_trace *t);

/* Core slot `i`'s open slice (i < r->cores) into *out, its end the core's
 * last event; false when none. */
bool trx_run_open(const trx_run_tracker *r, uint32_t i, trx_run_slice *out);

/* How many cores run a lane other than idle now (of r->cores). */
uint32_t trx_run_busy_cores(const trx_run_tracker *r, const trx_trace *t);

void trx_run_free(trx_run_tracker *r);

/* What trx_run_feed saw: a slice closed (`closed` filled) and/or a new one
 * started at this event (r->cur). */
enum { TRX_RUN_CLOSED = 1, TRX_RUN_STARTED = 2 };

/* Feeds the next event; returns TRX_RUN_CLOSED | TRX_RUN_STARTED bits. */
int trx_run_feed(trx_run_tracker *r, const trx_trace *t, const trx_event *ev,
                 trx_run_slice *closed);

/* ---------------------------------------------------------------- flows */

/* The start of a flow: its id and where it began. */
typedef struct trx_flow {
    uint64_t id;
    uint64_t ticks;
    uint64_t event; /* index of the event that started it */
    uint32_t lane;
} trx_flow;

/* What one event does to flows: starts one, ends one, or both. */
typedef struct trx_flow_step {
    bool starts, ends;
    trx_flow start; /* the flow this event starts */
    trx_flow end;   /* the flow this event ends (its start side) */
} trx_flow_step;

typedef struct trx_flow_matcher trx_flow_matcher;

/* A matcher for `t` (prepared), or NULL when out of memory. */
trx_flow_matcher *trx_flows_new(const trx_trace *t);
void trx_flows_free(trx_flow_matcher *m);

/* Matches event `ev`, which runs on lane `lane`. */
void trx_flows_on_event(trx_flow_matcher *m, const trx_event *ev, uint32_t lane,
                        trx_flow_step *step);

/* Flows that end where `lane` starts running: up to `max` into `out`; returns the count. */
int trx_flows_on_run(trx_flow_matcher *m, uint32_t lane, trx_flow *out, int max);

/* Most flows waiting for one lane (the array trx_flows_on_run fills). */
#define TRX_FLOWS_PER_LANE 8

#endif
