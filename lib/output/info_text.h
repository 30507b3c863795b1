/* info_text.h - `trx info`: a trace's format, header, registry, buffer and time span as text. */
#ifndef TRX_INFO_TEXT_H
#define TRX_INFO_TEXT_H

#include "output/out_buffer.h"
#include "trx/trx.h"

/* Writes the summary of opened trace `t` (`tc` = trx_trace_time_check: span and warnings). */
void trx_info_write_text(const trx_trace *t, const trx_time_check *tc, trx_out *o);

#endif
