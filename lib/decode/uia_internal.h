/*
 * uia_internal.h - the UIA decoder's shared pieces: the decoded state kept
 * in an opened trace (record offsets in event order, packets, streams,
 * snapshots), the header-word parser every pass uses, and the per-stream
 * sequence/time stepper that the open pass (gaps, sessions) and the cursor
 * (event fields) run identically. Layouts: docs/uia-decoding.md.
 */
#ifndef TRX_UIA_INTERNAL_H
#define TRX_UIA_INTERNAL_H

#include <stddef.h>
#include <string.h>

#include "decode/byte_order.h"
#include "decode/sysbios_model.h"
#include "trx/trx.h"
#include "trx/uia.h"

/* Everything the decoder keeps for an opened UIA trace. */
struct trx_uia {
    trx_uia_info info;
    bool sysbios;           /* the names at open marked SYS/BIOS's scheduler events */
    uint32_t context_cores; /* trx_trace_context_cores: the cores when sysbios, else 1 */
    uint32_t *rec_off;      /* records in event order: their image offsets (any alignment: a stream
                               read again after lost bytes) */
    uint64_t rec_cap;
    uint64_t arg_modules; /* bit (module & 63) of each record with arguments (not a snapshot):
                             a filter for trx_uia_has_record_like */
    bool be_all;          /* every record's payload byte order, unless be_bits */
    uint64_t *be_bits;    /* per record (bit set: big-endian), once two byte orders are seen */
    uint64_t be_cap;      /* records be_bits has room for */
    trx_uia_packet *packets;
    uint64_t *pkt_first; /* number of the first record of each packet */
    uint32_t packet_cap;
    trx_uia_stream *streams;
    uint32_t stream_cap;
    trx_uia_snapshot *snaps;
    uint32_t snap_cap;
    uint8_t *snap_data;
    size_t snap_data_len, snap_data_cap;
    uint64_t span_ticks;
    /* one time axis per core (uia_axes.c; NULL for a raw record buffer) */
    uint32_t *order;             /* event position -> record number */
    struct uia_axis *axis;       /* per stream and session: the core's base time and tick base */
    uint32_t *axis_at;           /* per stream: its session 0 in `axis` */
    uint32_t *stream_core;       /* per stream: its core (senders in ascending order) */
    uint16_t *rec_stream;        /* per record (with `order`): its stream */
    uint32_t *stream_packets;    /* each stream's packets in file order, stream after stream */
    uint32_t *stream_packets_at; /* per stream: its first in stream_packets (+1: the end) */
    /* SYS/BIOS on separate instances (AMP, sysbios_tasks.h): tasks per (core, handle) */
    bool amp;
    trx_pair_map amp_threads;     /* with amp: (core, handle) -> thread */
    trx_uia_core_time *core_time; /* per core: sync points, alignment, frequency (info.core_time) */
};

/* Record `i`'s image offset and its payload byte order. */
static inline uint32_t uia_rec_offset(const struct trx_uia *u, uint64_t i)
{
    return u->rec_off[i];
}
static inline bool uia_rec_be(const struct trx_uia *u, uint64_t i)
{
    return u->be_bits ? (u->be_bits[i >> 6] >> (i & 63)) & 1u : u->be_all;
}

/* A stream's session: its first and last timestamps (any: it has one). */
typedef struct uia_session_span {
    uint64_t first, last;
    bool any;
} uia_session_span;

/* Each stream's sessions, gathered by the open pass for uia_build_axes. */
typedef struct uia_spans {
    uia_session_span **of; /* per stream, per session */
    uint32_t *cap;         /* per stream */
    uint32_t streams;      /* entries of `of` and `cap` */
} uia_spans;

/* Makes room for stream `stream`'s session `session`. 0, or -1 when out of memory. */
int uia_spans_grow(uia_spans *sp, uint32_t stream, uint32_t session);

/* Notes record time `time` of stream `stream`'s session `session` (the open
 * pass, once per timed record). 0, or -1 when out of memory. */
