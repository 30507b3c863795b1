/*
 * uia_open.c - opening a UIA trace: tells a System Analyzer packet file
 * (UIAPackets back to back), a halted logger buffer (one packet header, then
 * records up to the zero-length terminator, older records reached backwards
 * along the PrevLen chain when it wrapped) and a raw record stream apart;
 * picks the byte order; and makes one pass over the records in event order
 * that stores their offsets, runs the sequence/time stepper per stream
 * (gaps, sessions, backwards time), drops byte-identical duplicate packets
 * and reassembles snapshots.
 */
#include <stdlib.h>
#include <string.h>

#include "decode/sysbios_model.h"
#include "decode/uia_internal.h"
#include "trx/cores.h"
#include "trx/uia_names.h"

#define SYNC_KEYS 16 /* event ids of UIASync sync points known from the names */

/* Open-addressing table: 64-bit key (never 0) -> packet index. */
typedef struct dup_table {
    uint64_t *key;
    uint32_t *idx;
    uint32_t size, used;
} dup_table;

/* State of the open pass. */
typedef struct uia_builder {
    trx_trace *t;
    struct trx_uia *u;
    const uint8_t *d;
    size_t n;
    trx_endian endian;
    uia_seq_state *states; /* per stream */
    uia_snap_builder *snaps;
    uint64_t gap_cap;
    dup_table dup_cheap, dup_full; /* duplicate packets (check_duplicate) */
    uint32_t *stream_hash;         /* (sender, logger) -> stream index + 1 */
    uint32_t dropped_stream;       /* stream of the recorder's drop-count record */
    uia_spans spans;               /* each stream's sessions (uia_build_axes) */
    uint32_t sync_keys[SYNC_KEYS]; /* event ids of sync points (any logging module) */
    int sync_key_count;
    uint64_t sync_id_bits;      /* bit (id & 63) of each sync key: add_run's filter */
    const trx_uia_names *names; /* that name them */
    uia_syncs syncs;            /* the sync points read */
    trx_sysbios_model sysbios;  /* SYS/BIOS's task events: the tasks become threads */
    trx_sysbios_tasks tasks;    /* the tasks they name, per stream */
    uint64_t resync_budget;     /* work the searches for packets after garbage may still do */
    trx_error *err;
} uia_builder;

#define STREAM_HASH (1u << 17) /* twice the most streams (65535) */

static int oom(uia_builder *b, uint64_t off)
{
    return trx_error_set(b->err, off, "out of memory decoding the UIA records");
}

