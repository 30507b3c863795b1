/*
 * trace_overview.c - the chunked summary and checkpoints of a trace (see
 * trace_overview.h): one cursor pass; per chunk its end time, lost events and
 * per-lane notes (events, run time); a cursor copy every `interval` events.
 */
#include <stdlib.h>
#include <string.h>

#include "overview/trace_overview.h"
#include "output/timeline.h"
#include "util/address_map.h"

typedef struct lane_note {
    uint32_t lane;
    uint32_t events;
    uint64_t busy;  /* ticks the lane ran, ending in this chunk */
    uint64_t worst; /* the longest response time (RESUME -> CPU) that ended in it */
} lane_note;

typedef struct chunk {
    uint64_t end_ticks; /* ticks of its last event (never less than the previous chunk's) */
    uint64_t lost;      /* events lost right before its events */
    uint64_t notes_at;  /* its first note */
    uint32_t note_count;
} chunk;

#define NOTE_BLOCK_SHIFT 16u
#define NOTE_BLOCK ((uint64_t)1 << NOTE_BLOCK_SHIFT)
#define SUMMARY_MAX_LANES 512u
#define SUMMARY_MAX_COLS 8192u

struct trx_overview {
    trx_trace *t;
    uint64_t total, chunk_cap;
    chunk *chunks;
    lane_note **blocks; /* notes in fixed blocks: published notes never move */
    uint64_t block_cap, notes_used;
    uint64_t interval; /* events per checkpoint */
    trx_cursor *checkpoints;
    uint64_t checkpoint_cap;
    uint32_t lanes;
    _Atomic uint64_t ready; /* events whose chunks are published */
    _Atomic uint64_t checkpoints_ready;
    _Atomic uint64_t ready_ticks;
    atomic_bool done;
};

static const lane_note *note_at(const trx_overview *o, uint64_t i)
{
    return &o->blocks[i >> NOTE_BLOCK_SHIFT][i & (NOTE_BLOCK - 1)];
}

trx_overview *trx_overview_new(trx_trace *t)
{
    trx_trace_prepare(t);
    trx_overview *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->t = t;
    o->total = t->total_events;
    o->chunk_cap = o->total / TRX_OVERVIEW_CHUNK + 1;
    o->lanes = trx_lane_count(t);
    o->block_cap = TRX_OVERVIEW_LANE_BUDGET / (NOTE_BLOCK * sizeof(lane_note)) + 1;
    o->chunks = calloc(o->chunk_cap, sizeof *o->chunks);
    o->blocks = calloc(o->block_cap, sizeof *o->blocks);
    if (!o->chunks || !o->blocks) {
        trx_overview_free(o);
        return NULL;
    }
    atomic_init(&o->ready, 0);
    atomic_init(&o->checkpoints_ready, 0);
    atomic_init(&o->ready_ticks, 0);
    atomic_init(&o->done, false);
    return o;
}

/* Room for one more note (a new block when the last is full); false over budget. */
static bool note_room(trx_overview *o)
{
    uint64_t b = o->notes_used >> NOTE_BLOCK_SHIFT;
    if (b >= o->block_cap)
        return false;
    if (!o->blocks[b] && !(o->blocks[b] = malloc(NOTE_BLOCK * sizeof(lane_note))))
        return false;
    return true;
}

/* The chunk being filled: per lane its events and run time, and the lanes touched. */
typedef struct chunk_acc {
    uint32_t *events;
    uint64_t *busy, *worst;
    uint32_t *touched;
    uint32_t touched_count;
    uint64_t lost;
} chunk_acc;

static void touch(chunk_acc *a, uint32_t lane)
{
    if (!a->events[lane] && !a->busy[lane] && !a->worst[lane])
        a->touched[a->touched_count++] = lane;
}

static void close_chunk(trx_overview *o, chunk_acc *a, uint64_t c, uint64_t end_ticks)
{
    chunk *ch = &o->chunks[c];
    ch->end_ticks = end_ticks;
    ch->lost = a->lost;
    ch->notes_at = o->notes_used;
    ch->note_count = 0;
    for (uint32_t k = 0; k < a->touched_count; k++) {
        uint32_t l = a->touched[k];
        if (note_room(o)) { /* over budget: the lane stays out of this chunk's picture */
            lane_note *n =
                &o->blocks[o->notes_used >> NOTE_BLOCK_SHIFT][o->notes_used & (NOTE_BLOCK - 1)];
            *n = (lane_note){l, a->events[l], a->busy[l], a->worst[l]};
            o->notes_used++;
            ch->note_count++;
        }
        a->events[l] = 0;
        a->busy[l] = 0;
        a->worst[l] = 0;
    }
    a->touched_count = 0;
    a->lost = 0;
}

