/*
 * overview_build.c - the pass that fills an overview (see trace_overview.h):
 * one cursor walk, or two threads each walking a half of a TXTB trace and
 * joined where they meet; per chunk its end time, lost events and per-lane
 * notes (events, run time, worst response time); a cursor copy every
 * `interval` events (with, on a SYS/BIOS trace, which Hwi / Swi runs on
 * each core there).
 */
#include <stdlib.h>
#include <string.h>
#ifdef TRX_HAVE_PTHREAD
#include <pthread.h>
#endif

#include "decode/event_cursor_internal.h"
#include "output/timeline.h"
#include "overview/overview_internal.h"
#include "util/address_map.h"

void trx_overview_set_parallel_min(trx_overview *o, uint64_t entries, uint32_t split_from)
{
    o->parallel_min = entries;
    o->split_from = split_from;
}

void trx_overview_set_irqs(trx_overview *o, const trx_report_irqs *irqs)
{
    if (!irqs || !irqs->count || irqs->base != trx_lane_count(o->t))
        return;
    o->irqs = irqs;
    o->lanes = irqs->base + irqs->count;
}

/* The chunk being filled: per lane its events and run time, and the lanes touched. */
typedef struct chunk_acc {
    uint32_t *events;
    uint64_t *busy, *worst;
    uint8_t *noted; /* per lane: in `touched` */
    uint32_t *touched;
    uint32_t touched_count;
    uint32_t count; /* events in it */
    uint64_t lost;
} chunk_acc;

/* Recently seen thread contexts and their lanes (direct-mapped): the hash
 * of the thread table is not probed for every event. */
#define LANE_SLOTS 64u
typedef struct lane_cache {
    uint32_t context[LANE_SLOTS];
    uint32_t lane[LANE_SLOTS];
} lane_cache;

/* Threads made ready and not yet running (response times: RESUME -> the CPU,
 * as trx stats' latency.response measures them, docs/analyses.md). */
typedef struct waiting {
    trx_address_map slot_of; /* thread address -> 1 + slot */
    uint64_t *since;         /* per slot: ticks of its RESUME + 1, 0: not waiting */
    uint32_t count, cap;
    uint32_t live;        /* slots waiting */
    uint32_t not_waiting; /* an address just seen not waiting (0: none): contexts repeat */
    bool oom;
} waiting;

/* One walk over the events from a raw entry on: the whole trace, or one of
 * its two halves. The first half (and a whole walk) writes into the
 * overview's own arrays and publishes as it goes; the second half fills
 * arrays of its own that join the overview's when the first is done. */
typedef struct segment {
    _Alignas(64) trx_overview *o; /* a cache line of its own: no false sharing between halves */
    trx_cursor c;
    bool live_cursor; /* c holds memory */
    bool publish;
    bool note_next; /* give every chunk a note for the lane that gets the CPU (second half) */
    /* the first half stops where this raw entry's event is next; else UINT32_MAX */
    uint32_t stop_raw;
    chunk *chunks;
    uint64_t chunk_count;
    lane_note **blocks;
    uint64_t block_limit, notes_used;
    trx_cursor *checkpoints;
    uint64_t *checkpoint_at;
    uint64_t checkpoint_count;
    chunk_acc a;
    waiting wt;
    lane_cache lanes;
    uint32_t cores, *run_lane;
    trx_report_irq_walk *irq_walk; /* the Hwi / Swi running per core (o->irqs only) */
    uint64_t *run_since;
    bool *running;
    uint64_t i, ticks; /* events walked; the latest ticks */
    int rc;
    const atomic_bool *stop;
} segment;

static void touch(chunk_acc *a, uint32_t lane)
{
    if (!a->noted[lane]) {
        a->noted[lane] = 1;
        a->touched[a->touched_count++] = lane;
    }
}