static int grow(void **p, uint64_t *cap, uint64_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    uint64_t c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    if (c > SIZE_MAX / elem)
        return -1;
    void *q = realloc(*p, (size_t)(c * elem));
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

/* Index of stream (sender, logger), created when new; -1 when out of memory,
 * -2 (error set) when there are too many. */
static int64_t stream_of(uia_builder *b, uint32_t sender, uint32_t logger)
{
    struct trx_uia *u = b->u;
    if (!b->stream_hash && !(b->stream_hash = calloc(STREAM_HASH, sizeof *b->stream_hash)))
        return -1;
    uint32_t key = sender * 0x9E3779B1u ^ logger * 0x85EBCA77u, h = key & (STREAM_HASH - 1);
    for (; b->stream_hash[h]; h = (h + 1) & (STREAM_HASH - 1)) {
        uint32_t i = b->stream_hash[h] - 1;
        if (u->streams[i].sender == sender && u->streams[i].logger == logger)
            return i;
    }
    if (u->info.stream_count >= 0xFFFFu)
        return trx_error_set(b->err, u->packets[u->info.packet_count - 1].offset,
                             "more than 65535 UIA streams (sender + logger pairs)"),
               -2;
    b->stream_hash[h] = u->info.stream_count + 1;
    uint64_t cap = u->stream_cap;
    if (grow((void **)&u->streams, &cap, u->info.stream_count + 1u, sizeof *u->streams) < 0)
        return -1;
    uint64_t scap = u->stream_cap;
    if (grow((void **)&b->states, &scap, u->info.stream_count + 1u, sizeof *b->states) < 0)
        return -1;
    u->stream_cap = (uint32_t)cap;
    uint32_t i = u->info.stream_count++;
    memset(&u->streams[i], 0, sizeof u->streams[i]);
    memset(&b->states[i], 0, sizeof b->states[i]);
    u->streams[i].sender = sender;
    u->streams[i].logger = logger;
    u->streams[i].sessions = 1;
    u->info.streams = u->streams;
    return i;
}

/* Explains a bad record header. */
static int bad_record(uia_builder *b, uint64_t off, int why, const uia_head *h, size_t avail)
{
    if (why == UIA_HEAD_TYPE)
        return trx_error_set(b->err, off, "UIA record HdrType %u is reserved (0..12 expected)",
                             h->type);
    if (why == UIA_HEAD_SHORT)
        return trx_error_set(b->err, off,
                             "UIA record of %u bytes runs past the end of its data (%zu bytes "
                             "left)",
                             avail < 4 ? 0u : h->len, avail);
    return trx_error_set(b->err, off,
                         "UIA record length %u is invalid for HdrType %u (a multiple of 4, at "
                         "least %u expected)",
                         h->len, h->type, uia_min_length(h->type));
}

static bool is_sync_name(const trx_uia_name *e)
{
    return trx_uia_name_is(e, "UIASync.syncPoint") ||
           trx_uia_name_is(e, "UIASync.syncPointAfterHalt");
}

/* True when event word `event_word` (event id << 16 | logging module) is a
 * sync point: the names resolve it (the exact entry, else the one with its
 * event id: LogSync or a logger logs UIASync's event) to UIASync's. */
static bool is_sync(const uia_builder *b, uint32_t event_word)
{
    for (int i = 0; i < b->sync_key_count; i++)
        if (b->sync_keys[i] == event_word >> 16) {
            const trx_uia_name *e =
                trx_uia_names_find(b->names, event_word & 0xFFFFu, event_word >> 16);
            return e && is_sync_name(e);
        }
    return false;
}

/* The event ids the names give UIASync's sync points. */
static void find_sync_keys(uia_builder *b, const trx_uia_names *n)
{
    b->names = n;
    for (uint32_t i = 0; n && i < n->event_count && b->sync_key_count < SYNC_KEYS; i++)
        if (is_sync_name(&n->events[i])) {
            b->sync_keys[b->sync_key_count++] = n->events[i].event;
            b->sync_id_bits |= (uint64_t)1 << (n->events[i].event & 63);
        }
}

/* Notes record `n`'s byte order `be` once records of both orders exist
 * (the bitmap starts with every earlier record in the first order). */
static int note_byte_order(struct trx_uia *u, uint64_t n, bool be)
{
    if (n >= u->be_cap) {
        uint64_t cap = u->be_cap ? u->be_cap : 64 * 1024;
        while (cap <= n)
            cap *= 2;
        uint64_t *q = realloc(u->be_bits, (size_t)(cap / 8));
        if (!q)
            return -1;
        memset((uint8_t *)q + u->be_cap / 8, 0, (size_t)((cap - u->be_cap) / 8));
        if (!u->be_bits && u->be_all) /* the records so far: all in the first order */
            for (uint64_t i = 0; i < n; i++)
                q[i >> 6] |= (uint64_t)1 << (i & 63);
        u->be_bits = q;
        u->be_cap = cap;
    }
    if (be)
        u->be_bits[n >> 6] |= (uint64_t)1 << (n & 63);
    else
        u->be_bits[n >> 6] &= ~((uint64_t)1 << (n & 63));
    return 0;
}

/* Adds the record at `off` (header already parsed into `h`) as the next event. */
static int add_record(uia_builder *b, uint64_t off, bool be, uint32_t stream, const uia_head *h,
                      const uia_pkt_ctx *pk)
{
    struct trx_uia *u = b->u;
    trx_trace *t = b->t;
    uint64_t n = u->info.records;
    if (n >= UINT32_MAX - 1)
        return trx_error_set(b->err, off, "more than 4294967294 UIA records");
    if (grow((void **)&u->rec_off, &u->rec_cap, n + 1, sizeof *u->rec_off) < 0)
        return oom(b, off);
    u->rec_off[n] = (uint32_t)off;
    if (n == 0)
        u->be_all = be;
    if ((be != u->be_all || u->be_bits) && note_byte_order(u, n, be) < 0)
        return oom(b, off);
    uia_seq_state *s = &b->states[stream];
    /* what the session ending here (if one does) left: its drops after its last record */
    bool tail_pending = s->pending && s->numbered && s->pending_session_id == s->session_id;
    uint32_t tail_number = s->pending_number, tail_seq = (uint32_t)(s->seq + 1);
    s->pending = false;
    uint64_t prev_ticks = s->last_ticks;
    uia_step st;
    uia_step_record(s, h, pk, &st);
    if (st.new_session && tail_pending) {
        /* the session that ended dropped events after its last record */
        uint32_t ahead = tail_number - tail_seq;
        if (ahead < 0x80000000u) {
            st.lost = ahead;
            u->packets[u->info.packet_count - 1].tail_lost = ahead;
        }
    }
    trx_uia_stream *sm = &u->streams[stream];
    if (st.lost) {
        if (grow((void **)&t->gaps, &b->gap_cap, t->gap_count + 1, sizeof *t->gaps) < 0)
            return oom(b, off);
        t->gaps[t->gap_count++] = (trx_gap){n, st.lost, prev_ticks, st.ticks, stream};
        t->lost_events += st.lost;
        sm->lost_events += st.lost;
    }
    if (st.new_session)
        sm->sessions++;
    if (h->time_words && b->u->info.packet_file && /* the stream's session span */
        uia_spans_note(&b->spans, stream, s->session, st.time) < 0)
        return oom(b, off);
    if (st.backwards) {
        sm->time_backwards++;
        if (u->info.time_backwards++ == 0)
            u->info.first_backwards_offset = off;
    }
    sm->records++;
    if (s->max_ticks > sm->span_ticks)
        sm->span_ticks = s->max_ticks;
    if (s->max_ticks > u->span_ticks)
        u->span_ticks = s->max_ticks;
    u->info.records = n + 1;
    if (!uia_is_snapshot[h->type] && h->len >= 4u * (3 + h->time_words)) {
        uint32_t ew = trx_rd32(b->d + off + 4 * (1 + h->time_words), be);
        u->arg_modules |= (uint64_t)1 << (ew & 63);
        if (b->sync_key_count && h->len >= 4u * (2 + h->time_words + 5) && is_sync(b, ew)) {
            /* SerialNumber, CpuTStamp LSW, MSW, GlobalTStamp LSW, MSW, ... */
            const uint8_t *a = b->d + off + 4 * (2 + h->time_words);
            uia_syncs *y = &b->syncs;
            if (grow((void **)&y->at, &y->cap, y->count + 1, sizeof *y->at) < 0)
                return oom(b, off);
            uia_sync *x = &y->at[y->count++];
            *x = (uia_sync){stream, trx_rd32(a + 4, be) | (uint64_t)trx_rd32(a + 8, be) << 32,
                            trx_rd32(a + 12, be) | (uint64_t)trx_rd32(a + 16, be) << 32, 0, 0};
            if (h->len >= 4u * (2 + h->time_words + 8)) { /* CpuCyclesPerCpuTimerTick, CpuFreq */
                x->cycles_per_tick = trx_rd32(a + 20, be);
                x->cpu_hz = trx_rd32(a + 24, be) | (uint64_t)trx_rd32(a + 28, be) << 32;
            }
        }
        if (b->sysbios.words) { /* the tasks a scheduler record names: threads */
            uint32_t args[4], n = (h->len - 4u * (2 + h->time_words)) / 4;
            n = n < 4 ? n : 4;
            for (uint32_t k = 0; k < n; k++)
                args[k] = trx_rd32(b->d + off + 4 * (2 + h->time_words + k), be);
            if (trx_sysbios_note_tasks(&b->sysbios, &b->tasks, stream, ew, args, n) < 0)
                return oom(b, off);
        }
        if (ew == (TRX_UIA_DROPPED_EVENT << 16 | TRX_UIA_RECORDER_MODULE)) {
            u->info.target_dropped = trx_rd32(b->d + off + 4 * (2 + h->time_words), be);
            b->dropped_stream = stream;
        }
    }
    if (uia_is_snapshot[h->type]) {
        trx_uia_record r;
        uia_decode_record(b->d, off, be, &r);
        if (uia_snapshot_lengths(&r) < 0)
            return trx_error_set(b->err, off,
                                 "UIA snapshot lengths word 0x%08X: neither half matches the "
                                 "record's %u data bytes",
                                 r.lens, r.data_length);
        if (uia_snap_feed(b->snaps, u, n, stream, &r) < 0)
            return oom(b, off);
    }
    return 0;
}

/* Smallest length of a record add_run takes, by HdrType (uia_min_length);
 * 0xFFFF (above any length): snapshot and reserved types, left to add_record. */
static const uint16_t run_min_length[32] = {
    8,      16,     0xFFFF, 0xFFFF, 12,     16,     0xFFFF, 0xFFFF, 8,      12,     16,
    0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF,
    0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF};

/* add_run, inlined per byte order and per whether event words are noted
 * (`notes`: the names give sync points or SYS/BIOS's task events). */
static inline __attribute__((always_inline)) int64_t
run(uia_builder *b, uint64_t *off, uint64_t end, bool be, uint32_t stream, bool notes)
{
    struct trx_uia *u = b->u;
    const uint8_t *d = b->d;
    uint32_t *rec_off = u->rec_off;
    uia_seq_state *s = &b->states[stream];
    uint64_t n0 = u->info.records, n = n0, p = *off;
    uint64_t cap = u->rec_cap < UINT32_MAX - 1 ? u->rec_cap : UINT32_MAX - 1;
    if (cap - n < (end - p) / 8) /* records take 8 bytes or more: room for all */
        return 0;
    uint64_t seq = s->seq, last_time = s->last_time, base_time = s->base_time;
    uint64_t tick_base = s->tick_base, ticks = s->last_ticks, max_ticks = s->max_ticks;
    uint64_t lo = UINT64_MAX; /* the least time of a timed record (the greatest: the last) */
    bool have_time = s->have_time, timed = false;
    uint64_t arg_modules = u->arg_modules;
    while (end - p >= 8) {
        const uint8_t *r = d + p;
        uint32_t w0 = trx_rd32(r, be), type = w0 >> 27, len = (w0 >> 16) & 0x7FFu;
        /* uia_parse_head's checks; a word that reads as a filler up to `end`,
         * a gap or the recorder's drop count: add_record's */
        if (len < run_min_length[type] || (len & 3u) || len > end - p ||
            (trx_rd32(r, true) & 0xF7FFFFFFu) == end - p ||
            ((w0 - (uint32_t)seq - 1u) & (type >= 8 ? 0x1Fu : 0xFFFFu)) != 0)
            break;
        uint32_t tw = uia_time_words[type], ew = 0;
        bool has_args = len >= 4u * (3 + tw);
        if (has_args) {
            ew = trx_rd32(r + 4 * (1 + tw), be);
            if (ew == (TRX_UIA_DROPPED_EVENT << 16 | TRX_UIA_RECORDER_MODULE))
                break;
            if (notes && ((b->sync_id_bits >> ((ew >> 16) & 63)) & 1u))
                break; /* maybe a sync point: add_record's */
        }
        ticks = tick_base;
        if (tw) { /* uia_step_record without a packet context */
            uint64_t time = trx_rd32(r + 4, be);
            if (tw == 2)
                time |= (uint64_t)trx_rd32(r + 8, be) << 32;
            uint64_t adjust = s->time_adjust; /* a change means going back: add_record's */
            time = uia_extend_time(time, tw, last_time, have_time, &adjust);
            if (!have_time || time < last_time) /* a first time, or going back: add_record's */
                break;
            if (time >= base_time)
                ticks += time - base_time;
            last_time = time;
            lo = time < lo ? time : lo;
            timed = true;
        }
        if (has_args) {
            arg_modules |= (uint64_t)1 << (ew & 63);
            if (notes && trx_sysbios_may_note(&b->sysbios, ew)) { /* add_record's task notes */
                uint32_t args[4], na = (len - 4u * (2 + tw)) / 4;
                na = na < 4 ? na : 4;
                for (uint32_t k = 0; k < na; k++)
                    args[k] = trx_rd32(r + 4 * (2 + tw + k), be);
                if (trx_sysbios_note_tasks(&b->sysbios, &b->tasks, stream, ew, args, na) < 0)
                    return oom(b, p);
            }
        }
        seq++;
        rec_off[n++] = (uint32_t)p;
        max_ticks = ticks > max_ticks ? ticks : max_ticks;
        p += len;
    }
    *off = p;
    u->arg_modules = arg_modules;
    if (n == n0)
        return 0;
    s->seq = seq;
    s->last_time = last_time;
    s->last_ticks = ticks;
    s->max_ticks = max_ticks;
    trx_uia_stream *sm = &u->streams[stream];
    sm->records += n - n0;
    if (max_ticks > sm->span_ticks)
        sm->span_ticks = max_ticks;
    if (max_ticks > u->span_ticks)
        u->span_ticks = max_ticks;
    u->info.records = n;
    if (timed && u->info.packet_file && /* times only go up: the last is the greatest */
        (uia_spans_note(&b->spans, stream, s->session, lo) < 0 ||
         uia_spans_note(&b->spans, stream, s->session, last_time) < 0))
        return oom(b, p);
    return (int64_t)(n - n0);
}

/* Adds the records from *off up to `end` that add_record would add with
 * nothing but the plain step and SYS/BIOS's task notes (a later record of
 * the stream's packet: no gap, snapshot, filler, terminator, first or
 * backward time, sync point or drop count, one byte order), the stream's
 * state in locals and its counters and session span noted once. *off: where it stopped (add_record
 * takes the record there). The records added, or -1 (error set). */
static int64_t add_run(uia_builder *b, uint64_t *off, uint64_t end, bool be, uint32_t stream)
{
    if (be != b->u->be_all || b->u->be_bits)
        return 0;
    if (b->sync_key_count || b->sysbios.words)
        return be ? run(b, off, end, true, stream, true) : run(b, off, end, false, stream, true);
    return be ? run(b, off, end, true, stream, false) : run(b, off, end, false, stream, false);
}

/* True when [p, p + n) is all zero bytes (padding after the data). */
static bool all_zero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return false;
    return true;
}

