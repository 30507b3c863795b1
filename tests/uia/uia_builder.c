/* uia_builder.c - UIA test bytes from the header definitions (see uia_builder.h). */
#include "uia_builder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint32_t ub_hdr(uint32_t type, uint32_t len, uint32_t seq)
{
    return (type & 0x1Fu) << 27 | (len & 0x7FFu) << 16 | (seq & 0xFFFFu);
}

uint32_t ub_hdr_prevlen(uint32_t type, uint32_t len, uint32_t prev_len, uint32_t seq)
{
    return (type & 0x1Fu) << 27 | (len & 0x7FFu) << 16 | (prev_len & 0x7FFu) << 5 | (seq & 0x1Fu);
}

void ub_init(ub *b, bool big_endian)
{
    memset(b, 0, sizeof *b);
    b->be = big_endian;
}

void ub_free(ub *b)
{
    free(b->buf);
    memset(b, 0, sizeof *b);
}

static void reserve(ub *b, size_t n)
{
    if (b->len + n <= b->cap)
        return;
    size_t cap = b->cap ? b->cap * 2 : 256;
    while (cap < b->len + n)
        cap *= 2;
    b->buf = realloc(b->buf, cap);
    if (!b->buf)
        abort();
    b->cap = cap;
}

void ub_put32(ub *b, size_t at, uint32_t w, bool be)
{
    for (int k = 0; k < 4; k++)
        b->buf[at + (size_t)k] = (uint8_t)(be ? w >> (24 - 8 * k) : w >> (8 * k));
}

void ub_word(ub *b, uint32_t w)
{
    reserve(b, 4);
    ub_put32(b, b->len, w, b->be);
    b->len += 4;
}

void ub_word_be(ub *b, uint32_t w)
{
    reserve(b, 4);
    ub_put32(b, b->len, w, true);
    b->len += 4;
}

static uint32_t time_words(uint32_t type)
{
    static const uint8_t tw[13] = {0, 2, 0, 2, 1, 2, 1, 2, 0, 1, 2, 0, 2};
    return type < 13 ? tw[type] : 0;
}

static void header(ub *b, uint32_t type, uint32_t len, uint32_t seq)
{
    ub_word(b, type >= 8 ? ub_hdr_prevlen(type, len, b->prev_len, seq) : ub_hdr(type, len, seq));
    b->prev_len = len;
}

static void timestamp(ub *b, uint32_t type, uint64_t ts)
{
    uint32_t tw = time_words(type);
    if (tw >= 1)
        ub_word(b, (uint32_t)ts); /* low word first */
    if (tw == 2)
        ub_word(b, (uint32_t)(ts >> 32));
}

size_t ub_event(ub *b, uint32_t type, uint32_t seq, uint64_t ts, uint32_t event, uint32_t module,
                const uint32_t *args, uint32_t nargs)
{
    size_t at = b->len;
    uint32_t len = 4 * (2 + time_words(type) + nargs);
    header(b, type, len, seq);
    timestamp(b, type, ts);
    ub_word(b, event << 16 | (module & 0xFFFFu));
    for (uint32_t k = 0; k < nargs; k++)
        ub_word(b, args[k]);
    return at;
}

size_t ub_terminator(ub *b, uint32_t seq)
{
    size_t at = b->len;
    ub_word(b, ub_hdr_prevlen(8, 0, b->prev_len, seq));
    return at;
}

size_t ub_snapshot_ex(ub *b, uint32_t type, uint32_t seq, uint64_t ts, uint32_t event_word,
                      uint32_t file, uint32_t line, uint32_t id, uint32_t addr, const uint8_t *data,
                      uint32_t n, uint32_t total, uint32_t fmt, bool doc_order)
{
    size_t at = b->len;
    uint32_t padded = (n + 3u) & ~3u;
    uint32_t len = 4 * (2 + time_words(type) + 6) + padded;
    header(b, type, len, seq);
    timestamp(b, type, ts);
    ub_word(b, event_word);
    ub_word(b, file); /* file name pointer */
    ub_word(b, line);
    ub_word(b, id);
    ub_word(b, addr);
    ub_word(b, doc_order ? (total << 16 | n) : (n << 16 | total));
    ub_word(b, fmt); /* format pointer */
    reserve(b, padded);
    memcpy(b->buf + b->len, data, n);
    memset(b->buf + b->len + n, 0, padded - n);
    b->len += padded;
    return at;
}

size_t ub_snapshot(ub *b, uint32_t type, uint32_t seq, uint64_t ts, uint32_t id, uint32_t addr,
                   const uint8_t *data, uint32_t n, uint32_t total, bool doc_order)
{
    /* event 1 of module 0x8001, a file, a line and a format pointer */
    return ub_snapshot_ex(b, type, seq, ts, 0x0001u << 16 | 0x8001u, 0x20001000u, 42, id, addr,
                          data, n, total, 0x20002000u, doc_order);
}

void ub_filler(ub *b, uint32_t len)
{
    ub_word_be(b, len & 0x07FFFFFFu);
    for (uint32_t k = 4; k < len; k += 4)
        ub_word_be(b, 0);
}

size_t ub_packet_begin(ub *b, uint32_t pkt_seq, uint32_t first_event, uint32_t logger,
                       uint32_t sender)
{
    size_t at = b->len;
    ub_word_be(b, 10u << 28 | (b->be ? 1u << 27 : 0u));
    ub_word_be(b, pkt_seq << 16 | (first_event & 0x3FFFu) << 2);
    ub_word_be(b, (logger & 0x7FFFu) << 16 | 0x8003u);
    ub_word_be(b, 0xFFFFu << 16 | (sender & 0xFFFFu));
    b->prev_len = 0;
    return at;
}

void ub_packet_end(ub *b, size_t start)
{
    uint32_t w = (uint32_t)b->buf[start] << 24;
    ub_put32(b, start, (w & 0xF8000000u) | (uint32_t)(b->len - start), true);
}

const char *ub_write_temp(const ub *b, const char *name)
{
    static char path[512];
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/trx-uia-%ld-%s", dir ? dir : "/tmp", (long)getpid(), name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b->buf, 1, b->len, f) != b->len || fclose(f) != 0)
        abort();
    return path;
}
