/* priority_inversions.c - TraceX's priority-inversion windows (tracex.md
 * 2.8): a MUTEX_GET by a higher-priority thread on a mutex owned by a
 * lower-priority one opens a window; the owner's final MUTEX_PUT closes it
 * (deterministic), or a lower-priority non-owner running first makes it
 * non-deterministic. Lookups alias unknown addresses to object 0, as TraceX's
 * do. The end index stored on the window's first event is the first event
 * at or after the closing one whose context is the blocked thread; such
 * ends wait here until that event arrives. Open windows live in
 * open_windows.c and waiting ends are chained per blocked thread, so each
 * event costs O(what it closes or completes), whatever is open.
 *
 * A lock owner's priority is its latest one, or, before its first event,
 * the first priority it will have (TraceX reads the trace twice for that).
 * Here a second cursor runs ahead only when such an owner is asked for and
 * only as far as that owner's first event: at most one more walk, usually a
 * short one, instead of a whole first pass. */
#include <stdlib.h>
#include <string.h>

#include "analyze/analyses.h"
#include "analyze/open_windows.h"
#include "util/address_map.h"
#include "analyze/segment_units.h"

#define NO_END UINT32_MAX

typedef struct window {
    bool active;
    uint32_t blocked, blocked_prio, owner, owner_prio;
} window;

/* A window open at a segment's first event, with its slot. */
typedef struct slot_window {
    uint32_t slot;
    window w;
} slot_window;

/* The highest priority of the events a walk let close windows (after the
 * opens and final puts) and one context that had it, and the highest of
 * the events of any other context: enough to tell whether a window of any
 * owner and blocked priority would have been closed. */
typedef struct close_candidates {
    bool any, any_other;
    uint32_t top, top_context, other;
} close_candidates;

/* What a segment's walk did to a slot (touched[]). */
enum {
    SLOT_WANTED = 1,     /* a lock get met the open test before a window there closed */
    SLOT_CLOSED = 2,     /* a window closed */
    SLOT_PUT = 4,        /* a final put */
    SLOT_PUT_FIRST = 8,  /* ... before a window there closed */
    SLOT_OPEN_NEAR = 16, /* a window opened at an event that might close others */
};

/* A window a segment's walk opened: its event's index and its slot. */
typedef struct segment_open {
    uint64_t index;
    uint32_t slot;
} segment_open;

/* A window end a segment's walk wrote (the one of order order_base + its
 * place): the window's slot, how many windows the walk had opened then
 * (the start index it wrote is the last of those's, or the one the walk
 * began with), and whether it was bad. */
typedef struct segment_close {
    uint64_t opens_before;
    uint32_t slot;
    uint8_t bad;
} segment_close;

/* An object a walk has seen and its latest priority. */
typedef struct seen_priority {
    uint32_t object, priority;
} seen_priority;

/* A window end waiting for the blocked thread to run again. */
typedef struct waiting_end {
    uint32_t blocked;
    uint64_t closing_index; /* used when the thread never runs again */
    uint64_t start;
    uint64_t order;
    uint8_t bad;
    bool done;
    uint32_t next; /* next waiting end of the same blocked thread, NO_END */
} waiting_end;

