/*
 * txtb_drain_writer.c - a kernel writing its TXTB trace buffer (this
 * recorder's tx_trace_*, 64 entries) drained into a stream while it runs
 * (trx_txtb_drain): user events whose info words carry their own sequence
 * number, polls at uneven intervals (some long enough for the kernel to
 * overwrite entries before the drain reads them), the stream drained into
 * OUT. The events come from a registered thread "main" (the registry goes
 * into the stream when the drain starts). Prints the truth as JSON: events inserted, forwarded,
 * overwritten.
 *
 *   txtb_drain_writer OUT EVENTS
 */
#include <stdio.h>
#include <stdlib.h>

#include "trx/recorder.h"
#include "trx/stream_recorder.h"

static TRX_TRACE_BUFFER(trace_buffer, 48 + 4 * (16 + TX_TRACE_OBJECT_REGISTRY_NAME) + 64 * 32);
static trx_txtb_drain drain;
static FILE *out;

static VOID on_full(VOID *buffer)
{
    (void)buffer;
    trx_txtb_drain_lap(&drain);
}

static ULONG file_sink(VOID *context, const UCHAR *bytes, ULONG length)
{
    (void)context;
    return (ULONG)fwrite(bytes, 1, length, out);
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    unsigned long events = strtoul(argv[2], NULL, 0);
    static CHAR main_thread[64], main_stack[256];
    static ULONG ring_words[1 << 16], staging[512 / 4];
    static trx_stream_ring ring;
    static trx_uia_logger lg;
    out = fopen(argv[1], "wb");
    if (!out || trx_stream_ring_init(&ring, ring_words, sizeof ring_words, "trx") != TX_SUCCESS ||
        trx_stream_enable(&lg, staging, sizeof staging, &ring, 0, 7) != TX_SUCCESS ||
        tx_trace_enable(trace_buffer, sizeof trace_buffer, 4) != TX_SUCCESS ||
        tx_trace_buffer_full_notify(on_full) != TX_SUCCESS ||
        trx_trace_thread_register(main_thread, "main", main_stack, sizeof main_stack, 5) !=
            TX_SUCCESS ||
        trx_txtb_drain_start(&drain, trace_buffer, &lg) != TX_SUCCESS)
        return 2;
    trx_recorder_thread_set(main_thread, 5, 5); /* the events come from thread "main" */
    unsigned long next_poll = 1, gap = 1;
    for (unsigned long i = 0; i < events; i++) {
        tx_trace_user_event_insert(4096 + (ULONG)(i % 8), (ULONG)i, (ULONG)i * 2654435761u,
                                   ~(ULONG)i, 0x5A5A0000u);
        if (i + 1 == next_poll) {
            trx_txtb_drain_poll(&drain);
            trx_stream_flush(&lg);
            trx_stream_drain(&ring, file_sink, NULL);
            gap = gap * 7 % 97 + 1; /* 1 .. 97 entries apart: sometimes more than the 64 held */
            next_poll += gap;
        }
    }
    trx_txtb_drain_poll(&drain);
    trx_uia_disable(&lg);
    trx_stream_drain(&ring, file_sink, NULL);
    printf("{\"inserted\":%lu,\"forwarded\":%lu,\"overwritten\":%lu,\"dropped\":%lu}\n", events,
           (unsigned long)drain.forwarded, (unsigned long)drain.overwritten,
           (unsigned long)trx_uia_dropped(&lg));
    return fclose(out) == 0 ? 0 : 3;
}
