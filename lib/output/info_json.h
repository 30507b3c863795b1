/* info_json.h - `trx info --json`: the same summary as info_text, as one JSON object. */
#ifndef TRX_INFO_JSON_H
#define TRX_INFO_JSON_H

#include "output/out_buffer.h"
#include "trx/cores.h"
#include "trx/trx.h"

/* Writes the summary of opened trace `t` as one JSON object and a newline
 * (`tc` = trx_trace_time_check: span and the time_source field; `cores`:
 * the per-core members, or NULL for none). */
void trx_info_write_json(const trx_trace *t, const trx_time_check *tc,
                         const trx_core_summary *cores, trx_out *o);

#endif
