/* uia_builder.h - a test-side builder of UIA bytes written from the header
 * definitions (ti-uia-eventhdr, research/uia.md), not from the recorder:
 * record header words, records of every HdrType, terminators, snapshots,
 * InvalidData fillers and 16-byte big-endian UIAPacket headers. */
#ifndef UIA_BUILDER_H
#define UIA_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Header word of a standard record (HdrType 0..7). */
uint32_t ub_hdr(uint32_t type, uint32_t len, uint32_t seq);
/* Header word of a PrevLen record (HdrType 8..12). */
uint32_t ub_hdr_prevlen(uint32_t type, uint32_t len, uint32_t prev_len, uint32_t seq);

/* A growing byte buffer; `be`: the payload byte order. */
typedef struct ub {
    uint8_t *buf;
    size_t len, cap;
    bool be;
    uint32_t prev_len; /* length of the last record (PrevLen chain) */
} ub;

void ub_init(ub *b, bool big_endian);
void ub_free(ub *b);
void ub_word(ub *b, uint32_t w);    /* payload byte order */
void ub_word_be(ub *b, uint32_t w); /* always big-endian */
void ub_put32(ub *b, size_t at, uint32_t w, bool be);

/* An event record of `type` (0, 1, 4, 5, 8, 9, 10) with `nargs` argument words;
 * returns its offset. The timestamp words follow the type. */
size_t ub_event(ub *b, uint32_t type, uint32_t seq, uint64_t ts, uint32_t event, uint32_t module,
                const uint32_t *args, uint32_t nargs);
/* A zero-length type-8 terminator (PrevLen = last record's length). */
size_t ub_terminator(ub *b, uint32_t seq);
/* A snapshot record (type 2, 3, 11 or 12) carrying `n` data bytes of a
 * snapshot of `total` bytes; `doc_order`: lengths word as the documentation
 * says (total high) instead of as the loggers write it (this record high). */
size_t ub_snapshot(ub *b, uint32_t type, uint32_t seq, uint64_t ts, uint32_t id, uint32_t addr,
                   const uint8_t *data, uint32_t n, uint32_t total, bool doc_order);
/* The same with the event word, file and line words and format word given. */
size_t ub_snapshot_ex(ub *b, uint32_t type, uint32_t seq, uint64_t ts, uint32_t event_word,
                      uint32_t file, uint32_t line, uint32_t id, uint32_t addr, const uint8_t *data,
                      uint32_t n, uint32_t total, uint32_t fmt, bool doc_order);
/* InvalidData filler of `len` bytes (big-endian word + zero padding). */
void ub_filler(ub *b, uint32_t len);

/* Starts a UIAPacket EventPkt header (length patched by ub_packet_end). */
size_t ub_packet_begin(ub *b, uint32_t pkt_seq, uint32_t first_event, uint32_t logger,
                       uint32_t sender);
void ub_packet_end(ub *b, size_t start);

/* Writes the buffer to a temporary file; returns its path (static storage). */
const char *ub_write_temp(const ub *b, const char *name);

#endif
