/*
 * uia_record.c - one UIA record in full: header word, timestamp, event word,
 * argument words or the snapshot words (with the lengths word's two halves
 * told apart by the record's real data length), plus the public accessors
 * of trx/uia.h.
 */
#include <string.h>

#include "decode/uia_internal.h"

int uia_snapshot_lengths(trx_uia_record *r)
{
    uint32_t hi = r->lens >> 16, lo = r->lens & 0xFFFFu;
    uint32_t room = r->data_length; /* bytes after the fixed words (a 4-byte multiple) */
    /* "this record" is the half whose size, padded to 4 bytes, fills the record;
     * TI's loggers put it in the high half, the documentation in the low half */
    if (hi <= lo && ((hi + 3u) & ~3u) == room) {
        r->this_length = hi;
        r->total_length = lo;
    } else if (lo <= hi && ((lo + 3u) & ~3u) == room) {
        r->this_length = lo;
        r->total_length = hi;
    } else {
        return -1;
    }
    r->data_length = r->this_length;
    return 0;
}

void uia_decode_record(const uint8_t *image, uint64_t off, bool be, trx_uia_record *r)
{
    const uint8_t *p = image + off;
    uia_head h;
    uia_parse_head(p, (size_t)-1 / 2, be, &h);
    memset(r, 0, sizeof *r);
    r->offset = off;
    r->hdr_type = h.type;
    r->length = h.len;
    r->seq_raw = h.seq;
    r->prev_len = h.type >= 8 ? (trx_rd32(p, be) >> 5) & 0x7FFu : 0;
    r->time_words = h.time_words;
    r->time = h.time;
    r->big_endian = be;
    uint32_t w = 1 + h.time_words;
    uint32_t ev = trx_rd32(p + 4 * w, be);
    r->event = ev >> 16;
    r->module = ev & 0xFFFFu;
    w++;
    if (uia_is_snapshot[h.type]) {
        r->snapshot = true;
        r->file_ptr = trx_rd32(p + 4 * w, be);
        r->line = trx_rd32(p + 4 * (w + 1), be);
        r->snapshot_id = trx_rd32(p + 4 * (w + 2), be);
        r->address = trx_rd32(p + 4 * (w + 3), be);
        r->lens = trx_rd32(p + 4 * (w + 4), be);
        r->fmt_ptr = trx_rd32(p + 4 * (w + 5), be);
        w += 6;
        r->data = p + 4 * w;
        r->data_length = h.len - 4 * w;
        r->args = r->data;
    } else {
        r->args = p + 4 * w;
        r->nargs = (h.len - 4 * w) / 4;
    }
}

const trx_uia_info *trx_uia_info_of(const trx_trace *t)
{
    return t && t->format == TRX_TRACE_UIA && t->uia ? &t->uia->info : NULL;
}

bool trx_uia_record_get(const trx_trace *t, uint32_t record, trx_uia_record *out)
{
    if (!t || !t->uia || record >= t->uia->info.records)
        return false;
    const struct trx_uia *u = t->uia;
    uia_decode_record(t->image.data, uia_rec_offset(u, record), uia_rec_be(u, record), out);
    out->stream = 0; /* a raw buffer: one stream */
    if (u->rec_stream) {
        out->stream = u->rec_stream[record];
    } else if (u->info.packet_count) { /* the last packet starting at or before it */
        uint32_t lo = 0, hi = u->info.packet_count;
        while (hi - lo > 1) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (u->pkt_first[mid] <= record)
                lo = mid;
            else
                hi = mid;
        }
        while (lo > 0 && u->packets[lo].duplicate) /* duplicates hold no records */
            lo--;
        out->stream = u->packets[lo].stream;
    }
    if (out->snapshot)
        uia_snapshot_lengths(out); /* validated at open */
    return true;
}

bool trx_uia_has_record_like(const trx_trace *t, uint32_t module, uint32_t nargs, uint32_t last)
{
    if (!t || !t->uia || nargs == 0)
        return false;
    const struct trx_uia *u = t->uia;
    if (!((u->arg_modules >> (module & 63)) & 1u)) /* no record with arguments has that module */
        return false;
    const uint8_t *d = t->image.data;
    for (uint64_t i = 0; i < u->info.records; i++) {
        const uint8_t *p = d + uia_rec_offset(u, i);
        const bool be = uia_rec_be(u, i);
        const uint32_t w0 = trx_rd32(p, be), type = w0 >> 27, len = (w0 >> 16) & 0x7FFu;
        if (type > 12 || uia_is_snapshot[type]) /* validated at open: not a terminator */
            continue;
        const uint32_t head = 4u * (2 + uia_time_words[type]);
        if (len != head + 4u * nargs || trx_rd32(p + len - 4, be) != last)
            continue;
        if ((trx_rd32(p + head - 4, be) & 0xFFFFu) == module)
            return true;
    }
    return false;
}

uint32_t trx_uia_record_arg(const trx_uia_record *r, uint32_t k)
{
    return k < r->nargs ? trx_rd32(r->args + 4 * k, r->big_endian) : 0;
}

const trx_uia_snapshot *trx_uia_snapshot_at(const trx_trace *t, uint64_t index)
{
    if (!t || !t->uia || t->uia->info.snapshot_count == 0)
        return NULL;
    const trx_uia_snapshot *s = t->uia->snaps;
    uint32_t lo = 0, hi = t->uia->info.snapshot_count;
    while (lo < hi) { /* sorted by first_event */
        uint32_t mid = lo + (hi - lo) / 2;
        if (s[mid].first_event < index)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->uia->info.snapshot_count && s[lo].first_event == index ? &s[lo] : NULL;
}

const char *trx_uia_hdr_type_name(uint32_t hdr_type)
{
    static const char *const names[13] = {"Event",
                                          "EventWithTimestamp",
                                          "EventWithSnapshotId",
                                          "EventWithSnapshotIdAndTimestamp",
                                          "EventWith32bTimestamp",
                                          "EventWithTimestampAndEndpointId",
                                          "EventWithSnapshotIdAnd32bTimestamp",
                                          "EventWithSnapshotIdAndTimestampAndEndpointId",
                                          "EventWithPrevLenWithNoTimestamp",
                                          "EventWithPrevLenWith32bTimestamp",
                                          "EventWithPrevLenWith64bTimestamp",
                                          "SnapshotEventWithPrevLen",
                                          "SnapshotEventWithPrevLenAnd64bTimestamp"};
    return hdr_type < 13 ? names[hdr_type] : "Reserved";
}
