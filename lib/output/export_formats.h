/*
 * export_formats.h - `trx export`: a trace in the formats other tools read
 * (Chrome JSON, CSV, Perfetto protobuf, CTF 1.8). Every exporter walks the
 * events once through the cursor and keeps memory independent of the number
 * of events (O(threads + registry objects)).
 */
#ifndef TRX_EXPORT_FORMATS_H
#define TRX_EXPORT_FORMATS_H

#include <stdbool.h>
#include <stdint.h>

#include "output/out_buffer.h"
#include "trx/catalog.h"
#include "trx/trx.h"

/* What every exporter is told. */
typedef struct trx_export_options {
    uint64_t ticks_per_second; /* 0: unknown (then one tick is shown as one microsecond) */
    const trx_custom_events *custom;
} trx_export_options;

/* Ticks per second the exporters use: the option, or 1,000,000 when unknown. */
uint64_t trx_export_rate(const trx_export_options *o);

/* Relative ticks as nanoseconds at `o`'s rate (rounded down, saturating). */
uint64_t trx_export_ticks_to_ns(const trx_export_options *o, uint64_t ticks);

/* Writes `ns` as microseconds: digits, then up to three decimals (no trailing zeros). */
void trx_out_us_from_ns(trx_out *w, uint64_t ns);

/* Chrome's Trace Event Format (JSON object with traceEvents; µs timestamps). 0, or -1 out of
 * memory. */
int trx_export_chrome_json(trx_trace *t, trx_out *w, const trx_export_options *o);

/* One CSV row per event, with the time, names and labelled fields. 0, or -1 out of memory. */
int trx_export_csv(trx_trace *t, trx_out *w, const trx_export_options *o);

/* Perfetto's protobuf trace (a stream of TracePackets). 0, or -1 out of memory. */
int trx_export_perfetto(trx_trace *t, trx_out *w, const trx_export_options *o);

/* CTF 1.8: the packetized binary stream into `stream`, then the TSDL text into
 * `metadata` (which describes the event classes the stream used). 0, or -1
 * out of memory. */
int trx_export_ctf(trx_trace *t, trx_out *stream, trx_out *metadata, const trx_export_options *o);

#endif
