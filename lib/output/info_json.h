/* info_json.h - `trx info --json`: the same summary as info_text, as one JSON object. */
#ifndef TRX_INFO_JSON_H
#define TRX_INFO_JSON_H

#include "output/out_buffer.h"
#include "trx/trx.h"

/* Writes the summary of opened trace `t` as one JSON object and a newline. */
void trx_info_write_json(const trx_trace *t, uint64_t span_ticks, trx_out *o);

#endif
