/*
 * uia_axes.c - one time axis per core for a UIA packet file. Every logger
 * (stream) of one sender stamps its records with that core's clock, so the
 * streams of a sender share its axis: ticks = timestamp - the core's first
 * timestamp of the session, sessions one after the other. The records are
 * put in the order of their axis ticks (within a stream the file order is
 * kept; ties: the file order), cores with unrelated clocks side by side,
 * each from 0. The open pass notes each stream's sessions (first and last
 * timestamp, uia_spans_note); one more pass merges the streams by a heap of
 * their next records (O(records log streams)) and makes the gaps again on
 * the axes. Memory: 6 bytes per record (order, stream) when the merge
 * changes the file order, nothing when it does not; the packets of each
 * stream.
 */
#include <stdlib.h>
#include <string.h>

#include "decode/uia_internal.h"

typedef struct stream_walk {
    uint32_t *packets;     /* its non-duplicate packets, file order (into a shared array) */
    uint32_t npackets, at; /* packets[at] holds the next record */
    uint64_t rec, rec_end; /* next record, end of its packet */
    uia_seq_state state;
    /* the head: its record, its step and axis ticks */
    uint64_t head;
    uia_step step;
    uint32_t head_type, head_len, head_time_words; /* its header's type, length, time words */
    uint64_t ticks, last_ticks;
    const uia_session_span *sessions; /* from the open pass */
    uint32_t session_cap;
} stream_walk;

typedef struct axes_builder {
    trx_trace *t;
    struct trx_uia *u;
    stream_walk *w;
    uint32_t *sender_of; /* per stream: its core (ordinal of its sender): u->stream_core */
    uint32_t *heap;      /* stream indexes */
    uint32_t heap_len;
    const trx_sysbios_model *model; /* with `overlap` active: SYS/BIOS's switches */
    trx_sysbios_overlap overlap;    /* the AMP check (sysbios_tasks.h) */
    bool check_overlap;
} axes_builder;

/* Moves walk `w` to its next record, if any: false at the end. */
static bool next_record(const struct trx_uia *u, stream_walk *w)
{
    while (w->rec >= w->rec_end) {
        if (w->at >= w->npackets)
            return false;
        uint32_t p = w->packets[w->at++];
        w->rec = u->pkt_first[p];
        w->rec_end = w->rec + u->packets[p].records;
    }
    return true;
}

/* Steps walk `w` over its next record (the packet's first gets its context). */
static void step(const trx_trace *t, const struct trx_uia *u, stream_walk *w, uia_head *h)
{
    uint64_t i = w->rec++;
    uia_read_head(t->image.data + uia_rec_offset(u, i), uia_rec_be(u, i), h);
    uia_pkt_ctx ctx, *pk = NULL;
    uint32_t p = w->packets[w->at - 1];
    if (u->pkt_first[p] == i) {
        ctx = uia_pkt_ctx_of(&u->packets[p]);
        pk = &ctx;
    }
    w->head = i;
    uia_step_record(&w->state, h, pk, &w->step);
}

static void walk_reset(stream_walk *w)
{
    w->at = 0;
    w->rec = w->rec_end = 0;
    memset(&w->state, 0, sizeof w->state);
    w->last_ticks = 0;
}

/* Sessions of stream s (at least one). */
static uint32_t sessions_of(const struct trx_uia *u, uint32_t s)
{
    return u->streams[s].sessions ? u->streams[s].sessions : 1;
}

