/* stats_cores.h - the per-core part of `trx stats` (default mode): load,
 * execution profile and switches per core, where every thread ran and its
 * migrations, and the time threads ran in parallel; as text or JSON. */
#ifndef TRX_STATS_CORES_H
#define TRX_STATS_CORES_H

#include "output/out_buffer.h"
#include "trx/cores.h"

/* The "Cores" section of the text report; tables of threads list at most
 * `rows` rows (the busiest) and how many more, 0: every row. */
void trx_stats_cores_text(const trx_trace *t, const trx_core_stats *s, uint32_t rows, trx_out *o);

/* The JSON member "smp" (a comma and the member; the caller closes the object). */
void trx_stats_cores_json(const trx_trace *t, const trx_core_stats *s, trx_out *o);

/* A core's load in percent: thread and interrupt time over the time its state
 * is known (initialization and unknown time left out); 0 when none is known. */
double trx_core_load_percent(const trx_core_profile *p);

#endif