/* Room for one more note (a new block when the last is full); false over budget. */
static bool note_room(segment *g)
{
    uint64_t b = g->notes_used >> NOTE_BLOCK_SHIFT;
    if (b >= g->block_limit)
        return false;
    if (!g->blocks[b] && !(g->blocks[b] = malloc(NOTE_BLOCK * sizeof(lane_note))))
        return false;
    return true;
}

/* Ends the chunk being filled (its events end at `g->ticks`). */
static void close_chunk(segment *g)
{
    chunk_acc *a = &g->a;
    chunk *ch = g->chunk_count < g->o->chunk_cap ? &g->chunks[g->chunk_count] : NULL;
    if (ch) /* else more events than prepared: they stay out of sight */
        *ch = (chunk){g->i - a->count, g->ticks, a->lost, g->notes_used, 0};
    for (uint32_t k = 0; k < a->touched_count; k++) {
        uint32_t l = a->touched[k];
        if (ch && note_room(g)) { /* over budget: the lane stays out of this chunk's picture */
            lane_note *n =
                &g->blocks[g->notes_used >> NOTE_BLOCK_SHIFT][g->notes_used & (NOTE_BLOCK - 1)];
            *n = (lane_note){l, a->events[l], a->busy[l], a->worst[l]};
            g->notes_used++;
            ch->note_count++;
        }
        a->events[l] = 0;
        a->busy[l] = 0;
        a->worst[l] = 0;
        a->noted[l] = 0;
    }
    a->touched_count = 0;
    a->lost = 0;
    a->count = 0;
    if (!ch)
        return;
    g->chunk_count++;
    if (!g->publish) {
        atomic_store_explicit(&g->o->second_walked, g->i, memory_order_relaxed);
    } else {
        trx_overview *o = g->o;
        o->notes_used = g->notes_used;
        atomic_store_explicit(&o->ready_ticks, g->ticks, memory_order_relaxed);
        atomic_store_explicit(&o->chunks_ready, g->chunk_count, memory_order_release);
        atomic_store_explicit(&o->ready, g->i, memory_order_release);
    }
}

/* trx_lane_of_event through the cache (interrupts and the other contexts
 * are computed: they depend on the core, and cost nothing). */
static inline uint32_t lane_of(lane_cache *c, const trx_trace *t, const trx_event *ev,
                               uint32_t context)
{
    if (trx_context_kind_of(context) != TRX_CTX_THREAD)
        return trx_lane_of_event(t, ev, context);
    uint32_t k = (context ^ context >> 7 ^ context >> 15) % LANE_SLOTS;
    if (c->context[k] != context || c->lane[k] == UINT32_MAX) {
        c->context[k] = context;
        c->lane[k] = trx_lane_of_event(t, ev, context);
    }
    return c->lane[k];
}

static bool is_thread_ctx(uint32_t ctx)
{
    return ctx != TRX_CONTEXT_ISR && ctx != TRX_CONTEXT_INIT && ctx != TRX_CONTEXT_IDLE;
}

static void wait_start(waiting *wt, uint32_t thread, uint64_t now)
{
    if (wt->not_waiting == thread)
        wt->not_waiting = 0;
    bool added;
    uint32_t *p = trx_address_map_slot(&wt->slot_of, thread, 0, &added);
    if (!p) {
        wt->oom = true;
        return;
    }
    if (*p == 0) {
        if (wt->count == wt->cap) {
            uint32_t n = wt->cap ? wt->cap * 2 : 16;
            uint64_t *q = realloc(wt->since, (size_t)n * sizeof *q);
            if (!q) {
                wt->oom = true;
                return;
            }
            wt->since = q;
            wt->cap = n;
        }
        wt->since[wt->count] = 0;
        *p = ++wt->count;
    }
    if (!wt->since[*p - 1]) { /* a second RESUME before it runs does not restart it */
        wt->since[*p - 1] = now + 1;
        wt->live++;
    }
}

/* Thread `thread` gets the CPU at `ev`: ends its wait, if it waits; the
 * ticks it waited since its RESUME, or UINT64_MAX. */