/* Recently seen thread contexts and their lanes (direct-mapped): the hash
 * of the thread table is not probed for every event. */
#define LANE_SLOTS 64u
typedef struct lane_cache {
    uint32_t context[LANE_SLOTS];
    uint32_t lane[LANE_SLOTS];
} lane_cache;

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

/* Thread `thread` gets the CPU at `ev`: its response time, into its lane's worst. */
static void wait_end(waiting *wt, chunk_acc *a, lane_cache *lc, const trx_trace *t,
                     const trx_event *ev, uint32_t thread, uint32_t lanes)
{
    if (thread == wt->not_waiting)
        return;
    uint32_t *p = trx_address_map_find(&wt->slot_of, thread);
    if (!p || !*p || !wt->since[*p - 1]) {
        wt->not_waiting = thread;
        return;
    }
    uint64_t since = wt->since[*p - 1] - 1;
    wt->since[*p - 1] = 0;
    wt->live--;
    uint32_t lane = lane_of(lc, t, ev, thread);
    if (ev->ticks >= since && lane < lanes) {
        touch(a, lane);
        if (ev->ticks - since > a->worst[lane])
            a->worst[lane] = ev->ticks - since;
    }
}

/* Events per checkpoint: a multiple of the chunk, so that the copies fit their budget. */
static uint64_t plan_interval(const trx_overview *o, const trx_cursor *c)
{
    uint64_t size = trx_cursor_state_size(c) + 256, interval = 64 * (uint64_t)TRX_OVERVIEW_CHUNK;
    while ((o->total / interval + 1) * size > TRX_OVERVIEW_CHECKPOINT_BUDGET)
        interval *= 2;
    return interval;
}

int trx_overview_build(trx_overview *o, const atomic_bool *stop)
{
    trx_trace *t = o->t;
    uint32_t cores = trx_trace_context_cores(t);
    if (cores < 1)
        cores = 1;
    chunk_acc a = {calloc(o->lanes, sizeof(uint32_t)),
                   calloc(o->lanes, sizeof(uint64_t)),
                   calloc(o->lanes, sizeof(uint64_t)),
                   calloc(3u * TRX_OVERVIEW_CHUNK + 3u, sizeof(uint32_t)),
                   0,
                   0};
    waiting wt = {0};
    uint32_t *run_lane = calloc(cores, sizeof *run_lane);
    uint64_t *run_since = calloc(cores, sizeof *run_since);
    bool *running = calloc(cores, sizeof *running);
    trx_cursor c;
    int rc = -1;
    if (!a.events || !a.busy || !a.worst || !a.touched || !run_lane || !run_since || !running ||
        trx_cursor_init(&c, t) < 0)
        goto out;
    o->interval = plan_interval(o, &c);
    o->checkpoint_cap = o->total / o->interval + 1;
    if (!(o->checkpoints = calloc(o->checkpoint_cap, sizeof *o->checkpoints))) {
        trx_cursor_free(&c);
        goto out;
    }
    uint64_t i = 0, ticks = 0;
    const trx_event *ev;
    lane_cache lanes;
    for (uint32_t k = 0; k < LANE_SLOTS; k++)
        lanes.lane[k] = UINT32_MAX;
    rc = 0;
    for (;;) {
        if (i % o->interval == 0 && i / o->interval < o->checkpoint_cap) {
            if (trx_cursor_copy(&o->checkpoints[i / o->interval], &c) < 0) {
                rc = -1;
                break;
            }
            atomic_store_explicit(&o->checkpoints_ready, i / o->interval + 1, memory_order_release);
        }
        if (!(ev = trx_cursor_next_ref(&c)))
            break;
        if (ev->ticks > ticks)
            ticks = ev->ticks;
        uint32_t core = cores > 1 && ev->core < cores ? ev->core : 0;
        if (running[core]) {
            touch(&a, run_lane[core]);
            a.busy[run_lane[core]] += ticks - run_since[core];
        }
        uint32_t lane = lane_of(&lanes, t, ev, ev->context);
        if (lane < o->lanes) {
            touch(&a, lane);
            a.events[lane]++;
        }
        uint32_t next = lane_of(&lanes, t, ev, ev->next_context);
        running[core] = next < o->lanes;
        run_lane[core] = next;
        run_since[core] = ticks;
        a.lost += ev->lost_before;
        /* response times: from a RESUME until the thread gets the CPU (it is the
         * next context, or its own event when the next contexts never name it) */
        if (ev->kind == TRX_KIND_RESUME && ev->subject != 0 && !ev->priority_change)
            wait_start(&wt, ev->subject, ev->ticks);
        if (wt.live) {
            if (is_thread_ctx(ev->next_context))
                wait_end(&wt, &a, &lanes, t, ev, ev->next_context, o->lanes);
            if (is_thread_ctx(ev->context) && ev->context != ev->next_context)
                wait_end(&wt, &a, &lanes, t, ev, ev->context, o->lanes);
        }
        i++;
        if (i % TRX_OVERVIEW_CHUNK == 0 && i / TRX_OVERVIEW_CHUNK <= o->chunk_cap) {
            close_chunk(o, &a, i / TRX_OVERVIEW_CHUNK - 1, ticks);
            atomic_store_explicit(&o->ready_ticks, ticks, memory_order_relaxed);
            atomic_store_explicit(&o->ready, i, memory_order_release);
            if (stop && atomic_load_explicit(stop, memory_order_relaxed)) {
                trx_cursor_free(&c);
                break;
            }
        }
    }
    if (i % TRX_OVERVIEW_CHUNK && i / TRX_OVERVIEW_CHUNK < o->chunk_cap) {
        close_chunk(o, &a, i / TRX_OVERVIEW_CHUNK, ticks);
        atomic_store_explicit(&o->ready_ticks, ticks, memory_order_relaxed);
        atomic_store_explicit(&o->ready, i, memory_order_release);
    }
    if (rc < 0)
        trx_cursor_free(&c);
out:
    atomic_store_explicit(&o->done, true, memory_order_release);
    free(a.events);
    free(a.busy);
    free(a.worst);
    free(wt.since);
    trx_address_map_free(&wt.slot_of);
    free(a.touched);
    free(run_lane);
    free(run_since);
    free(running);
    return rc;
}

