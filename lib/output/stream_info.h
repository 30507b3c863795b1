/* stream_info.h - `trx info` for a trace read from a trx stream of TXTB
 * entries (trx_trace.stream_source): how it arrived (packets, checks,
 * sessions, bytes skipped) and the events lost on the way, as text lines
 * or JSON members; and the gap list both `info` forms share with UIA. */
#ifndef TRX_STREAM_INFO_H
#define TRX_STREAM_INFO_H

#include "output/out_buffer.h"
#include "trx/trx.h"

/* Text lines (each ending in a newline) for t->stream_source; nothing
 * for other traces. */
void trx_stream_info_text(const trx_trace *t, trx_out *o);

/* `,"stream":{...}` for t->stream_source; nothing for other traces. */
void trx_stream_info_json(const trx_trace *t, trx_out *o);

/* The first gaps of `t`, one line each ("  N lost before event I (stream
 * S, ticks A - B)"), at most `max`, then how many more. */
void trx_gaps_text(const trx_trace *t, uint64_t max, trx_out *o);

/* How a stream arrived, the lines that apply: cut at the front or the end,
 * packets checked, bytes skipped (shared with the UIA `info`). */
struct trx_uia_info;
void trx_stream_arrival_text(const struct trx_uia_info *u, trx_out *o);

/* `"gaps":[{...},...]`: every gap of `t`. */
void trx_gaps_json(const trx_trace *t, trx_out *o);

#endif
