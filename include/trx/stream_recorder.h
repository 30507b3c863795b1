/*
 * stream_recorder.h - streaming while the target runs: a UIA logger whose
 * records leave the target in checked UIAPackets through a byte ring that
 * something else empties. Freestanding C99, same configuration style and
 * critical section as the rest of the recorder.
 *
 * A stream logger is a trx_uia_logger over a small staging buffer (one
 * packet). When the packet is full (or trx_stream_flush is called) it is
 * closed: a checksum and the number of its first record go into its first
 * record (module TR, event TRX_UIA_EVENT_STREAM_PACKET), and the whole
 * packet is copied into the ring if the ring has room for all of it, else
 * its records are dropped and counted. The recording context never waits.
 * The host counts lost records exactly from the numbers (32 bits, dropped
 * records included), finds packets again after noise, and takes a number
 * restarting at 0 as a target reset (a new session). Byte layout:
 * docs/streaming.md.
 *
 * Rings (trx_stream_ring) are laid out as SEGGER RTT up-buffers, so the two
 * transports are one ring emptied two ways:
 *   - RTT: trx_rtt_init puts the ring in a control block with the "SEGGER
 *     RTT" id; a debug probe's RTT server (J-Link, OpenOCD `rtt server`,
 *     probe-rs, pyOCD) reads it while the core runs and serves it on TCP;
 *   - byte sink: trx_stream_drain hands the ring's bytes to a function the
 *     firmware gives (UART TX FIFO, USB CDC, a socket), from an idle hook
 *     or a low-priority task; the function takes what it can without
 *     waiting.
 */
#ifndef TRX_STREAM_RECORDER_H
#define TRX_STREAM_RECORDER_H

#include "trx/uia_recorder.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Up- and down-buffers of the RTT control block (trx_rtt_control). Channel 0
 * of the up-buffers is trx's stream; the down-buffers exist for readers that
 * expect some, with size 0 (inactive). */
#ifndef TRX_RTT_UP_BUFFERS
#define TRX_RTT_UP_BUFFERS 1
#endif
#ifndef TRX_RTT_DOWN_BUFFERS
#define TRX_RTT_DOWN_BUFFERS 1
#endif

/* Orders the ring's data stores before the store of its write offset (a
 * probe reads them over the debug port, a drain task on another core): the
 * Cortex-M port defines it as a DMB. */
#ifndef TRX_PORT_MEMORY_BARRIER
#define TRX_PORT_MEMORY_BARRIER()
#endif

/* The first record of every stream packet: module TR, this event id; five
 * arguments: check, number of the packet's first event, records dropped by
 * the target so far, session, flags (bit 0: the logger's first packet)
 * (docs/streaming.md). */
#define TRX_UIA_EVENT_STREAM_PACKET 4UL

/* Words of that record (head words and five arguments). */
#define TRX_STREAM_FRAME_WORDS (TRX_UIA_HEAD_WORDS + 5UL)

/* A byte ring as an RTT up-buffer descriptor: 24 bytes on 32-bit targets
 * (name, buffer, size, write offset, read offset, flags at 0, 4, 8, 12, 16,
 * 20), 32 on 64-bit hosts. The writer owns write_offset, the reader
 * read_offset; the ring holds size - 1 bytes at most. */
typedef struct trx_stream_ring {
    const CHAR *name;
    UCHAR *buffer;
    ULONG size;
    volatile ULONG write_offset;
    volatile ULONG read_offset;
    ULONG flags; /* RTT mode: 0, "no block, skip" (what this writer does) */
} trx_stream_ring;

/* SEGGER RTT's control block: the id a probe searches RAM for, the number
 * of up- and down-buffers, then their descriptors. */
typedef struct trx_rtt_control {
    CHAR id[16];
    ULONG max_up_buffers;
    ULONG max_down_buffers;
    trx_stream_ring up[TRX_RTT_UP_BUFFERS];
    trx_stream_ring down[TRX_RTT_DOWN_BUFFERS];
} trx_rtt_control;

/* Sets `ring` up over `buffer` (4-byte aligned, `size` bytes, a multiple of
 * 4, at least 64). TX_SUCCESS, TX_PTR_ERROR or TX_SIZE_ERROR. */
UINT trx_stream_ring_init(trx_stream_ring *ring, VOID *buffer, ULONG size, const CHAR *name);

/* Sets `control` up as an RTT control block whose up-buffer 0 is a ring
 * over `buffer` (as trx_stream_ring_init), named `name`; the id is written
 * last, so a probe that finds it finds a complete block. Returns the ring
 * (NULL on bad arguments). */
trx_stream_ring *trx_rtt_init(trx_rtt_control *control, VOID *buffer, ULONG size, const CHAR *name);

/* Starts streaming logger `logger` into `ring`: `staging` (4-byte aligned,
 * `staging_size` bytes, from trx_stream_min_size() up to 2044 + the packet
 * header) holds the packet being filled, so it is the largest packet;
 * `sender` as trx_uia_enable; `session` any value the host shows to tell
 * target boots apart (0 if none). The same error codes as trx_uia_enable. */