uint64_t trx_overview_ready(const trx_overview *o)
{
    return atomic_load_explicit(&o->ready, memory_order_acquire);
}

uint64_t trx_overview_total(const trx_overview *o)
{
    return o->total;
}

bool trx_overview_done(const trx_overview *o)
{
    return atomic_load_explicit(&o->done, memory_order_acquire);
}

uint64_t trx_overview_ready_ticks(const trx_overview *o)
{
    return atomic_load_explicit(&o->ready_ticks, memory_order_relaxed);
}

uint64_t trx_overview_memory(const trx_overview *o)
{
    uint64_t cps = atomic_load_explicit(&o->checkpoints_ready, memory_order_acquire), bytes = 0;
    for (uint64_t k = 0; k < cps; k++)
        bytes += trx_cursor_state_size(&o->checkpoints[k]);
    uint64_t blocks = (o->notes_used + NOTE_BLOCK - 1) >> NOTE_BLOCK_SHIFT;
    return bytes + o->chunk_cap * sizeof(chunk) + blocks * NOTE_BLOCK * sizeof(lane_note) +
           o->block_cap * sizeof(lane_note *) + o->checkpoint_cap * sizeof(trx_cursor);
}

static uint64_t chunks_ready(const trx_overview *o)
{
    uint64_t r = trx_overview_ready(o);
    return (r + TRX_OVERVIEW_CHUNK - 1) / TRX_OVERVIEW_CHUNK;
}

