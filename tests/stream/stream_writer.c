/*
 * stream_writer.c - plays a target that streams: records EVENTS events with
 * the stream recorder (one logger, a ring of RING bytes, a staging buffer of
 * STAGING bytes) and drains the ring into a slow byte sink (at most CHUNK
 * bytes per call, one drain every DRAIN_EVERY events), writing what the sink
 * took to OUT. Event i carries its own number, so a reader can tell every
 * event apart: argument words (i, i * 2654435761, ~i, session), 1 to 4 of
 * them, and a snapshot string every 1000 events. RESETS > 0 restarts the
 * logger that many times (a target reset: a new session value, numbers from
 * 0 again). Prints the truth as JSON: events recorded, dropped (the
 * recorder's own counter, per session).
 *
 *   stream_writer OUT EVENTS RING STAGING CHUNK DRAIN_EVERY RESETS
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "trx/stream_recorder.h"

uint32_t uia_test_clock;
uint32_t uia_test_step = 7;

static FILE *out;
static unsigned long chunk;

/* The slow sink: takes at most `chunk` bytes a call. */
static ULONG sink(VOID *context, const UCHAR *bytes, ULONG length)
{
    (void)context;
    ULONG n = length < chunk ? length : (ULONG)chunk;
    if (fwrite(bytes, 1, n, out) != n)
        exit(3);
    return n;
}

int main(int argc, char **argv)
{
    if (argc != 8) {
        fprintf(stderr, "usage: stream_writer OUT EVENTS RING STAGING CHUNK DRAIN_EVERY RESETS\n");
        return 2;
    }
    unsigned long events = strtoul(argv[2], NULL, 0), ring_bytes = strtoul(argv[3], NULL, 0);
    unsigned long staging_bytes = strtoul(argv[4], NULL, 0), every = strtoul(argv[6], NULL, 0);
    unsigned long resets = strtoul(argv[7], NULL, 0);
    chunk = strtoul(argv[5], NULL, 0);
    out = fopen(argv[1], "wb");
    ULONG *ring_buffer = calloc(ring_bytes / 4 + 1, 4), *staging = calloc(staging_bytes / 4 + 1, 4);
    if (!out || !ring_buffer || !staging || !every)
        return 2;
    static trx_rtt_control rtt;
    static trx_uia_logger lg;
    trx_stream_ring *ring = trx_rtt_init(&rtt, ring_buffer, ring_bytes, "trx");
    if (!ring)
        return 2;
    printf("{\"sessions\":[");
    for (unsigned long s = 0; s <= resets; s++) {
        ULONG session = 0x5E550000u + (ULONG)s;
        if (trx_stream_enable(&lg, staging, staging_bytes, ring, 1, session) != TX_SUCCESS)
            return 2;
        unsigned long n = events / (resets + 1);
        for (unsigned long i = 0; i < n; i++) {
            ULONG ew = (ULONG)(0x10 + i % 4) << 16 | 0x1234u, a = (ULONG)i;
            switch (i % 4) {
            case 0:
                trx_uia_write1(&lg, ew, a, 0xFFFFFFFFu);
                break;
            case 1:
                trx_uia_write2(&lg, ew, a, a * 2654435761u, 0xFFFFFFFFu);
                break;
            default:
                trx_uia_write4(&lg, ew, a, a * 2654435761u, ~a, session, 0xFFFFFFFFu);
                break;
            }
            if (i % 1000 == 999)
                trx_uia_snapshot_string(&lg, (ULONG)i, "a snapshot between events", 0);
            if (i % every == every - 1) {
                trx_stream_flush(&lg);
                trx_stream_drain(ring, sink, NULL);
            }
        }
        chunk = ~0ul; /* a target that stops sends what it has */
        trx_stream_flush(&lg);
        trx_stream_drain(ring, sink, NULL);
        trx_uia_disable(&lg); /* the news of the last drops leaves too */
        trx_stream_drain(ring, sink, NULL);
        chunk = strtoul(argv[5], NULL, 0);
        printf("%s{\"events\":%lu,\"dropped\":%lu,\"session\":%lu}", s ? "," : "", n,
               (unsigned long)trx_uia_dropped(&lg), (unsigned long)session);
    }
    printf("]}\n");
    return fclose(out) == 0 ? 0 : 3;
}