/* True when valid records cover [off, end) exactly. */
static bool tiles_exactly(const uint8_t *d, uint64_t off, uint64_t end, bool be)
{
    while (off < end) {
        uia_head h;
        if (uia_parse_head(d + off, (size_t)(end - off), be, &h) != UIA_HEAD_OK)
            return false;
        off += h.terminator ? 4 : h.len;
    }
    return off == end;
}

/* Walks records forward in [off, end): fillers and terminators skipped, or
 * (stop_at_terminator) the first terminator ends the walk and its offset is
 * stored in *term; each record is added. A bad record is an error, or with
 * `bad_at` the end of the walk: 1 returned, its offset in *bad_at (the
 * records before it kept). */
static int walk_records(uia_builder *b, uint64_t off, uint64_t end, bool be, uint32_t stream,
                        const uia_pkt_ctx *pk, bool stop_at_terminator, bool zero_tail_ok,
                        uint64_t *bad_at, uint64_t *term, uint64_t *records)
{
    const uint8_t *d = b->d;
    bool first = true, tiled = false;
    *records = 0;
    if (term)
        *term = UINT64_MAX;
    while (off < end) {
        uia_head h;
        size_t avail = (size_t)(end - off);
        int why = uia_parse_head(d + off, avail, be, &h);
        if (why == UIA_HEAD_OK && h.terminator) {
            if (stop_at_terminator) {
                if (term)
                    *term = off;
                return 0;
            }
            b->u->info.skipped_words++;
            off += 4;
            continue;
        }
        if ((why != UIA_HEAD_OK || h.len != avail) && !tiled &&
            uia_filler_length(d + off, avail) == avail) {
            /* an InvalidData filler covering the rest, unless valid records tile it */
            if (why != UIA_HEAD_OK || !tiles_exactly(d, off, end, be)) {
                b->u->info.skipped_words++;
                return 0;
            }
            tiled = true;
        }
        if (why != UIA_HEAD_OK) {
            if (zero_tail_ok && all_zero(d + off, avail))
                return 0;
            if (bad_at) {
                *bad_at = off;
                return 1;
            }
            return bad_record(b, off, why, &h, avail);
        }
        if (add_record(b, off, be, stream, &h, first ? pk : NULL) < 0)
            return -1;
        first = false;
        off += h.len;
        int64_t more = add_run(b, &off, end, be, stream);
        if (more < 0)
            return -1;
        *records += 1 + (uint64_t)more;
    }
    return 0;
}

