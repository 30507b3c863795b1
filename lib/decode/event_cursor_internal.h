/* event_cursor_internal.h - the link between the event cursor and
 * trx_trace_prepare: while preparing, the cursor reports every event so the
 * thread table (Un-named Threads, priority ranges) can be completed. */
#ifndef TRX_EVENT_CURSOR_INTERNAL_H
#define TRX_EVENT_CURSOR_INTERNAL_H

#include "trx/trx.h"

typedef struct trx_prepare_state trx_prepare_state;

/* Where a RUNNING event's priority came from. */
enum { TRX_PRIORITY_NONE = 0, TRX_PRIORITY_FROM_EVENT = 1, TRX_PRIORITY_FROM_CREATE = 2 };

/* Makes `c` report its events to `prep` (before the first trx_cursor_next). */
void trx_cursor_attach_prepare(trx_cursor *c, trx_prepare_state *prep);

/* A stored thread-context event: resolves or creates its thread (sets
 * ev->thread) and updates the thread's priority ranges as TraceX does. */
void trx_prepare_real_event(trx_prepare_state *prep, trx_trace *t, trx_event *ev);

/* A synthetic RUNNING event; `source` tells where its priority came from. */
void trx_prepare_running_event(trx_prepare_state *prep, trx_trace *t, const trx_event *f,
                               int source);

/* trx_trace_prepare in parts (statistics over segments of the trace): a
 * part's state takes what its cursor's events say (strict: a context that
 * is no registered thread makes it "dirty"; then the trace must be
 * prepared as usual) without writing the trace. Attach it with
 * trx_cursor_attach_prepare where the part starts. */
trx_prepare_state *trx_prepare_part_new(void);
bool trx_prepare_part_dirty(const trx_prepare_state *p);
void trx_prepare_part_free(trx_prepare_state *p);
/* Completes `t` from its parts (none dirty), in trace order, as one walk
 * would: ranges, the event totals and the last event's ticks. */
void trx_prepare_parts_finish(trx_trace *t, trx_prepare_state *const *parts, uint32_t n,
                              uint64_t total, uint64_t synthetic, uint64_t last_ticks);

/* Moves cursor `src` to another place in memory (`src` is then unused:
 * only `dst` is freed). */
void trx_cursor_move(trx_cursor *dst, const trx_cursor *src);

/* Starting a cursor part-way (two threads walking the halves of a trace):
 * a cursor started with trx_cursor_init_at at raw entry `raw` (a thread's
 * event) produces the events from that entry on as a cursor from the start
 * does, except their numbers (from 0) and the priorities of RUNNING events
 * that the part before would give; trx_cursor_continue fixes both in it (and
 * in copies of it) once a cursor from the start has reached `raw`.
 * TXTB only: 0, or -1 when out of memory or the trace is UIA. */
int trx_cursor_init_at(trx_cursor *c, trx_trace *t, uint32_t raw);

/* Relative ticks (and time stamps) of TXTB raw entries last[0] <= last[1]
 * <= ... (each below t->used), in one pass over the time stamps. */
void trx_trace_ticks_at(const trx_trace *t, const uint32_t *last, uint32_t n, uint64_t *ticks,
                        uint32_t *stamps);

/* trx_cursor_init_at with the relative ticks and time stamp of raw entry
 * raw - 1 known (trx_trace_ticks_at): no pass over the entries before it. */
int trx_cursor_init_at_ticks(trx_cursor *c, trx_trace *t, uint32_t raw, uint64_t ticks_before,
                             uint32_t stamp_before);

/* True when `c` has returned every event before raw entry `raw` (the RUNNING
 * event before it included) and none after: where a cursor started at `raw`
 * takes over. Its pending event (not yet returned) is then that entry's. */
bool trx_cursor_reached(const trx_cursor *c, uint32_t raw);

/* Ticks of the event read but not yet returned (trx_cursor_reached). */
uint64_t trx_cursor_pending_ticks(const trx_cursor *c);

/* Events `c` has returned so far. */
uint64_t trx_cursor_returned(const trx_cursor *c);

/* Makes `later` (started with trx_cursor_init_at where `before` reached)
 * what a cursor from the start would be: numbers after `before`'s, and the
 * priorities the part before gave to threads `later` has not seen yet. */
void trx_cursor_continue(trx_cursor *later, const trx_cursor *before);

/* Segments of a statistics walk (stats_segments.c): a cursor started part
 * way gives a RUNNING event of a thread it has not seen an event of the
 * priority a forward search finds, where a cursor from the start may know
 * the thread's latest one. With recording on, the cursor notes each such
 * thread (at most TRX_CURSOR_GUESSES; then it notes that it lost count). */
#define TRX_CURSOR_GUESSES 64
typedef struct trx_cursor_guesses {
    uint32_t count;
    bool overflow;
    struct {
        int32_t thread;
        uint32_t prio, pt;
        uint8_t source;
    } guess[TRX_CURSOR_GUESSES];
} trx_cursor_guesses;
/* Notes them in `into` (the caller's: it outlives the cursor, which frees
 * its own state at the end), cleared here; NULL: stops noting. Copies of
 * the cursor note nothing. */
void trx_cursor_record_guesses(trx_cursor *c, trx_cursor_guesses *into);

/* True when the RUNNING priorities noted in `g` are those `truth` - a
 * cursor from the start, at the place where the noting began - would give:
 * it knows the same of each such thread, or nothing (and then searches
 * forward as the noting cursor did). */
bool trx_cursor_guesses_hold(const trx_cursor_guesses *g, const trx_cursor *truth);

/* trx_cursor_continue for a `later` that had returned `later_at` events
 * where `before` (numbering from the start) reached: numbers `later`'s
 * events as `before`'s go on, and gives it the priorities `before` knows
 * of threads it has not seen. */
void trx_cursor_rebase(trx_cursor *later, const trx_cursor *before, uint64_t later_at);

#endif
