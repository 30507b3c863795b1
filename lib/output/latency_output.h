/* latency_output.h - `trx latency` as text or JSON: per thread (or user
 * interval) its instances, response and execution distributions and its
 * worst instances (the JSON schema is in docs/latency.md). */
#ifndef TRX_LATENCY_OUTPUT_H
#define TRX_LATENCY_OUTPUT_H

#include <stddef.h>

#include "output/out_buffer.h"
#include "trx/latency.h"

/* The name of a row's thread as trx why names it (registry, --elf symbol,
 * else its address), written to `buf`; returns buf. */
const char *trx_latency_row_name(const trx_trace *t, const trx_latency_row *row, char *buf,
                                 size_t size);

void trx_latency_write_json(const trx_trace *t, const trx_latency *l, bool intervals, trx_out *o);
void trx_latency_write_text(const trx_trace *t, const trx_latency *l, bool intervals, trx_out *o);

#endif