int uia_spans_grow(uia_spans *sp, uint32_t stream, uint32_t session)
{
    if (stream >= sp->streams) {
        uint32_t n = stream + 1 > 2 * sp->streams ? stream + 1 : 2 * sp->streams;
        uia_session_span **of = realloc(sp->of, (size_t)n * sizeof *of);
        if (!of)
            return -1;
        sp->of = of;
        uint32_t *cap = realloc(sp->cap, (size_t)n * sizeof *cap);
        if (!cap)
            return -1;
        sp->cap = cap;
        for (uint32_t i = sp->streams; i < n; i++) {
            sp->of[i] = NULL;
            sp->cap[i] = 0;
        }
        sp->streams = n;
    }
    if (session >= sp->cap[stream]) {
        uint32_t n = session + 1 > 2 * sp->cap[stream] ? session + 1 : 2 * sp->cap[stream];
        uia_session_span *v = realloc(sp->of[stream], (size_t)n * sizeof *v);
        if (!v)
            return -1;
        memset(v + sp->cap[stream], 0, (size_t)(n - sp->cap[stream]) * sizeof *v);
        sp->of[stream] = v;
        sp->cap[stream] = n;
    }
    return 0;
}

void uia_spans_free(uia_spans *sp)
{
    for (uint32_t i = 0; i < sp->streams; i++)
        free(sp->of[i]);
    free(sp->of);
    free(sp->cap);
    memset(sp, 0, sizeof *sp);
}

/* Streams in sender order, for grouping (qsort has no context: a pair array). */
typedef struct sender_stream {
    uint32_t sender, stream;
} sender_stream;

static int compare_pairs(const void *a, const void *b)
{
    const sender_stream *x = a, *y = b;
    if (x->sender != y->sender)
        return x->sender < y->sender ? -1 : 1;
    return x->stream < y->stream ? -1 : x->stream > y->stream;
}

/* Each core's sessions laid end to end: per stream and session, the core's
 * base time and the ticks where the session starts (u->axis). */
static int lay_out_axes(axes_builder *b)
{
    struct trx_uia *u = b->u;
    uint32_t n = u->info.stream_count;
    sender_stream *pairs = malloc((size_t)n * sizeof *pairs);
    b->sender_of = u->stream_core = malloc((size_t)n * sizeof *b->sender_of);
    u->axis_at = malloc((size_t)n * sizeof *u->axis_at);
    uint64_t total = 0;
    for (uint32_t s = 0; s < n; s++)
        total += sessions_of(u, s);
    u->axis = calloc(total, sizeof *u->axis);
    if (!pairs || !b->sender_of || !u->axis_at || !u->axis) {
        free(pairs);
        return -1;
    }
    for (uint32_t s = 0, at = 0; s < n; s++) {
        pairs[s] = (sender_stream){u->streams[s].sender, s};
        u->axis_at[s] = at;
        at += sessions_of(u, s);
    }
    qsort(pairs, n, sizeof *pairs, compare_pairs);
    uint32_t core = 0;
    for (uint32_t g = 0; g < n;) {
        uint32_t e = g, sessions = 0;
        while (e < n && pairs[e].sender == pairs[g].sender) {
            uint32_t k = u->streams[pairs[e].stream].sessions;
            if (k > sessions)
                sessions = k;
            e++;
        }
        uint64_t tick_base = 0;
        for (uint32_t k = 0; k < sessions; k++) {
            uint64_t first = UINT64_MAX, last = 0;
            for (uint32_t j = g; j < e; j++) {
                const stream_walk *w = &b->w[pairs[j].stream];
                if (k < w->session_cap && w->sessions[k].any) {
                    if (w->sessions[k].first < first)
                        first = w->sessions[k].first;
                    if (w->sessions[k].last > last)
                        last = w->sessions[k].last;
                }
            }
            if (first == UINT64_MAX)
                first = last = 0;
            for (uint32_t j = g; j < e; j++) {
                uint32_t s = pairs[j].stream;
                if (k < sessions_of(u, s))
                    u->axis[u->axis_at[s] + k] = (uia_axis){first, tick_base, false, 0, 0};
            }
            tick_base += last - first + 1;
        }
        for (uint32_t j = g; j < e; j++) {
            b->sender_of[pairs[j].stream] = core;
            u->streams[pairs[j].stream].core = core;
        }
        core++;
        g = e;
    }
    u->info.cores = core;
    free(pairs);
    return 0;
}

