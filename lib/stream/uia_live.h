/*
 * uia_live.h - what a stream of UIAPackets holds so far, counted while it
 * arrives (trx capture's status line, --max-events, --rotate): packets,
 * events, lost events (exact for trx stream packets, from 16-bit sequence
 * numbers for TI's), bytes that were no packet, and where the last whole
 * packet ends. Memory stays bounded (one packet of at most
 * TRX_LIVE_MAX_PACKET bytes is kept); the work per byte is bounded too.
 * The file the capture writes is decoded exactly afterwards; this is the
 * running count.
 */
#ifndef TRX_STREAM_UIA_LIVE_H
#define TRX_STREAM_UIA_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TRX_LIVE_MAX_PACKET (1u << 20) /* longer packets are counted as bytes only */
#define TRX_LIVE_STREAMS 64            /* loggers followed for lost events */

/* What the stream is: given, or found from its start (packets when it
 * starts with a packet header or one appears in its first TRX_LIVE_DETECT
 * bytes; raw records when those hold none but read as records). */
enum { TRX_LIVE_AUTO = 0, TRX_LIVE_PACKETS = 1, TRX_LIVE_RECORDS = 2 };
#define TRX_LIVE_DETECT 4096u

/* One logger's place in its stream. */
typedef struct trx_live_stream {
    uint32_t sender, logger;
    bool numbered;        /* its last packet was a trx stream packet */
    uint32_t next_number; /* the number its next event should have */
    uint32_t session_id;
    uint32_t next_seq16; /* TI packets: the next standard record's sequence number */
    int32_t load;        /* the last CPU load it reported, in percent (-1: none) */
} trx_live_stream;

typedef struct trx_uia_live {
    uint8_t *buf; /* bytes received and not yet counted (a packet arriving) */
    size_t len, cap;
    uint64_t offset;   /* stream offset of buf[0] */
    uint64_t boundary; /* stream offset just past the last whole packet counted */
    uint64_t packets, events, lost, gaps, garbage_bytes, corrupt_packets;
    uint64_t budget;        /* work the record walks may still do (grows with the bytes fed) */
    uint64_t stop_events;   /* set by the caller: stop counting once this many events are in */
    int format;             /* TRX_LIVE_AUTO, _PACKETS or _RECORDS (set by the caller) */
    bool records_be;        /* raw records: their byte order (found from the first bytes) */
    bool decided;           /* format and byte order known */
    uint32_t load_words[4]; /* event words (event << 16 | module) of CPU-load reports */
    uint32_t load_word_count;
    bool stopped; /* they are: `boundary` is the end of the packet that got there */
    trx_live_stream streams[TRX_LIVE_STREAMS];
    uint32_t stream_count;
} trx_uia_live;

/* An empty count. */
void trx_uia_live_init(trx_uia_live *l);

/* Counts the next `n` bytes of the stream (none once stopped). 0, or -1
 * when out of memory (the count stops; the caller's copy of the bytes is
 * not affected). */
int trx_uia_live_feed(trx_uia_live *l, const uint8_t *data, size_t n);

/* Releases the kept bytes. */
void trx_uia_live_free(trx_uia_live *l);

#endif /* TRX_STREAM_UIA_LIVE_H */
