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

#endif