/* One core's first and last sync points (by its own time). */
typedef struct core_sync {
    uint64_t c0, g0, c1, g1, count;
    double rate;         /* global ticks per core tick */
    uint64_t first_time; /* the core's first record time */
    bool any_time;
} core_sync;

/* Each core's sync points and timestamp frequency (u->core_time), and with
 * sync points on every core (two at different times each, one session):
 * maps each core's clock linearly onto the global timer (the first and the
 * last sync point give offset and rate), every core's ticks then counting
 * global-timer ticks from the earliest core's first record. */
static int align_by_sync_points(axes_builder *b, const uia_syncs *syncs)
{
    struct trx_uia *u = b->u;
    uint32_t n = u->info.stream_count, cores = u->info.cores;
    u->info.sync_points = syncs->count;
    u->core_time = calloc(cores, sizeof *u->core_time);
    if (!u->core_time)
        return -1;
    u->info.core_time = u->core_time;
    if (syncs->count == 0)
        return 0;
    core_sync *cs = calloc(cores, sizeof *cs);
    if (!cs)
        return -1;
    for (uint64_t i = 0; i < syncs->count; i++) {
        const uia_sync *y = &syncs->at[i];
        uint32_t k = b->sender_of[y->stream];
        core_sync *c = &cs[k];
        if (c->count == 0 || y->cpu < c->c0) {
            c->c0 = y->cpu;
            c->g0 = y->global;
        }
        if (c->count == 0 || y->cpu > c->c1) {
            c->c1 = y->cpu;
            c->g1 = y->global;
        }
        c->count++;
        if (y->cpu_hz) /* CpuFreq is the CPU clock; a timestamp tick takes the cycles given */
            u->core_time[k].timestamp_hz =
                (double)y->cpu_hz / (double)(y->cycles_per_tick ? y->cycles_per_tick : 1);
    }
    bool ok = true;
    for (uint32_t s = 0; s < n; s++) {
        const stream_walk *w = &b->w[s];
        core_sync *c = &cs[b->sender_of[s]];
        ok &= u->streams[s].sessions <= 1;
        if (w->session_cap > 0 && w->sessions[0].any &&
            (!c->any_time || w->sessions[0].first < c->first_time)) {
            c->first_time = w->sessions[0].first;
            c->any_time = true;
        }
    }
    for (uint32_t k = 0; k < cores; k++) { /* two sync points, both clocks going forward */
        bool fits = cs[k].count >= 2 && cs[k].c1 > cs[k].c0 && cs[k].g1 > cs[k].g0;
        u->core_time[k].sync_points = cs[k].count;
        if (fits) {
            cs[k].rate = (double)(cs[k].g1 - cs[k].g0) / (double)(cs[k].c1 - cs[k].c0);
            u->core_time[k].rate = cs[k].rate;
            u->core_time[k].offset = (double)cs[k].g0 - (double)cs[k].c0 * cs[k].rate;
        }
        ok &= fits;
    }
    if (ok) {
        double earliest = 0;
        bool any = false;
        for (uint32_t k = 0; k < cores; k++) {
            const core_sync *c = &cs[k];
            double first = (double)c->g0 + (double)(int64_t)(c->first_time - c->c0) * c->rate;
            if (c->any_time && (!any || first < earliest)) {
                earliest = first;
                any = true;
            }
        }
        for (uint32_t s = 0; s < n; s++) {
            const core_sync *c = &cs[b->sender_of[s]];
            u->axis[u->axis_at[s]] = (uia_axis){c->c0, 0, true, c->rate, (double)c->g0 - earliest};
        }
        for (uint32_t k = 0; k < cores; k++)
            u->core_time[k].aligned = true;
        u->info.aligned = true;
    }
    free(cs);
    return 0;
}