static inline int uia_spans_note(uia_spans *sp, uint32_t stream, uint32_t session, uint64_t time)
{
    if ((stream >= sp->streams || session >= sp->cap[stream]) &&
        uia_spans_grow(sp, stream, session) < 0)
        return -1;
    uia_session_span *x = &sp->of[stream][session];
    if (!x->any || time < x->first)
        x->first = time;
    if (!x->any || time > x->last)
        x->last = time;
    x->any = true;
    return 0;
}
void uia_spans_free(uia_spans *sp);

/* Where a core's session lies on its axis: ticks = tick_base + time - base_time. */
typedef struct uia_axis {
    uint64_t base_time, tick_base;
    /* aligned by sync points: ticks = (time - base_time) * rate + shift, in
     * global-timer ticks from the earliest core's first record */
    bool aligned;
    double rate, shift;
} uia_axis;

/* One sync point: a core's timestamp and the global timer's at one moment. */
typedef struct uia_sync {
    uint32_t stream;
    uint64_t cpu, global;
    uint32_t cycles_per_tick; /* CpuCyclesPerCpuTimerTick (0: not in the record) */
    uint64_t cpu_hz;          /* CpuFreq: the CPU clock (0: not given) */
} uia_sync;

typedef struct uia_syncs {
    uia_sync *at;
    uint64_t count, cap;
} uia_syncs;

/* What the header word and the fixed words of a record say (no arguments). */
typedef struct uia_head {
    uint32_t type, len, seq, seq_mask;
    uint32_t time_words; /* 0, 1 or 2 */
    uint64_t time;
    bool terminator; /* type 8 with length 0 */
} uia_head;

enum { UIA_HEAD_OK = 0, UIA_HEAD_TYPE = 1, UIA_HEAD_LENGTH = 2, UIA_HEAD_SHORT = 3 };

/* Words of timestamp for each HdrType 0..12 (5 and 7, undocumented, are
 * read as 1 and 3 with a 64-bit timestamp). */
static const uint8_t uia_time_words[13] = {0, 2, 0, 2, 1, 2, 1, 2, 0, 1, 2, 0, 2};
/* Snapshot types carry 6 more fixed words (file, line, id, address, lengths, format). */
static const uint8_t uia_is_snapshot[13] = {0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 0, 1, 1};

/* Smallest valid length in bytes of a record of each HdrType: 4 * (2 +
 * timestamp words + 6 for a snapshot); 0xFFFF (above any length): reserved. */
static const uint16_t uia_min_lengths[32] = {
    8,      16,     32,     40,     12,     16,     36,     40,     8,      12,     16,
    32,     40,     0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF,
    0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF};

/* Smallest valid length in bytes of a record of `type` (0..12). */
static inline uint32_t uia_min_length(uint32_t type)
{
    return uia_min_lengths[type];
}

/* Parses the record at `p` with `avail` bytes left. Returns UIA_HEAD_OK or why not. */
static inline int uia_parse_head(const uint8_t *p, size_t avail, bool be, uia_head *h)
{
    if (avail < 4) {
        memset(h, 0, sizeof *h);
        return UIA_HEAD_SHORT;
    }
    uint32_t w0 = trx_rd32(p, be);
    uint32_t type = w0 >> 27;
    h->type = type;
    h->len = (w0 >> 16) & 0x7FFu;
    h->terminator = false;
    h->time_words = 0;
    h->time = 0;
    h->seq = w0 & 0xFFFFu;
    h->seq_mask = 0xFFFFu;
    if (type > 12)
        return UIA_HEAD_TYPE;
    if (type >= 8) {
        h->seq = w0 & 0x1Fu;
        h->seq_mask = 0x1Fu;
        if (type == 8 && h->len == 0) {
            h->terminator = true;
            h->time_words = 0;
            h->time = 0;
            return UIA_HEAD_OK;
        }
    }
    if (h->len < uia_min_length(type) || (h->len & 3u))
        return UIA_HEAD_LENGTH;
    if (h->len > avail)
        return UIA_HEAD_SHORT;
    h->time_words = uia_time_words[type];
    if (h->time_words == 2)
        h->time = (uint64_t)trx_rd32(p + 4, be) | (uint64_t)trx_rd32(p + 8, be) << 32;
    else if (h->time_words == 1)
        h->time = trx_rd32(p + 4, be);
    else
        h->time = 0;
    return UIA_HEAD_OK;
}

