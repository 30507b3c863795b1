/* core_tracker.h - the running thread of every core, followed event by event
 * (default mode): fed the events of a trace in order, it fills trx_core_stats.
 * One feed is O(1); the state is O(threads + cores + (core, thread) pairs). */
#ifndef TRX_CORE_TRACKER_H
#define TRX_CORE_TRACKER_H

#include "trx/cores.h"

typedef struct trx_core_tracker trx_core_tracker;

/* A tracker for prepared trace `t`, or NULL when out of memory. */
trx_core_tracker *trx_core_tracker_new(const trx_trace *t);

/* Feeds the next event (synthetic RUNNING events are ignored: they are
 * TraceX's core-blind guesses). */
void trx_core_tracker_feed(trx_core_tracker *k, const trx_event *ev);

/* Closes every core's last interval, moves the results into `out` and frees
 * the tracker. 0, or -1 when out of memory (`out` is then zeroed). */
int trx_core_tracker_finish(trx_core_tracker *k, trx_core_stats *out);

/* Frees a tracker without results; NULL is fine. */
void trx_core_tracker_discard(trx_core_tracker *k);

#endif
