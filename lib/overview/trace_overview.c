/*
 * trace_overview.c - an overview's queries (see trace_overview.h): what is
 * ready, seeks from the checkpoints, and summaries of any time range in
 * columns; overview_build.c fills it.
 */
#include <stdlib.h>
#include <string.h>

#include "output/timeline.h"
#include "overview/overview_internal.h"

#define SUMMARY_MAX_LANES 512u
#define LANE_SHOWN (UINT32_MAX - 1) /* a summary's lane with something to show */

trx_overview *trx_overview_new(trx_trace *t)
{
    trx_trace_prepare(t);
    trx_overview *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->t = t;
    o->total = t->total_events;
    o->chunk_cap = o->total / TRX_OVERVIEW_CHUNK + 2; /* each half may end in a part chunk */
    o->lanes = trx_lane_count(t);
    o->block_cap = TRX_OVERVIEW_LANE_BUDGET / (NOTE_BLOCK * sizeof(lane_note)) + 2;
    o->parallel_min = PARALLEL_MIN_ENTRIES;
    o->chunks = calloc(o->chunk_cap, sizeof *o->chunks);
    o->blocks = calloc(o->block_cap, sizeof *o->blocks);
    if (!o->chunks || !o->blocks) {
        trx_overview_free(o);
        return NULL;
    }
    atomic_init(&o->ready, 0);
    atomic_init(&o->second_walked, 0);
    atomic_init(&o->chunks_ready, 0);
    atomic_init(&o->checkpoints_ready, 0);
    atomic_init(&o->ready_ticks, 0);
    atomic_init(&o->done, false);
    return o;
}

uint64_t trx_overview_ready(const trx_overview *o)
{
    return atomic_load_explicit(&o->ready, memory_order_acquire);
}

uint64_t trx_overview_walked(const trx_overview *o)
{
    uint64_t n =
        trx_overview_ready(o) + atomic_load_explicit(&o->second_walked, memory_order_relaxed);
    return n < o->total ? n : o->total;
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
           o->block_cap * sizeof(lane_note *) +
           o->checkpoint_cap * (sizeof(trx_cursor) + sizeof(uint64_t) +
                                (o->checkpoint_irq ? sizeof(trx_report_irq_walk) : 0));
}

