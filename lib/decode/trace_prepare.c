/*
 * trace_prepare.c - one pass of the event model over the whole trace to
 * complete what TraceX knows before any statistic: Un-named Threads for
 * unregistered contexts (and, in the correct mode, for next contexts that
 * are no thread), each thread's priority and preemption-threshold
 * range (with TraceX's preemption-threshold quirk on stored events, and the
 * plain widening from synthetic RUNNING events applied afterwards), the total
 * event count and the last relative tick. See research/tracex.md 2.4-2.7.
 */
#include <stdlib.h>
#include <string.h>

#include "decode/event_cursor_internal.h"
#include "decode/object_table.h"
#include "decode/prepare_walk.h"
#include "decode/txtb_salvage.h"
#include "trx/uia.h"

/* What RUNNING events say about a thread's ranges (applied at the end). */
typedef struct running_range {
    bool any_prio, any_pt;
    uint32_t prio_min, prio_max, pt_min, pt_max;
} running_range;

/* What a part's stored events say about one thread's ranges (segments):
 * priorities as lowest / highest, and the threshold's set-once-and-reset
 * sequence summed up so that it can be applied to the state before it. */
typedef struct part_thread {
    bool any;
    uint32_t prio_lowest, prio_highest;
    bool first_set;   /* a threshold came before any reset: */
    uint32_t first;   /* ... the first one */
    bool reset;       /* an event without a threshold came */
    uint32_t pt_low;  /* after the last reset: the lower bound at the part's end */
    bool high_set;    /* a threshold set the bounds after a reset: */
    uint32_t pt_high; /* ... the latest such */
} part_thread;

struct trx_prepare_state {
    part_thread *part; /* a part of the trace (segments): by thread, else NULL */
    uint32_t part_cap;
    bool is_part;
    running_range *ranges;
    uint32_t range_cap;
    uint32_t *running_only; /* unknown addresses seen as RUNNING contexts (repeats possible) */
    uint32_t running_only_count, running_only_cap;
    uint32_t running_recent[1024]; /* the last ones added, by hash: most repeats stay out */
    bool strict;                   /* trx_prepare_walk_begin: change no table, note it instead */
    bool dirty;                    /* strict: the walk would have added a thread */
};

static int grow(void **p, uint32_t *cap, uint32_t need, size_t item);

/* A part's stored thread event: into its own summary (the trace's table
 * is shared by the parts walking at the same time). */
static void part_real_event(trx_prepare_state *prep, const trx_trace *t, const trx_event *ev)
{
    if (t->thread_count > prep->part_cap && /* (grow's own test, without its call per event) */
        grow((void **)&prep->part, &prep->part_cap, t->thread_count, sizeof *prep->part) < 0) {
        prep->dirty = true; /* out of memory: the caller prepares as usual */
        return;
    }
    part_thread *x = &prep->part[ev->thread];
    if (!x->any || ev->priority > x->prio_lowest)
        x->prio_lowest = ev->priority;
    if (!x->any || ev->priority < x->prio_highest)
        x->prio_highest = ev->priority;
    x->any = true;
    if (ev->threshold == TRX_UNKNOWN) {
        x->reset = true;
        x->pt_low = TRX_UNKNOWN;
    } else if (!x->reset) {
        if (!x->first_set) {
            x->first_set = true;
            x->first = ev->threshold;
        }
    } else if (x->pt_low == TRX_UNKNOWN) {
        x->pt_low = ev->threshold;
        x->high_set = true;
        x->pt_high = ev->threshold;
    }
}

/* Applies a part's summary for thread `th` to the thread's ranges. */
static void part_apply(const part_thread *x, trx_thread *th)
{
    if (!x->any)
        return;
    if (th->prio_lowest == TRX_UNKNOWN || x->prio_lowest > th->prio_lowest)
        th->prio_lowest = x->prio_lowest;
    if (x->prio_highest < th->prio_highest)
        th->prio_highest = x->prio_highest;
    bool first_sets = x->first_set && th->pt_lowest == TRX_UNKNOWN;
    if (!x->reset) {
        if (first_sets)
            th->pt_lowest = th->pt_highest = x->first;
        return;
    }
    if (x->high_set)
        th->pt_highest = x->pt_high;
    else if (first_sets)
        th->pt_highest = x->first;
    th->pt_lowest = x->pt_low;
}

