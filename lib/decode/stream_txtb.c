/*
 * stream_txtb.c - a stream of TXTB entries read as the TXTB trace it
 * carries (see stream_txtb.h): the buffer is rebuilt in memory from the
 * records (32 bytes an entry), opened by the TXTB decoder, and given the
 * stream's lost-event gaps, numbered as the TXTB event model numbers
 * events (synthetic RUNNING events counted).
 */
#include <stdlib.h>
#include <string.h>

#include "decode/stream_txtb.h"
#include "decode/trace_open.h"
#include "decode/uia_internal.h"
#include "trx/uia.h"

#define TXTB_IN_UIA 0x54585442u /* "TXTB": the 8th argument of a record carrying an entry */

enum { NAME_SIZE = 32, HEADER = 48, REG_FIXED = 16 };

static void put_entry(uint8_t *b, bool big, uint32_t context, uint32_t priority, uint32_t id,
                      uint32_t ts, const uint32_t info[4])
{
    trx_wr32(b, context, big);
    trx_wr32(b + 4, priority, big);
    trx_wr32(b + 8, id, big);
    trx_wr32(b + 12, ts, big);
    for (int k = 0; k < 4; k++)
        trx_wr32(b + 16 + 4 * k, info[k], big);
}

/* True when record `r` carries a TXTB entry (a TXTB drain's record). */
static bool carries_entry(const trx_uia_record *r)
{
    return r->module == 0 && r->nargs == 8 && trx_uia_record_arg(r, 7) == TXTB_IN_UIA;
}

/* True when record `r` is (the first of) a snapshot of a TXTB registry. */
static bool is_registry(const trx_uia_record *r)
{
    return r->module == TRX_UIA_RECORDER_MODULE && r->event == TRX_UIA_TXTB_REGISTRY_EVENT;
}

/* The last whole registry snapshot (entries of 16 + its name size bytes),
 * or NULL; *records = the records of all registry snapshots (no entries). */
static const trx_uia_snapshot *last_registry(const trx_trace *t, const trx_uia_info *u,
                                             uint64_t *records)
{
    const trx_uia_snapshot *last = NULL;
    *records = 0;
    for (uint32_t i = 0; i < u->snapshot_count; i++) {
        const trx_uia_snapshot *s = &u->snapshots[i];
        trx_uia_record r;
        if (!trx_uia_record_get(t, (uint32_t)s->first_event, &r) || !is_registry(&r))
            continue;
        *records += s->records;
        if (!s->incomplete && s->length == s->total_length && s->id >= 4 && s->id <= 0xFFFF &&
            s->id % 4 == 0 && s->length % (REG_FIXED + s->id) == 0 && s->length > 0)
            last = s;
    }
    return last;
}

/* Writes the 48-byte header and the registry; returns the registry's size.
 * A registry snapshot's file word is the target's timer mask and its line
 * and format words the header's reserved3 / reserved4 (the RTOS profile):
 * 0 in streams from before they were sent. Without a snapshot, one free
 * registry entry (a free entry: the registry is not full). */
static uint32_t put_header(const trx_trace *t, const trx_uia_snapshot *reg, uint8_t *h, bool big,
                           uint32_t entries)
{
    uint32_t mask = 0xFFFFFFFFu, r3 = 0, r4 = 0;
    trx_uia_record r;
    if (reg && trx_uia_record_get(t, (uint32_t)reg->first_event, &r) && r.snapshot) {
        mask = r.file_ptr ? r.file_ptr : mask;
        r3 = r.line;
        r4 = r.fmt_ptr;
    }
    uint32_t name_size = reg ? reg->id : NAME_SIZE;
    uint32_t reg_bytes = reg ? reg->length : REG_FIXED + NAME_SIZE;
    uint32_t buf_start = HEADER + reg_bytes;
    memset(h, 0, HEADER);
    trx_wr32(h, TRX_TXTB_ID, big);
    trx_wr32(h + 4, mask, big);
    trx_wr32(h + 12, HEADER, big); /* registry start (base address 0) */
    h[big ? 18 : 19] = (uint8_t)(name_size >> 8);
    h[big ? 19 : 18] = (uint8_t)name_size;
    trx_wr32(h + 20, buf_start, big); /* registry end */
    trx_wr32(h + 24, buf_start, big);
    /* one empty entry after the last: the next to write, so the buffer
     * reads as never wrapped, oldest entry first */
    trx_wr32(h + 28, buf_start + (entries + 1) * 32u, big);
    trx_wr32(h + 32, buf_start + entries * 32u, big);
    trx_wr32(h + 40, r3, big);
    trx_wr32(h + 44, r4, big);
    if (reg)
        memcpy(h + HEADER, reg->data, reg->length); /* as the target holds it */
    else {
        memset(h + HEADER, 0, reg_bytes);
        h[HEADER] = 1; /* available */
    }
    return reg_bytes;
}