/* walk_records adding each record (an error set on a bad one). */
static int walk_forward(uia_builder *b, uint64_t off, uint64_t end, bool be, uint32_t stream,
                        const uia_pkt_ctx *pk, bool stop_at_terminator, bool zero_tail_ok,
                        uint64_t *term, uint64_t *records)
{
    return walk_records(b, off, end, be, stream, pk, stop_at_terminator, zero_tail_ok, NULL, term,
                        records);
}

/* The older pass of a wrapped PrevLen buffer: from the terminator at `term`
 * back along PrevLen while records stay at or above `floor` and their 5-bit
 * sequence counts down by one. Offsets land in *out oldest first. */
static int walk_back(uia_builder *b, uint64_t term, uint64_t floor, bool be, uint32_t **out,
                     uint64_t *count)
{
    const uint8_t *d = b->d;
    uint64_t cap = 0, n = 0;
    uint32_t *list = NULL;
    uint32_t w = trx_rd32(d + term, be);
    uint64_t pos = term;
    uint32_t next_seq = w & 0x1Fu, prev = (w >> 5) & 0x7FFu;
    while (prev && pos >= floor + prev) {
        uint64_t rec = pos - prev;
        uia_head h;
        if (uia_parse_head(d + rec, (size_t)(pos - rec), be, &h) != UIA_HEAD_OK || h.terminator ||
            h.type < 8 || h.len != prev || h.seq != ((next_seq - 1) & 0x1Fu))
            break;
        if (grow((void **)&list, &cap, n + 1, sizeof *list) < 0) {
            free(list);
            return oom(b, rec);
        }
        list[n++] = (uint32_t)rec;
        uint32_t rw = trx_rd32(d + rec, be);
        next_seq = h.seq;
        prev = (rw >> 5) & 0x7FFu;
        pos = rec;
    }
    for (uint64_t i = 0; i < n / 2; i++) { /* oldest first */
        uint32_t x = list[i];
        list[i] = list[n - 1 - i];
        list[n - 1 - i] = x;
    }
    *out = list;
    *count = n;
    return 0;
}

/* A halted buffer: records forward from `start` up to the terminator (the
 * write position); if a second terminator lies beyond it (at `wrap_end` when
 * known, else the last one in the image whose chain holds), the buffer
 * wrapped and the records still present before it come first. */
static int decode_halted(uia_builder *b, uint64_t start, uint64_t wrap_end, bool be,
                         uint32_t stream, const uia_pkt_ctx *pk)
{
    struct trx_uia *u = b->u;
    /* first find the write position without adding anything */
    uint64_t off = start, write = UINT64_MAX;
    while (off + 4 <= b->n) {
        uia_head h;
        int why = uia_parse_head(b->d + off, b->n - off, be, &h);
        if (why == UIA_HEAD_OK && h.terminator) {
            write = off;
            break;
        }
        if (why != UIA_HEAD_OK)
            break;
        off += h.len;
    }
    uint32_t *older = NULL;
    uint64_t older_n = 0;
    if (write != UINT64_MAX) {
        uint64_t floor = write + 4;
        if (wrap_end != UINT64_MAX && wrap_end > write && wrap_end + 4 <= b->n) {
            uia_head h;
            if (uia_parse_head(b->d + wrap_end, 4, be, &h) == UIA_HEAD_OK && h.terminator &&
                walk_back(b, wrap_end, floor, be, &older, &older_n) < 0)
                return -1;
        } else if (wrap_end == UINT64_MAX) {
            for (uint64_t p = (b->n & ~(uint64_t)3) - 4; p >= floor + 8 && p < b->n; p -= 4) {
                uia_head h;
                if (uia_parse_head(b->d + p, 4, be, &h) != UIA_HEAD_OK || !h.terminator)
                    continue;
                if (walk_back(b, p, floor, be, &older, &older_n) < 0)
                    return -1;
                if (older_n)
                    break;
                free(older);
                older = NULL;
            }
        }
    }
    u->info.wrapped = older_n > 0;
    for (uint64_t i = 0; i < older_n; i++) {
        uia_head h;
        uia_parse_head(b->d + older[i], b->n - older[i], be, &h);
        if (add_record(b, older[i], be, stream, &h, i == 0 ? pk : NULL) < 0) {
            free(older);
            return -1;
        }
    }
    free(older);
    uint64_t recs;
    uint64_t end = write != UINT64_MAX ? write : b->n;
    return walk_forward(b, start, end, be, stream, older_n ? NULL : pk, false, write == UINT64_MAX,
                        NULL, &recs);
}

/* Counts valid records from `off` in byte order `be` (at most `limit`). */
static uint32_t count_valid(const uint8_t *d, size_t n, uint64_t off, bool be, uint32_t limit)
{
    uint32_t k = 0;
    while (k < limit && off < n) {
        uia_head h;
        if (uia_parse_head(d + off, n - off, be, &h) != UIA_HEAD_OK)
            break;
        k++;
        off += h.terminator ? 4 : h.len;
    }
    return k;
}

/* Byte order of raw records from `off`: forced, or the one that reads more records. */
static bool pick_endian(uia_builder *b, uint64_t off)
{
    if (b->endian != TRX_ENDIAN_AUTO)
        return b->endian == TRX_ENDIAN_BIG;
    b->u->info.endian_detected = true;
    uint32_t le = count_valid(b->d, b->n, off, false, 256);
    uint32_t be = count_valid(b->d, b->n, off, true, 256);
    return be > le;
}

