/* latency_output.h - `trx latency` as text or JSON: per thread (or user
 * interval) its instances, response and execution distributions and its
 * worst instances (the JSON schema is in docs/latency.md). */
#ifndef TRX_LATENCY_OUTPUT_H
#define TRX_LATENCY_OUTPUT_H

#include "output/out_buffer.h"
#include "trx/latency.h"

/* The name of a row's thread. */
const char *trx_latency_row_name(const trx_trace *t, const trx_latency_row *row);

void trx_latency_write_json(const trx_trace *t, const trx_latency *l, bool intervals, trx_out *o);
void trx_latency_write_text(const trx_trace *t, const trx_latency *l, bool intervals, trx_out *o);

#endif