/* uia_parse_head for a record the open pass validated. */
static inline void uia_read_head(const uint8_t *p, bool be, uia_head *h)
{
    uint32_t w0 = trx_rd32(p, be);
    h->type = w0 >> 27;
    h->len = (w0 >> 16) & 0x7FFu;
    h->seq_mask = h->type >= 8 ? 0x1Fu : 0xFFFFu;
    h->seq = w0 & h->seq_mask;
    h->terminator = false;
    h->time_words = uia_time_words[h->type];
    h->time = h->time_words == 2   ? trx_rd32(p + 4, be) | (uint64_t)trx_rd32(p + 8, be) << 32
              : h->time_words == 1 ? trx_rd32(p + 4, be)
                                   : 0;
}

/* Reads InvalidData filler at `p` (a big-endian UIAPacket word, top nibble 0):
 * its byte length, or 0 when the word is not one. */
static inline uint32_t uia_filler_length(const uint8_t *p, size_t avail)
{
    if (avail < 4)
        return 0;
    uint32_t w = trx_rd32(p, true);
    uint32_t n = w & 0x07FFFFFFu;
    if ((w >> 28) != 0 || n < 4 || (n & 3u) || n > avail)
        return 0;
    return n;
}

/* Per-stream state of the sequence/time stepper. */
typedef struct uia_seq_state {
    bool any;
    uint64_t seq;         /* unwrapped sequence of the last record */
    uint64_t last_time;   /* its (unwrapped) timestamp */
    uint64_t time_adjust; /* taken off 64-bit stamps: 2^32 per false wrap (uia_extend_time) */
    uint64_t base_time;   /* first timestamp of the session */
    uint64_t tick_base;   /* ticks where the session starts */
    uint64_t last_ticks;
    uint64_t max_ticks;
    uint32_t last_pkt; /* packet sequence of the last packet */
    uint32_t session;
    bool have_time;
    bool pending; /* open pass: an empty trx stream packet after the last record */
    uint32_t pending_number, pending_session_id;
    bool numbered;       /* the last packet carried an exact number */
    uint32_t session_id; /* and this session value */
    bool axis_any;       /* axis_ticks set */
    uint64_t axis_ticks; /* the last record's ticks on its core's axis */
} uia_seq_state;

/* Packet context for the first record of a packet (NULL otherwise). */
typedef struct uia_pkt_ctx {
    uint32_t seq;         /* packet sequence number */
    uint32_t first_event; /* 14-bit first-event sequence */
    bool numbered;        /* a trx stream packet: the exact number of its first record */
    uint32_t number, session_id, flags;
    uint32_t tail_lost; /* opening a session: the last one's loss after its last record */
} uia_pkt_ctx;

/* The context packet `p` gives its first record. */
static inline uia_pkt_ctx uia_pkt_ctx_of(const trx_uia_packet *p)
{
    uia_pkt_ctx c = {p->seq,        p->first_event, p->numbered, p->number,
                     p->session_id, p->flags,       p->tail_lost};
    return c;
}

/* What a trx stream packet's first record says (uia_stream_packet.c). */
typedef struct uia_stream_frame {
    uint32_t bytes; /* of that record: the packet's events follow it */
    uint32_t number, target_dropped, session_id, flags;
} uia_stream_frame;

enum { UIA_FRAME_NONE = 0, UIA_FRAME_OK = 1, UIA_FRAME_BAD = -1 };

/* Whether the packet of `len` bytes at `pkt` (its header checked) is a trx
 * stream packet: UIA_FRAME_OK (its check holds; *f filled), UIA_FRAME_BAD
 * (its first record is one but the check fails: corrupt) or UIA_FRAME_NONE. */
int uia_stream_frame_read(const uint8_t *pkt, uint32_t len, uia_stream_frame *f);

/* A record's timestamp on its stream's unwrapped time, given the stream's
 * last one (`have`: there is one): `time` holds the record's stamp (its low
 * word, or both for `words` 2). A 32-bit stamp below the last one wrapped -
 * unless it is less than 2^31 below: then the time source stepped back (a
 * wrap that far would need 2^31 ticks without a record). Likewise a 64-bit
 * stamp more than 2^31 but less than 2^32 ahead, its high word one up: a
 * 32-bit counter extended in software (the recorder's, Timestamp_get64)
 * that stepped back and was taken for a wrap: its high word stays one up,
 * so *adjust (the stream's, 0 at first) keeps 2^32 per such step to take off
 * every later stamp. Such a stamp comes back below the last one: the step
 * counts as time going backwards. */