static int by_index(const void *a, const void *b)
{
    uint64_t x = (*(const trx_gap *const *)a)->index, y = (*(const trx_gap *const *)b)->index;
    return x < y ? -1 : x > y;
}

/* Records gap positions: every gap whose (UIA) event index is at most
 * `index` falls before entry `entry`. */
static void place_gaps(const trx_gap **sorted, uint64_t n, uint64_t *k, const trx_trace *t,
                       uint64_t index, uint32_t entry, uint32_t *gap_entry)
{
    while (*k < n && sorted[*k]->index <= index) {
        gap_entry[sorted[*k] - t->gaps] = entry;
        (*k)++;
    }
}

int trx_stream_txtb_build(trx_trace *t, bool gap_entries, trx_stream_txtb_image *out)
{
    memset(out, 0, sizeof *out);
    const trx_uia_info *u = trx_uia_info_of(t);
    if (!u)
        return -1;
    uint64_t reg_records;
    const trx_uia_snapshot *reg = last_registry(t, u, &reg_records);
    uint64_t most = u->records - reg_records + (gap_entries ? t->gap_count : 0) + 1;
    uint32_t reg_bytes = reg ? reg->length : REG_FIXED + NAME_SIZE;
    if (most > (UINT32_MAX - HEADER - reg_bytes) / 32)
        return -1;
    size_t size = HEADER + reg_bytes + (size_t)most * 32;
    uint8_t *img = malloc(size);
    const trx_gap **sorted = NULL;
    uint32_t *gap_entry = NULL;
    if (!gap_entries && t->gap_count) {
        sorted = malloc(t->gap_count * sizeof *sorted);
        gap_entry = malloc(t->gap_count * sizeof *gap_entry);
    }
    trx_cursor c;
    if (!img || (!gap_entries && t->gap_count && (!sorted || !gap_entry)) ||
        trx_cursor_init(&c, t) < 0) {
        free(img);
        free(sorted);
        free(gap_entry);
        return -1;
    }
    for (uint64_t g = 0; sorted && g < t->gap_count; g++)
        sorted[g] = &t->gaps[g];
    if (sorted)
        qsort(sorted, t->gap_count, sizeof *sorted, by_index);
    /* the byte order of the records (a TXTB trace converted to UIA comes back as it was) */
    const bool big = u->packet_file && u->packet_count ? u->packets[0].big_endian : u->big_endian;
    const bool multi = u->stream_count > 1;
    uint8_t *e = img + HEADER + reg_bytes;
    uint32_t n = 0, txtb = 0;
    uint64_t k = 0;
    trx_event ev;
    while (trx_cursor_next(&c, &ev)) {
        uint32_t ts = (ev.flags & TRX_EV_TIMESTAMP) ? (uint32_t)ev.time : (uint32_t)ev.index;
        if (sorted)
            place_gaps(sorted, t->gap_count, &k, t, ev.index, n, gap_entry);
        else if (ev.lost_before) {
            uint32_t info[4] = {ev.lost_before, ev.core, (uint32_t)(ev.seq - ev.lost_before - 1),
                                (uint32_t)ev.seq};
            put_entry(e + (size_t)n++ * 32, big, TRX_CONTEXT_INIT, 0,
                      TRX_STREAM_LOST_EVENTS_ID | (multi ? ev.core << 24 : 0u), ts, info);
        }
        trx_uia_record r;
        if (!trx_uia_record_get(t, ev.entry, &r) || is_registry(&r))
            continue; /* the registry went into its own area */
        uint32_t a[8] = {0};
        for (uint32_t j = 0; j < 8 && j < r.nargs; j++)
            a[j] = trx_uia_record_arg(&r, j);
        if (carries_entry(&r)) {
            put_entry(e + (size_t)n++ * 32, big, a[4], a[5], a[6], (uint32_t)r.time, a);
            txtb++;
        } else
            put_entry(e + (size_t)n++ * 32, big, TRX_CONTEXT_INIT, 0,
                      ev.id | (multi ? ev.core << 24 : 0u), ts, a);
    }
    if (sorted)
        place_gaps(sorted, t->gap_count, &k, t, UINT64_MAX, n, gap_entry);
    free(sorted);
    memset(e + (size_t)n * 32, 0, 32); /* the empty one after the last */
    put_header(t, reg, img, big, n);
    out->image = img;
    out->size = HEADER + reg_bytes + ((size_t)n + 1) * 32;
    out->entries = n;
    out->txtb_events = txtb;
    out->gap_entry = gap_entry;
    return 0;
}

