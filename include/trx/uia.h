/*
 * uia.h - what the UIA decoder knows beyond the common event model: the
 * UIAPackets of a System Analyzer file, the streams (sender + logger
 * instance, one per core), sessions, duplicate packets, every record's raw
 * fields (header type, argument words) and the reassembled snapshots.
 * Everything here is read-only and valid while the trace is open; a trace
 * opened as TXTB has none of it (trx_uia_info returns NULL).
 * The byte layouts are described in docs/uia-decoding.md.
 */
#ifndef TRX_UIA_H
#define TRX_UIA_H

#include <stdbool.h>
#include <stdint.h>

#include "trx/trx.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TRX_UIA_NONE 0xFFFFFFFFu /* "not given" for sender / logger / indexes */

/* Modules of trx's own UIA recorder (docs/uia-format.md): "TX" records carry
 * TXTB event ids (named by the TXTB catalogue, like module 0 and a names
 * file's default module); "TR" records are the recorder's own, event 1 =
 * records dropped by the stop policy since the buffer filled (argument 0). */
#define TRX_UIA_TX_MODULE 0x5458u
#define TRX_UIA_RECORDER_MODULE 0x5452u
#define TRX_UIA_DROPPED_EVENT 1u
/* The first record of each packet of a trx stream (docs/streaming.md):
 * check, number of the packet's first event, dropped so far, session, flags. */
#define TRX_UIA_STREAM_PACKET_EVENT 4u
#define TRX_UIA_STREAM_FIRST_PACKET 1u /* flags: the first packet since the logger started */
/* A memory snapshot of a TXTB buffer's object registry (trx_txtb_drain;
 * snapshot id = the registry's name size). */
#define TRX_UIA_TXTB_REGISTRY_EVENT 5u

/* One UIAPacket (EventPkt) of a packet file, in file order. */
typedef struct trx_uia_packet {
    uint64_t offset;         /* of its 16-byte header in the image */
    uint32_t length;         /* bytes including the header */
    uint32_t seq;            /* packet sequence number (word2 high half) */
    uint32_t first_event;    /* 14-bit first-event sequence (word2 bits 15..2) */
    uint32_t sender;         /* word4 low half */
    uint32_t dest;           /* word4 high half */
    uint32_t logger;         /* word3 bits 30..16 (instance id) */
    uint32_t logger_module;  /* word3 low half */
    uint32_t stream;         /* index into trx_uia.streams */
    uint32_t session;        /* the stream's session this packet belongs to (0-based) */
    uint64_t records;        /* records decoded from it */
    bool big_endian;         /* the payload byte order (E bit) */
    bool duplicate;          /* byte-identical to an earlier packet: skipped */
    bool numbered;           /* a trx stream packet whose check holds: the fields below */
    uint32_t number;         /* number of its first event since its logger started */
    uint32_t target_dropped; /* events its logger dropped before it (when the ring was full) */
    uint32_t session_id;     /* the session value its logger was started with */
    uint32_t flags;          /* TRX_UIA_STREAM_FIRST_PACKET */
    uint32_t tail_lost;      /* opening a session: the events the one before dropped after its
                                last record (an empty packet told them) */
} trx_uia_packet;

/* One stream: the records of one sender + logger instance (a raw record
 * buffer is one stream with sender and logger TRX_UIA_NONE). */
typedef struct trx_uia_stream {
    uint32_t sender, logger;
    uint32_t core; /* its sender's time axis (trx_event.core): senders in ascending order */
    uint64_t records;
    uint64_t lost_events;
    uint32_t sessions;       /* target runs (restarts) seen in it, >= 1 */
    uint64_t span_ticks;     /* largest relative tick of its records */
    uint64_t time_backwards; /* records whose timestamp is below the one before */
} trx_uia_stream;

/* A snapshot (memory range or string) reassembled from its records. */
typedef struct trx_uia_snapshot {
    uint64_t first_event; /* event index of its first record */
    uint32_t id;          /* snapshot id */
    uint32_t stream;
    uint32_t address;      /* target address of the first byte */
    uint32_t total_length; /* bytes the records announce */
    uint32_t length;       /* bytes received (contiguous from `address`) */
    const uint8_t *data;   /* `length` bytes */
    uint32_t records;
    bool incomplete; /* a record is missing (address jump, short total) */
} trx_uia_snapshot;