static bool is_packet_header(const uint8_t *d, size_t n, uint64_t off)
{
    if (off + 16 > n)
        return false;
    uint32_t w1 = trx_rd32(d + off, true);
    uint32_t len = w1 & 0x07FFFFFFu;
    return (w1 >> 28) == 10 && len >= 16 && (len & 3u) == 0 && len <= n - off;
}

/* A fast hash of a packet's bytes, 8 at a time (equal hashes are compared in full). */
static uint64_t hash_bytes(const uint8_t *p, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDull;
        h ^= h >> 29;
    }
    for (; i < n; i++)
        h = (h ^ p[i]) * 0x100000001B3ull;
    return h | 1; /* 0 marks an empty slot */
}

static void dup_table_free(dup_table *d)
{
    free(d->key);
    free(d->idx);
}

/* Looks `key` up: returns the slot holding it, or the empty slot where it would go. */
static uint32_t dup_slot(const dup_table *d, uint64_t key)
{
    uint32_t k = (uint32_t)(key ^ key >> 32) & (d->size - 1);
    while (d->key[k] && d->key[k] != key)
        k = (k + 1) & (d->size - 1);
    return k;
}

/* Makes room for one more entry; 0 or -1. */
static int dup_reserve(dup_table *d)
{
    if ((d->used + 1) * 2 <= d->size)
        return 0;
    dup_table n = {NULL, NULL, d->size ? d->size * 2 : 64, d->used};
    n.key = calloc(n.size, sizeof *n.key);
    n.idx = calloc(n.size, sizeof *n.idx);
    if (!n.key || !n.idx) {
        dup_table_free(&n);
        return -1;
    }
    for (uint32_t i = 0; i < d->size; i++)
        if (d->key[i]) {
            uint32_t k = dup_slot(&n, d->key[i]);
            n.key[k] = d->key[i];
            n.idx[k] = d->idx[i];
        }
    dup_table_free(d);
    *d = n;
    return 0;
}

#define PROMOTED 0x80000000u /* in the cheap table: its full hash is in the full table */

/* Adds packet `idx` to the full-hash table unless an identical packet is there. */
static int full_check(uia_builder *b, uint32_t idx, bool *dup)
{
    const trx_uia_packet *pk = &b->u->packets[idx];
    uint64_t h = hash_bytes(b->d + pk->offset, pk->length);
    if (dup_reserve(&b->dup_full) < 0)
        return -1;
    uint32_t k = dup_slot(&b->dup_full, h);
    if (b->dup_full.key[k]) {
        const trx_uia_packet *o = &b->u->packets[b->dup_full.idx[k]];
        if (o->length == pk->length &&
            memcmp(b->d + o->offset, b->d + pk->offset, pk->length) == 0) {
            *dup = true;
            return 0;
        }
        return 0; /* a 64-bit collision of different packets: keep the first */
    }
    b->dup_full.key[k] = h;
    b->dup_full.idx[k] = idx;
    b->dup_full.used++;
    return 0;
}

/* Whether packet `idx` repeats an earlier one byte for byte. Packets are
 * first told apart by a cheap key (header, length, first and last payload
 * words); only when that collides are whole packets hashed and compared. */
static int check_duplicate(uia_builder *b, uint32_t idx, bool *dup)
{
    const trx_uia_packet *pk = &b->u->packets[idx];
    const uint8_t *p = b->d + pk->offset;
    *dup = false;
    uint32_t len = pk->length;
    uint64_t cheap = hash_bytes(p, 16) ^ (len > 24 ? hash_bytes(p + 16, 8) * 3u : 0) ^
                     (len > 32 ? hash_bytes(p + len - 8, 8) * 5u : 0);
    cheap |= 1;
    if (dup_reserve(&b->dup_cheap) < 0)
        return -1;
    uint32_t k = dup_slot(&b->dup_cheap, cheap);
    if (!b->dup_cheap.key[k]) {
        b->dup_cheap.key[k] = cheap;
        b->dup_cheap.idx[k] = idx;
        b->dup_cheap.used++;
        return 0;
    }
    if (!(b->dup_cheap.idx[k] & PROMOTED)) {
        bool unused = false;
        if (full_check(b, b->dup_cheap.idx[k], &unused) < 0)
            return -1;
        b->dup_cheap.idx[k] |= PROMOTED;
    }
    return full_check(b, idx, dup);
}

/* Reads the 16-byte header at `off` into a new packet entry. */
static int add_packet(uia_builder *b, uint64_t off, trx_uia_packet **out)
{
    struct trx_uia *u = b->u;
    uint64_t cap = u->packet_cap, cap2 = u->packet_cap;
    if (grow((void **)&u->packets, &cap, u->info.packet_count + 1u, sizeof *u->packets) < 0 ||
        grow((void **)&u->pkt_first, &cap2, u->info.packet_count + 1u, sizeof *u->pkt_first) < 0)
        return oom(b, off);
    u->packet_cap = (uint32_t)cap;
    const uint8_t *d = b->d + off;
    uint32_t w1 = trx_rd32(d, true), w2 = trx_rd32(d + 4, true), w3 = trx_rd32(d + 8, true),
             w4 = trx_rd32(d + 12, true);
    trx_uia_packet *p = &u->packets[u->info.packet_count];
    memset(p, 0, sizeof *p);
    p->offset = off;
    p->length = w1 & 0x07FFFFFFu;
    p->big_endian =
        b->endian == TRX_ENDIAN_AUTO ? ((w1 >> 27) & 1u) != 0 : b->endian == TRX_ENDIAN_BIG;
    p->seq = w2 >> 16;
    p->first_event = (w2 >> 2) & 0x3FFFu;
    p->logger = (w3 >> 16) & 0x7FFFu;
    p->logger_module = w3 & 0xFFFFu;
    p->dest = w4 >> 16;
    p->sender = w4 & 0xFFFFu;
    u->pkt_first[u->info.packet_count] = u->info.records;
    u->info.packet_count++;
    u->info.packets = u->packets;
    *out = p;
    return 0;
}

/* has_terminator's loop (uia_parse_head's checks on the header word alone),
 * inlined per byte order. */
static inline __attribute__((always_inline)) bool terminator_loop(const uint8_t *d, uint64_t len,
                                                                  bool be)
{
    for (uint64_t off = 16; off + 4 <= len;) {
        uint32_t w0 = trx_rd32(d + off, be), type = w0 >> 27, rl = (w0 >> 16) & 0x7FFu;
        if (rl < uia_min_lengths[type] || (rl & 3u) || rl > len - off)
            return type == 8 && rl == 0; /* a terminator, else an invalid record */
        off += rl;
    }
    return false;
}

