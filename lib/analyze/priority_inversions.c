/* priority_inversions.c - TraceX's priority-inversion windows (tracex.md
 * 2.8): a MUTEX_GET by a higher-priority thread on a mutex owned by a
 * lower-priority one opens a window; the owner's final MUTEX_PUT closes it
 * (deterministic), or a lower-priority non-owner running first makes it
 * non-deterministic. Lookups alias unknown addresses to object 0, as TraceX's
 * do. The end index stored on the window's first event is the first event
 * at or after the closing one whose context is the blocked thread; such
 * ends wait here until that event arrives. */
#include <stdlib.h>
#include <string.h>

#include "analyze/analyses.h"

typedef struct window {
    bool active;
    uint32_t blocked, blocked_prio, owner, owner_prio;
} window;

/* A window end waiting for the blocked thread to run again. */
typedef struct waiting_end {
    uint32_t blocked;
    uint64_t closing_index; /* used when the thread never runs again */
    uint64_t start;
    uint64_t order;
    uint8_t bad;
} waiting_end;

struct trx_inversion_finder {
    const trx_trace *trace;
    uint32_t *prio;  /* per object: latest priority, TRX_UNKNOWN if never seen */
    window *windows; /* per object (the mutex's slot) */
    uint32_t active;
    uint64_t start; /* TraceX keeps one start index for all windows */
    uint64_t inversions, bad;
    waiting_end *waiting;
    uint32_t waiting_count, waiting_cap;
    trx_inversion_mark *marks;
    uint32_t mark_count, mark_cap;
    uint64_t order;
    int oom;
};

static uint32_t object_or_zero(const trx_trace *t, uint32_t address)
{
    int32_t o = trx_trace_find_object(t, address);
    return o < 0 ? 0 : (uint32_t)o;
}

trx_inversion_finder *trx_inversions_new(const trx_trace *t)
{
    trx_inversion_finder *f = calloc(1, sizeof *f);
    uint32_t n = t->object_count ? t->object_count : 1;
    if (!f)
        return NULL;
    f->trace = t;
    f->prio = malloc(n * sizeof *f->prio);
    f->windows = calloc(n, sizeof *f->windows);
    if (!f->prio || !f->windows) {
        free(f->prio);
        free(f->windows);
        free(f);
        return NULL;
    }
    memset(f->prio, 0xFF, n * sizeof *f->prio);
    return f;
}

static bool skipped(const trx_event *ev)
{
    return ev->context >= TRX_CONTEXT_INIT; /* interrupt and initialization */
}

void trx_inversions_first_pass(trx_inversion_finder *f, const trx_event *ev)
{
    if (skipped(ev) || f->trace->object_count == 0)
        return;
    uint32_t o = object_or_zero(f->trace, ev->context);
    if (f->prio[o] == TRX_UNKNOWN)
        f->prio[o] = ev->priority;
}

static void *grow(void *p, uint32_t *cap, uint32_t need, size_t item, int *oom)
{
    if (need <= *cap)
        return p;
    uint32_t n = *cap ? *cap * 2 : 16;
    void *q = realloc(p, (size_t)n * item);
    if (!q) {
        *oom = 1;
        return p;
    }
    *cap = n;
    return q;
}

static void add_mark(trx_inversion_finder *f, uint64_t start, uint64_t end, uint64_t order,
                     uint8_t bad)
{
    f->marks = grow(f->marks, &f->mark_cap, f->mark_count + 1, sizeof *f->marks, &f->oom);
    if (f->mark_count < f->mark_cap)
        f->marks[f->mark_count++] = (trx_inversion_mark){start, end, order, bad};
}

/* Records a window end: it completes when the blocked thread next runs. */
static void close_window(trx_inversion_finder *f, window *w, const trx_event *ev, uint8_t bad)
{
    w->active = false;
    f->active--;
    if (ev->context == w->blocked) {
        add_mark(f, f->start, ev->index, f->order++, bad);
        return;
    }
    f->waiting =
        grow(f->waiting, &f->waiting_cap, f->waiting_count + 1, sizeof *f->waiting, &f->oom);
    if (f->waiting_count < f->waiting_cap)
        f->waiting[f->waiting_count++] =
            (waiting_end){w->blocked, ev->index, f->start, f->order++, bad};
}

/* Completes waiting ends whose blocked thread is this event's context. */
static void complete_waiting(trx_inversion_finder *f, const trx_event *ev)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < f->waiting_count; i++) {
        waiting_end *w = &f->waiting[i];
        if (w->blocked == ev->context)
            add_mark(f, w->start, ev->index, w->order, w->bad);
        else
            f->waiting[k++] = *w;
    }
    f->waiting_count = k;
}

void trx_inversions_feed(trx_inversion_finder *f, const trx_event *ev)
{
    const trx_trace *t = f->trace;
    if (f->waiting_count)
        complete_waiting(f, ev);
    if (skipped(ev) || t->object_count == 0)
        return;
    uint32_t p = ev->priority;
    f->prio[object_or_zero(t, ev->context)] = p;
    uint32_t m = object_or_zero(t, ev->info[0]);
    window *w = &f->windows[m];
    if (ev->id == 52 && ev->info[2] != 0 && ev->info[2] != ev->context) {
        uint32_t owner_prio = f->prio[object_or_zero(t, ev->info[2])];
        if (owner_prio != TRX_UNKNOWN && p < owner_prio && !w->active) {
            f->inversions++;
            *w = (window){true, ev->context, p, ev->info[2], owner_prio};
            f->active++;
            f->start = ev->index;
            return;
        }
    }
    if (ev->id == 57 && w->active && ev->info[2] == 1) {
        close_window(f, w, ev, 0);
        return;
    }
    if (!f->active)
        return;
    for (uint32_t j = 0; j < t->object_count; j++) {
        window *o = &f->windows[j];
        if (o->active && ev->context != o->owner && p > o->blocked_prio) {
            f->bad++;
            close_window(f, o, ev, 1);
        }
    }
}

static int by_start_then_order(const void *a, const void *b)
{
    const trx_inversion_mark *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    if (x->bad != y->bad)
        return x->bad < y->bad ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

int trx_inversions_finish(trx_inversion_finder *f, trx_stats *s)
{
    for (uint32_t i = 0; i < f->waiting_count; i++)
        add_mark(f, f->waiting[i].start, f->waiting[i].closing_index, f->waiting[i].order,
                 f->waiting[i].bad);
    /* One value per start event and kind: the one TraceX wrote last. */
    if (f->mark_count > 1)
        qsort(f->marks, f->mark_count, sizeof *f->marks, by_start_then_order);
    uint32_t k = 0;
    for (uint32_t i = 0; i < f->mark_count; i++) {
        if (k > 0 && f->marks[k - 1].start == f->marks[i].start &&
            f->marks[k - 1].bad == f->marks[i].bad)
            k--;
        f->marks[k++] = f->marks[i];
    }
    s->inversions = f->inversions;
    s->bad_inversions = f->bad;
    s->marks = f->marks;
    s->mark_count = k;
    int oom = f->oom;
    free(f->prio);
    free(f->windows);
    free(f->waiting);
    free(f);
    return oom ? -1 : 0;
}
