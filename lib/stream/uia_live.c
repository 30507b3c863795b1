/*
 * uia_live.c - the running count of a UIAPacket stream (uia_live.h): whole
 * packets are counted as they complete; bytes that start no packet, trx
 * stream packets that fail their check and packets whose records do not
 * tile are skipped a byte at a time and counted as garbage, as the decoder
 * does (uia_open.c), so the count finds the packets again after noise.
 */
#include "stream/uia_live.h"

#include <stdlib.h>
#include <string.h>

#include "decode/uia_internal.h"

void trx_uia_live_init(trx_uia_live *l)
{
    memset(l, 0, sizeof *l);
    l->budget = 65536;
}

void trx_uia_live_free(trx_uia_live *l)
{
    free(l->buf);
    l->buf = NULL;
    l->len = l->cap = 0;
}

/* The logger's entry (a new one while there is room), or NULL. */
static trx_live_stream *stream_of(trx_uia_live *l, uint32_t sender, uint32_t logger, bool *fresh)
{
    *fresh = false;
    for (uint32_t i = 0; i < l->stream_count; i++)
        if (l->streams[i].sender == sender && l->streams[i].logger == logger)
            return &l->streams[i];
    if (l->stream_count == TRX_LIVE_STREAMS)
        return NULL;
    trx_live_stream *s = &l->streams[l->stream_count++];
    memset(s, 0, sizeof *s);
    s->load = -1;
    s->sender = sender;
    s->logger = logger;
    *fresh = true;
    return s;
}

/* The CPU load (percent) a record reports, or `was` when it is no report. */
static int32_t load_of(const trx_uia_live *l, const uint8_t *rec, const uia_head *h, bool be,
                       int32_t was)
{
    if (uia_is_snapshot[h->type] || h->len < 4u * (3 + h->time_words + 1))
        return was;
    uint32_t word = trx_rd32(rec + 4 * (1 + h->time_words), be);
    for (uint32_t i = 0; i < l->load_word_count; i++)
        if (word == l->load_words[i])
            return (int32_t)(trx_rd32(rec + 4 * (2 + h->time_words), be) & 0x7FFFFFFFu);
    return was;
}

/* Events in the whole packet at p (len bytes) after its first `skip` record
 * bytes, or -1 when its records do not tile it; the first event's header in
 * *first_hdr (0 when none); the last CPU load it reports in *load (kept when
 * none). Charges the budget a record each. */
static int64_t count_records(trx_uia_live *l, const uint8_t *p, uint32_t len, uint32_t skip,
                             bool be, uia_head *first, int32_t *load)
{
    uint64_t off = 16 + (uint64_t)skip;
    int64_t k = 0;
    memset(first, 0, sizeof *first);
    while (off < len) {
        uia_head h;
        if (l->budget == 0 || uia_parse_head(p + off, len - off, be, &h) != UIA_HEAD_OK)
            return -1;
        l->budget--;
        if (!h.terminator) {
            if (k == 0)
                *first = h;
            k++;
            if (l->load_word_count)
                *load = load_of(l, p + off, &h, be, *load);
        }
        off += h.terminator ? 4 : h.len;
    }
    return k;
}

/* Counts the whole packet at p (`len` bytes): false when it is no packet. */
static bool count_packet(trx_uia_live *l, const uint8_t *p, uint32_t len)
{
    bool be = ((p[0] >> 3) & 1u) != 0;
    uia_stream_frame f;
    if (l->budget < len / 4)
        return false;
    int fr = uia_stream_frame_read(p, len, &f);
    if (fr == UIA_FRAME_BAD) {
        l->corrupt_packets++;
        return false;
    }
    l->budget -= fr == UIA_FRAME_OK ? len / 4 : 0;
    uia_head first;
    int32_t load = -1;
    int64_t k = count_records(l, p, len, fr == UIA_FRAME_OK ? f.bytes : 0, be, &first, &load);
    if (k < 0)
        return false;
    bool fresh;
    trx_live_stream *s = stream_of(l, trx_rd32(p + 12, true) & 0xFFFFu,
                                   (trx_rd32(p + 8, true) >> 16) & 0x7FFFu, &fresh);
    if (s && load >= 0)
        s->load = load;
    if (s && fr == UIA_FRAME_OK) {
        uint32_t ahead = f.number - s->next_number;
        if (f.flags & TRX_UIA_STREAM_FIRST_PACKET) /* numbers start at 0 */
            ahead = f.number;
        else if (fresh || !s->numbered || f.session_id != s->session_id || ahead >= 0x80000000u)
            ahead = 0; /* joined mid-stream, or the target restarted */
        if (ahead) {
            l->lost += ahead;
            l->gaps++;
        }
        s->numbered = true;
        s->session_id = f.session_id;
        s->next_number = f.number + (uint32_t)k;
    } else if (s && k > 0 && first.seq_mask == 0xFFFFu) { /* TI's standard records */
        uint32_t ahead = (first.seq - s->next_seq16) & 0xFFFFu;
        if (!fresh && !s->numbered && ahead) {
            l->lost += ahead;
            l->gaps++;
        }
        s->numbered = false;
        s->next_seq16 = (first.seq + (uint32_t)k) & 0xFFFFu;
    }
    l->packets++;
    l->events += (uint64_t)k;
    return true;
}

/* Drops `n` counted bytes from the front of the kept ones. */
static void consume(trx_uia_live *l, size_t n)
{
    memmove(l->buf, l->buf + n, l->len - n);
    l->len -= n;
    l->offset += n;
}