/* True when the packet of `len` bytes at d is a halted logger buffer: its
 * records end in a terminator (the write position) inside it. */
static bool has_terminator(const uint8_t *d, uint64_t len, bool be)
{
    return be ? terminator_loop(d, len, true) : terminator_loop(d, len, false);
}

/* True when the first packet is really a halted logger buffer: a terminator
 * inside it, or no valid packet (or zero padding) where it ends. */
static bool looks_halted(const uint8_t *d, size_t n, bool be)
{
    uint32_t len = trx_rd32(d, true) & 0x07FFFFFFu;
    if (has_terminator(d, len < n ? len : n, be))
        return true;
    if (len == n || is_packet_header(d, n, len) || all_zero(d + len, n - len))
        return false;
    if (n - len < 4)
        return false;                            /* a stray tail: the packet reader reports it */
    return (trx_rd32(d + len, true) >> 28) != 0; /* not an InvalidData filler either */
}

#define CHAIN_PACKETS 64 /* packets that confirm where a cut file's first one starts */
#define FRONT_SEARCH                                                                               \
    (1u << 27) /* a packet is shorter than 2^27 bytes: the first whole one                         \
                  starts within that much of a cut */

#define CHAIN_RECORDS 64 /* records of each packet checked in a chain */

/* True when the packet at `off` (a header there) holds valid records (its
 * first CHAIN_RECORDS, in its byte order), up to a terminator, its end, or
 * the end of the input where it is cut short. */
static bool packet_holds_records(const uint8_t *d, size_t n, uint64_t off, uint64_t *budget)
{
    uint32_t w1 = trx_rd32(d + off, true);
    bool be = (w1 >> 27) & 1u;
    uint64_t end = off + (w1 & 0x07FFFFFFu), p = off + 16;
    if (end > n)
        end = n;
    for (uint32_t k = 0; k < CHAIN_RECORDS && p < end; k++) {
        if (*budget == 0)
            return false; /* the search has spent its work: no packet found */
        --*budget;
        uia_head h;
        int why = uia_parse_head(d + p, (size_t)(end - p), be, &h);
        if (why == UIA_HEAD_SHORT && end == n)
            return true; /* the last record, cut with the input */
        if (why != UIA_HEAD_OK)
            return false;
        if (h.terminator)
            return true;
        p += h.len;
    }
    return true;
}

/* True when packets holding valid records follow each other from `off`:
 * CHAIN_PACKETS of them, or up to the end of the input (zero fill, or a
 * last packet cut short). */
static bool packet_chain(const uint8_t *d, size_t n, uint64_t off, uint64_t *budget)
{
    for (uint32_t k = 0; k < CHAIN_PACKETS; k++) {
        if (off == n || all_zero(d + off, n - off))
            return k > 0;
        if (n - off < 16) /* a last header cut short */
            return k > 0 && (d[off] >> 4) == 10;
        bool cut = !is_packet_header(d, n, off) && off + 16 <= n &&
                   (trx_rd32(d + off, true) >> 28) == 10 &&
                   (trx_rd32(d + off, true) & 0x07FFFFFFu) >= 16;
        if ((!cut && !is_packet_header(d, n, off)) || !packet_holds_records(d, n, off, budget))
            return false;
        if (cut)
            return true;
        off += trx_rd32(d + off, true) & 0x07FFFFFFu;
    }
    return true;
}

/* Where the first whole packet of a file cut at its front starts (a
 * capture joined mid-packet), or UINT64_MAX when no chain of packets is
 * found. Linear: the record parses of all candidates share one budget. */
static uint64_t first_packet(const uint8_t *d, size_t n)
{
    uint64_t limit = n < FRONT_SEARCH ? n : FRONT_SEARCH;
    uint64_t budget = 4 * limit + 65536; /* record parses: linear in the input, whatever it holds */
    for (uint64_t k = 1; k + 16 <= limit && budget > 0; k++)
        if (is_packet_header(d, n, k) && packet_chain(d, n, k, &budget))
            return k;
    return UINT64_MAX;
}

/* The end of the whole records of a packet cut short at the end of the
 * input (from its first record at `off`): the last record is cut. */
static uint64_t whole_records_end(const uia_builder *b, uint64_t off, bool be)
{
    while (off + 4 <= b->n) {
        uia_head h;
        int why = uia_parse_head(b->d + off, b->n - off, be, &h);
        if (why != UIA_HEAD_OK)
            break; /* cut here (SHORT), or a bad record walk_forward reports */
        off += h.terminator ? 4 : h.len;
    }
    return off < b->n ? off : b->n;
}

/* Whether the packet at `off` (a header there) is a trx stream packet:
 * UIA_FRAME_OK / _BAD / _NONE (uia_stream_frame_read). */
static int stream_frame_at(const uint8_t *d, uint64_t off, uia_stream_frame *f)
{
    return uia_stream_frame_read(d + off, trx_rd32(d + off, true) & 0x07FFFFFFu, f);
}

/* Where packets start again after bytes that are none (noise on a link,
 * bytes lost from the middle of a packet): the first offset from `from` with
 * a trx stream packet whose check holds, or a chain of packets holding
 * valid records (as at a cut front). UINT64_MAX when there is none. All
 * searches of a file share one budget of work: linear in its size. */
static uint64_t resync(uia_builder *b, uint64_t from)
{
    for (uint64_t k = from; k + 16 <= b->n && b->resync_budget > 0; k++) {
        b->resync_budget--;
        if (!is_packet_header(b->d, b->n, k))
            continue;
        uia_stream_frame f;
        uint64_t len = trx_rd32(b->d + k, true) & 0x07FFFFFFu;
        b->resync_budget -= len / 4 < b->resync_budget ? len / 4 : b->resync_budget;
        int fr = stream_frame_at(b->d, k, &f);
        if (fr == UIA_FRAME_OK ||
            (fr == UIA_FRAME_NONE && packet_chain(b->d, b->n, k, &b->resync_budget)))
            return k;
    }
    return UINT64_MAX;
}

/* Skips what is not a packet from `off` (counted as garbage); false when
 * nothing readable follows (the rest counted). */
static bool skip_garbage(uia_builder *b, uint64_t *off)
{
    uint64_t next = resync(b, *off + 1);
    uint64_t end = next == UINT64_MAX ? b->n : next;
    b->u->info.garbage_bytes += end - *off;
    b->u->info.garbage_runs++;
    *off = end;
    return next != UINT64_MAX;
}