static uint64_t wait_end(waiting *wt, const trx_event *ev, uint32_t thread)
{
    if (thread == wt->not_waiting)
        return UINT64_MAX;
    uint32_t *p = trx_address_map_find(&wt->slot_of, thread);
    if (!p || !*p || !wt->since[*p - 1]) {
        wt->not_waiting = thread;
        return UINT64_MAX;
    }
    uint64_t since = wt->since[*p - 1] - 1;
    wt->since[*p - 1] = 0;
    wt->live--;
    return ev->ticks >= since ? ev->ticks - since : UINT64_MAX;
}

/* The response time of `thread`, that gets the CPU at `ev`, into its lane's worst. */
static void note_response(segment *g, const trx_event *ev, uint32_t thread)
{
    uint64_t waited = wait_end(&g->wt, ev, thread);
    if (waited == UINT64_MAX)
        return;
    uint32_t lane = lane_of(&g->lanes, g->o->t, ev, thread);
    if (lane < g->o->lanes) {
        touch(&g->a, lane);
        if (waited > g->a.worst[lane])
            g->a.worst[lane] = waited;
    }
}

/* Events per checkpoint: a multiple of the chunk, so that the copies fit their budget. */
static uint64_t plan_interval(const trx_overview *o, const trx_cursor *c)
{
    uint64_t size = trx_cursor_state_size(c) + 256, interval = 64 * (uint64_t)TRX_OVERVIEW_CHUNK;
    if (o->irqs)
        size += sizeof(trx_report_irq_walk);
    while ((o->total / interval + 2) * size > TRX_OVERVIEW_CHECKPOINT_BUDGET)
        interval *= 2;
    return interval;
}

/* What one event adds to the chunk being filled. */
static inline void take_event(segment *g, const trx_event *ev)
{
    trx_overview *o = g->o;
    const trx_trace *t = o->t;
    chunk_acc *a = &g->a;
    if (ev->ticks > g->ticks)
        g->ticks = ev->ticks;
    uint32_t core = g->cores > 1 && ev->core < g->cores ? ev->core : 0;
    if (g->running[core]) {
        touch(a, g->run_lane[core]);
        a->busy[g->run_lane[core]] += g->ticks - g->run_since[core];
    }
    uint32_t lane = lane_of(&g->lanes, t, ev, ev->context);
    uint32_t next = lane_of(&g->lanes, t, ev, ev->next_context);
    if (g->irq_walk) /* an interrupt's event and run time on its Hwi / Swi lane */
        trx_report_irqs_step(o->irqs, g->irq_walk, t, ev, &lane, &next);
    if (lane < o->lanes) {
        touch(a, lane);
        a->events[lane]++;
    }
    g->running[core] = next < o->lanes;
    g->run_lane[core] = next;
    g->run_since[core] = g->ticks;
    if (g->note_next && next < o->lanes)
        touch(a, next);
    a->lost += ev->lost_before;
    /* response times: from a RESUME until the thread gets the CPU (it is the
     * next context, or its own event when the next contexts never name it) */
    if (ev->kind == TRX_KIND_RESUME && ev->subject != 0 && !ev->priority_change)
        wait_start(&g->wt, ev->subject, ev->ticks);
    if (g->wt.live) {
        if (is_thread_ctx(ev->next_context))
            note_response(g, ev, ev->next_context);
        if (is_thread_ctx(ev->context) && ev->context != ev->next_context)
            note_response(g, ev, ev->context);
    }
    a->count++;
    g->i++;
}

/* The walk: from the cursor's place to the end (or, for a first half, to
 * stop_raw), a checkpoint every `interval` events. g->rc: 0, or -1 when out
 * of memory; stops early (rc 0) when *stop is set. */