/* Heap order: smaller axis ticks first, then the earlier record. */
static bool before(const axes_builder *b, uint32_t x, uint32_t y)
{
    const stream_walk *p = &b->w[x], *q = &b->w[y];
    return p->ticks != q->ticks ? p->ticks < q->ticks : p->head < q->head;
}

static void sift_down(axes_builder *b, uint32_t i)
{
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < b->heap_len && before(b, b->heap[l], b->heap[m]))
            m = l;
        if (r < b->heap_len && before(b, b->heap[r], b->heap[m]))
            m = r;
        if (m == i)
            return;
        uint32_t x = b->heap[i];
        b->heap[i] = b->heap[m];
        b->heap[m] = x;
        i = m;
    }
}

/* Reads stream s's next record as its head; false at its end. */
static bool load_head(axes_builder *b, uint32_t s)
{
    stream_walk *w = &b->w[s];
    if (!next_record(b->u, w))
        return false;
    uia_head h;
    step(b->t, b->u, w, &h);
    w->head_type = h.type;
    w->head_len = h.len;
    w->head_time_words = h.time_words;
    w->ticks = uia_axis_ticks(b->u, s, &w->state, h.time_words != 0, &w->step);
    return true;
}

/* True when `w`'s head carries no event word: a snapshot or a terminator. */
static bool h_is_terminator_or_snapshot(const stream_walk *w)
{
    return uia_is_snapshot[w->head_type] || (w->head_type == 8 && w->head_len == 0);
}

/* The AMP check: record `w`'s head, in time order, when it is an LM_switch. */
static void note_switch(axes_builder *b, const stream_walk *w, uint32_t core)
{
    uint32_t tw = w->head_time_words;
    if (h_is_terminator_or_snapshot(w) || w->head_len < 4u * (2 + tw + 4))
        return;
    bool be = uia_rec_be(b->u, w->head);
    const uint8_t *p = b->t->image.data + uia_rec_offset(b->u, w->head) + 4 * (1 + tw);
    uint32_t args[4], next;
    for (uint32_t k = 0; k < 4; k++)
        args[k] = trx_rd32(p + 4 * (1 + k), be);
    if (trx_sysbios_switch_to(b->model, trx_rd32(p, be), args, 4, &next))
        trx_sysbios_overlap_switch(&b->overlap, core, next, w->ticks);
}

/* Pass 2: the merge; the order, the gaps and the spans on the axes. */
static int merge(axes_builder *b, uint64_t *gap_cap)
{
    struct trx_uia *u = b->u;
    trx_trace *t = b->t;
    uint32_t n = u->info.stream_count;
    u->order = malloc((size_t)u->info.records * sizeof *u->order);
    u->rec_stream = malloc((size_t)u->info.records * sizeof *u->rec_stream);
    b->heap = malloc((size_t)n * sizeof *b->heap);
    if (!u->order || !u->rec_stream || !b->heap)
        return -1;
    t->gap_count = 0;
    t->lost_events = 0;
    u->span_ticks = 0;
    for (uint32_t s = 0; s < n; s++) {
        walk_reset(&b->w[s]);
        u->streams[s].span_ticks = 0;
        u->streams[s].lost_events = 0;
        if (load_head(b, s))
            b->heap[b->heap_len++] = s;
    }
    for (uint32_t i = b->heap_len / 2; i-- > 0;)
        sift_down(b, i);
    uint64_t pos = 0;
    while (b->heap_len) {
        uint32_t s = b->heap[0];
        stream_walk *w = &b->w[s];
        u->order[pos] = (uint32_t)w->head;
        u->rec_stream[w->head] = (uint16_t)s;
        if (b->check_overlap)
            note_switch(b, w, u->stream_core[s]);
        if (w->step.lost) {
            if (t->gap_count >= *gap_cap) {
                uint64_t cap = *gap_cap ? *gap_cap * 2 : 64;
                trx_gap *g = realloc(t->gaps, (size_t)cap * sizeof *g);
                if (!g)
                    return -1;
                t->gaps = g;
                *gap_cap = cap;
            }
            t->gaps[t->gap_count++] = (trx_gap){pos, w->step.lost, w->last_ticks, w->ticks, s};
            t->lost_events += w->step.lost;
            u->streams[s].lost_events += w->step.lost;
        }
        w->last_ticks = w->ticks;
        if (w->ticks > u->streams[s].span_ticks)
            u->streams[s].span_ticks = w->ticks;
        if (w->ticks > u->span_ticks)
            u->span_ticks = w->ticks;
        pos++;
        if (load_head(b, s)) {
            sift_down(b, 0);
        } else {
            b->heap[0] = b->heap[--b->heap_len];
            sift_down(b, 0);
        }
    }
    if (pos != u->info.records)
        return -1;
    uint64_t i = 0; /* already in time order (one logger per core, in turn): no order */
    while (i < pos && u->order[i] == i)
        i++;
    if (i == pos) {
        free(u->order);
        free(u->rec_stream);
        u->order = NULL;
        u->rec_stream = NULL;
    }
    return 0;
}

