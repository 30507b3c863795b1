/* core_tracker.h - the running thread of every core, followed event by event
 * (default mode): fed the events of a trace in order, it fills trx_core_stats.
 * One feed is O(1); the state is O(threads + cores + (core, thread) pairs). */
#ifndef TRX_CORE_TRACKER_H
#define TRX_CORE_TRACKER_H

#include "trx/cores.h"

typedef struct trx_core_tracker trx_core_tracker;

/* A tracker for prepared trace `t`, or NULL when out of memory. */
trx_core_tracker *trx_core_tracker_new(const trx_trace *t);

/* trx_core_tracker_new with trx_txtb_multi_core(t) known (single: 1 one
 * core, 0 several, -1 not known: one pass over the entries finds it). */
trx_core_tracker *trx_core_tracker_new_known(const trx_trace *t, int single);

/* Whether a TXTB trace's events come from more than one core (ThreadX SMP:
 * each core names its own next thread, so the decoder's next context, taken
 * from the next entry of any core, does not say what a core runs). */
bool trx_txtb_multi_core(const trx_trace *t);

/* Feeds the next event (synthetic RUNNING events are ignored: they are
 * TraceX's core-blind guesses). */
void trx_core_tracker_feed(trx_core_tracker *k, const trx_event *ev);
/* trx_core_tracker_feed for a trace none of whose addresses has a non-thread
 * object first and a thread after it (no first_thread_map_, all along). */
void trx_core_tracker_feed_unshared(trx_core_tracker *k, const trx_event *ev);

/* Closes every core's last interval, moves the results into `out` and frees
 * the tracker. 0, or -1 when out of memory (`out` is then zeroed). */
int trx_core_tracker_finish(trx_core_tracker *k, trx_core_stats *out);

/* Told each time what a core executes changes (exporters draw CPU tracks
 * with it): at `ticks`, core `core` went from the thread at `prev_context`
 * (index prev_thread) to `next_context` (next_thread); TRX_CONTEXT_ISR (index
 * -1) is an interrupt logged with ISR_ENTER/EXIT on the core; context 0 and
 * index -1 mean no thread (idle, initialization or unknown). Per core
 * the calls come in time order; across cores a switch dated back to when its
 * thread was resumed may come after later ones of another core. `blocked`:
 * the previous thread suspended itself (else it was preempted or left). */
typedef void (*trx_core_switch_fn)(void *ctx, uint32_t core, uint64_t ticks, uint32_t prev_context,
                                   int32_t prev_thread, uint32_t next_context, int32_t next_thread,
                                   bool blocked);

/* Sets the function told about switches (NULL: none). */
void trx_core_tracker_listen(trx_core_tracker *k, trx_core_switch_fn fn, void *ctx);

/* Frees a tracker without results; NULL is fine. */
void trx_core_tracker_discard(trx_core_tracker *k);

#endif