/* First published chunk that ends at or after `ticks` (n when none). */
static uint64_t chunk_at(const trx_overview *o, uint64_t n, uint64_t ticks)
{
    uint64_t lo = 0, hi = n;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (o->chunks[mid].end_ticks < ticks)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static uint64_t chunk_events(const trx_overview *o, uint64_t c)
{
    uint64_t r = trx_overview_ready(o), first = c * TRX_OVERVIEW_CHUNK;
    return r - first < TRX_OVERVIEW_CHUNK ? r - first : TRX_OVERVIEW_CHUNK;
}

uint64_t trx_overview_events_between(const trx_overview *o, uint64_t from, uint64_t to)
{
    uint64_t n = chunks_ready(o), c0 = chunk_at(o, n, from), c1 = chunk_at(o, n, to), sum = 0;
    for (uint64_t c = c0; c <= c1 && c < n; c++)
        sum += chunk_events(o, c);
    return sum;
}

uint64_t trx_overview_index_near(const trx_overview *o, uint64_t ticks)
{
    uint64_t n = chunks_ready(o);
    uint64_t c = chunk_at(o, n, ticks);
    return c >= n ? trx_overview_ready(o) : c * TRX_OVERVIEW_CHUNK;
}

int trx_overview_seek_index(const trx_overview *o, uint64_t index, trx_cursor *out)
{
    uint64_t cps = atomic_load_explicit(&o->checkpoints_ready, memory_order_acquire);
    uint64_t ready = trx_overview_ready(o);
    if (!cps)
        return -1;
    if (index > ready)
        index = ready;
    uint64_t k = index / o->interval;
    if (k >= cps)
        k = cps - 1;
    if (trx_cursor_copy(out, &o->checkpoints[k]) < 0)
        return -1;
    for (uint64_t i = k * o->interval; i < index; i++)
        if (!trx_cursor_next_ref(out))
            break;
    return 0;
}

/* Adds `amount`, spread evenly over [s, e] ticks, into the columns of the view
 * [from, from + cols x width]. */
static void spread(double *col, uint32_t cols, double from, double width, double s, double e,
                   double amount)
{
    if (e <= s) { /* a point: all in its column */
        double x = (s - from) / width;
        if (x >= 0 && x < cols)
            col[(uint32_t)x] += amount;
        return;
    }
    double per_tick = amount / (e - s);
    double a = s > from ? s : from, b = e < from + cols * width ? e : from + cols * width;
    if (b < a)
        return;
    uint32_t k0 = (uint32_t)((a - from) / width), k1 = (uint32_t)((b - from) / width);
    if (k1 >= cols)
        k1 = cols - 1;
    for (uint32_t k = k0; k <= k1; k++) {
        double lo = from + k * width, hi = lo + width;
        double ov = (b < hi ? b : hi) - (a > lo ? a : lo);
        if (ov > 0)
            col[k] += ov * per_tick;
        else if (k0 == k1)
            col[k] += amount;
    }
}

/* Raises the columns that [s, e] ticks covers to at least `v`. */
static void most(uint64_t *col, uint32_t cols, double from, double width, double s, double e,
                 uint64_t v)
{
    double a = s > from ? s : from, b = e < from + cols * width ? e : from + cols * width;
    if (b < a)
        return;
    double k0 = (a - from) / width, k1 = (b - from) / width;
    for (uint32_t k = k0 < cols ? (uint32_t)k0 : cols - 1;
         k <= (k1 < cols ? (uint32_t)k1 : cols - 1); k++)
        if (v > col[k])
            col[k] = v;
}

/* A column's figure as a whole number (at least 1 when anything is there),
 * never beyond what a uint64_t holds. */
static uint64_t whole(double f)
{
    return f <= 0 ? 0 : f < 1 ? 1 : f >= 1e18 ? (uint64_t)1e18 : (uint64_t)(f + 0.5);
}

void trx_overview_summary_json(const trx_overview *o, uint64_t from, uint64_t to, uint32_t cols,
                               trx_out *w)
{
    if (cols < 1)
        cols = 1;
    if (cols > SUMMARY_MAX_COLS)
        cols = SUMMARY_MAX_COLS;
    if (to <= from)
        to = from + 1;
    uint64_t n = chunks_ready(o);
    double width = (double)(to - from) / cols;
    /* per lane shown: its slot; slots hold busy and events per column */
    uint32_t *slot_of = malloc((size_t)o->lanes * sizeof *slot_of);
    uint32_t *lane_of = malloc(SUMMARY_MAX_LANES * sizeof *lane_of);
    double **busy = calloc(SUMMARY_MAX_LANES, sizeof *busy); /* per slot, made when used */
    uint64_t **worst = calloc(SUMMARY_MAX_LANES, sizeof *worst);
    double **events = calloc(SUMMARY_MAX_LANES, sizeof *events);
    double *lost = calloc(cols, sizeof *lost);
    uint32_t slots = 0, omitted = 0;
    trx_out_str(w, "{\"from\":");
    trx_out_u64_pad(w, from, 0, ' ');
    trx_out_str(w, ",\"to\":");
    trx_out_u64_pad(w, to, 0, ' ');
    trx_out_str(w, ",\"cols\":");
    trx_out_u64_pad(w, cols, 0, ' ');
    if (!slot_of || !lane_of || !busy || !events || !worst || !lost) {
        trx_out_str(w, ",\"lanes\":[],\"lost\":[],\"error\":\"out of memory\"}");
        goto out;
    }
    memset(slot_of, 0xFF, (size_t)o->lanes * sizeof *slot_of);
    for (uint64_t c = chunk_at(o, n, from); c < n; c++) {
        const chunk *ch = &o->chunks[c];
        double s = c ? (double)o->chunks[c - 1].end_ticks : 0, e = (double)ch->end_ticks;
        if (s > (double)to)
            break;
        if (ch->lost)
            spread(lost, cols, (double)from, width, s, s, (double)ch->lost);
        for (uint32_t k = 0; k < ch->note_count; k++) {
            const lane_note *nt = note_at(o, ch->notes_at + k);
            if (slot_of[nt->lane] == UINT32_MAX) {
                if (slots == SUMMARY_MAX_LANES ||
                    !(busy[slots] = calloc(2u * (size_t)cols, sizeof(double))) ||
                    !(worst[slots] = calloc(cols, sizeof(uint64_t)))) {
                    if (slots < SUMMARY_MAX_LANES) {
                        free(busy[slots]);
                        busy[slots] = NULL;
                    }
                    omitted++;
                    continue;
                }
                events[slots] = busy[slots] + cols;
                lane_of[slots] = nt->lane;
                slot_of[nt->lane] = slots++;
            }
            double *b = busy[slot_of[nt->lane]], *ev = events[slot_of[nt->lane]];
            if (nt->busy)
                spread(b, cols, (double)from, width, s, e, (double)nt->busy);
            if (nt->events)
                spread(ev, cols, (double)from, width, s, e, (double)nt->events);
            if (nt->worst) /* a chunk's worst, in every column the chunk covers */
                most(worst[slot_of[nt->lane]], cols, (double)from, width, s, e, nt->worst);
        }
    }
    trx_out_str(w, ",\"lanes\":[");
    for (uint32_t k = 0; k < slots; k++) {
        trx_out_str(w, k ? ",\n[" : "\n[");
        trx_out_u64_pad(w, lane_of[k], 0, ' ');
        for (int part = 0; part < 2; part++) {
            const double *v = part ? events[k] : busy[k];
            trx_out_str(w, ",[");
            for (uint32_t x = 0; x < cols; x++) {
                uint64_t q = whole(part ? v[x] : v[x] * 1000.0 / width);
                if (x)
                    trx_out_char(w, ',');
                trx_out_u64_pad(w, q, 0, ' ');
            }
            trx_out_char(w, ']');
        }
        trx_out_str(w, ",[");
        for (uint32_t x = 0; x < cols; x++) {
            if (x)
                trx_out_char(w, ',');
            trx_out_u64_pad(w, worst[k][x], 0, ' ');
        }
        trx_out_str(w, "]]");
    }
    trx_out_str(w, "],\"lost\":[");
    for (uint32_t x = 0; x < cols; x++) {
        if (x)
            trx_out_char(w, ',');
        trx_out_u64_pad(w, lost[x] < 0.5 ? 0 : whole(lost[x]), 0, ' ');
    }
    trx_out_str(w, "],\"notes_omitted\":");
    trx_out_u64_pad(w, omitted, 0, ' ');
    trx_out_char(w, '}');
out:
    for (uint32_t k = 0; k < slots; k++) {
        free(busy[k]);
        free(worst[k]);
    }
    free(worst);
    free(slot_of);
    free(lane_of);
    free(busy);
    free(events);
    free(lost);
}

void trx_overview_free(trx_overview *o)
{
    if (!o)
        return;
    uint64_t cps = atomic_load_explicit(&o->checkpoints_ready, memory_order_acquire);
    for (uint64_t k = 0; o->checkpoints && k < cps; k++)
        trx_cursor_free(&o->checkpoints[k]);
    free(o->checkpoints);
    for (uint64_t b = 0; o->blocks && b < o->block_cap; b++)
        free(o->blocks[b]);
    free(o->blocks);
    free(o->chunks);
    free(o);
}