/* Whether the AMP check is needed: SYS/BIOS's switches named and a handle
 * seen on two cores (else every task has one core: one thread per handle). */
static int start_overlap_check(axes_builder *b, const trx_sysbios_tasks *tasks)
{
    if (!b->model || !b->model->words || !tasks ||
        !trx_sysbios_tasks_on_several_cores(tasks, b->u->stream_core))
        return 0;
    if (trx_sysbios_overlap_init(&b->overlap, b->u->info.cores) < 0)
        return -1;
    b->check_overlap = true;
    return 0;
}

int uia_build_axes(trx_trace *t, uint64_t *gap_cap, const uia_spans *spans, const uia_syncs *syncs,
                   const trx_sysbios_model *model, const trx_sysbios_tasks *tasks)
{
    struct trx_uia *u = t->uia;
    uint32_t n = u->info.stream_count;
    if (!u->info.packet_file || n <= 1) { /* one stream: its own ticks are the axis */
        u->info.cores = 1;
        return 0;
    }
    axes_builder b = {.t = t, .u = u, .model = model};
    b.w = calloc(n, sizeof *b.w);
    u->stream_packets = malloc(((size_t)u->info.packet_count + 1) * sizeof *u->stream_packets);
    u->stream_packets_at = malloc(((size_t)n + 1) * sizeof *u->stream_packets_at);
    int rc = -1;
    if (b.w && u->stream_packets && u->stream_packets_at) {
        /* each stream's packets, in file order */
        for (uint32_t p = 0; p < u->info.packet_count; p++)
            if (!u->packets[p].duplicate)
                b.w[u->packets[p].stream].npackets++;
        uint32_t at = 0;
        for (uint32_t s = 0; s < n; s++) {
            u->stream_packets_at[s] = at;
            b.w[s].packets = u->stream_packets + at;
            at += b.w[s].npackets;
            b.w[s].npackets = 0;
            b.w[s].sessions = s < spans->streams ? spans->of[s] : NULL;
            b.w[s].session_cap = s < spans->streams ? spans->cap[s] : 0;
        }
        u->stream_packets_at[n] = at;
        for (uint32_t p = 0; p < u->info.packet_count; p++)
            if (!u->packets[p].duplicate) {
                stream_walk *w = &b.w[u->packets[p].stream];
                w->packets[w->npackets++] = p;
            }
        rc = lay_out_axes(&b) == 0 && align_by_sync_points(&b, syncs) == 0 &&
                     start_overlap_check(&b, tasks) == 0 && merge(&b, gap_cap) == 0
                 ? 0
                 : -1;
    }
    u->amp = b.check_overlap && b.overlap.amp;
    trx_sysbios_overlap_free(&b.overlap);
    free(b.w);
    free(b.heap);
    return rc;
}
