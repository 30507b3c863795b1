/* info_text.h - `trx info`: a trace's format, header, registry, buffer and time span as text. */
#ifndef TRX_INFO_TEXT_H
#define TRX_INFO_TEXT_H

#include "output/out_buffer.h"
#include "trx/cores.h"
#include "trx/trx.h"

/* Writes the summary of opened trace `t` (`tc` = trx_trace_time_check: span and warnings;
 * `cores`: the per-core rows, or NULL for none). */
void trx_info_write_text(const trx_trace *t, const trx_time_check *tc,
                         const trx_core_summary *cores, trx_out *o);

#endif
