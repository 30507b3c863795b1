/* event_fanout.h - one walk of a trace's events feeding two groups of
 * analyses: one on the calling thread (beside the cursor), the other on a
 * helper thread when the platform has threads and the trace is large enough
 * to be worth it, else on the calling thread too. Each group sees every
 * event in order, so the results do not depend on which way it ran. */
#ifndef TRX_EVENT_FANOUT_H
#define TRX_EVENT_FANOUT_H

#include <stdbool.h>

#include "trx/trx.h"

/* Feeds one event to a group of analyses. */
typedef void (*trx_fanout_fn)(void *ctx, const trx_event *ev);

/* Gives the next event of a walk (valid until the next call), NULL at the end. */
typedef const trx_event *(*trx_fanout_source)(void *src);

/* Walks the events `next(src)` gives once: `here` gets each event on the
 * calling thread, `there` on a helper thread if `parallel` (and threads
 * exist), else right after `here`. The two groups must not write the same
 * memory. 0, or -1 when out of memory. */
int trx_fanout_walk(trx_fanout_source next, void *src, trx_fanout_fn here, void *here_ctx,
                    trx_fanout_fn there, void *there_ctx, bool parallel);

#endif
