/* open_ticks.h - the relative ticks of a TXTB entry from the tick
 * checkpoints the open's pass kept (trx_open_counts): at most 2^tick_shift
 * steps from the nearest one before it, instead of every step from the
 * trace's start. */
#ifndef TRX_OPEN_TICKS_H
#define TRX_OPEN_TICKS_H

#include <stdbool.h>
#include <stdint.h>

#include "trx/trx.h"

/* The relative ticks of raw chronological entry i (< t->used) of the
 * current view and its masked stamp, as the cursor counts them (the first
 * entry at 0, each step in the trace's timer direction). False (nothing
 * written) when the open kept no checkpoints for this view. */
bool trx_open_ticks_at(const trx_trace *t, uint32_t i, uint64_t *ticks, uint32_t *stamp);

#endif
