/* uia_dump.h - `trx dump` for a UIA trace: the summary, the packets, the
 * gaps and one line per record with its raw fields. */
#ifndef TRX_UIA_DUMP_H
#define TRX_UIA_DUMP_H

#include "output/out_buffer.h"
#include "trx/trx.h"

/* Writes the listing; 0, or -1 when out of memory. */
int trx_uia_dump_write(trx_trace *t, trx_out *o);

#endif