static void walk(segment *g)
{
    trx_overview *o = g->o;
    const trx_event *ev;
    for (;;) {
        if (g->i % o->interval == 0 && g->checkpoint_count < o->checkpoint_cap &&
            (!g->checkpoint_count || g->checkpoint_at[g->checkpoint_count - 1] != g->i)) {
            trx_cursor *cp = &g->checkpoints[g->checkpoint_count];
            if (trx_cursor_copy(cp, &g->c) < 0) {
                g->rc = -1;
                return;
            }
            if (g->irq_walk)
                o->checkpoint_irq[g->checkpoint_count] = *g->irq_walk;
            g->checkpoint_at[g->checkpoint_count++] = g->i;
            if (g->publish)
                atomic_store_explicit(&o->checkpoints_ready, g->checkpoint_count,
                                      memory_order_release);
        }
        if (g->c.pos_ > g->stop_raw && trx_cursor_reached(&g->c, g->stop_raw))
            break; /* (pos_: the next raw entry; it passes stop_raw where the second half starts) */
        if (!(ev = trx_cursor_next_ref(&g->c))) {
            g->live_cursor = false;
            break;
        }
        take_event(g, ev);
        if (g->a.count == TRX_OVERVIEW_CHUNK) {
            if (g->c.pos_ > g->stop_raw && trx_cursor_reached(&g->c, g->stop_raw))
                break; /* the first half's last chunk also takes the time up to the second's */
            close_chunk(g);
            if (g->stop && atomic_load_explicit(g->stop, memory_order_relaxed))
                return;
        }
    }
    if (g->stop_raw != UINT32_MAX) { /* the run time up to the second half's first event */
        uint64_t until = trx_cursor_pending_ticks(&g->c);
        if (g->running[0] && until > g->run_since[0]) {
            touch(&g->a, g->run_lane[0]);
            g->a.busy[g->run_lane[0]] += until - g->run_since[0];
        }
        if (until > g->ticks)
            g->ticks = until;
        g->running[0] = false;
    }
    if (g->a.count || g->a.touched_count)
        close_chunk(g);
}

/* Allocates a segment's state; false when out of memory. */
static bool segment_init(segment *g, trx_overview *o, const atomic_bool *stop)
{
    memset(g, 0, sizeof *g);
    g->o = o;
    g->stop = stop;
    g->stop_raw = UINT32_MAX;
    g->cores = trx_trace_context_cores(o->t);
    if (g->cores < 1)
        g->cores = 1;
    chunk_acc *a = &g->a;
    a->events = calloc(o->lanes, sizeof *a->events);
    a->busy = calloc(o->lanes, sizeof *a->busy);
    a->worst = calloc(o->lanes, sizeof *a->worst);
    a->noted = calloc(o->lanes, sizeof *a->noted);
    a->touched = calloc(o->lanes ? o->lanes : 1, sizeof *a->touched);
    g->run_lane = calloc(g->cores, sizeof *g->run_lane);
    g->run_since = calloc(g->cores, sizeof *g->run_since);
    g->running = calloc(g->cores, sizeof *g->running);
    for (uint32_t k = 0; k < LANE_SLOTS; k++)
        g->lanes.lane[k] = UINT32_MAX;
    if (o->irqs && !(g->irq_walk = calloc(1, sizeof *g->irq_walk)))
        return false;
    return a->events && a->busy && a->worst && a->noted && a->touched && g->run_lane &&
           g->run_since && g->running;
}

static void segment_free(segment *g)
{
    free(g->a.events);
    free(g->a.busy);
    free(g->a.worst);
    free(g->a.noted);
    free(g->a.touched);
    free(g->wt.since);
    trx_address_map_free(&g->wt.slot_of);
    free(g->run_lane);
    free(g->run_since);
    free(g->running);
    free(g->irq_walk);
    if (g->live_cursor)
        trx_cursor_free(&g->c);
}

#ifdef TRX_HAVE_PTHREAD
/* The raw entry where the second half starts (a thread's event near the
 * middle: the cursor's state is then its own), or 0 for one walk. */
