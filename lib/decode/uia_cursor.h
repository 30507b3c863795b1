/* uia_cursor.h - the event cursor's UIA side: walks the records of a UIA
 * trace in event order and fills the common event model (event_cursor.c
 * dispatches here when trace->format is TRX_TRACE_UIA). */
#ifndef TRX_UIA_CURSOR_H
#define TRX_UIA_CURSOR_H

#include "trx/trx.h"

/* Sets up c->uia_ for a UIA trace; 0, or -1 when out of memory. */
int trx_uia_cursor_init(trx_cursor *c);

/* The next record as an event; false at the end (the cursor is freed then). */
bool trx_uia_cursor_next(trx_cursor *c, trx_event *ev);

/* Releases c->uia_ (safe when NULL). */
void trx_uia_cursor_free(trx_cursor *c);

/* dst (a copy of src's common part) gets its own copy of src->uia_; 0 or -1. */
int trx_uia_cursor_copy(trx_cursor *dst, const trx_cursor *src);

/* Bytes of c->uia_'s state (0 when none). */
size_t trx_uia_cursor_state_size(const trx_cursor *c);

/* Largest relative tick of any stream of a UIA trace. */
uint64_t trx_uia_span_ticks(const trx_trace *t);

#endif