/* Valid records from the start of p (n bytes) in byte order `be`, at most 64. */
static unsigned records_from(const uint8_t *p, size_t n, bool be)
{
    unsigned k = 0;
    for (size_t off = 0; k < 64 && off + 4 <= n; k++) {
        uia_head h;
        if (uia_parse_head(p + off, n - off, be, &h) != UIA_HEAD_OK)
            break;
        off += h.terminator ? 4 : h.len;
    }
    return k;
}

/* Bytes from the start of p (n bytes) that whole records in byte order
 * `be` cover back to back, without a word that is none. */
static size_t records_cover(const uint8_t *p, size_t n, bool be)
{
    size_t off = 0;
    while (off + 4 <= n) {
        uia_head h;
        if (uia_parse_head(p + off, n - off, be, &h) != UIA_HEAD_OK)
            break;
        off += h.terminator ? 4 : h.len;
    }
    return off;
}

/* Raw records (no packets): counts the whole ones in buf from `at` (lost
 * ones from their sequence numbers), a word that is none counted as
 * garbage; returns where counting stopped. */
static size_t count_records_raw(trx_uia_live *l, size_t at)
{
    while (l->len - at >= 4) {
        uia_head h;
        int why = uia_parse_head(l->buf + at, l->len - at, l->records_be, &h);
        if (why == UIA_HEAD_SHORT)
            break; /* wait for the rest of it */
        if (why != UIA_HEAD_OK) {
            l->garbage_bytes += 4;
            at += 4;
            continue;
        }
        at += h.terminator ? 4 : h.len;
        if (!h.terminator) { /* loss from the sequence numbers (16 or 5 bits) */
            uint32_t ahead = (h.seq - l->streams[0].next_seq16) & h.seq_mask;
            if (l->events > 0 && ahead) {
                l->lost += ahead;
                l->gaps++;
            }
            l->streams[0].next_seq16 = (h.seq + 1) & h.seq_mask;
            l->events++;
        }
        l->boundary = l->offset + at;
        if (l->stop_events && l->events >= l->stop_events) {
            l->stopped = true;
            break;
        }
    }
    return at;
}

/* True when a packet header with its length in range starts at p (n bytes left). */
static bool packet_header_at(const uint8_t *p, size_t n)
{
    uint32_t w1 = trx_rd32(p, true), len = w1 & 0x07FFFFFFu;
    return n >= 16 && (w1 >> 28) == 10 && len >= 16 && (len & 3u) == 0 &&
           len <= TRX_LIVE_MAX_PACKET;
}

/* Finds what the stream is (TRX_LIVE_AUTO) and the records' byte order:
 * packets when it starts with a packet header or one appears in its first
 * TRX_LIVE_DETECT bytes (a stream joined mid-packet), raw records when
 * those bytes hold none but read as records, or when records cover all of
 * them back to back (their bytes may look like a header: a sequence number
 * 0xA0..0xAF before a small length). false until enough bytes. */
static bool decide_format(trx_uia_live *l)
{
    if (l->format == TRX_LIVE_AUTO && !(l->len >= 16 && packet_header_at(l->buf, l->len)) &&
        l->len < TRX_LIVE_DETECT)
        return false;
    unsigned le = records_from(l->buf, l->len, false), be = records_from(l->buf, l->len, true);
    l->records_be = be > le;
    if (l->format == TRX_LIVE_AUTO) {
        bool header = false;
        if (!packet_header_at(l->buf, l->len) &&
            records_cover(l->buf, l->len, l->records_be) >= TRX_LIVE_DETECT) {
            l->format = TRX_LIVE_RECORDS;
            l->decided = true;
            return true;
        }
        for (size_t k = 0; !header && k + 16 <= l->len; k++)
            header = packet_header_at(l->buf + k, l->len - k);
        l->format = !header && (le > be ? le : be) >= 4 ? TRX_LIVE_RECORDS : TRX_LIVE_PACKETS;
    }
    l->decided = true;
    return true;
}

int trx_uia_live_feed(trx_uia_live *l, const uint8_t *data, size_t n)
{
    if (l->stopped)
        return 0;
    if (l->len + n > l->cap) {
        size_t cap = l->cap ? l->cap : 65536;
        while (cap < l->len + n)
            cap *= 2;
        uint8_t *q = realloc(l->buf, cap);
        if (!q)
            return -1;
        l->buf = q;
        l->cap = cap;
    }
    memcpy(l->buf + l->len, data, n);
    l->len += n;
    l->budget += 4 * (uint64_t)n;
    size_t at = 0; /* bytes of buf counted so far (moved out once, at the end) */
    if (!l->decided && !decide_format(l))
        return 0; /* more bytes needed to tell */
    if (l->format == TRX_LIVE_RECORDS) {
        at = count_records_raw(l, 0);
        if (at)
            consume(l, at);
        return 0;
    }
    while (l->len - at >= 16) {
        const uint8_t *p = l->buf + at;
        uint32_t w1 = trx_rd32(p, true), len = w1 & 0x07FFFFFFu;
        if ((w1 >> 28) == 10 && len >= 16 && (len & 3u) == 0 && len <= TRX_LIVE_MAX_PACKET) {
            if (len > l->len - at)
                break; /* wait for the rest of it */
            if (count_packet(l, p, len)) {
                at += len;
                l->boundary = l->offset + at;
                if (l->stop_events && l->events >= l->stop_events) {
                    l->stopped = true;
                    break;
                }
                continue;
            }
        }
        l->garbage_bytes++;
        at++;
    }
    if (at)
        consume(l, at);
    if (l->len > TRX_LIVE_MAX_PACKET) { /* never a packet this long: drop the oldest bytes */
        size_t drop = l->len - TRX_LIVE_MAX_PACKET;
        l->garbage_bytes += drop;
        consume(l, drop);
    }
    return 0;
}