static int decode_packets(uia_builder *b, uint64_t start)
{
    struct trx_uia *u = b->u;
    u->info.packet_file = true;
    u->info.skipped_front = start;
    bool be0 =
        b->endian == TRX_ENDIAN_AUTO ? ((b->d[start] >> 3) & 1u) != 0 : b->endian == TRX_ENDIAN_BIG;
    if (start == 0 && looks_halted(b->d, b->n, be0)) {
        trx_uia_packet *p;
        if (add_packet(b, 0, &p) < 0)
            return -1;
        int64_t s = stream_of(b, p->sender, p->logger);
        if (s < 0)
            return s == -2 ? -1 : oom(b, 0);
        p->stream = (uint32_t)s;
        uia_pkt_ctx pk = uia_pkt_ctx_of(p);
        int rc = decode_halted(b, 16, p->length, p->big_endian, (uint32_t)s, &pk);
        u->packets[0].records = u->info.records;
        u->info.big_endian = u->packets[0].big_endian;
        /* more halted buffers after it (one per logger, dumped one after the other) */
        if (rc < 0 || !is_packet_header(b->d, b->n, u->packets[0].length))
            return rc;
    }
    uint64_t off = u->info.packet_count ? u->packets[0].length : start;
    while (off < b->n) {
        size_t left = b->n - off;
        if (all_zero(b->d + off, left))
            break;
        uint32_t fill = uia_filler_length(b->d + off, left);
        if (fill) {
            u->info.skipped_words++;
            off += fill;
            continue;
        }
        if (left < 16 && (b->d[off] >> 4) == 10) { /* the last header, cut short */
            u->info.cut_tail = left >= 4 ? (trx_rd32(b->d + off, true) & 0x07FFFFFFu) - left
                                         : 16 - left; /* at least the rest of the header */
            break;
        }
        if (!is_packet_header(b->d, b->n, off) && left >= 16 &&
            (trx_rd32(b->d + off, true) >> 28) == 10 &&
            (trx_rd32(b->d + off, true) & 0x07FFFFFFu) > left &&
            (trx_rd32(b->d + off, true) & 0x07FFFFFFu) >= 16) {
            /* the last packet, cut short (a capture stopped mid-packet): its whole records */
            trx_uia_packet *p;
            if (add_packet(b, off, &p) < 0)
                return -1;
            uint32_t idx = u->info.packet_count - 1;
            int64_t s = stream_of(b, p->sender, p->logger);
            if (s < 0)
                return s == -2 ? -1 : oom(b, off);
            p = &u->packets[idx];
            p->stream = (uint32_t)s;
            u->info.cut_tail = p->length - left;
            p->length = (uint32_t)left;
            uia_pkt_ctx pk = uia_pkt_ctx_of(p);
            uint64_t recs, end = whole_records_end(b, off + 16, p->big_endian);
            uia_stream_frame f;
            if (uia_stream_frame_read(b->d + off, (uint32_t)left, &f) != UIA_FRAME_NONE)
                end = off + 16; /* a trx stream packet is read whole and checked, or not at all */
            if (walk_forward(b, off + 16, end, p->big_endian, (uint32_t)s, &pk, false, false, NULL,
                             &recs) < 0)
                return -1;
            u->packets[idx].records = recs;
            u->packets[idx].session = b->states[s].session;
            break;
        }
        if (!is_packet_header(b->d, b->n, off)) {
            if (!skip_garbage(b, &off))
                break;
            continue;
        }
        /* a trx stream packet whose check fails is garbage */
        uia_stream_frame f;
        int fr = stream_frame_at(b->d, off, &f);
        uint32_t skip = fr == UIA_FRAME_OK ? f.bytes : 0;
        if (fr == UIA_FRAME_BAD) {
            u->info.corrupt_packets++;
            if (!skip_garbage(b, &off))
                break;
            continue;
        }
        trx_uia_packet *p;
        if (add_packet(b, off, &p) < 0)
            return -1;
        if (fr == UIA_FRAME_OK) {
            p->numbered = true;
            p->number = f.number;
            p->target_dropped = f.target_dropped;
            p->session_id = f.session_id;
            p->flags = f.flags;
            u->info.numbered_packets++;
        }
        uint32_t idx = u->info.packet_count - 1;
        bool dup;
        if (check_duplicate(b, idx, &dup) < 0)
            return oom(b, off);
        int64_t s = stream_of(b, p->sender, p->logger);
        if (s < 0)
            return s == -2 ? -1 : oom(b, off);
        p = &u->packets[idx];
        p->stream = (uint32_t)s;
        p->duplicate = dup;
        if (dup) {
            u->info.duplicate_packets++;
        } else if (has_terminator(b->d + off, p->length, p->big_endian)) { /* a halted buffer */
            uia_pkt_ctx pk = uia_pkt_ctx_of(p);
            uint64_t before = u->info.records;
            if (decode_halted(b, off + 16, off + p->length, p->big_endian, (uint32_t)s, &pk) < 0)
                return -1;
            u->packets[idx].records = u->info.records - before;
            u->packets[idx].session = b->states[s].session;
        } else {
            uia_pkt_ctx pk = uia_pkt_ctx_of(p);
            uint64_t recs, bad_at;
            int rc = walk_records(b, off + 16 + skip, off + p->length, p->big_endian, (uint32_t)s,
                                  &pk, false, false, &bad_at, NULL, &recs);
            if (rc < 0)
                return -1;
            if (rc > 0) { /* a record that is none: the packet ends there, garbage follows */
                u->packets[idx].records = recs;
                u->packets[idx].session = b->states[s].session;
                u->packets[idx].length = (uint32_t)(bad_at - off);
                off = bad_at;
                if (!skip_garbage(b, &off))
                    break;
                continue;
            }
            if (recs == 0 && fr == UIA_FRAME_OK) { /* news of dropped events only */
                b->states[s].pending = true;
                b->states[s].pending_number = f.number;
                b->states[s].pending_session_id = f.session_id;
            }
            u->packets[idx].records = recs;
            u->packets[idx].session = b->states[s].session;
        }
        off += u->packets[idx].length;
    }
    return 0;
}

static int decode_raw(uia_builder *b)
{
    bool be = pick_endian(b, 0);
    b->u->info.big_endian = be;
    int64_t s = stream_of(b, TRX_UIA_NONE, TRX_UIA_NONE);
    if (s < 0)
        return oom(b, 0);
    return decode_halted(b, 0, UINT64_MAX, be, (uint32_t)s, NULL);
}