void trx_prepare_real_event(trx_prepare_state *prep, trx_trace *t, trx_event *ev)
{
    if (ev->thread < 0) {
        if (prep->strict) {
            prep->dirty = true;
            return;
        }
        ev->thread = trx_objects_add_unnamed_thread(t, ev->context, ev->priority);
        return;
    }
    if (prep->is_part) {
        part_real_event(prep, t, ev);
        return;
    }
    trx_thread *th = &t->threads[ev->thread];
    if (th->prio_lowest == TRX_UNKNOWN || ev->priority > th->prio_lowest)
        th->prio_lowest = ev->priority;
    if (ev->priority < th->prio_highest)
        th->prio_highest = ev->priority;
    /* TraceX's threshold range: set once from the first valid value; an
     * event without a threshold resets the lower bound to unknown. */
    if (ev->threshold != TRX_UNKNOWN) {
        if (th->pt_lowest == TRX_UNKNOWN)
            th->pt_lowest = th->pt_highest = ev->threshold;
    } else {
        th->pt_lowest = TRX_UNKNOWN;
    }
}

static int grow(void **p, uint32_t *cap, uint32_t need, size_t item)
{
    if (need <= *cap)
        return 0;
    uint32_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, (size_t)n * item);
    if (!q)
        return -1;
    memset((char *)q + (size_t)*cap * item, 0, (size_t)(n - *cap) * item);
    *p = q;
    *cap = n;
    return 0;
}

void trx_prepare_running_event(trx_prepare_state *prep, trx_trace *t, const trx_event *f,
                               int source)
{
    if (f->thread < 0 && prep->strict && f->context != TRX_CONTEXT_IDLE) {
        prep->dirty = true; /* an unknown thread (correct) or thread 0 (TraceX) later */
        return;
    }
    if (f->thread < 0) {
        /* TraceX lists no thread for it (see trx_trace_prepare) */
        if (f->context == TRX_CONTEXT_IDLE || t->mode == TRX_MODE_TRACEX)
            return;
        uint32_t *recent = &prep->running_recent[(f->context * 0x9E3779B1u) >> 22];
        if (*recent == f->context)
            return;
        *recent = f->context;
        if (grow((void **)&prep->running_only, &prep->running_only_cap,
                 prep->running_only_count + 1, sizeof(uint32_t)) == 0)
            prep->running_only[prep->running_only_count++] = f->context;
        return;
    }
    if (source == TRX_PRIORITY_NONE ||
        grow((void **)&prep->ranges, &prep->range_cap, t->thread_count, sizeof(running_range)) < 0)
        return;
    running_range *r = &prep->ranges[f->thread];
    if (!r->any_prio || f->priority < r->prio_min)
        r->prio_min = f->priority;
    if (!r->any_prio || f->priority > r->prio_max)
        r->prio_max = f->priority;
    r->any_prio = true;
    if (source == TRX_PRIORITY_FROM_EVENT && f->threshold != TRX_UNKNOWN) {
        if (!r->any_pt || f->threshold < r->pt_min)
            r->pt_min = f->threshold;
        if (!r->any_pt || f->threshold > r->pt_max)
            r->pt_max = f->threshold;
        r->any_pt = true;
    }
}

/* Widens [lowest, highest] (numerically largest, smallest) by [min, max]. */
static void widen(uint32_t *lowest, uint32_t *highest, uint32_t min, uint32_t max)
{
    if (*lowest == TRX_UNKNOWN || max > *lowest)
        *lowest = max;
    if (*highest == TRX_UNKNOWN || min < *highest)
        *highest = min;
}

/* Widens every thread's ranges by what its RUNNING events gave. */
static void widen_by_running(trx_trace *t, const trx_prepare_state *prep)
{
    for (uint32_t th = 0; th < prep->range_cap && th < t->thread_count; th++) {
        const running_range *r = &prep->ranges[th];
        if (r->any_prio)
            widen(&t->threads[th].prio_lowest, &t->threads[th].prio_highest, r->prio_min,
                  r->prio_max);
        if (r->any_pt)
            widen(&t->threads[th].pt_lowest, &t->threads[th].pt_highest, r->pt_min, r->pt_max);
    }
}

/* One walk of the event model completing the thread table (see
 * prepare_walk.h for the strict form). */
struct trx_prepare_walk {
    trx_trace *t;
    trx_prepare_state prep;
    trx_cursor c;
    bool cursor_ok;
    uint64_t total, synthetic, last_ticks;
    uint32_t *saved; /* strict: each thread's four range bounds before the walk */
};

static int walk_start(trx_prepare_walk *w, trx_trace *t, bool strict)
{
    memset(w, 0, sizeof *w);
    w->t = t;
    w->prep.strict = strict;
    if (strict) {
        w->saved = malloc(((size_t)t->thread_count + 1) * 4 * sizeof *w->saved);
        if (!w->saved)
            return -1;
        for (uint32_t th = 0; th < t->thread_count; th++) {
            const trx_thread *x = &t->threads[th];
            uint32_t *v = &w->saved[(size_t)th * 4];
            v[0] = x->prio_lowest;
            v[1] = x->prio_highest;
            v[2] = x->pt_lowest;
            v[3] = x->pt_highest;
        }
    }
    w->cursor_ok = trx_cursor_init(&w->c, t) == 0;
    if (w->cursor_ok)
        trx_cursor_attach_prepare(&w->c, &w->prep);
    else if (strict)
        return free(w->saved), -1;
    return 0;
}

