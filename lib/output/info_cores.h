/* info_cores.h - the per-core part of `trx info`: core count, events per
 * core and the threads each core logged events of, as text or JSON members. */
#ifndef TRX_INFO_CORES_H
#define TRX_INFO_CORES_H

#include "output/out_buffer.h"
#include "trx/cores.h"

/* Text rows "Cores:", "Events per core:" and one "Core N threads:" per core. */
void trx_info_cores_text(const trx_trace *t, const trx_core_summary *s, trx_out *o);

/* JSON members (each preceded by a comma): cores, multi_core,
 * events_per_core, threads_per_core. */
void trx_info_cores_json(const trx_trace *t, const trx_core_summary *s, trx_out *o);

#endif
