/*
 * trx_txtb_drain.c - streaming a TXTB trace buffer that a kernel writes
 * itself (ThreadX's event trace, or tx_trace_* of this recorder): the
 * entries written since the last poll are copied out in small batches and
 * forwarded whole as records of a stream logger; entries the kernel
 * overwrote before they were read are counted, exactly, as dropped events
 * of the stream (trx_stream_skip). Where the kernel is: laps (buffer-full
 * notifications) x entries + the index of its current pointer, read with
 * interrupts masked, like the kernel's inserts. Layout: docs/streaming.md.
 */
#include "trx/recorder.h"
#include "trx/stream_recorder.h"

#define TRX_DRAIN_BATCH 8UL          /* entries copied before checking they still hold */
#define TRX_TXTB_IN_UIA 0x54585442UL /* "TXTB": the 8th argument of a record that holds one */

#if defined(TX_ENABLE_EVENT_TRACE)

/* Entries the kernel has written since the buffer was enabled (mod 2^32). */
static ULONG trx_drain_total(const trx_txtb_drain *d, ULONG entries)
{
    const volatile trx_txtb_header *h = (const volatile trx_txtb_header *)d->buffer;
    ULONG total;
    TRX_INTERRUPT_SAVE_AREA
    TRX_DISABLE
    total = d->laps * entries + (h->buffer_current - h->buffer_start) / 32UL;
    TRX_RESTORE
    return total;
}

/* Forwards one entry as a record of the stream (module 0; UIA timestamp =
 * the entry's time stamp, extended to 64 bits by counting its wraps). */
static VOID trx_drain_forward(trx_txtb_drain *d, const trx_txtb_entry *e)
{
    trx_uia_logger *lg = d->stream;
    const ULONG bytes = 4UL * (TRX_UIA_HEAD_WORDS + 8UL);
    ULONG hdr, *a;
    TRX_INTERRUPT_SAVE_AREA
    if (e->time_stamp < d->time_last) {
        d->time_high++;
    }
    d->time_last = e->time_stamp;
    TRX_DISABLE
    if (lg->active_bits != 0UL) {
        a = trx_uia_open_at_(lg, TRX_UIA_TYPE_EVENT, bytes, (e->event_id & 0xFFFFUL) << 16,
                             e->time_stamp, d->time_high, &hdr);
        a[0] = e->info_1;
        a[1] = e->info_2;
        a[2] = e->info_3;
        a[3] = e->info_4;
        a[4] = e->thread_pointer;
        a[5] = e->thread_priority;
        a[6] = e->event_id;
        a[7] = TRX_TXTB_IN_UIA;
        trx_uia_close_(lg, a + 8, bytes, hdr);
    }
    TRX_RESTORE
}

#endif

UINT trx_txtb_drain_start(trx_txtb_drain *drain, const VOID *trace_buffer, trx_uia_logger *stream)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    const trx_txtb_header *h = (const trx_txtb_header *)trace_buffer;
    if (drain == NULL || h == NULL || stream == NULL || h->buffer_end <= h->buffer_start) {
        return TX_PTR_ERROR;
    }
    drain->buffer = (const UCHAR *)trace_buffer;
    drain->stream = stream;
    drain->laps = 0UL;
    drain->overwritten = 0UL;
    drain->forwarded = 0UL;
    drain->time_high = 0UL;
    drain->time_last = 0UL;
    drain->read = trx_drain_total(drain, (h->buffer_end - h->buffer_start) / 32UL);
    (void)trx_txtb_drain_registry(drain); /* a dropped registry costs names, not events */
    return TX_SUCCESS;
#else
    (void)drain;
    (void)trace_buffer;
    (void)stream;
    return TX_FEATURE_NOT_ENABLED;
#endif
}

UINT trx_txtb_drain_registry(trx_txtb_drain *drain)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    const trx_txtb_header *h = (const trx_txtb_header *)drain->buffer;
    ULONG bytes = h->registry_end - h->registry_start;
    if (bytes == 0UL || bytes > 65535UL) {
        return TX_SIZE_ERROR;
    }
    /* the header words a reader needs beside the registry ride in the
     * snapshot's file / line / format words: the timer mask and the RTOS
     * profile (reserved3: an integration's mark, reserved4: its idle task) */
    return trx_uia_snapshot_write(
        drain->stream, (TRX_UIA_EVENT_TXTB_REGISTRY << 16) | TRX_UIA_MODULE_RECORDER,
        h->registry_name_size, h->timer_valid_mask, h->reserved3, h->reserved4,
        drain->buffer + (h->registry_start - h->trace_base_address), bytes);
#else
    (void)drain;
    return TX_FEATURE_NOT_ENABLED;
#endif
}

VOID trx_txtb_drain_lap(trx_txtb_drain *drain)
{
    drain->laps++;
}

ULONG trx_txtb_drain_poll(trx_txtb_drain *drain)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    const trx_txtb_header *h = (const trx_txtb_header *)drain->buffer;
    const UCHAR *entries = drain->buffer + (h->buffer_start - h->trace_base_address);
    const ULONG n = (h->buffer_end - h->buffer_start) / 32UL;
    const ULONG total = trx_drain_total(drain, n);
    ULONG forwarded = 0UL;
    if (total - drain->read > n) { /* overwritten before this poll */
        ULONG lost = total - drain->read - n;
        drain->overwritten += lost;
        drain->read += lost;
        trx_stream_skip(drain->stream, lost);
    }
    while (drain->read != total) {
        trx_txtb_entry copy[TRX_DRAIN_BATCH];
        ULONG k = total - drain->read < TRX_DRAIN_BATCH ? total - drain->read : TRX_DRAIN_BATCH;
        ULONG i, now, lost = 0UL;
        for (i = 0; i < k; i++) {
            const volatile ULONG *from =
                (const volatile ULONG *)(const VOID *)(entries + ((drain->read + i) % n) * 32UL);
            ULONG *to = (ULONG *)(VOID *)&copy[i];
            ULONG w;
            for (w = 0; w < 8UL; w++) {
                to[w] = from[w];
            }
        }
        now = trx_drain_total(drain, n);
        for (i = 0; i < k; i++) { /* entry read + i held while copied if not written over since */
            if (now - (drain->read + i) > n) {
                lost++;
            }
        }
        if (lost != 0UL) {
            drain->overwritten += lost;
            trx_stream_skip(drain->stream, lost);
        }
        for (i = lost; i < k; i++) {
            trx_drain_forward(drain, &copy[i]);
        }
        forwarded += k - lost;
        drain->read += k;
    }
    drain->forwarded += forwarded;
    return forwarded;
#else
    (void)drain;
    return 0UL;
#endif
}
