/* prepare_walk.h - trx_trace_prepare's walk handed out event by event, so
 * that an analysis can run in the same walk instead of a second one. Only
 * while the walk leaves the thread table as it is (every context and next
 * context already a thread: registered threads only) are its events those a
 * cursor over the prepared trace gives; the first event that would add an
 * Un-named Thread stops it, and the trace is left unprepared and unchanged,
 * for trx_trace_prepare and a cursor as usual. */
#ifndef TRX_PREPARE_WALK_H
#define TRX_PREPARE_WALK_H

#include "trx/trx.h"

typedef struct trx_prepare_walk trx_prepare_walk;

/* Starts the walk over an unprepared TXTB trace (mode and view set). NULL
 * when the trace is prepared already, is no TXTB trace, or out of memory. */
trx_prepare_walk *trx_prepare_walk_begin(trx_trace *t);

/* The next event (valid until the next call), or NULL at the end or when
 * the walk stopped because it would change the thread table. */
const trx_event *trx_prepare_walk_next(trx_prepare_walk *w);

/* Ends the walk and frees it: 0 when it reached the end (the trace is now
 * prepared: ranges, totals, max_ticks), 1 when it stopped (the trace is as
 * before the walk). */
int trx_prepare_walk_end(trx_prepare_walk *w);

#endif
