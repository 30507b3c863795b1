/* info_text.h - `trx info`: a trace's format, header, registry, buffer and time span as text. */
#ifndef TRX_INFO_TEXT_H
#define TRX_INFO_TEXT_H

#include "output/out_buffer.h"
#include "trx/trx.h"

/* Writes the summary of opened trace `t` (`span_ticks` = trx_trace_span_ticks). */
void trx_info_write_text(const trx_trace *t, uint64_t span_ticks, trx_out *o);

#endif