struct trx_inversion_finder {
    const trx_trace *trace;
    uint32_t *prio;    /* per object: latest priority (valid once seen[o]) */
    uint8_t *seen;     /* per object: an event of the walk had it as context */
    uint32_t *first;   /* per object: the trace's first priority, where known (from
                          `ahead`, or given by the part before at a merge) */
    uint32_t *sight;   /* per object: the first priority (not TRX_UNKNOWN) this walk saw */
    int8_t from_start; /* every event before this walk's is accounted for (it was fed
                          the trace's first event, or merged after the part before),
                          so its sight[] values are the trace's first priorities:
                          1 yes, 0 no, -1 to be found (starts_at_trace_start) */
    bool fed_any;
    uint32_t first_entry; /* the entry of the first event fed */
    bool ahead_read_any;
    uint32_t ahead_first_entry; /* ... and of the trace's first event (the look-ahead's) */
    trx_cursor ahead;           /* the look-ahead walk filling `first` */
    bool ahead_started, ahead_done;
    trx_trace *ahead_trace;
    window *windows; /* per object (the mutex's slot) */
    uint32_t active;
    /* while windows are active: a priority no larger than any blocked
     * thread's, and their owner when all have the same (else owners_mixed);
     * bounds that hold until none is active */
    uint32_t min_blocked_prio, one_owner;
    bool owners_mixed;
    /* per thread index: object_or_zero of its address (a per-trace constant) */
    uint32_t *object_of_thread;
    uint32_t thread_count; /* its entries */
    uint64_t start;        /* TraceX keeps one start index for all windows */
    uint64_t inversions, bad;
    trx_open_windows *open;
    waiting_end *waiting;
    uint32_t waiting_count, waiting_cap, waiting_live;
    trx_address_map waiting_by_thread; /* blocked thread -> first waiting end + 1 (0: none) */
    trx_inversion_mark *marks;
    uint32_t mark_count, mark_cap;
    uint64_t order;
    uint64_t order_base; /* `order` at the segment's first event (clear_results) */
    /* a segment's answers at its first event (clear_results): the objects
     * its warm-up saw, ascending, each with its latest priority there */
    seen_priority *at_start;
    uint32_t at_start_count;
    bool at_start_taken; /* (false: none taken, or out of memory) */
    /* ... and its windows there (slot order) */
    slot_window *windows_at_start;
    uint32_t windows_at_start_count;
    /* what a segment's walk from its first event on did that a window of
     * the part before's, other than its own, would have changed: per slot
     * (SLOT_* flags), the events that may close windows, and each window it
     * opened and each window end it wrote, in order, so that the merge can
     * take back those the one walk would not have made (log_failed: a
     * list ran out of memory) */
    bool tracking, log_failed;
    uint8_t *touched;
    close_candidates closers;
    segment_open *opens;
    uint32_t open_count, open_cap;
    segment_close *closes;
    uint32_t close_count, close_cap;
    int oom;
};

static uint32_t object_or_zero(const trx_trace *t, uint32_t address)
{
    int32_t o = trx_trace_find_object(t, address);
    return o < 0 ? 0 : (uint32_t)o;
}

trx_inversion_finder *trx_inversions_new(trx_trace *t)
{
    trx_inversion_finder *f = calloc(1, sizeof *f);
    uint32_t n = t->object_count ? t->object_count : 1;
    if (!f)
        return NULL;
    f->trace = t;
    f->ahead_trace = t;
    f->prio = malloc(n * sizeof *f->prio);
    f->first = malloc(n * sizeof *f->first);
    f->sight = malloc(n * sizeof *f->sight);
    f->seen = calloc(n, 1);
    f->windows = calloc(n, sizeof *f->windows);
    f->open = trx_open_windows_new(n);
    f->object_of_thread = malloc((t->thread_count ? t->thread_count : 1) * sizeof(uint32_t));
    if (!f->prio || !f->first || !f->sight || !f->seen || !f->windows || !f->open ||
        !f->object_of_thread) {
        free(f->object_of_thread);
        free(f->prio);
        free(f->first);
        free(f->sight);
        free(f->seen);
        free(f->windows);
        trx_open_windows_free(f->open);
        free(f);
        return NULL;
    }
    f->thread_count = t->thread_count;
    for (uint32_t i = 0; i < t->thread_count; i++)
        f->object_of_thread[i] = object_or_zero(t, t->threads[i].address);
    memset(f->first, 0xFF, n * sizeof *f->first);
    memset(f->sight, 0xFF, n * sizeof *f->sight);
    f->from_start = -1;
    return f;
}

static bool skipped(const trx_event *ev)
{
    return ev->context >= TRX_CONTEXT_INIT; /* interrupt and initialization */
}

/* Reads one more event of the look-ahead walk (from the trace's start);
 * false at its end. */
static bool ahead_step(trx_inversion_finder *f)
{
    if (!f->ahead_started) {
        f->ahead_started = true;
        if (trx_cursor_init(&f->ahead, f->ahead_trace) < 0) {
            f->oom = 1;
            f->ahead_done = true;
        }
    }
    if (f->ahead_done)
        return false;
    const trx_event *ev = trx_cursor_next_ref(&f->ahead);
    if (!ev) {
        f->ahead_done = true;
        return false;
    }
    if (!f->ahead_read_any) {
        f->ahead_read_any = true;
        f->ahead_first_entry = ev->entry;
    }
    if (!skipped(ev)) {
        uint32_t k = object_or_zero(f->trace, ev->context);
        if (f->first[k] == TRX_UNKNOWN)
            f->first[k] = ev->priority;
    }
    return true;
}

/* Reads the look-ahead walk on until object o's first priority is known or
 * the trace ends. */
static void read_ahead(trx_inversion_finder *f, uint32_t o)
{
    while (f->first[o] == TRX_UNKNOWN && ahead_step(f))
        ;
}

/* Object `o`'s priority now: its latest, or the first it will ever have (the
 * look-ahead walk reads on until that is known). TRX_UNKNOWN if none. */
