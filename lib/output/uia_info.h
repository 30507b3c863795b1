/* uia_info.h - `trx info` for a UIA trace: packets, streams, records, lost
 * events and gaps, snapshots, warnings (text and --json). */
#ifndef TRX_UIA_INFO_H
#define TRX_UIA_INFO_H

#include "output/out_buffer.h"
#include "trx/trx.h"

/* Text summary of UIA trace `t`. */
void trx_uia_info_write_text(const trx_trace *t, trx_out *o);

/* The same as one JSON object (docs/uia-decoding.md lists the members). */
void trx_uia_info_write_json(const trx_trace *t, trx_out *o);

/* One line "N events lost in G gaps (...)" or "no events lost", no newline. */
void trx_lost_summary(const trx_trace *t, trx_out *o);

#endif