static const trx_event *walk_next(trx_prepare_walk *w)
{
    if (!w->cursor_ok || w->prep.dirty)
        return NULL;
    const trx_event *ev = trx_cursor_next_ref(&w->c);
    if (!ev) {
        w->cursor_ok = false; /* the cursor released itself */
        return NULL;
    }
    if (w->prep.dirty)
        return NULL;
    w->total++;
    w->synthetic += ev->synthetic;
    w->last_ticks = ev->ticks;
    return ev;
}

/* Completes the table from a finished walk (or restores it after a strict
 * walk that stopped): 0, or 1 when the strict walk stopped. */
static int walk_finish(trx_prepare_walk *w)
{
    trx_trace *t = w->t;
    trx_prepare_state *prep = &w->prep;
    /* a strict walk that did not reach the end (stopped, or abandoned) */
    int stopped = prep->dirty || (prep->strict && w->cursor_ok);
    if (w->cursor_ok)
        trx_cursor_free(&w->c);
    if (stopped) {
        for (uint32_t th = 0; th < t->thread_count; th++) {
            trx_thread *x = &t->threads[th];
            const uint32_t *v = &w->saved[(size_t)th * 4];
            x->prio_lowest = v[0];
            x->prio_highest = v[1];
            x->pt_lowest = v[2];
            x->pt_highest = v[3];
        }
    }
    /* A next context that no stored event has as its context: the correct
     * mode lists it as an unknown thread; TraceX adds nothing (its RUNNING
     * events there are attributed to thread 0, see event_cursor.c). */
    for (uint32_t k = 0; !stopped && k < prep->running_only_count; k++) {
        bool added;
        int32_t th = trx_objects_thread_or_unnamed(t, prep->running_only[k], 0, &added);
        if (th >= 0 && added)
            t->threads[th].next_context_only = true;
    }
    if (!stopped)
        widen_by_running(t, prep);
    free(prep->ranges);
    free(prep->running_only);
    free(w->saved);
    if (stopped)
        return 1;
    t->total_events = w->total;
    t->synthetic_events = w->synthetic;
    t->max_ticks = w->last_ticks;
    t->prepared = true;
    return 0;
}

void trx_trace_prepare(trx_trace *t)
{
    trx_trace_use_view(t);
    if (t->prepared)
        return;
    if (t->format == TRX_TRACE_UIA) { /* the open pass knew all: records, tasks, span */
        t->total_events = trx_uia_info_of(t)->records;
        t->synthetic_events = 0;
        t->max_ticks = trx_trace_span_ticks(t);
        t->prepared = true;
        return;
    }
    trx_prepare_walk w;
    walk_start(&w, t, false);
    while (walk_next(&w))
        ;
    walk_finish(&w);
}

trx_prepare_walk *trx_prepare_walk_begin(trx_trace *t)
{
    trx_trace_use_view(t);
    if (t->prepared || t->format != TRX_TRACE_TXTB)
        return NULL;
    trx_prepare_walk *w = malloc(sizeof *w);
    if (w && walk_start(w, t, true) < 0) {
        free(w);
        return NULL;
    }
    return w;
}

const trx_event *trx_prepare_walk_next(trx_prepare_walk *w)
{
    return walk_next(w);
}

int trx_prepare_walk_end(trx_prepare_walk *w)
{
    int r = walk_finish(w);
    free(w);
    return r;
}

trx_prepare_state *trx_prepare_part_new(void)
{
    trx_prepare_state *p = calloc(1, sizeof *p);
    if (p)
        p->strict = p->is_part = true;
    return p;
}

bool trx_prepare_part_dirty(const trx_prepare_state *p)
{
    return p->dirty;
}

void trx_prepare_part_free(trx_prepare_state *p)
{
    if (!p)
        return;
    free(p->part);
    free(p->ranges);
    free(p->running_only);
    free(p);
}

void trx_prepare_parts_finish(trx_trace *t, trx_prepare_state *const *parts, uint32_t n,
                              uint64_t total, uint64_t synthetic, uint64_t last_ticks)
{
    for (uint32_t k = 0; k < n; k++)
        for (uint32_t th = 0; th < parts[k]->part_cap && th < t->thread_count; th++)
            part_apply(&parts[k]->part[th], &t->threads[th]);
    /* the RUNNING events' ranges of all parts, then widened as one walk's */
    for (uint32_t k = 0; k < n; k++) {
        widen_by_running(t, parts[k]);
    }
    t->total_events = total;
    t->synthetic_events = synthetic;
    t->max_ticks = last_ticks;
    t->prepared = true;
}