static inline uint64_t uia_extend_time(uint64_t time, uint32_t words, uint64_t last, bool have,
                                       uint64_t *adjust)
{
    const uint64_t half = (uint64_t)1 << 31, wrap = (uint64_t)1 << 32;
    if (words == 2) {
        if (time < *adjust)
            *adjust = 0; /* the target restarted its time */
        time -= *adjust;
    }
    if (!have)
        return time;
    if (words == 1) {
        time |= last & ~(uint64_t)0xFFFFFFFFu;
        if (time < last && last - time >= half)
            time += wrap;
    } else if (words == 2 && time > last && time - last >= half && time - last < wrap &&
               (time >> 32) == (last >> 32) + 1) {
        *adjust += wrap;
        time -= wrap;
    }
    return time;
}

/* What the stepper says about one record. */
typedef struct uia_step {
    uint64_t seq, lost, ticks, time;
    bool new_session, backwards;
} uia_step;

/* Advances stream state `s` by record `h` (pk: packet context when the
 * record opens a packet). Sequences unwrap by 2^16 or 2^5; a packet's 14-bit
 * first-event number re-anchors 5-bit sequences when it agrees with the
 * record. A packet that goes back in time with a lower sequence or packet
 * number starts a new session (no loss). 32-bit timestamps wrap by 2^32
 * (uia_extend_time). */
static inline __attribute__((always_inline)) void
uia_step_record(uia_seq_state *s, const uia_head *h, const uia_pkt_ctx *pk, uia_step *o)
{
    uint64_t time = uia_extend_time(h->time, h->time_words, s->last_time, s->any && s->have_time,
                                    &s->time_adjust);
    o->lost = 0;
    o->new_session = false;
    o->backwards = false;
    if (!s->any) {
        s->any = true;
        s->seq = pk && pk->numbered ? pk->number : h->seq;
        if (pk && pk->numbered && (pk->flags & TRX_UIA_STREAM_FIRST_PACKET))
            o->lost = pk->number; /* numbers start at 0: dropped before the first packet */
        s->base_time = time;
        s->tick_base = 0;
        s->last_pkt = pk ? pk->seq : 0;
    } else if (pk && pk->numbered) {
        /* exact: the number of this record, dropped and lost ones counted */
        uint32_t ahead = pk->number - (uint32_t)(s->seq + 1);
        if ((pk->flags & TRX_UIA_STREAM_FIRST_PACKET) || !s->numbered ||
            pk->session_id != s->session_id || ahead >= 0x80000000u) { /* the target restarted */
            o->new_session = true;
            o->lost = pk->tail_lost + ((pk->flags & TRX_UIA_STREAM_FIRST_PACKET) ? pk->number : 0);
            s->session++;
            s->seq = pk->number;
            s->base_time = time;
            s->tick_base = s->max_ticks + 1;
        } else {
            o->lost = ahead;
            s->seq += 1 + (uint64_t)ahead;
            o->backwards = h->time_words && s->have_time && time < s->last_time;
        }
        s->last_pkt = pk->seq;
    } else {
        uint32_t mask = h->seq_mask;
        uint64_t expected = s->seq + 1;
        bool seq_lower = h->seq < (uint32_t)(expected & mask);
        bool time_back = h->time_words && s->have_time && time < s->last_time;
        if (pk && ((h->time_words && time_back && (pk->seq <= s->last_pkt || seq_lower)) ||
                   (!h->time_words && pk->seq <= s->last_pkt && seq_lower))) {
            o->new_session = true;
            s->session++;
            s->seq = h->seq;
            s->base_time = time;
            s->tick_base = s->max_ticks + 1;
        } else {
            uint64_t lost;
            if (pk && mask == 0x1Fu && pk->first_event != 0 && (pk->first_event & 0x1Fu) == h->seq)
                lost = (pk->first_event - (uint32_t)expected) & 0x3FFFu;
            else
                lost = (h->seq - (uint32_t)expected) & mask;
            o->lost = lost;
            s->seq = expected + lost;
            o->backwards = time_back;
        }
        if (pk)
            s->last_pkt = pk->seq;
    }
    if (pk) {
        s->numbered = pk->numbered;
        s->session_id = pk->session_id;
    }
    uint64_t ticks = s->tick_base;
    if (h->time_words) {
        if (!s->have_time) {
            s->base_time = time;
            s->have_time = true;
        }
        if (time >= s->base_time)
            ticks += time - s->base_time;
    }
    s->last_time = h->time_words ? time : s->last_time;
    s->last_ticks = ticks;
    if (ticks > s->max_ticks)
        s->max_ticks = ticks;
    o->seq = s->seq;
    o->ticks = ticks;
    o->time = time;
}