/* The decoded fields of one record. */
typedef struct trx_uia_record {
    uint64_t offset;     /* of its header word in the image */
    uint32_t stream;     /* its stream (sender + logger; trx_uia_info.streams) */
    uint32_t hdr_type;   /* 0..12 */
    uint32_t length;     /* bytes, header word included */
    uint32_t seq_raw;    /* 16 bits (types 0..7) or 5 bits (8..12) */
    uint32_t prev_len;   /* PrevLen types: bytes of the record before */
    uint32_t time_words; /* 0, 1 (32-bit) or 2 (64-bit low word first) */
    uint64_t time;
    uint32_t event, module; /* event word: event id << 16 | module id */
    uint32_t nargs;         /* argument words (not for snapshot records) */
    const uint8_t *args;    /* the first argument word in the image */
    bool big_endian;
    /* snapshot records (types 2, 3, 11, 12) */
    bool snapshot;
    uint32_t file_ptr, line, snapshot_id, address, lens, fmt_ptr;
    uint32_t this_length, total_length; /* from `lens`, halves told apart */
    const uint8_t *data;
    uint32_t data_length; /* bytes of data in the record (padding excluded) */
} trx_uia_record;

/* How one core's clock was put on the trace's time axis (trx_uia_info.core_time). */
typedef struct trx_uia_core_time {
    uint64_t sync_points; /* UIASync sync points this core logged */
    bool aligned;         /* mapped onto the global timer by them */
    double rate;          /* global-timer ticks per core tick (aligned) */
    double offset;        /* the global timer when the core's clock read 0: g = offset + rate x t */
    double timestamp_hz;  /* the core's timestamp frequency from its sync points: CpuFreq /
                             CpuCyclesPerCpuTimerTick; 0: not given there */
} trx_uia_core_time;

/* The UIA side of an opened trace. */
typedef struct trx_uia_info {
    bool packet_file;     /* UIAPackets back to back (else a raw record buffer) */
    bool big_endian;      /* records' byte order (raw buffers; packets say their own) */
    bool endian_detected; /* true: guessed from content; false: packet bit or --endian */
    bool wrapped;         /* a PrevLen buffer read backwards from its write position */
    uint64_t records;
    uint32_t packet_count, duplicate_packets;
    const trx_uia_packet *packets;
    uint32_t stream_count;
    const trx_uia_stream *streams;
    uint32_t snapshot_count;
    const trx_uia_snapshot *snapshots;
    uint64_t skipped_words; /* terminators and InvalidData fillers skipped */
    uint64_t skipped_front; /* bytes before the first whole packet (a capture joined mid-packet) */
    uint64_t cut_tail;      /* bytes of a last packet cut short (its whole records are read) */
    uint64_t garbage_bytes; /* bytes between packets that are no packet (skipped) */
    uint32_t garbage_runs;  /* places where they were */
    uint32_t corrupt_packets;        /* trx stream packets whose check failed (skipped) */
    uint32_t numbered_packets;       /* trx stream packets read (their check held) */
    uint64_t time_backwards;         /* records whose timestamp went backwards (warned) */
    uint64_t target_dropped;         /* the recorder's stop-policy drop count (a gap at the end) */
    uint64_t first_backwards_offset; /* where it first happened */
    uint32_t cores;                  /* senders: one time axis each (trx_event.core) */
    uint64_t sync_points;            /* UIASync sync points read (names needed: --uia-meta) */
    bool aligned;                    /* every core mapped onto the global timer by them */
    const trx_uia_core_time *core_time; /* per core (`cores` entries), or NULL (one axis) */
} trx_uia_info;

/* The UIA details of `t`, or NULL when it is not a UIA trace. */
const trx_uia_info *trx_uia_info_of(const trx_trace *t);

/* Decodes record number `record` (trx_event.entry) into `out`; false when out of range. */
bool trx_uia_record_get(const trx_trace *t, uint32_t record, trx_uia_record *out);

/* Argument word `k` (< nargs) of a decoded record. */
uint32_t trx_uia_record_arg(const trx_uia_record *r, uint32_t k);

/* The snapshot whose first record is record number `index` (trx_event.entry), or NULL. */
const trx_uia_snapshot *trx_uia_snapshot_at(const trx_trace *t, uint64_t index);

/* "Event", "EventWithTimestamp", ... for HdrType 0..12 ("Reserved" above). */
const char *trx_uia_hdr_type_name(uint32_t hdr_type);

#ifdef __cplusplus
}
#endif
#endif /* TRX_UIA_H */