static uint32_t split_point(const trx_overview *o)
{
    const trx_trace *t = o->t;
    if (o->irqs || t->format == TRX_TRACE_UIA || trx_trace_context_cores(t) > 1 || t->used < 4 ||
        t->used < o->parallel_min || trx_trace_jobs(t) < 2)
        return 0;
    uint32_t from = o->split_from && o->split_from < t->used ? o->split_from : t->used / 2;
    for (uint32_t i = from > 2 ? from : 2, n = 0; i < t->used && n < 65536; i++, n++) {
        trx_entry e;
        trx_trace_entry(t, i, &e);
        if (e.context != TRX_CONTEXT_ISR && e.context != TRX_CONTEXT_INIT && e.context != 0)
            return i;
    }
    return 0;
}

static void *walk_second_half(void *arg)
{
    walk(arg);
    return NULL;
}

/* The response times of the threads still waiting where the first half ended
 * that end in the second: walks the second half (from its first checkpoint,
 * already joined to the overview at chunk `c0`) until none waits. */
static int settle_waits(trx_overview *o, segment *a, uint64_t c0, uint64_t chunks)
{
    if (!a->wt.live)
        return 0;
    trx_cursor c;
    if (trx_cursor_copy(&c, &o->checkpoints[a->checkpoint_count]) < 0)
        return -1;
    const trx_event *ev;
    uint64_t ch = c0;
    while (a->wt.live && (ev = trx_cursor_next_ref(&c))) {
        while (ch + 1 < chunks && o->chunks[ch + 1].first <= ev->index)
            ch++;
        uint32_t who[2] = {
            is_thread_ctx(ev->next_context) ? ev->next_context : 0,
            is_thread_ctx(ev->context) && ev->context != ev->next_context ? ev->context : 0};
        for (int k = 0; k < 2; k++) {
            uint64_t waited = who[k] ? wait_end(&a->wt, ev, who[k]) : UINT64_MAX;
            if (waited == UINT64_MAX)
                continue;
            uint32_t lane = lane_of(&a->lanes, o->t, ev, who[k]);
            const chunk *x = &o->chunks[ch];
            for (uint32_t n = 0; n < x->note_count; n++) {
                lane_note *nt = (lane_note *)note_at(o, x->notes_at + n);
                if (nt->lane == lane && waited > nt->worst)
                    nt->worst = waited;
            }
        }
    }
    trx_cursor_free(&c);
    return 0;
}

/* Joins the finished second half `b` to the overview after the first half
 * `a` (which reached b's start), then publishes it all. */
static int join_halves(trx_overview *o, segment *a, segment *b)
{
    uint64_t offset = a->i;
    for (uint64_t k = 0; k < b->checkpoint_count; k++) {
        trx_cursor_continue(&b->checkpoints[k], &a->c);
        trx_cursor_move(&o->checkpoints[a->checkpoint_count + k], &b->checkpoints[k]);
        o->checkpoint_at[a->checkpoint_count + k] = b->checkpoint_at[k] + offset;
    }
    uint64_t base = (a->notes_used + NOTE_BLOCK - 1) & ~(NOTE_BLOCK - 1);
    for (uint64_t k = 0; k < b->block_limit && b->blocks[k]; k++)
        o->blocks[(base >> NOTE_BLOCK_SHIFT) + k] = b->blocks[k];
    for (uint64_t k = 0; k < b->chunk_count; k++) {
        chunk *x = &o->chunks[a->chunk_count + k];
        *x = b->chunks[k];
        x->first += offset;
        x->notes_at += base;
    }
    uint64_t chunks = a->chunk_count + b->chunk_count;
    int rc = settle_waits(o, a, a->chunk_count, chunks);
    o->notes_used = base + b->notes_used;
    uint64_t end_ticks = chunks ? o->chunks[chunks - 1].end_ticks : 0;
    atomic_store_explicit(&o->checkpoints_ready, a->checkpoint_count + b->checkpoint_count,
                          memory_order_release);
    atomic_store_explicit(&o->ready_ticks, end_ticks, memory_order_relaxed);
    atomic_store_explicit(&o->chunks_ready, chunks, memory_order_release);
    atomic_store_explicit(&o->ready, offset + b->i, memory_order_release);
    return rc;
}