bool trx_uia_probe(const uint8_t *d, size_t n)
{
    if (is_packet_header(d, n, 0))
        return true;
    if (first_packet(d, n) != UINT64_MAX) /* packets cut at the front */
        return true;
    for (int be = 0; be < 2; be++) {
        uia_head h;
        if (uia_parse_head(d, n, be, &h) != UIA_HEAD_OK || h.terminator)
            continue;
        if (h.len == n || count_valid(d, n, 0, be, 2) == 2)
            return true;
    }
    return false;
}

void trx_uia_free(trx_trace *t)
{
    struct trx_uia *u = t->uia;
    if (u) {
        free(u->rec_off);
        free(u->be_bits);
        free(u->packets);
        free(u->pkt_first);
        free(u->streams);
        free(u->snaps);
        free(u->snap_data);
        free(u->order);
        free(u->axis);
        free(u->axis_at);
        free(u->stream_core);
        free(u->rec_stream);
        free(u->stream_packets);
        free(u->stream_packets_at);
        trx_pair_map_free(&u->amp_threads);
        free(u->core_time);
        free(u);
        t->uia = NULL;
    }
    free(t->gaps);
    t->gaps = NULL;
}

int trx_uia_open(trx_trace *t, const trx_open_options *o, trx_error *err)
{
    if (t->image.size > 0xFFFFFFF0u)
        return trx_error_set(err, 0, "UIA input larger than 4 GiB");
    if (t->image.size < 4)
        return trx_error_set(err, 0, "UIA input too short for one record (%zu bytes)",
                             t->image.size);
    t->format = TRX_TRACE_UIA;
    t->uia = calloc(1, sizeof *t->uia);
    uia_builder b;
    memset(&b, 0, sizeof b);
    b.t = t;
    b.u = t->uia;
    b.d = t->image.data;
    b.n = t->image.size;
    b.endian = o ? o->endian : TRX_ENDIAN_AUTO;
    b.err = err;
    b.resync_budget = 4 * (uint64_t)b.n + 65536;
    b.snaps = uia_snap_new();
    find_sync_keys(&b, o ? o->uia_names : NULL);
    if (o && o->uia_names) /* the names that give the records their meaning */
        t->uia_names = o->uia_names;
    if (trx_sysbios_init(&b.sysbios, t->uia_names, 0, NULL) < 0)
        return trx_error_set(err, 0, "out of memory");
    /* every record takes at least 8 bytes: reserve the index once (untouched
     * pages of a large allocation cost nothing), no copying while growing */
    if (t->uia && grow((void **)&t->uia->rec_off, &t->uia->rec_cap, b.n / 8 + 1,
                       sizeof *t->uia->rec_off) < 0) {
        free(b.snaps);
        return trx_error_set(err, 0, "out of memory for the UIA record index");
    }
    int rc = -1;
    if (!t->uia || !b.snaps)
        rc = trx_error_set(err, 0, "out of memory");
    else {
        uint64_t first = is_packet_header(b.d, b.n, 0) ? 0 : first_packet(b.d, b.n);
        rc = first != UINT64_MAX ? decode_packets(&b, first) : decode_raw(&b);
    }
    if (rc == 0 && uia_snap_finish(b.snaps, t->uia) < 0)
        rc = trx_error_set(err, 0, "out of memory reassembling snapshots");
    else if (rc != 0 && b.snaps)
        uia_snap_finish(b.snaps, t->uia);
    if (rc == 0 && t->uia->info.records == 0)
        rc = trx_error_set(err, 0, "no UIA records found");
    if (rc == 0 && uia_build_axes(t, &b.gap_cap, &b.spans, &b.syncs, &b.sysbios, &b.tasks) < 0)
        rc = trx_error_set(err, 0, "out of memory putting the UIA records on their cores' axes");
    if (rc == 0 && trx_sysbios_tasks_make_threads(&b.tasks, t, t->uia->stream_core, t->uia->amp,
                                                  &t->uia->amp_threads) < 0)
        rc = trx_error_set(err, 0, "out of memory making SYS/BIOS's tasks threads");
    trx_sysbios_tasks_free(&b.tasks);
    if (rc == 0) { /* SYS/BIOS: every core its own running task (sysbios_model.c) */
        uint32_t cores = t->uia->info.cores;
        t->uia->sysbios = b.sysbios.words > 0;
        t->uia->context_cores = !t->uia->sysbios || cores == 0 ? 1
                                : cores > TRX_MAX_CORES        ? TRX_MAX_CORES
                                                               : cores;
    }
    if (rc == 0 && t->uia->info.target_dropped) {
        /* the target counted records it could not store: a gap after the last record */
        uint64_t ticks = t->uia->axis ? t->uia->streams[b.dropped_stream].span_ticks
                                      : b.states[b.dropped_stream].last_ticks;
        if (grow((void **)&t->gaps, &b.gap_cap, t->gap_count + 1, sizeof *t->gaps) < 0)
            rc = trx_error_set(err, 0, "out of memory");
        else {
            t->gaps[t->gap_count++] = (trx_gap){t->uia->info.records, t->uia->info.target_dropped,
                                                ticks, ticks, b.dropped_stream};
            t->lost_events += t->uia->info.target_dropped;
            t->uia->streams[b.dropped_stream].lost_events += t->uia->info.target_dropped;
        }
    }
    for (uint32_t i = 0; rc == 0 && i < t->uia->info.stream_count; i++) {
        /* events dropped after a stream's last record, told by an empty packet */
        const uia_seq_state *st = &b.states[i];
        uint32_t ahead = st->pending_number - (uint32_t)(st->seq + 1);
        if (!st->pending || !st->any || !st->numbered || st->pending_session_id != st->session_id ||
            ahead == 0 || ahead >= 0x80000000u)
            continue;
        uint64_t ticks = t->uia->axis ? t->uia->streams[i].span_ticks : st->last_ticks;
        if (grow((void **)&t->gaps, &b.gap_cap, t->gap_count + 1, sizeof *t->gaps) < 0) {
            rc = trx_error_set(err, 0, "out of memory");
            break;
        }
        t->gaps[t->gap_count++] = (trx_gap){t->uia->info.records, ahead, ticks, ticks, i};
        t->lost_events += ahead;
        t->uia->streams[i].lost_events += ahead;
    }
    free(b.states);
    free(b.stream_hash);
    uia_spans_free(&b.spans);
    free(b.syncs.at);
    dup_table_free(&b.dup_cheap);
    dup_table_free(&b.dup_full);
    if (rc == 0) /* TXTB's entry fields (used, capacity ...) stay 0: nothing reads entries */
        t->header.big_endian = t->uia->info.big_endian;
    return rc;
}