/* Numbers the gaps as the TXTB model numbers events: a gap before entry E
 * gets the index and ticks of E's event, and the ticks of the event before;
 * one after the last entry the count of events. */
static int number_gaps(trx_trace *t)
{
    trx_cursor c;
    if (trx_cursor_init(&c, t) < 0)
        return -1;
    uint64_t k = 0, prev_ticks = 0, count = 0;
    const trx_event *ev;
    while ((ev = trx_cursor_next_ref(&c)) != NULL) {
        /* as the cursor takes them (take_gaps): a gap before a damaged
         * entry the view skips goes to the next entry */
        while (!ev->synthetic && k < t->gap_count && t->gap_entry_[k] <= ev->entry) {
            t->gaps[k].index = ev->index;
            t->gaps[k].from_ticks = prev_ticks;
            t->gaps[k].to_ticks = ev->ticks;
            k++;
        }
        prev_ticks = ev->ticks;
        count = ev->index + 1;
    }
    for (; k < t->gap_count; k++)
        t->gaps[k] = (trx_gap){count, t->gaps[k].lost, prev_ticks, prev_ticks, t->gaps[k].stream};
    return 0;
}

/* Orders the gaps (and their entries) by entry: the cursor meets them in that order. */
static void sort_gaps(trx_trace *t)
{
    for (uint64_t i = 1; i < t->gap_count; i++) { /* nearly always sorted already */
        trx_gap g = t->gaps[i];
        uint32_t at = t->gap_entry_[i];
        uint64_t j = i;
        for (; j > 0 && t->gap_entry_[j - 1] > at; j--) {
            t->gaps[j] = t->gaps[j - 1];
            t->gap_entry_[j] = t->gap_entry_[j - 1];
        }
        t->gaps[j] = g;
        t->gap_entry_[j] = at;
    }
}

int trx_stream_txtb_adopt(trx_trace *t, trx_error *err)
{
    trx_stream_txtb_image b;
    /* most UIA captures carry no entry: no rebuild to find that out */
    if (!trx_uia_has_record_like(t, 0, 8, TXTB_IN_UIA))
        return 0;
    if (trx_stream_txtb_build(t, false, &b) < 0)
        return trx_error_set(err, 0,
                             "out of memory (or over 2^27 events) rebuilding the "
                             "TXTB buffer of a stream");
    if (b.txtb_events == 0) { /* no TXTB entries: a UIA trace as it is */
        free(b.image);
        free(b.gap_entry);
        return 0;
    }
    trx_trace *src = malloc(sizeof *src);
    if (!src) {
        free(b.image);
        free(b.gap_entry);
        return trx_error_set(err, 0, "out of memory");
    }
    *src = *t;
    memset(t, 0, sizeof *t);
    t->path = src->path;
    t->image.data = b.image;
    t->image.size = b.size;
    t->image.owned_ = b.image;
    t->image.format = src->image.format;
    t->stream_source = src;
    if (trx_txtb_open(t, NULL, err) != 0) {
        free(b.gap_entry);
        return -1;
    }
    /* the stream's gaps, in the TXTB model's numbering */
    if (src->gap_count) {
        t->gaps = malloc(src->gap_count * sizeof *t->gaps);
        if (!t->gaps) {
            free(b.gap_entry);
            return trx_error_set(err, 0, "out of memory");
        }
        memcpy(t->gaps, src->gaps, src->gap_count * sizeof *t->gaps);
        t->gap_count = src->gap_count;
        t->lost_events = src->lost_events;
        t->gap_entry_ = b.gap_entry;
        sort_gaps(t);
        if (number_gaps(t) < 0)
            return trx_error_set(err, 0, "out of memory");
    } else
        free(b.gap_entry);
    return 0;
}
