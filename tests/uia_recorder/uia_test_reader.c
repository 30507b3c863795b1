/*
 * uia_test_reader.c - the test-only UIA reader (uia_test_reader.h): every
 * field from the EventHdr / UIAPacket bit definitions, with bounds checks.
 */
#include "uia_test_reader.h"

#include <stdio.h>
#include <string.h>

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

uint32_t uia_word(const uint8_t *buf, size_t off, int big_endian)
{
    const uint8_t *p = buf + off;
    if (big_endian)
        return be32(p);
    return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

int uia_read_packet(const uint8_t *buf, size_t n, uia_pkt *out, char *err, size_t err_size)
{
    if (n < 16) {
        snprintf(err, err_size, "packet header: %zu bytes, 16 expected", n);
        return -1;
    }
    uint32_t w1 = be32(buf), w2 = be32(buf + 4), w3 = be32(buf + 8), w4 = be32(buf + 12);
    out->hdr_type = w1 >> 28;
    out->big_endian = (w1 >> 27) & 1u;
    out->length = w1 & 0x07FFFFFFu;
    out->pkt_seq = w2 >> 16;
    out->first_seq = (w2 >> 2) & 0x3FFFu;
    out->logger = (w3 >> 16) & 0x7FFFu;
    out->module = w3 & 0xFFFFu;
    out->dest = w4 >> 16;
    out->src = w4 & 0xFFFFu;
    if (out->hdr_type != 10) {
        snprintf(err, err_size, "packet header: HdrType %u, 10 (EventPkt) expected", out->hdr_type);
        return -1;
    }
    if (out->length < 16 || out->length > n) {
        snprintf(err, err_size, "packet header: length %u outside 16..%zu", out->length, n);
        return -1;
    }
    return 0;
}

int uia_read_record(const uint8_t *buf, size_t n, size_t off, int big_endian, uia_rec *out,
                    char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    if (off % 4 != 0 || off + 4 > n) {
        snprintf(err, err_size, "offset %zu: no record header word fits", off);
        return -1;
    }
    uint32_t w0 = uia_word(buf, off, big_endian);
    out->offset = off;
    out->word0 = w0;
    out->type = w0 >> 27;
    out->len = (w0 >> 16) & 0x7FFu;
    out->prevlen_type = out->type >= 8 && out->type <= 12;
    if (out->prevlen_type) {
        out->prev = (w0 >> 5) & 0x7FFu;
        out->seq = w0 & 0x1Fu;
    } else {
        out->seq = w0 & 0xFFFFu;
    }
    if (out->type > 12 || (out->type >= 4 && out->type <= 7)) {
        snprintf(err, err_size, "offset %zu: HdrType %u is not one the recorder writes", off,
                 out->type);
        return -1;
    }
    if (out->type == 8 && out->len == 0)
        return 0; /* terminator */
    if (out->len < 8 || out->len % 4 != 0 || off + out->len > n) {
        snprintf(err, err_size, "offset %zu: length %u invalid (>= 8, multiple of 4, inside %zu)",
                 off, out->len, n);
        return -1;
    }
    switch (out->type) {
    case 1:
    case 3:
    case 10:
    case 12:
        out->ts_words = 2;
        break;
    case 9:
        out->ts_words = 1;
        break;
    default:
        out->ts_words = 0;
        break;
    }
    size_t w = off + 4;
    if (out->ts_words >= 1)
        out->ts = uia_word(buf, w, big_endian);
    if (out->ts_words == 2)
        out->ts |= (uint64_t)uia_word(buf, w + 4, big_endian) << 32;
    w += 4u * (size_t)out->ts_words;
    size_t end = off + out->len;
    if (w + 4 > end) {
        snprintf(err, err_size, "offset %zu: no room for the event word", off);
        return -1;
    }
    out->evt = uia_word(buf, w, big_endian);
    out->event_id = out->evt >> 16;
    out->module = out->evt & 0xFFFFu;
    w += 4;
    out->snapshot = out->type == 2 || out->type == 3 || out->type == 11 || out->type == 12;
    if (!out->snapshot) {
        out->nargs = (uint32_t)((end - w) / 4);
        if (out->nargs > 8) {
            snprintf(err, err_size, "offset %zu: %u argument words, at most 8", off, out->nargs);
            return -1;
        }
        for (uint32_t i = 0; i < out->nargs; i++)
            out->args[i] = uia_word(buf, w + 4u * i, big_endian);
        return 0;
    }
    if (w + 24 > end) {
        snprintf(err, err_size, "offset %zu: snapshot record too short (%u bytes)", off, out->len);
        return -1;
    }
    out->file = uia_word(buf, w, big_endian);
    out->line = uia_word(buf, w + 4, big_endian);
    out->snapshot_id = uia_word(buf, w + 8, big_endian);
    out->address = uia_word(buf, w + 12, big_endian);
    uint32_t lens = uia_word(buf, w + 16, big_endian);
    out->this_len = lens >> 16; /* what TI's loggers write: this record high, total low */
    out->total_len = lens & 0xFFFFu;
    out->fmt = uia_word(buf, w + 20, big_endian);
    w += 24;
    if (w + out->this_len > end || end - (w + out->this_len) >= 4) {
        snprintf(err, err_size,
                 "offset %zu: snapshot data of %u bytes does not fill the record (%zu bytes left)",
                 off, out->this_len, end - w);
        return -1;
    }
    out->data = buf + w;
    return 0;
}

int uia_walk_forward(const uint8_t *buf, size_t n, size_t off, int big_endian, long first_prev,
                     uia_rec *out, size_t max, size_t *count, size_t *term, char *err,
                     size_t err_size)
{
    size_t k = 0;
    long prev_len = first_prev;
    uint32_t prev_seq = 0;
    for (;;) {
        uia_rec r;
        if (uia_read_record(buf, n, off, big_endian, &r, err, err_size) < 0)
            return -1;
        if (r.type == 8 && r.len == 0) {
            if (k > 0 && r.prev != out[k - 1].len) {
                snprintf(err, err_size, "terminator at %zu: PrevLen %u, last record %u bytes", off,
                         r.prev, out[k - 1].len);
                return -1;
            }
            if (k > 0 && r.seq != ((prev_seq + 1) & 0x1Fu)) {
                snprintf(err, err_size, "terminator at %zu: seq5 %u after %u", off, r.seq,
                         prev_seq);
                return -1;
            }
            *count = k;
            *term = off;
            return 0;
        }
        if (r.prevlen_type && prev_len >= 0 && (long)r.prev != prev_len) {
            snprintf(err, err_size, "record at %zu: PrevLen %u, previous record %ld bytes", off,
                     r.prev, prev_len);
            return -1;
        }
        if (k == max) {
            snprintf(err, err_size, "more than %zu records", max);
            return -1;
        }
        out[k++] = r;
        prev_len = r.len;
        prev_seq = r.seq;
        off += r.len;
    }
}

int uia_walk_back(const uint8_t *buf, size_t n, size_t term, size_t floor, int big_endian,
                  uia_rec *out, size_t max, size_t *count, char *err, size_t err_size)
{
    uia_rec t;
    if (uia_read_record(buf, n, term, big_endian, &t, err, err_size) < 0)
        return -1;
    if (t.type != 8 || t.len != 0) {
        snprintf(err, err_size, "offset %zu: not a terminator (word 0x%08X)", term, t.word0);
        return -1;
    }
    size_t k = 0, pos = term;
    uint32_t prev = t.prev, next_seq = t.seq;
    while (prev != 0 && pos >= floor + prev) {
        uia_rec r;
        size_t rec = pos - prev;
        if (uia_read_record(buf, n, rec, big_endian, &r, err, err_size) < 0 || r.len != prev ||
            r.seq != ((next_seq - 1) & 0x1Fu))
            break; /* reached data the newer pass overwrote */
        if (k == max) {
            snprintf(err, err_size, "more than %zu records", max);
            return -1;
        }
        out[k++] = r;
        next_seq = r.seq;
        prev = r.prev;
        pos = rec;
    }
    for (size_t i = 0; i < k / 2; i++) {
        uia_rec x = out[i];
        out[i] = out[k - 1 - i];
        out[k - 1 - i] = x;
    }
    *count = k;
    return 0;
}

int uia_snapshot_join(const uia_rec *records, size_t n, uint32_t snapshot_id, uint8_t *out,
                      size_t out_size, size_t *length, char *err, size_t err_size)
{
    size_t got = 0;
    uint32_t base = 0, total = 0;
    int seen = 0;
    for (size_t i = 0; i < n; i++) {
        const uia_rec *r = &records[i];
        if (!r->snapshot || r->snapshot_id != snapshot_id)
            continue;
        if (!seen) {
            base = r->address;
            total = r->total_len;
            seen = 1;
        }
        if (r->total_len != total) {
            snprintf(err, err_size, "snapshot %u: total %u then %u", snapshot_id, total,
                     r->total_len);
            return -1;
        }
        if (r->address != base + (uint32_t)got) {
            snprintf(err, err_size, "snapshot %u: record at 0x%08X, 0x%08X expected", snapshot_id,
                     r->address, base + (uint32_t)got);
            return -1;
        }
        if (got + r->this_len > out_size || got + r->this_len > total) {
            snprintf(err, err_size, "snapshot %u: more data than its total %u", snapshot_id, total);
            return -1;
        }
        memcpy(out + got, r->data, r->this_len);
        got += r->this_len;
    }
    if (!seen || got != total) {
        snprintf(err, err_size, "snapshot %u: %zu of %u bytes", snapshot_id, got, total);
        return -1;
    }
    *length = got;
    return 0;
}