/* The ticks on its core's axis of a record `st` just stepped in stream
 * `stream` (state `s`): the core's session base for a timed record, else the
 * stream's last ticks (a new session: its start). Without axes (a raw
 * buffer: one stream) the stream's own ticks. */
static inline uint64_t uia_axis_ticks(const struct trx_uia *u, uint32_t stream, uia_seq_state *s,
                                      bool timed, const uia_step *st)
{
    if (!u->axis)
        return st->ticks;
    uint32_t k =
        s->session < u->streams[stream].sessions ? s->session : u->streams[stream].sessions - 1;
    const uia_axis *a = &u->axis[u->axis_at[stream] + k];
    if (timed && a->aligned) {
        double v = (double)(int64_t)(st->time - a->base_time) * a->rate + a->shift;
        s->axis_ticks = v <= 0 ? 0 : v >= 1.8e19 ? UINT64_MAX : (uint64_t)(v + 0.5);
    } else if (timed) {
        s->axis_ticks = a->tick_base + (st->time >= a->base_time ? st->time - a->base_time : 0);
    } else if (!s->axis_any || st->new_session)
        s->axis_ticks = a->tick_base;
    s->axis_any = true;
    return s->axis_ticks;
}

/* Lays the records of a packet file on one time axis per core (uia_axes.c):
 * u->order, axis, axis_at, stream_core, info.cores; the gaps again on the
 * axes (gap_cap: t->gaps' capacity); u->amp when `model` (NULL: none) names
 * SYS/BIOS's switches and a task of `tasks` runs on two cores at once
 * (sysbios_tasks.h). 0, or -1 when out of memory. */
int uia_build_axes(trx_trace *t, uint64_t *gap_cap, const uia_spans *spans, const uia_syncs *syncs,
                   const trx_sysbios_model *model, const trx_sysbios_tasks *tasks);

/* Opens `t` (image already in t->image) as UIA; 0 or -1 with `err`. */
int trx_uia_open(trx_trace *t, const trx_open_options *o, trx_error *err);

/* True when the image looks like UIA: a UIAPacket header at 0, or valid records. */
bool trx_uia_probe(const uint8_t *data, size_t size);

/* Releases t->uia (safe when NULL). */
void trx_uia_free(trx_trace *t);

/* Snapshot reassembly (uia_snapshot.c): feed every snapshot record in event
 * order, then finish. 0, or -1 when out of memory. */
typedef struct uia_snap_builder uia_snap_builder;
uia_snap_builder *uia_snap_new(void);
int uia_snap_feed(uia_snap_builder *b, struct trx_uia *u, uint64_t event, uint32_t stream,
                  const trx_uia_record *r);
int uia_snap_finish(uia_snap_builder *b, struct trx_uia *u);

/* True when some record of `t` that is not a snapshot has `nargs` (> 0)
 * arguments, the last one `last`, and module `module`: a test over the
 * open's record offsets, a few words read a record, nothing decoded. */
bool trx_uia_has_record_like(const trx_trace *t, uint32_t module, uint32_t nargs, uint32_t last);

/* Decodes the full record at image offset `off` (after a successful head parse). */
void uia_decode_record(const uint8_t *image, uint64_t off, bool be, trx_uia_record *r);

/* Splits a snapshot record's lengths word: 0, or -1 when neither half fits. */
int uia_snapshot_lengths(trx_uia_record *r);

#endif
