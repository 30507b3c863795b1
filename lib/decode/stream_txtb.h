/*
 * stream_txtb.h - a trx stream that carries TXTB entries (a TXTB drain: the
 * ThreadX kernel's own buffer, the FreeRTOS integration's, or tx_trace_* of
 * the recorder; docs/streaming.md) read as the TXTB trace it streams: the
 * entries in a TXTB buffer in memory, the last registry snapshot as its
 * registry, the header's RTOS words from that snapshot, and the stream's
 * lost-event gaps as trx_gap items of the TXTB trace.
 */
#ifndef TRX_STREAM_TXTB_H
#define TRX_STREAM_TXTB_H

#include <stddef.h>

#include "trx/trx.h"

/* A TXTB buffer rebuilt from a UIA trace: `image` (malloc'ed, `size`
 * bytes; the caller frees it), and where each gap of the UIA trace falls:
 * gap_entry[k] = the entry number the k-th gap comes right before
 * (`entries` when after the last). */
typedef struct trx_stream_txtb_image {
    uint8_t *image;
    size_t size;
    uint32_t entries;     /* entries in the buffer (lost-event entries included) */
    uint32_t txtb_events; /* of them, records that carried a TXTB entry */
    uint32_t *gap_entry;  /* t->gap_count entries (NULL when none or with gap_entries) */
} trx_stream_txtb_image;

/* Rebuilds the TXTB buffer of UIA trace `t` (rules in output/convert.h):
 * records that carry a TXTB entry give it back byte for byte, other records
 * become Initialization events, registry snapshots form the registry and
 * give the header's timer mask and RTOS words. With `gap_entries` each gap
 * is written as a lost-events user event (TRX_STREAM_LOST_EVENTS_ID) before
 * the entry after it (a file TraceX opens); without, gap_entry says where
 * they fall. 0, or -1 when out of memory or too large for a TXTB buffer. */
int trx_stream_txtb_build(trx_trace *t, bool gap_entries, trx_stream_txtb_image *out);

/* The user event id a gap becomes with gap_entries (info1 = events lost,
 * info2 = stream, info3/info4 = low 32 bits of the sequence numbers around it). */
#define TRX_STREAM_LOST_EVENTS_ID 0xFFF0u

/* When UIA trace `t` (just opened) is a stream of TXTB entries, reopens it
 * as that TXTB trace: `t` becomes the TXTB trace, the UIA trace moves to
 * t->stream_source, and its gaps become t's (index, ticks in the TXTB
 * model's numbering). Does nothing for any other UIA trace. 0, or -1 with
 * `err` (t is then left for the caller to close). */
int trx_stream_txtb_adopt(trx_trace *t, trx_error *err);

#endif
