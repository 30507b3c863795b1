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

/* Distinct cores that get a CTF stream file of their own; later ones share "stream_more". */
#define TRX_CTF_MAX_CORE_STREAMS 64u

/* Where the CTF export writes its stream files. */
typedef struct trx_ctf_sink {
    /* Opens the stream file `name` ("stream_N" for core N, or "stream_more"),
     * called once per file on its first event; NULL stops the export (the
     * opener has said why). */
    trx_out *(*open)(void *ctx, const char *name);
    void *ctx;
} trx_ctf_sink;

/* CTF 1.8: one packetized binary stream per core (LTTng's layout: every
 * packet carries its core as cpu_id), opened through `files`, then the TSDL
 * text into `metadata` (which describes the event classes the streams used).
 * 0; -1 out of memory; -2 a stream file could not be opened. */
int trx_export_ctf(trx_trace *t, const trx_ctf_sink *files, trx_out *metadata,
                   const trx_export_options *o);

#endif
