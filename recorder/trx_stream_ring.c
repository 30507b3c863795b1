/*
 * trx_stream_ring.c - the byte ring a stream logger's packets go through,
 * laid out as a SEGGER RTT up-buffer: its set-up, the RTT control block
 * around it, putting a whole packet in (or nothing), and draining it into a
 * byte sink. One writer (under the recorder's critical section) and one
 * reader (a probe or trx_stream_drain) share it without a lock: each owns
 * one offset.
 */
#include "trx/stream_recorder.h"
#include "trx_stream_internal.h"

UINT trx_stream_ring_init(trx_stream_ring *ring, VOID *buffer, ULONG size, const CHAR *name)
{
    if (ring == NULL || buffer == NULL || (TRX_ADDRESS_WORD(buffer) & 3UL) != 0UL) {
        return TX_PTR_ERROR;
    }
    if (size < 64UL || (size & 3UL) != 0UL) {
        return TX_SIZE_ERROR;
    }
    ring->name = name;
    ring->buffer = (UCHAR *)buffer;
    ring->write_offset = 0UL;
    ring->read_offset = 0UL;
    ring->flags = 0UL;
    ring->size = size; /* last: a reader takes a ring of size 0 as inactive */
    return TX_SUCCESS;
}

trx_stream_ring *trx_rtt_init(trx_rtt_control *control, VOID *buffer, ULONG size, const CHAR *name)
{
    static const CHAR first[] = "SEGGER"; /* the id in two pieces: no copy of it in memory */
    static const CHAR second[] = "RTT";   /* other than the block's own */
    volatile CHAR *id;
    ULONG i;
    if (control == NULL) {
        return NULL;
    }
    id = control->id;
    id[0] = '\0';
    for (i = 0; i < TRX_RTT_UP_BUFFERS; i++) {
        control->up[i].size = 0UL;
    }
    for (i = 0; i < TRX_RTT_DOWN_BUFFERS; i++) {
        control->down[i].name = NULL;
        control->down[i].buffer = NULL;
        control->down[i].size = 0UL;
        control->down[i].write_offset = 0UL;
        control->down[i].read_offset = 0UL;
        control->down[i].flags = 0UL;
    }
    if (trx_stream_ring_init(&control->up[0], buffer, size, name) != TX_SUCCESS) {
        return NULL;
    }
    control->max_up_buffers = TRX_RTT_UP_BUFFERS;
    control->max_down_buffers = TRX_RTT_DOWN_BUFFERS;
    for (i = 7; i < 16; i++) {
        id[i] = i - 7 < 3 ? second[i - 7] : '\0';
    }
    id[6] = ' ';
    TRX_PORT_MEMORY_BARRIER();
    for (i = 5; i > 0; i--) {
        id[i] = first[i];
    }
    TRX_PORT_MEMORY_BARRIER();
    id[0] = first[0];
    return &control->up[0];
}

#if defined(TX_ENABLE_EVENT_TRACE)

int trx_stream_ring_put_(trx_stream_ring *ring, const ULONG *words, ULONG bytes)
{
    const ULONG size = ring->size;
    const ULONG write = ring->write_offset;
    const ULONG read = ring->read_offset;
    ULONG room = read > write ? read - write - 1UL : size - write + read - 1UL;
    volatile ULONG *to = (volatile ULONG *)(VOID *)(ring->buffer + write);
    ULONG n = bytes / 4UL, first, i;
    if (read >= size || bytes > room) { /* a reader that wrote nonsense gets nothing */
        return 0;
    }
    first = (size - write) / 4UL; /* words up to the ring's end (offsets stay multiples of 4) */
    if (first > n) {
        first = n;
    }
    for (i = 0; i < first; i++) {
        to[i] = words[i];
    }
    to = (volatile ULONG *)(VOID *)ring->buffer;
    for (; i < n; i++) {
        to[i - first] = words[i];
    }
    TRX_PORT_MEMORY_BARRIER();
    ring->write_offset = write + bytes >= size ? write + bytes - size : write + bytes;
    return 1;
}

#endif

ULONG trx_stream_drain(trx_stream_ring *ring, trx_stream_sink sink, VOID *context)
{
    ULONG total = 0UL;
    for (;;) {
        const ULONG size = ring->size;
        const ULONG write = ring->write_offset;
        ULONG read = ring->read_offset;
        ULONG chunk, taken;
        if (read == write || write >= size || read >= size) {
            return total;
        }
        chunk = write > read ? write - read : size - read;
        taken = sink(context, ring->buffer + read, chunk);
        if (taken > chunk) {
            taken = chunk;
        }
        read += taken;
        ring->read_offset = read == size ? 0UL : read;
        total += taken;
        if (taken < chunk) {
            return total;
        }
    }
}