static uint32_t priority_of(trx_inversion_finder *f, uint32_t o)
{
    if (f->seen[o])
        return f->prio[o];
    read_ahead(f, o);
    return f->first[o];
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

/* Notes, in a segment's walk, the window end of slot m about to be
 * written with order f->order. */
static void note_close(trx_inversion_finder *f, uint32_t m, uint8_t bad)
{
    int failed = 0;
    if (!f->tracking)
        return;
    f->touched[m] |= SLOT_CLOSED;
    f->closes = grow(f->closes, &f->close_cap, f->close_count + 1, sizeof *f->closes, &failed);
    if (f->close_count == f->close_cap) {
        f->log_failed = true;
        return;
    }
    f->closes[f->close_count++] = (segment_close){f->open_count, m, bad};
}

/* Records a window end: it completes when the blocked thread next runs. */
static void close_window(trx_inversion_finder *f, window *w, const trx_event *ev, uint8_t bad)
{
    uint32_t m = (uint32_t)(w - f->windows);
    w->active = false;
    f->active--;
    if (ev->context == w->blocked) {
        note_close(f, m, bad);
        add_mark(f, f->start, ev->index, f->order++, bad);
        return;
    }
    f->waiting =
        grow(f->waiting, &f->waiting_cap, f->waiting_count + 1, sizeof *f->waiting, &f->oom);
    if (f->waiting_count == f->waiting_cap)
        return;
    bool added;
    uint32_t *head = trx_address_map_slot(&f->waiting_by_thread, w->blocked, 0, &added);
    if (!head) {
        f->oom = 1;
        return;
    }
    note_close(f, m, bad);
    f->waiting[f->waiting_count] = (waiting_end){
        w->blocked, ev->index, f->start, f->order++, bad, false, *head ? *head - 1 : NO_END};
    *head = ++f->waiting_count; /* index + 1 */
    f->waiting_live++;
}

/* Completes the waiting ends whose blocked thread is this event's context. */
static void complete_waiting(trx_inversion_finder *f, const trx_event *ev)
{
    uint32_t *head = trx_address_map_find(&f->waiting_by_thread, ev->context);
    if (!head || !*head)
        return;
    for (uint32_t i = *head - 1; i != NO_END; i = f->waiting[i].next) {
        waiting_end *w = &f->waiting[i];
        if (w->done) /* taken back at a merge */
            continue;
        add_mark(f, w->start, ev->index, w->order, w->bad);
        w->done = true;
        f->waiting_live--;
    }
    *head = 0;
}

/* Notes an event of `context` at priority `prio` that may close windows. */
static void note_closer(close_candidates *c, uint32_t context, uint32_t prio)
{
    if (!c->any) {
        *c = (close_candidates){true, false, prio, context, 0};
    } else if (context == c->top_context) {
        c->top = prio > c->top ? prio : c->top;
    } else if (prio > c->top) { /* the old top is the best of the others now */
        c->other = c->any_other && c->other > c->top ? c->other : c->top;
        c->any_other = true;
        c->top = prio;
        c->top_context = context;
    } else {
        c->other = c->any_other && c->other > prio ? c->other : prio;
        c->any_other = true;
    }
}

/* Whether an event noted in c closes a window held by `owner` that blocks
 * a thread of priority `blocked_prio` (trx_open_windows_close_for's test). */
static bool closers_close(const close_candidates *c, uint32_t owner, uint32_t blocked_prio)
{
    if (!c->any)
        return false;
    if (owner != c->top_context)
        return c->top > blocked_prio;
    return c->any_other && c->other > blocked_prio;
}

/* object_or_zero(t, ev->context) for an event of a thread context: its
 * thread's, when the event names a thread at that address. */
static uint32_t context_object(const trx_inversion_finder *f, const trx_event *ev)
{
    const trx_trace *t = f->trace;
    int32_t th = ev->thread;
    if (th >= 0 && (uint32_t)th < f->thread_count && t->threads[th].address == ev->context)
        return f->object_of_thread[th];
    return object_or_zero(t, ev->context);
}

/* Whether an event of `context` at priority `prio` can close an active
 * window (trx_open_windows_close_for's test, on the bounds kept here). */
static bool may_close(const trx_inversion_finder *f, uint32_t context, uint32_t prio)
{
    return f->active && prio > f->min_blocked_prio && (f->owners_mixed || f->one_owner != context);
}

/* Notes a window opened at slot m by `ev` (priority p) in a segment's walk,
 * and whether the event would have gone on to close windows had the
 * slot's window been open already. */
static void note_open(trx_inversion_finder *f, uint32_t m, const trx_event *ev, uint32_t p)
{
    int failed = 0;
    if (may_close(f, ev->context, p))
        f->touched[m] |= SLOT_OPEN_NEAR;
    note_closer(&f->closers, ev->context, p);
    f->opens = grow(f->opens, &f->open_cap, f->open_count + 1, sizeof *f->opens, &failed);
    if (f->open_count == f->open_cap) {
        f->log_failed = true;
        return;
    }
    f->opens[f->open_count++] = (segment_open){ev->index, m};
}

void trx_inversions_feed(trx_inversion_finder *f, const trx_event *ev)
{
    const trx_trace *t = f->trace;
    if (!f->fed_any) {
        f->fed_any = true;
        f->first_entry = ev->entry;
    }
    if (f->waiting_live)
        complete_waiting(f, ev);
    if (skipped(ev) || t->object_count == 0)
        return;
    uint32_t p = ev->priority, c = context_object(f, ev);
    f->prio[c] = p;
    f->seen[c] = 1;
    if (f->sight[c] == TRX_UNKNOWN)
        f->sight[c] = p;
    bool lock = ev->kind == TRX_KIND_LOCK_GET || ev->kind == TRX_KIND_LOCK_PUT;
    uint32_t m = lock ? object_or_zero(t, ev->info[0]) : 0;
    window *w = &f->windows[m]; /* read only for a lock's events */
    if (ev->kind == TRX_KIND_LOCK_GET && ev->info[2] != 0 && ev->info[2] != ev->context) {
        uint32_t owner_prio = priority_of(f, object_or_zero(t, ev->info[2]));
        if (f->tracking && owner_prio != TRX_UNKNOWN && p < owner_prio &&
            !(f->touched[m] & SLOT_CLOSED))
            f->touched[m] |= SLOT_WANTED; /* whether it opens depends on the window */
        if (owner_prio != TRX_UNKNOWN && p < owner_prio && !w->active) {
            if (f->tracking)
                note_open(f, m, ev, p);
            if (trx_open_windows_add(f->open, m, ev->info[2], p) < 0) {
                f->oom = 1;
                return;
            }
            f->inversions++;
            *w = (window){true, ev->context, p, ev->info[2], owner_prio};
            if (f->active++ == 0) {
                f->min_blocked_prio = p;
                f->one_owner = ev->info[2];
                f->owners_mixed = false;
            } else {
                f->min_blocked_prio = p < f->min_blocked_prio ? p : f->min_blocked_prio;
                f->owners_mixed |= ev->info[2] != f->one_owner;
            }
            f->start = ev->index;
            return;
        }
    }
    if (ev->kind == TRX_KIND_LOCK_PUT && ev->info[2] == 1) {
        if (f->tracking)
            f->touched[m] |= f->touched[m] & SLOT_CLOSED ? SLOT_PUT : SLOT_PUT | SLOT_PUT_FIRST;
        if (w->active) {
            trx_open_windows_remove(f->open, m);
            close_window(f, w, ev, 0);
            return;
        }
    }
    if (f->tracking)
        note_closer(&f->closers, ev->context, p);
    if (!may_close(f, ev->context, p) && !trx_open_windows_ask_always)
        return;
    /* Every open window whose owner is not running and whose blocked thread
     * has a higher priority than this event's, in object order. */
    const uint32_t *closed;
    int64_t n = trx_open_windows_close_for(f->open, ev->context, p, &closed);
    if (n < 0) {
        f->oom = 1;
        return;
    }
    for (int64_t k = 0; k < n; k++) {
        f->bad++;
        close_window(f, &f->windows[closed[k]], ev, 1);
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
        if (!f->waiting[i].done)
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
    if (f->ahead_started && !f->ahead_done)
        trx_cursor_free(&f->ahead);
    free(f->first);
    free(f->sight);
    free(f->seen);
    free(f->prio);
    free(f->windows);
    free(f->object_of_thread);
    free(f->waiting);
    free(f->at_start);
    free(f->windows_at_start);
    free(f->touched);
    free(f->opens);
    free(f->closes);
    trx_address_map_free(&f->waiting_by_thread);
    trx_open_windows_free(f->open);
    free(f);
    return oom ? -1 : 0;
}

/* Segments (segment_units.h).
 *
 * State: the open windows (slot, blocked thread and its priority, owner),
 * the start index they share, the window ends waiting for their blocked
 * thread, and what priority_of() answers for each object: its latest
 * priority if the walk has seen it, else its first in the whole trace
 * (the look-ahead reads from the trace's start, also in a segment).
 *
 * Only the waiting ends go into the fingerprint. The rest differs between
 * a segment and the walk from the start in ways that need not matter, and
 * is compared at the merge, where the part before is a walk from the start
 * and the segment has walked its own events (the merge refuses, and the
 * part before walks the segment again, unless the segment's walk was the
 * one walk's):
 *
 * - The answers. A segment has seen only the objects of its warm-up, the
 *   walk from the start every object so far: they answer the same when
 *   each object that one saw and the other did not has its first priority
 *   in the trace as its latest. The walk from the start knows those first
 *   priorities (the first it saw); a segment would need a look-ahead from
 *   the trace's start as far as the object's first event (on a 10 M-entry
 *   trace, millions of events). So the segment keeps the objects its
 *   warm-up saw with their priorities at its first event (at_start), and
 *   the merge compares every object's answer.
 * - The windows. A window opened long before the warm-up and never closed
 *   (its owner never puts the mutex, no lower-priority thread runs) is
 *   open in the walk from the start only: where it is, that walk's lock
 *   gets of its mutex open nothing, while the segment's may open windows
 *   (and see them closed, and write their ends). The segment's walk does
 *   not know which slots are so, and the merge decides it per slot whose
 *   window differs at the segment's first event (slot_fate): the part
 *   before's window stays open through the segment if the segment never
 *   put its mutex finally and ran no event that closes it
 *   (close_candidates); then every window the segment opened there (if no
 *   event of those opens might have closed another window) and every end
 *   it wrote there is taken back, and the slot keeps the part before's
 *   window. A window of the segment's alone at its first event is taken
 *   back (or its end, when it closed at an event that closes windows) if
 *   no lock get of its mutex met the open test and no final put came while
 *   it was open. Anything else refuses. For that the segment logs each
 *   window it opens and each end it writes (undo_windows).
 * - The start index. It is read when a window end is written: each end
 *   the segment wrote gets, at the merge, the index of the last window it
 *   opened that stays, or, before any, the part before's start; so does
 *   the merged walk.
 *
 * The merge hands the part before's knowledge of first priorities on (with
 * what the segment itself saw first), so the merged walk knows them as the
 * walk from the start does, for the next merge.
 *
 * Results: the counts and the marks (window ends written), added and joined
 * at the merge. `order` (the marks' write order; the last write per start
 * event wins) is state relative to its value at the boundary. A window end
 * waiting at the boundary becomes a mark in the segment that completes it. */
enum { FP_INV_WAITING = 0x49505234u };

/* Whether f was fed from the trace's first event on (or merged after the
 * part before): its first event's entry is the look-ahead's first (a
 * segment's warm-up starts on a later entry, or on a RUNNING event
 * inserted, which has no entry). Found once. */
static bool starts_at_trace_start(trx_inversion_finder *f)
{
    if (f->from_start < 0) {
        if (f->fed_any && !f->ahead_read_any)
            ahead_step(f);
        f->from_start = f->fed_any && f->ahead_read_any && f->first_entry != UINT32_MAX &&
                        f->first_entry == f->ahead_first_entry;
    }
    return f->from_start == 1;
}

/* The trace's first priority of object o (TRX_UNKNOWN: it has none), if f
 * knows it without reading further. */
static bool known_first(trx_inversion_finder *f, uint32_t o, uint32_t *v)
{
    if (f->first[o] != TRX_UNKNOWN) {
        *v = f->first[o];
        return true;
    }
    if (f->sight[o] != TRX_UNKNOWN && starts_at_trace_start(f)) {
        *v = f->sight[o];
        return true;
    }
    *v = TRX_UNKNOWN;
    return f->ahead_done;
}

void trx_inversions_fingerprint(const trx_inversion_finder *f, const trx_trace *t,
                                trx_fingerprint *fp, uint64_t base)
{
    /* the answers, windows and start are compared at the merge */
    (void)t;
    for (uint32_t i = 0; i < f->waiting_count; i++) {
        const waiting_end *w = &f->waiting[i];
        if (w->done)
            continue;

        const uint64_t row[5] = {w->blocked, w->closing_index - base, w->start - base,
                                 w->order - f->order, w->bad};
        trx_fp_add(fp, FP_INV_WAITING, row, 5);
    }
}

/* Keeps what segment f's priority_of() answers at its first event (the
 * objects seen and their latest priorities: at_start), its windows and
 * start there, and starts noting what its walk does (tracking). */
static void keep_state_at_start(trx_inversion_finder *f)
{
    uint32_t n = f->trace->object_count, count = 0;
    for (uint32_t o = 0; o < n; o++)
        count += f->seen[o];
    free(f->at_start);
    f->at_start = malloc((count ? count : 1) * sizeof *f->at_start);
    f->at_start_taken = f->at_start != NULL;
    f->at_start_count = 0;
    for (uint32_t o = 0; f->at_start && o < n; o++)
        if (f->seen[o])
            f->at_start[f->at_start_count++] = (seen_priority){o, f->prio[o]};
    free(f->windows_at_start);
    f->windows_at_start = malloc((f->active ? f->active : 1) * sizeof *f->windows_at_start);
    f->windows_at_start_count = 0;
    for (uint32_t m = 0; f->windows_at_start && f->active && m < n; m++)
        if (f->windows[m].active)
            f->windows_at_start[f->windows_at_start_count++] = (slot_window){m, f->windows[m]};
    free(f->touched);
    f->touched = calloc(n ? n : 1, 1);
    f->at_start_taken &= f->windows_at_start && f->touched;
    f->tracking = f->touched != NULL;
    f->log_failed = false;
    f->open_count = f->close_count = 0;
    f->closers = (close_candidates){0};
}

/* Object o's first priority in the trace, as the walk from the start
 * `whole` or the segment `seg` knows it (seg's look-ahead is the trace's
 * too), if either does. */
static bool either_first(trx_inversion_finder *whole, const trx_inversion_finder *seg, uint32_t o,
                         uint32_t *v)
{
    if (known_first(whole, o, v))
        return true;
    *v = seg->first[o];
    return seg->first[o] != TRX_UNKNOWN || seg->ahead_done;
}

/* Whether windows x and y are the same state of a slot. */
static bool same_window(const window *x, const window *y)
{
    if (!x->active || !y->active)
        return x->active == y->active;
    return x->blocked == y->blocked && x->blocked_prio == y->blocked_prio && x->owner == y->owner;
}

/* What the merge does with a slot whose window differs between segment l
 * at its first event (y) and the walk from the start (x). */
enum { SLOT_REFUSE, SLOT_TAKE, SLOT_UNDO_ALL, SLOT_UNDO_FIRST_CLOSE, SLOT_FIRST_CLOSE_UNDONE };

/* x open: SLOT_UNDO_ALL when x stays open through l's walk (no final put
 * of the mutex, no event that closes it) and no window l opened there was
 * opened by an event that might have closed another: in the one walk the
 * slot is x throughout, its lock gets open nothing and go on as events
 * that close nothing; so every window l opened there, and every window end
 * l wrote there (y's or those windows'), is taken back, and the slot's
 * window after l is x. x closed (y open): SLOT_TAKE when l's walk did not
 * touch the slot while y was open (no lock get met the open test, no final
 * put; it never closed): the slot's window after l is x's (none);
 * SLOT_UNDO_FIRST_CLOSE when, so untouched, y closed at an event that
 * closes windows: its end is taken back, and from then on l's walk of the
 * slot is the one walk's (the window after l is l's). */
static int slot_fate(const trx_inversion_finder *l, uint32_t m, const window *x)
{
    uint8_t did = l->touched[m];
    if (x->active) {
        if ((did & (SLOT_PUT | SLOT_OPEN_NEAR)) ||
            closers_close(&l->closers, x->owner, x->blocked_prio))
            return SLOT_REFUSE;
        return SLOT_UNDO_ALL;
    }
    if (did & (SLOT_WANTED | SLOT_PUT_FIRST))
        return SLOT_REFUSE;
    return did & SLOT_CLOSED ? SLOT_UNDO_FIRST_CLOSE : SLOT_TAKE;
}

/* The window segment l had at slot m at its first event (an inactive one
 * if none); *k walks l's list of them, in slot order, as m ascends. */
static const window *window_at_start(const trx_inversion_finder *l, uint32_t m, uint32_t *k)
{
    static const window none;
    if (*k < l->windows_at_start_count && l->windows_at_start[*k].slot == m)
        return &l->windows_at_start[(*k)++].w;
    return &none;
}

/* Into fates[m] (object_count of them): slot m's fate (slot_fate) where
 * segment l's window at its first event differs from the walk from the
 * start e's, SLOT_TAKE elsewhere; false if one is SLOT_REFUSE. */
static bool slot_fates(const trx_inversion_finder *l, const trx_inversion_finder *e,
                       const trx_trace *t, uint8_t *fates)
{
    uint32_t k = 0;
    for (uint32_t m = 0; m < t->object_count; m++) {
        const window *x = &e->windows[m], *y = window_at_start(l, m, &k);
        fates[m] = same_window(x, y) ? SLOT_TAKE : (uint8_t)slot_fate(l, m, x);
        if (fates[m] == SLOT_REFUSE)
            return false;
    }
    return true;
}

/* Takes back what merged segment l's walk did that the one walk would not
 * have (slot_fate; l's event numbers and orders are e's already, its own
 * window ends those of order e->order on): the windows it opened at a
 * SLOT_UNDO_ALL slot (not inversions), the window ends it wrote there and
 * the first at a SLOT_UNDO_FIRST_CLOSE slot (neither marks, nor waiting,
 * nor bad; the others' orders close up). Every other end it wrote gets the
 * start index of the one walk then: the index of the last window opened
 * that stays, or, before any, e's start; so does l. 0, or -1 out of memory. */
static int undo_windows(trx_inversion_finder *l, const trx_inversion_finder *e, uint8_t *fates,
                        uint64_t offset)
{
    uint64_t *start_after = malloc(((size_t)l->open_count + 1) * sizeof *start_after);
    uint64_t *new_order = malloc((l->close_count ? l->close_count : 1) * sizeof *new_order);
    if (!start_after || !new_order) {
        free(start_after);
        free(new_order);
        return -1;
    }
    start_after[0] = e->start;
    for (uint32_t i = 0; i < l->open_count; i++) {
        bool undone = fates[l->opens[i].slot] == SLOT_UNDO_ALL;
        start_after[i + 1] = undone ? start_after[i] : l->opens[i].index + offset;
        l->inversions -= undone;
    }
    uint64_t kept = 0;
    for (uint32_t i = 0; i < l->close_count; i++) {
        const segment_close *c = &l->closes[i];
        bool undone = fates[c->slot] == SLOT_UNDO_ALL || fates[c->slot] == SLOT_UNDO_FIRST_CLOSE;
        if (fates[c->slot] == SLOT_UNDO_FIRST_CLOSE)
            fates[c->slot] = SLOT_FIRST_CLOSE_UNDONE; /* the slot's later ends stay */
        new_order[i] = undone ? UINT64_MAX : e->order + kept++;
        l->bad -= undone && c->bad;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < l->mark_count; i++) {
        trx_inversion_mark mk = l->marks[i];
        if (mk.order >= e->order) {
            uint64_t c = mk.order - e->order;
            if (new_order[c] == UINT64_MAX)
                continue;
            mk.start = start_after[l->closes[c].opens_before];
            mk.order = new_order[c];
        }
        l->marks[n++] = mk;
    }
    l->mark_count = n;
    for (uint32_t i = 0; i < l->waiting_count; i++) {
        waiting_end *w = &l->waiting[i];
        if (w->done || w->order < e->order)
            continue;
        uint64_t c = w->order - e->order;
        if (new_order[c] == UINT64_MAX) {
            w->done = true;
            l->waiting_live--;
            continue;
        }
        w->start = start_after[l->closes[c].opens_before];
        w->order = new_order[c];
    }
    l->order = e->order + kept;
    l->start = start_after[l->open_count];
    free(start_after);
    free(new_order);
    return 0;
}

/* Makes merged segment l's windows e's where they differed at l's first
 * event, but for SLOT_UNDO_FIRST_CLOSE slots (fates: slot_fates', after
 * undo_windows). 0, or -1 out of memory. */
static int adopt_windows(trx_inversion_finder *l, const trx_inversion_finder *e, const trx_trace *t,
                         const uint8_t *fates)
{
    uint32_t k = 0;
    bool added = false, was_active;
    for (uint32_t m = 0; m < t->object_count; m++) {
        const window *x = &e->windows[m], *y = window_at_start(l, m, &k);
        if (same_window(x, y) || fates[m] == SLOT_FIRST_CLOSE_UNDONE)
            continue;
        if (l->windows[m].active) {
            trx_open_windows_remove(l->open, m);
            l->active--;
        }
        was_active = l->active > 0;
        if (x->active) {
            if (trx_open_windows_add(l->open, m, x->owner, x->blocked_prio) < 0)
                return -1;
            l->active++;
            if (!added && !was_active) { /* e's bounds hold for its windows */
                l->min_blocked_prio = e->min_blocked_prio;
                l->one_owner = e->one_owner;
                l->owners_mixed = e->owners_mixed;
            } else if (!added) { /* ... and l's for its own */
                l->min_blocked_prio = e->min_blocked_prio < l->min_blocked_prio
                                          ? e->min_blocked_prio
                                          : l->min_blocked_prio;
                l->owners_mixed |= e->owners_mixed || e->one_owner != l->one_owner;
            }
            added = true;
        }
        l->windows[m] = *x;
    }
    return 0;
}

/* Whether priority_of() answers the same for every object in segment l at
 * its first event (at_start) as in `e`, the walk from the trace's start at
 * its end: an object both saw has the same latest priority there; one only
 * one of them saw has its first priority in the trace as its latest. */
static bool same_answers(trx_inversion_finder *l, trx_inversion_finder *e, const trx_trace *t)
{
    if (t->format != TRX_TRACE_TXTB)
        return true; /* only a TXTB trace has MUTEX_GETs, the one use of the priorities */
    if (!l->at_start_taken || !starts_at_trace_start(e))
        return false;
    uint32_t k = 0;
    for (uint32_t o = 0; o < t->object_count; o++) {
        bool in_l = k < l->at_start_count && l->at_start[k].object == o;
        uint32_t lp = in_l ? l->at_start[k++].priority : 0, first;
        if (in_l && e->seen[o]) {
            if (lp != e->prio[o])
                return false;
        } else if (in_l || e->seen[o]) {
            if (!either_first(e, l, o, &first) || first != (in_l ? lp : e->prio[o]))
                return false;
        }
    }
    return true;
}

void trx_inversions_clear_results(trx_inversion_finder *f)
{
    f->inversions = f->bad = 0;
    f->mark_count = 0;
    f->order_base = f->order;
    keep_state_at_start(f);
    /* the warm-up's first sights are the trace's only if it started there */
    if (starts_at_trace_start(f))
        for (uint32_t o = 0; o < f->trace->object_count; o++)
            if (f->first[o] == TRX_UNKNOWN)
                f->first[o] = f->sight[o];
    f->from_start = 0;
}

/* trx_inversions_merge once it holds (fates: slot_fates'). */
static int merge_into_later(trx_inversion_finder *l, trx_inversion_finder *e, const trx_trace *t,
                            uint64_t offset, uint8_t *fates)
{
    /* later's marks and waiting ends into the trace's numbering and order */
    uint64_t order_delta = e->order - l->order_base;
    l->order += order_delta;
    for (uint32_t i = 0; i < l->waiting_count; i++) {
        l->waiting[i].closing_index += offset;
        l->waiting[i].start += offset;
        l->waiting[i].order += order_delta;
    }
    for (uint32_t i = 0; i < l->mark_count; i++) {
        l->marks[i].start += offset;
        l->marks[i].end += offset;
        l->marks[i].order += order_delta;
    }
    if (undo_windows(l, e, fates, offset) < 0)
        return -1;
    /* the marks: earlier's, then later's */
    uint32_t total = e->mark_count + l->mark_count;
    if (total > l->mark_cap) {
        trx_inversion_mark *m = realloc(l->marks, (size_t)total * sizeof *m);
        if (!m)
            return -1;
        l->marks = m;
        l->mark_cap = total;
    }
    if (e->mark_count) {
        memmove(l->marks + e->mark_count, l->marks, l->mark_count * sizeof *l->marks);
        memcpy(l->marks, e->marks, e->mark_count * sizeof *l->marks);
    }
    l->mark_count = total;
    l->inversions += e->inversions;
    l->bad += e->bad;
    l->oom |= e->oom;
    /* first priorities: earlier, fed from the trace's start, knows those of
     * every object with a priority before the boundary; an object it does
     * not know had none there, so the first later saw of it (in the
     * segment) is the trace's first */
    bool whole = starts_at_trace_start(e);
    for (uint32_t o = 0; o < t->object_count; o++) {
        uint32_t v;
        if (l->first[o] != TRX_UNKNOWN)
            continue;
        if (known_first(e, o, &v))
            l->first[o] = v;
        else if (whole)
            l->first[o] = l->sight[o];
    }
    l->from_start = whole;
    l->tracking = false; /* l is the walk from the start now */
    return adopt_windows(l, e, t, fates);
}

int trx_inversions_merge(trx_inversion_finder *later, trx_inversion_finder *earlier,
                         const trx_trace *t, uint64_t offset)
{
    trx_inversion_finder *l = later, *e = earlier;
    uint8_t *fates = malloc(t->object_count ? t->object_count : 1);
    if (!fates)
        return -1;
    /* (every window end l wrote was logged: l->order - order_base of them) */
    if (!l->at_start_taken || l->log_failed || l->close_count != l->order - l->order_base ||
        !slot_fates(l, e, t, fates) || !same_answers(l, e, t)) {
        free(fates);
        return TRX_MERGE_REFUSED;
    }
    int rc = merge_into_later(l, e, t, offset, fates);
    free(fates);
    return rc;
}

void trx_inversions_discard(trx_inversion_finder *a)
{
    trx_stats s = {0};
    trx_inversions_finish(a, &s);
    trx_stats_free(&s);
}