/* The second half's own arrays; false when out of memory. */
static bool second_half_arrays(trx_overview *o, segment *b, uint64_t block_limit)
{
    b->chunks = calloc(o->chunk_cap, sizeof *b->chunks);
    b->blocks = calloc(block_limit, sizeof *b->blocks);
    b->block_limit = block_limit;
    b->checkpoints = calloc(o->checkpoint_cap, sizeof *b->checkpoints);
    b->checkpoint_at = calloc(o->checkpoint_cap, sizeof *b->checkpoint_at);
    return b->chunks && b->blocks && b->checkpoints && b->checkpoint_at;
}

/* Frees what of the second half did not join the overview. */
static void second_half_free(segment *b, bool joined)
{
    if (!joined) {
        for (uint64_t k = 0; b->blocks && k < b->block_limit; k++)
            free(b->blocks[k]);
        for (uint64_t k = 0; b->checkpoints && k < b->checkpoint_count; k++)
            trx_cursor_free(&b->checkpoints[k]);
    }
    free(b->chunks);
    free(b->blocks);
    free(b->checkpoints);
    free(b->checkpoint_at);
    segment_free(b);
}
#endif

int trx_overview_build(trx_overview *o, const atomic_bool *stop)
{
    segment a;
    int rc = -1;
    if (!segment_init(&a, o, stop) || trx_cursor_init(&a.c, o->t) < 0)
        goto out;
    a.live_cursor = true;
    a.publish = true;
    o->interval = plan_interval(o, &a.c);
    o->checkpoint_cap = o->total / o->interval + 2;
    o->checkpoints = calloc(o->checkpoint_cap, sizeof *o->checkpoints);
    o->checkpoint_at = calloc(o->checkpoint_cap, sizeof *o->checkpoint_at);
    if (o->irqs)
        o->checkpoint_irq = calloc(o->checkpoint_cap, sizeof *o->checkpoint_irq);
    if (!o->checkpoints || !o->checkpoint_at || (o->irqs && !o->checkpoint_irq))
        goto out;
    a.chunks = o->chunks;
    a.blocks = o->blocks;
    a.block_limit = o->block_cap;
    a.checkpoints = o->checkpoints;
    a.checkpoint_at = o->checkpoint_at;
#ifdef TRX_HAVE_PTHREAD
    uint32_t split = split_point(o);
    segment b;
    pthread_t helper;
    bool started = false;
    if (split) {
        a.block_limit = o->block_cap / 2;
        if (segment_init(&b, o, stop) && second_half_arrays(o, &b, o->block_cap - a.block_limit) &&
            trx_cursor_init_at(&b.c, o->t, split) == 0) {
            b.live_cursor = true;
            b.note_next = true;
            started = pthread_create(&helper, NULL, walk_second_half, &b) == 0;
        }
        if (started)
            a.stop_raw = split;
        else
            second_half_free(&b, false);
    }
#endif
    walk(&a);
#ifdef TRX_HAVE_PTHREAD
    if (started) {
        pthread_join(helper, NULL);
        bool stopped = stop && atomic_load_explicit(stop, memory_order_relaxed);
        bool joined = a.rc == 0 && b.rc == 0 && !stopped &&
                      a.chunk_count + b.chunk_count <= o->chunk_cap &&
                      a.checkpoint_count + b.checkpoint_count <= o->checkpoint_cap;
        if (joined) {
            a.rc = join_halves(o, &a, &b);
        } else if (a.rc == 0 && !stopped) { /* the second half failed: the first goes on */
            atomic_store_explicit(&o->second_walked, 0, memory_order_relaxed);
            a.stop_raw = UINT32_MAX;
            a.block_limit = o->block_cap;
            walk(&a);
        }
        second_half_free(&b, joined);
    }
#endif
    rc = a.rc;
out:
    atomic_store_explicit(&o->done, true, memory_order_release);
    segment_free(&a);
    return rc;
}