static uint64_t chunks_ready(const trx_overview *o)
{
    return atomic_load_explicit(&o->chunks_ready, memory_order_acquire);
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

/* Events in published chunk `c` of `n`. */
static uint64_t chunk_events(const trx_overview *o, uint64_t n, uint64_t c)
{
    uint64_t end = c + 1 < n ? o->chunks[c + 1].first : trx_overview_ready(o);
    return end - o->chunks[c].first;
}

uint64_t trx_overview_events_between(const trx_overview *o, uint64_t from, uint64_t to)
{
    uint64_t n = chunks_ready(o), c0 = chunk_at(o, n, from), c1 = chunk_at(o, n, to), sum = 0;
    for (uint64_t c = c0; c <= c1 && c < n; c++)
        sum += chunk_events(o, n, c);
    return sum;
}

uint64_t trx_overview_index_near(const trx_overview *o, uint64_t ticks)
{
    uint64_t n = chunks_ready(o);
    uint64_t c = chunk_at(o, n, ticks);
    return c >= n ? trx_overview_ready(o) : o->chunks[c].first;
}

int trx_overview_seek_index(const trx_overview *o, uint64_t index, trx_cursor *out)
{
    return trx_overview_seek_index_irqs(o, index, out, NULL);
}

int trx_overview_seek_index_irqs(const trx_overview *o, uint64_t index, trx_cursor *out,
                                 trx_report_irq_walk *walk)
{
    if (walk)
        memset(walk, 0, sizeof *walk);
    uint64_t cps = atomic_load_explicit(&o->checkpoints_ready, memory_order_acquire);
    uint64_t ready = trx_overview_ready(o);
    if (!cps)
        return -1;
    if (index > ready)
        index = ready;
    uint64_t lo = 0, hi = cps; /* the last checkpoint at or before `index` */
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (o->checkpoint_at[mid] <= index)
            lo = mid;
        else
            hi = mid;
    }
    if (trx_cursor_copy(out, &o->checkpoints[lo]) < 0)
        return -1;
    bool irqs = walk && o->irqs && o->checkpoint_irq;
    if (irqs) /* the interrupts running at the checkpoint, then stepped to `index` */
        *walk = o->checkpoint_irq[lo];
    const trx_event *ev;
    for (uint64_t i = o->checkpoint_at[lo]; i < index; i++) {
        if (!(ev = trx_cursor_next_ref(out)))
            break;
        if (irqs) {
            uint32_t lane = trx_lane_of_event(o->t, ev, ev->context);
            uint32_t next = trx_lane_of_event(o->t, ev, ev->next_context);
            trx_report_irqs_step(o->irqs, walk, o->t, ev, &lane, &next);
        }
    }
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
    /* all of [s, e] in view: the columns add up to `amount` exactly (the
     * rounding left over goes to the last column it covers), however [s, e]
     * is cut - the halves of the overview cut chunks elsewhere than one walk */
    double given = 0;
    uint32_t last = UINT32_MAX;
    for (uint32_t k = k0; k <= k1; k++) {
        double lo = from + k * width, hi = lo + width;
        double ov = (b < hi ? b : hi) - (a > lo ? a : lo);
        double part = ov > 0 ? ov * per_tick : k0 == k1 ? amount : 0;
        if (part > 0) {
            col[k] += part;
            given += part;
            last = k;
        }
    }
    if (a == s && b == e && last != UINT32_MAX)
        col[last] += amount - given;
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

/* The first chunk of the `n` published that ends at or after event `index`. */
static uint64_t chunk_of_index(const trx_overview *o, uint64_t n, uint64_t index)
{
    uint64_t lo = 0, hi = n; /* the last chunk whose first event is at or before `index` */
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (o->chunks[mid].first <= index)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

uint64_t trx_overview_ticks_near(const trx_overview *o, uint64_t index, bool end)
{
    uint64_t n = chunks_ready(o);
    if (!n)
        return 0;
    uint64_t c = chunk_of_index(o, n, index);
    return end ? o->chunks[c].end_ticks : c ? o->chunks[c - 1].end_ticks : 0;
}

/* Where chunk `c` (of `n` published) lies on the axis: [*s, *e] ticks, or
 * events [*s, *e) by number; *scale turns its run time into the axis's unit
 * (events: the part of the chunk's time, as events). */
static void chunk_extent(const trx_overview *o, uint64_t n, uint64_t c, bool by_index, double *s,
                         double *e, double *scale)
{
    const chunk *ch = &o->chunks[c];
    double t0 = c ? (double)o->chunks[c - 1].end_ticks : 0, t1 = (double)ch->end_ticks;
    if (!by_index) {
        *s = t0;
        *e = t1;
        *scale = 1;
        return;
    }
    double events = (double)chunk_events(o, n, c);
    *s = (double)ch->first;
    *e = *s + events;
    *scale = t1 > t0 ? events / (t1 - t0) : 0;
}

/* The summary on either axis (trx_overview_summary_json, _index_json). */
static void summary_json(const trx_overview *o, bool by_index, uint64_t from, uint64_t to,
                         uint32_t cols, trx_out *w)
{
    if (cols < 1)
        cols = 1;
    if (cols > TRX_OVERVIEW_MAX_COLS)
        cols = TRX_OVERVIEW_MAX_COLS;
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
    trx_out_str(w, by_index ? "{\"axis\":\"index\",\"from\":" : "{\"axis\":\"ticks\",\"from\":");
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
    /* the chunks [c0, c1) the view touches */
    uint64_t c0 = by_index ? chunk_of_index(o, n, from) : chunk_at(o, n, from), c1 = c0;
    for (; c1 < n && (by_index ? o->chunks[c1].first
                      : c1     ? o->chunks[c1 - 1].end_ticks
                               : 0) <= to;
         c1++)
        for (uint32_t k = 0; k < o->chunks[c1].note_count; k++) {
            const lane_note *nt = note_at(o, o->chunks[c1].notes_at + k);
            if (nt->events || nt->busy || nt->worst) /* not one noted for a response time only */
                slot_of[nt->lane] = LANE_SHOWN;
        }
    for (uint32_t l = 0; l < o->lanes; l++) { /* slots in lane order: the first ones shown */
        if (slot_of[l] != LANE_SHOWN)
            continue;
        if (slots == SUMMARY_MAX_LANES ||
            !(busy[slots] = calloc(2u * (size_t)cols, sizeof(double))) ||
            !(worst[slots] = calloc(cols, sizeof(uint64_t)))) {
            if (slots < SUMMARY_MAX_LANES) {
                free(busy[slots]);
                busy[slots] = NULL;
            }
            slot_of[l] = UINT32_MAX;
            omitted++;
            continue;
        }
        events[slots] = busy[slots] + cols;
        lane_of[slots] = l;
        slot_of[l] = slots++;
    }
    for (uint64_t c = c0; c < c1; c++) {
        const chunk *ch = &o->chunks[c];
        double s, e, scale;
        chunk_extent(o, n, c, by_index, &s, &e, &scale);
        if (ch->lost)
            spread(lost, cols, (double)from, width, s, s, (double)ch->lost);
        for (uint32_t k = 0; k < ch->note_count; k++) {
            const lane_note *nt = note_at(o, ch->notes_at + k);
            uint32_t slot = slot_of[nt->lane];
            if (slot == UINT32_MAX)
                continue; /* left out */
            if (nt->busy)
                spread(busy[slot], cols, (double)from, width, s, e, (double)nt->busy * scale);
            if (nt->events)
                spread(events[slot], cols, (double)from, width, s, e, (double)nt->events);
            if (nt->worst) /* a chunk's worst, in every column the chunk covers */
                most(worst[slot], cols, (double)from, width, s, e, nt->worst);
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
    trx_out_str(w, "],\"lanes_omitted\":");
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

void trx_overview_summary_json(const trx_overview *o, uint64_t from, uint64_t to, uint32_t cols,
                               trx_out *w)
{
    summary_json(o, false, from, to, cols, w);
}

void trx_overview_summary_index_json(const trx_overview *o, uint64_t from, uint64_t to,
                                     uint32_t cols, trx_out *w)
{
    summary_json(o, true, from, to, cols, w);
}

void trx_overview_free(trx_overview *o)
{
    if (!o)
        return;
    uint64_t cps = atomic_load_explicit(&o->checkpoints_ready, memory_order_acquire);
    for (uint64_t k = 0; o->checkpoints && k < cps; k++)
        trx_cursor_free(&o->checkpoints[k]);
    free(o->checkpoints);
    free(o->checkpoint_at);
    free(o->checkpoint_irq);
    for (uint64_t b = 0; o->blocks && b < o->block_cap; b++)
        free(o->blocks[b]);
    free(o->blocks);
    free(o->chunks);
    free(o);
}
