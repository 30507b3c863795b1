/* dump_text.h - TraceX's raw trace dump of a trace. */
#ifndef TRX_DUMP_TEXT_H
#define TRX_DUMP_TEXT_H

#include "output/out_buffer.h"
#include "trx/trx.h"

/* Writes the whole dump (trx banner naming `input_name` / `output_name`,
 * then TraceX's text). 0, or -1 when out of memory. Write errors are left
 * in the writer for trx_out_flush to report. */
int trx_dump_write(trx_trace *t, trx_out *o, const char *input_name, const char *output_name);

#endif