UINT trx_stream_enable(trx_uia_logger *logger, VOID *staging, ULONG staging_size,
                       trx_stream_ring *ring, ULONG sender, ULONG session);

/* Smallest staging buffer in bytes. */
ULONG trx_stream_min_size(void);

/* Closes the packet being filled now and puts it in the ring, if it holds
 * an event or events were dropped since the last packet that reached the
 * ring (an empty packet then tells the host how many): call it before the
 * ring is read, so no event waits in the staging buffer (from the drain, a
 * timer, before stopping). TX_SUCCESS, or TX_NOT_DONE when the logger is
 * not streaming. trx_uia_disable closes the last packet the same way. */
UINT trx_stream_flush(trx_uia_logger *logger);

/* Events recorded since trx_stream_enable, dropped ones included (mod
 * 2^32): the host's events plus its lost events, once every packet has
 * arrived. */
ULONG trx_stream_recorded(trx_uia_logger *logger);

/* A byte sink: takes up to `length` bytes at `bytes` without waiting and
 * returns how many it took (0 when its FIFO is full). */
typedef ULONG (*trx_stream_sink)(VOID *context, const UCHAR *bytes, ULONG length);

/* Empties `ring` into `sink` until the ring is empty or the sink takes less
 * than it was offered. Returns the bytes taken. Call it from one context
 * only (idle hook, low-priority task); the recording contexts may run
 * meanwhile. */
ULONG trx_stream_drain(trx_stream_ring *ring, trx_stream_sink sink, VOID *context);

/* Counts `n` events as dropped (events that were never recorded into the
 * logger, e.g. TXTB entries overwritten before a drain read them): the
 * packet being filled is closed first, so the host sees exactly `n` lost
 * before the next event. TX_SUCCESS, or TX_NOT_DONE when not streaming. */
UINT trx_stream_skip(trx_uia_logger *logger, ULONG n);

/* ------------------------------------------------ TXTB drain (ThreadX) */

/* A drain of a TXTB trace buffer written by a kernel (ThreadX's own event
 * trace, or this recorder's tx_trace_*): forwards each new entry, whole, as
 * a record of `stream` (module 0, event id = the entry's low 16 bits, the
 * UIA timestamp = the entry's, arguments info 1-4, thread pointer, priority
 * word, event id, 0x54585442 "TXTB": `trx convert --to txtb` gives the
 * entries back byte for byte) and counts exactly the entries the kernel
 * overwrote before the drain read them, as dropped events of the stream.
 * Single core: the kernel's inserts and the drain's reads of the buffer's
 * position are both done with interrupts masked. */
typedef struct trx_txtb_drain {
    const UCHAR *buffer;        /* the trace buffer (its control header) */
    trx_uia_logger *stream;     /* where the entries go */
    ULONG laps;                 /* buffer-full notifications: trx_txtb_drain_lap */
    ULONG read;                 /* entries forwarded or counted lost (mod 2^32) */
    ULONG overwritten;          /* entries lost before they were read */
    ULONG forwarded;            /* entries forwarded */
    ULONG time_high, time_last; /* the 64-bit extension of the entries' time stamps */
} trx_txtb_drain;

/* Starts draining the enabled trace buffer `trace_buffer` into `stream`
 * (a streaming logger) from the entries written from now on, after sending
 * its object registry (trx_txtb_drain_registry). Register
 * trx_txtb_drain_lap in the buffer-full notify callback
 * (tx_trace_buffer_full_notify) before. TX_SUCCESS or TX_PTR_ERROR. */
UINT trx_txtb_drain_start(trx_txtb_drain *drain, const VOID *trace_buffer, trx_uia_logger *stream);

/* The event id (module TR) of the snapshot that carries a TXTB buffer's
 * object registry (snapshot id = the registry's name size) and, in its
 * file / line / format words, the header's timer mask, reserved3 and
 * reserved4 (the RTOS profile an integration writes there). */
#define TRX_UIA_EVENT_TXTB_REGISTRY 5UL

/* Sends the trace buffer's object registry (the names of threads, queues
 * ...) into the stream as one memory snapshot: trx_txtb_drain_start does it
 * once; call it again after creating objects. `trx convert --to txtb` puts
 * the last one in the converted buffer. TX_SUCCESS, or TX_NOT_DONE when a
 * record of it was dropped (a staging buffer smaller than
 * TRX_UIA_MAX_RECORD_BYTES + 64 drops them all). */
UINT trx_txtb_drain_registry(trx_txtb_drain *drain);

/* Counts one wrap of the trace buffer: call it from the full-notify callback. */
VOID trx_txtb_drain_lap(trx_txtb_drain *drain);

/* Forwards the entries written since the last call (those overwritten
 * meanwhile counted lost). Call it from one low-priority context (idle hook,
 * a task) often enough. Returns the entries forwarded. */
ULONG trx_txtb_drain_poll(trx_txtb_drain *drain);

/* Out-of-line end of a stream logger's packet (trx_uia_finish_ calls it). */
VOID trx_stream_commit_(trx_uia_logger *logger, ULONG *next);

#ifdef __cplusplus
}
#endif
#endif /* TRX_STREAM_RECORDER_H */
