/*
 * uia_test_reader.h - a tiny, test-only reader of the UIA buffers the trx
 * recorder writes (docs/uia-format.md), independent of the recorder's code:
 * it decodes the big-endian packet header and each record field by field
 * from the EventHdr bit layout, walks records forward to the terminator and
 * backwards along the PrevLen chain, and reassembles snapshots. Any layout
 * violation is reported as text (the tests print it and fail).
 */
#ifndef UIA_TEST_READER_H
#define UIA_TEST_READER_H

#include <stddef.h>
#include <stdint.h>

/* The 16-byte UIAPacket EventPkt header. */
typedef struct uia_pkt {
    uint32_t hdr_type;   /* word1 31..28 (10 = EventPkt) */
    uint32_t big_endian; /* word1 bit 27 */
    uint32_t length;     /* word1 26..0, bytes including the header */
    uint32_t pkt_seq;    /* word2 31..16 */
    uint32_t first_seq;  /* word2 15..2 */
    uint32_t logger;     /* word3 30..16 */
    uint32_t module;     /* word3 15..0 */
    uint32_t dest, src;  /* word4 */
} uia_pkt;

/* One record, every field. */
typedef struct uia_rec {
    size_t offset; /* of word 0 in the buffer */
    uint32_t word0, type, len, seq, prev;
    int prevlen_type; /* types 8..12 */
    int ts_words;     /* 0, 1, 2 */
    uint64_t ts;      /* low word first */
    uint32_t evt, event_id, module;
    uint32_t nargs; /* event records */
    uint32_t args[8];
    int snapshot; /* types 2, 3, 11, 12 */
    uint32_t file, line, snapshot_id, address, this_len, total_len, fmt;
    const uint8_t *data; /* this_len bytes */
} uia_rec;

/* Reads the packet header; 0, or -1 with a message in err. */
int uia_read_packet(const uint8_t *buf, size_t n, uia_pkt *out, char *err, size_t err_size);

/* Reads one 32-bit payload word at `off` in the given byte order. */
uint32_t uia_word(const uint8_t *buf, size_t off, int big_endian);

/* Decodes the record at `off` (bounded by n); 0, or -1 with a message. A
 * terminator (type 8, length 0) decodes with len 0. */
int uia_read_record(const uint8_t *buf, size_t n, size_t off, int big_endian, uia_rec *out,
                    char *err, size_t err_size);

/* Walks records forward from `off` until the terminator: at most `max` into
 * out, their count in *count, the terminator's offset in *term. Checks the
 * PrevLen chain (each record's PrevLen = the length before it, the first
 * against first_prev; -1 = not checked) and the terminator's PrevLen and
 * sequence. 0, or -1 with a message. */
int uia_walk_forward(const uint8_t *buf, size_t n, size_t off, int big_endian, long first_prev,
                     uia_rec *out, size_t max, size_t *count, size_t *term, char *err,
                     size_t err_size);

/* Walks back from the terminator at `term` along PrevLen while records stay
 * at or above `floor`, each with the sequence one below the next; stores
 * them oldest first. 0, or -1 with a message. */
int uia_walk_back(const uint8_t *buf, size_t n, size_t term, size_t floor, int big_endian,
                  uia_rec *out, size_t max, size_t *count, char *err, size_t err_size);

/* Reassembles the snapshot `snapshot_id` from records[0..n): checks address
 * continuity, lengths word (this << 16 | total) and total; copies the data
 * into out (capacity out_size), its length in *length. 0, or -1 with a message. */
int uia_snapshot_join(const uia_rec *records, size_t n, uint32_t snapshot_id, uint8_t *out,
                      size_t out_size, size_t *length, char *err, size_t err_size);

#endif
