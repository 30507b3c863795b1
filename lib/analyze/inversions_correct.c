/* inversions_correct.c - priority inversions as they happened (correct mode,
 * docs/analyses.md): a thread W that blocks on a lock held by a thread H of
 * lower priority opens a window, its own; the window ends at W's first event
 * after blocking (it got the lock or gave up). Locks are mutexes (the holder
 * is the GET's owner field) and semaphores used as locks (a GET that takes
 * the last count makes its thread the holder until a PUT). Under priority
 * inheritance W's GET raises H first: an INTERNAL SUSPEND / RESUME pair of H
 * (state TX_PRIORITY_CHANGE) in W's context comes before W's own SUSPEND,
 * and H's raised priority shows in H's own events; a THREAD PRIORITY
 * CHANGE event sets the priority of the thread it names. A window is
 * unbounded when a thread other than H with lower priority than W runs
 * inside it. Open windows live in open_windows.c keyed by the waiter, so an
 * event costs O(priority levels in use + what it marks), whatever is open;
 * ran_inside.c lists every such thread (up to TRX_RAN_INSIDE_MAX). */
#include <stdlib.h>
#include <string.h>

#include "analyze/analyses.h"
#include "analyze/open_windows.h"
#include "analyze/ran_inside.h"
#include "decode/object_table.h"
#include "util/address_map.h"
#include "analyze/segment_units.h"

enum { IDLE_STATE = 0, PENDING, OPEN };

/* What one waiting thread is doing. */
typedef struct waiter_slot {
    uint8_t state;
    bool in_set;      /* still in the open-window set (not yet unbounded) */
    uint32_t item;    /* the window's number (its place in the list) while OPEN */
    trx_inversion at; /* the window being opened (PENDING), then open (OPEN) */
} waiter_slot;

/* A window beyond those kept, held until a segment's merge (24 bytes). */
typedef struct held_band {
    uint64_t start_index, end_index;
    uint32_t number; /* the walk's own */
    bool unbounded;
} held_band;

struct trx_correct_inversions {
    const trx_trace *trace;
    uint32_t *thread_prio; /* per thread index: latest priority, TRX_UNKNOWN: none yet */
    uint32_t thread_count;
    trx_address_map prio;     /* the same for addresses that are no thread */
    trx_address_map sem_hold; /* semaphore -> holder + 1 (0: none) */
    uint32_t *slot_by_thread; /* waiter's first thread index -> slot + 1 (0: none) */
    trx_address_map slot_of;  /* waiter of no thread index -> slot */
    waiter_slot *slots;       /* grown as threads wait (allocated: slot_alloc) */
    uint32_t slot_count, slot_alloc, slot_cap; /* slot_cap: at most one per thread */
    trx_open_windows *open;
    uint32_t open_count, pending_count; /* slots OPEN, PENDING */
    /* the windows in `open` (not yet unbounded): how many, a priority no
     * larger than any of their waiters', and their holder when all have
     * the same (else holders_mixed); both bounds hold until the set empties */
    uint32_t set_count, set_min_prio, set_holder;
    bool holders_mixed;
    trx_ran_inside *ran;  /* the threads that ran inside each window */
    uint32_t last_thread; /* context of the last thread event (a run starts when it changes) */
    trx_inversion *list;  /* windows 0 .. keep - 1, each stored when it ends */
    uint32_t count, cap;  /* windows opened; list entries allocated */
    uint32_t keep;        /* windows stored (UINT32_MAX: all); the others go to `done` */
    trx_inversion_done_fn done;
    void *done_ctx;
    bool deferring;  /* the others held in `held` instead (a segment's walk) */
    held_band *held; /* their bands, in the order they ended */
    uint32_t held_n, held_cap;
    uint64_t unbounded;              /* windows found unbounded */
    uint64_t last_index, last_ticks; /* the end of windows open at the end */
    uint32_t boundary_open;          /* segments: windows open at the segment's start */
    int oom;
};

trx_correct_inversions *trx_correct_inversions_new(const trx_trace *t)
{
    trx_correct_inversions *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    /* a thread waits on one lock at a time: one slot per context address */
    f->slot_cap = t->thread_count + 1;
    f->trace = t;
    f->thread_count = t->thread_count;
    f->thread_prio = malloc((t->thread_count ? t->thread_count : 1) * sizeof *f->thread_prio);
    f->slot_by_thread = calloc(t->thread_count ? t->thread_count : 1, sizeof *f->slot_by_thread);
    f->open = trx_open_windows_new(f->slot_cap);
    f->ran = trx_ran_inside_new(t->thread_count);
    if (!f->thread_prio || !f->slot_by_thread || !f->open || !f->ran) {
        free(f->thread_prio);
        free(f->slot_by_thread);
        free(f->slots);
        trx_open_windows_free(f->open);
        trx_ran_inside_free(f->ran);
        free(f);
        return NULL;
    }
    for (uint32_t i = 0; i < f->thread_count; i++)
        f->thread_prio[i] = TRX_UNKNOWN;
    f->keep = UINT32_MAX;
    return f;
}

void trx_correct_inversions_keep(trx_correct_inversions *f, uint32_t keep,
                                 trx_inversion_done_fn done, void *ctx)
{
    f->keep = keep;
    f->done = done;
    f->done_ctx = ctx;
}

/* The inversion of the window open in slot `key` (ran_inside.c's accessor). */
static trx_inversion *window_of(void *ctx, uint32_t key)
{
    return &((trx_correct_inversions *)ctx)->slots[key].at;
}

/* The band of window number `item` beyond those kept: held (deferring), or
 * told to `done`. */
static void hand(trx_correct_inversions *f, const trx_inversion_band *b, uint32_t item)
{
    if (!f->deferring) {
        if (f->done)
            f->done(f->done_ctx, b, item);
        return;
    }
    if (f->held_n == f->held_cap) {
        uint32_t n = f->held_cap ? f->held_cap * 2 : 256;
        held_band *p = n > f->held_cap ? realloc(f->held, (size_t)n * sizeof *p) : NULL;
        if (!p) {
            f->oom = 1;
            return;
        }
        f->held = p;
        f->held_cap = n;
    }
    f->held[f->held_n++] = (held_band){b->start_index, b->end_index, item, b->unbounded};
}

/* Window `v` (number `item`) is complete: into the list, or handed on. */
static void store(trx_correct_inversions *f, const trx_inversion *v, uint32_t item)
{
    f->unbounded += v->unbounded;
    if (item >= f->keep) {
        hand(f, &(trx_inversion_band){v->start_index, v->end_index, v->unbounded}, item);
        return;
    }
    if (item >= f->cap) {
        uint32_t n = f->cap ? f->cap * 2 : 16;
        while (n <= item)
            n *= 2;
        trx_inversion *p = realloc(f->list, (size_t)n * sizeof *p);
        if (!p) {
            f->oom = 1;
            return;
        }
        f->list = p;
        f->cap = n;
    }
    f->list[item] = *v;
}

static bool is_thread(uint32_t ctx)
{
    return ctx != TRX_CONTEXT_IDLE && ctx != TRX_CONTEXT_ISR && ctx != TRX_CONTEXT_INIT;
}

/* Notes `prio` as the latest priority of `address` (thread index `th`, -1:
 * look it up); -1 when out of memory. */
static int set_prio(trx_correct_inversions *f, uint32_t address, int32_t th, uint32_t prio)
{
    if (th < 0)
        th = trx_thread_for_context(f->trace, address);
    if (th >= 0 && (uint32_t)th < f->thread_count) {
        f->thread_prio[th] = prio;
        return 0;
    }
    return trx_address_map_put(&f->prio, address, prio);
}

/* The latest priority of `address`; false when none was seen. */
static bool get_prio(const trx_correct_inversions *f, uint32_t address, uint32_t *prio)
{
    int32_t th = trx_thread_for_context(f->trace, address);
    if (th >= 0 && (uint32_t)th < f->thread_count) {
        *prio = f->thread_prio[th];
        return *prio != TRX_UNKNOWN;
    }
    return trx_address_map_get(&f->prio, address, prio);
}

/* The first thread at `ev`'s context (one index per address), or -1. */
static int32_t waiter_index(const trx_correct_inversions *f, const trx_event *ev)
{
    int32_t th = trx_event_first_thread(f->trace, ev);
    return th >= 0 && (uint32_t)th < f->thread_count ? th : -1;
}

/* The slot of the waiter `ev`'s context (its index in *index); NULL when
 * it has none. */
static inline waiter_slot *find_slot(const trx_correct_inversions *f, const trx_event *ev,
                                     uint32_t *index)
{
    int32_t th = waiter_index(f, ev);
    uint32_t ref;
    if (th >= 0)
        ref = f->slot_by_thread[th];
    else if (!trx_address_map_get(&f->slot_of, ev->context, &ref))
        ref = 0;
    if (!ref)
        return NULL;
    *index = ref - 1;
    return &f->slots[*index];
}

/* A new slot for the waiter `ev`'s context (which has none); NULL when the
 * table is full or out of memory. */
static __attribute__((noinline)) waiter_slot *new_slot(trx_correct_inversions *f,
                                                       const trx_event *ev, uint32_t *index)
{
    if (f->slot_count == f->slot_cap)
        return NULL;
    if (f->slot_count == f->slot_alloc) {
        uint32_t cap = f->slot_alloc ? f->slot_alloc + f->slot_alloc / 2 : 16;
        waiter_slot *n = realloc(f->slots, (size_t)cap * sizeof *n);
        if (!n) {
            f->oom = 1;
            return NULL;
        }
        f->slots = n;
        f->slot_alloc = cap;
    }
    int32_t th = waiter_index(f, ev);
    if (th >= 0)
        f->slot_by_thread[th] = f->slot_count + 1;
    else if (trx_address_map_put(&f->slot_of, ev->context, f->slot_count + 1) < 0) {
        f->oom = 1;
        return NULL;
    }
    memset(&f->slots[f->slot_count], 0, sizeof *f->slots);
    *index = f->slot_count;
    return &f->slots[f->slot_count++];
}

/* A blocking GET by `ev`'s thread on `lock` held by `holder`: remembered
 * until the thread's next event shows whether it really suspended. */
static void maybe_pending(trx_correct_inversions *f, const trx_event *ev, uint32_t lock,
                          uint8_t type, uint32_t holder)
{
    uint32_t hp, k;
    if (holder == 0 || holder == ev->context || !is_thread(holder) || !get_prio(f, holder, &hp) ||
        ev->priority >= hp)
        return;
    waiter_slot *s = find_slot(f, ev, &k);
    if (!s)
        s = new_slot(f, ev, &k);
    if (!s || s->state == OPEN)
        return;
    f->pending_count += s->state == IDLE_STATE;
    s->state = PENDING;
    s->at = (trx_inversion){.waiter = ev->context,
                            .waiter_priority = ev->priority,
                            .lock = lock,
                            .lock_type = type,
                            .holder = holder,
                            .holder_priority = hp,
                            .start_index = ev->index,
                            .start_ticks = ev->ticks};
}

/* The waiter's own event: confirms a pending window (its SUSPEND) or ends
 * an open one. */
static void waiter_event(trx_correct_inversions *f, const trx_event *ev)
{
    uint32_t k;
    waiter_slot *s = find_slot(f, ev, &k);
    if (!s || s->state == IDLE_STATE)
        return;
    if (s->state == PENDING) {
        if ((ev->kind == TRX_KIND_RESUME || ev->kind == TRX_KIND_SUSPEND) &&
            ev->subject != ev->context)
            return; /* the holder's priority raised inside the GET: still pending */
        s->state = IDLE_STATE;
        f->pending_count--;
        if (ev->kind != TRX_KIND_SUSPEND || ev->subject != ev->context)
            return; /* the GET did not block */
        if (f->count == UINT32_MAX ||
            trx_open_windows_add(f->open, k, s->at.holder, s->at.waiter_priority) < 0 ||
            trx_ran_inside_open(f->ran, &s->at, k) < 0) {
            f->oom = 1;
            return;
        }
        s->item = f->count++;
        s->state = OPEN;
        s->in_set = true;
        f->open_count++;
        if (f->set_count++ == 0) {
            f->set_min_prio = s->at.waiter_priority;
            f->set_holder = s->at.holder;
            f->holders_mixed = false;
        } else {
            if (s->at.waiter_priority < f->set_min_prio)
                f->set_min_prio = s->at.waiter_priority;
            f->holders_mixed |= s->at.holder != f->set_holder;
        }
        return;
    }
    trx_inversion *w = &s->at;
    w->end_index = ev->index;
    w->end_ticks = ev->ticks;
    w->closed = true;
    if (s->in_set) {
        trx_open_windows_remove(f->open, k);
        f->set_count--;
    }
    trx_ran_inside_close(f->ran, k);
    store(f, w, s->item);
    s->state = IDLE_STATE;
    f->open_count--;
}

/* The kinds the feed looks at beyond the event's context and priority
 * (bits of a uint64_t; any kind >= 64 is none of them). */
#define KIND_BIT(k) (1ull << (k))
#define LOCK_KINDS                                                                                 \
    (KIND_BIT(TRX_KIND_SEM_PUT) | KIND_BIT(TRX_KIND_SEM_GET) | KIND_BIT(TRX_KIND_LOCK_GET) |       \
     KIND_BIT(TRX_KIND_PRIORITY_CHANGE))

static bool is_lock_kind(uint32_t kind)
{
    return kind < 64 && (LOCK_KINDS >> kind & 1);
}

/* Whether an event of `ctx` at priority `prio` can close (make unbounded)
 * any window of the set: false when none has a waiter of a higher
 * priority, or all are held by ctx (trx_open_windows_close_for's test, on
 * the bounds kept here). */
static bool may_close(const trx_correct_inversions *f, uint32_t ctx, uint32_t prio)
{
    return f->set_count && prio > f->set_min_prio && (f->holders_mixed || f->set_holder != ctx);
}

/* A semaphore's PUT, from any context: its count is non-zero, no holder. */
static inline void sem_put(trx_correct_inversions *f, const trx_event *ev)
{
    uint32_t *h = trx_address_map_find(&f->sem_hold, ev->info[0]);
    if (h)
        *h = 0;
}

/* The feed of an event of a thread context off the common path of
 * trx_correct_inversions_feed. */
static __attribute__((noinline)) void feed_event(trx_correct_inversions *f, const trx_event *ev)
{
    uint32_t ctx = ev->context;
    if (ev->kind == TRX_KIND_SEM_PUT)
        sem_put(f, ev);
    if (f->oom)
        return;
    if (set_prio(f, ctx, ev->thread, ev->priority) < 0 ||
        (ev->kind == TRX_KIND_PRIORITY_CHANGE &&
         ev->info[0] != 0 && /* PRIORITY_CHANGE: info1 thread, info2 new */
         set_prio(f, ev->info[0], -1, ev->info[1]) < 0)) {
        f->oom = 1;
        return;
    }
    if (f->pending_count || f->open_count)
        waiter_event(f, ev);
    switch (ev->kind) {
    case TRX_KIND_LOCK_GET: /* MUTEX_GET: info1 mutex, info2 wait option, info3 owner */
        if (ev->info[1] != 0)
            maybe_pending(f, ev, ev->info[0], TRX_LOCK_MUTEX, ev->info[2]);
        break;
    case TRX_KIND_SEM_GET: { /* SEMAPHORE_GET: info1 semaphore, info2 wait option, info3 count */
        bool added;
        uint32_t *h = trx_address_map_slot(&f->sem_hold, ev->info[0], 0, &added);
        if (!h) {
            f->oom = 1;
            return;
        }
        if (ev->info[2] == 1)
            *h = ctx + 1u; /* takes the last count: holds it */
        else if (ev->info[2] == 0 && ev->info[1] != 0 && *h != 0)
            maybe_pending(f, ev, ev->info[0], TRX_LOCK_SEMAPHORE, *h - 1u);
        break;
    }
    default:
        break;
    }
    if (f->open_count == 0) {
        f->last_thread = ctx;
        return;
    }
    if (ctx != f->last_thread) { /* a run of ctx starts */
        f->last_thread = ctx;
        if (trx_ran_inside_run(f->ran, window_of, f, ctx, waiter_index(f, ev), ev->priority) < 0) {
            f->oom = 1;
            return;
        }
    }
    if (!may_close(f, ctx, ev->priority) && !trx_open_windows_ask_always)
        return;
    const uint32_t *marked;
    int64_t n = trx_open_windows_close_for(f->open, ctx, ev->priority, &marked);
    if (n < 0) {
        f->oom = 1;
        return;
    }
    f->set_count -= (uint32_t)n;
    for (int64_t i = 0; i < n; i++) {
        waiter_slot *s = &f->slots[marked[i]];
        s->in_set = false;
        s->at.unbounded = true;
        s->at.ran_inside = ctx;
        if (trx_ran_inside_list(&s->at, ctx))
            trx_ran_inside_close(f->ran, marked[i]);
    }
}

void trx_correct_inversions_feed(trx_correct_inversions *f, const trx_event *ev)
{
    f->last_index = ev->index;
    f->last_ticks = ev->ticks;
    /* the common paths: an event of no thread context matters only as a
     * semaphore's PUT, and while no window is pending or open a thread's
     * event of no lock only notes its priority (and the run) */
    uint32_t ctx = ev->context;
    if (!is_thread(ctx)) {
        if (ev->kind == TRX_KIND_SEM_PUT)
            sem_put(f, ev);
        return;
    }
    int32_t th = ev->thread;
    if (!f->pending_count && !f->open_count && !f->oom && !is_lock_kind(ev->kind) && th >= 0 &&
        (uint32_t)th < f->thread_count) {
        f->thread_prio[th] = ev->priority;
        f->last_thread = ctx;
        return;
    }
    feed_event(f, ev);
}

int trx_correct_inversions_finish(trx_correct_inversions *f, trx_stats *s)
{
    for (uint32_t i = 0; i < f->slot_count; i++)
        if (f->slots[i].state == OPEN) { /* still blocked: ends with the trace */
            f->slots[i].at.end_index = f->last_index;
            f->slots[i].at.end_ticks = f->last_ticks;
            store(f, &f->slots[i].at, f->slots[i].item);
        }
    s->inversion_list = f->list;
    s->inversion_count = f->count < f->keep ? f->count : f->keep;
    s->inversions = f->count;
    s->bad_inversions = f->unbounded;
    int oom = f->oom;
    trx_address_map_free(&f->prio);
    free(f->thread_prio);
    free(f->slot_by_thread);
    trx_address_map_free(&f->sem_hold);
    trx_address_map_free(&f->slot_of);
    free(f->slots);
    trx_open_windows_free(f->open);
    trx_ran_inside_free(f->ran);
    free(f->held);
    free(f);
    return oom ? -1 : 0;
}

/* Segments (segment_units.h). The state: every priority known (threads and
 * other addresses), every semaphore's holder, each waiter's pending or open
 * window (its fields, and for an open one its rank in opening order, which
 * is its place in the list), the last thread context and the last event
 * (the end of windows still open at the trace's end). Slots, open_windows.c's
 * buckets and the window numbers are the walk's own and are renumbered at
 * the merge. ran_inside.c's watermarks (each thread's last run start) matter
 * only against the windows still listening, and both walks saw every event
 * since the oldest of those opened when both hold it: equal windows, equal
 * watermarks. The number of windows kept whole enters too: the merge needs
 * both walks to keep the same (a window the later walk held as a band only
 * cannot join the earlier's list). */
enum {
    FP_THREAD_PRIO = 0x43490001,
    FP_ADDRESS_PRIO,
    FP_SEM_HOLDER,
    FP_WINDOW,
    FP_LAST_THREAD,
    FP_LAST_EVENT,
    FP_KEEP
};

static int by_item(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* The slots of the open windows in opening order (their numbers), each as
 * item << 32 | slot; *n of them. NULL when out of memory (or none open:
 * *n == 0). */
static uint64_t *open_by_item(const trx_correct_inversions *a, uint32_t *n)
{
    *n = 0;
    if (!a->open_count)
        return NULL;
    uint64_t *v = malloc((size_t)a->open_count * sizeof *v);
    if (!v)
        return NULL;
    for (uint32_t i = 0; i < a->slot_count && *n < a->open_count; i++)
        if (a->slots[i].state == OPEN)
            v[(*n)++] = (uint64_t)a->slots[i].item << 32 | i;
    qsort(v, *n, sizeof *v, by_item);
    return v;
}

/* Adds a waiter's pending window, or its open window of rank `rank` in
 * opening order, to f. */
static void window_fingerprint(trx_fingerprint *f, const waiter_slot *s, uint64_t rank,
                               uint64_t base)
{
    const trx_inversion *v = &s->at;
    uint64_t w[15 + TRX_RAN_INSIDE_MAX] = {s->state,
                                           s->state == OPEN && s->in_set,
                                           rank,
                                           v->waiter,
                                           v->waiter_priority,
                                           v->lock,
                                           v->lock_type,
                                           v->holder,
                                           v->holder_priority,
                                           v->start_index - base,
                                           v->start_ticks,
                                           v->unbounded,
                                           v->ran_inside,
                                           v->ran_inside_count,
                                           v->ran_inside_more};
    for (uint8_t k = 0; k < v->ran_inside_count && k < TRX_RAN_INSIDE_MAX; k++)
        w[15 + k] = v->ran_inside_list[k];
    trx_fp_add(f, FP_WINDOW, w, 15 + TRX_RAN_INSIDE_MAX);
}

void trx_correct_inversions_fingerprint(const trx_correct_inversions *a, const trx_trace *t,
                                        trx_fingerprint *f, uint64_t base)
{
    (void)t;
    uint32_t n;
    uint64_t *open = open_by_item(a, &n);
    /* a full slot table could refuse a waiter one walk gives a slot (it
     * cannot fill: every context is a thread of the table, one slot each) */
    if (a->oom || a->slot_count == a->slot_cap || n != a->open_count) {
        free(open);
        trx_fp_unmergeable(f);
        return;
    }
    for (uint32_t i = 0; i < a->thread_count; i++)
        if (a->thread_prio[i] != TRX_UNKNOWN) {
            uint64_t w[2] = {i, a->thread_prio[i]};
            trx_fp_add(f, FP_THREAD_PRIO, w, 2);
        }
    for (uint32_t i = 0; i < a->prio.cap; i++)
        if (a->prio.slots[i].used) {
            uint64_t w[2] = {a->prio.slots[i].key, a->prio.slots[i].value};
            trx_fp_add(f, FP_ADDRESS_PRIO, w, 2);
        }
    for (uint32_t i = 0; i < a->sem_hold.cap; i++) /* no holder = never held */
        if (a->sem_hold.slots[i].used && a->sem_hold.slots[i].value) {
            uint64_t w[2] = {a->sem_hold.slots[i].key, a->sem_hold.slots[i].value};
            trx_fp_add(f, FP_SEM_HOLDER, w, 2);
        }
    for (uint32_t r = 0; r < n; r++) /* the open windows, with their ranks */
        window_fingerprint(f, &a->slots[(uint32_t)open[r]], r, base);
    for (uint32_t i = 0; i < a->slot_count; i++)
        if (a->slots[i].state == PENDING)
            window_fingerprint(f, &a->slots[i], UINT64_MAX, base);
    free(open);
    trx_fp_word(f, FP_LAST_THREAD, a->last_thread);
    uint64_t last[2] = {a->last_index - base, a->last_ticks};
    trx_fp_add(f, FP_LAST_EVENT, last, 2);
    trx_fp_word(f, FP_KEEP, a->keep);
}

/* The warm-up's windows are forgotten: the ones still open are renumbered
 * 0 .. boundary_open - 1 in opening order (the merge gives them the part
 * before's numbers), the ones it completed (and their unbounded count) go. */
void trx_correct_inversions_clear_results(trx_correct_inversions *a)
{
    uint32_t n;
    uint64_t *open = open_by_item(a, &n);
    if (n != a->open_count) {
        a->oom = 1;
        return;
    }
    for (uint32_t r = 0; r < n; r++)
        a->slots[(uint32_t)open[r]].item = r;
    free(open);
    a->count = a->boundary_open = n;
    a->unbounded = 0;
    a->held_n = 0;
}

void trx_correct_inversions_defer(trx_correct_inversions *a)
{
    a->deferring = true;
}

void trx_correct_inversions_hand_over(trx_correct_inversions *a)
{
    a->deferring = false;
    for (uint32_t i = 0; i < a->held_n && a->done; i++) {
        const held_band *h = &a->held[i];
        a->done(a->done_ctx, &(trx_inversion_band){h->start_index, h->end_index, h->unbounded},
                h->number);
    }
    free(a->held);
    a->held = NULL;
    a->held_n = a->held_cap = 0;
}

int trx_correct_inversions_merge(trx_correct_inversions *later, trx_correct_inversions *earlier,
                                 const trx_trace *t, uint64_t offset)
{
    (void)t;
    uint32_t m = later->boundary_open, n_earlier, n_later, keep = earlier->keep;
    uint64_t *earlier_open = open_by_item(earlier, &n_earlier);
    uint64_t *later_open = open_by_item(later, &n_later);
    uint64_t total = (uint64_t)earlier->count + later->count - m;
    uint64_t kept = total < keep ? total : keep; /* the list's entries after the merge */
    uint32_t later_kept = later->count < later->keep ? later->count : later->keep;
    int rc = -1;
    if (n_earlier != earlier->open_count || n_later != later->open_count || n_earlier != m ||
        later->count < m || total >= UINT32_MAX || later->oom || earlier->oom ||
        later->keep != keep)
        goto out;
    if (kept > earlier->cap) {
        trx_inversion *p = realloc(earlier->list, (size_t)kept * sizeof *p);
        if (!p)
            goto out;
        earlier->list = p;
        earlier->cap = (uint32_t)kept;
    }
    /* later's window j: the part before's j-th open one, or a new one after
     * its own; never a smaller number than j (so a window later held as a
     * band only, j >= keep, is beyond those kept here too) */
#define MERGED_NUMBER(j) ((j) < m ? (uint32_t)(earlier_open[(j)] >> 32) : earlier->count + ((j)-m))
    for (uint32_t j = 0, o = 0; j < later_kept; j++) {
        while (o < n_later && (later_open[o] >> 32) < j)
            o++;
        if (o < n_later && (later_open[o] >> 32) == j)
            continue; /* still open: stored at the end */
        trx_inversion v = later->list[j];
        v.start_index += offset;
        v.end_index += offset;
        uint32_t number = MERGED_NUMBER(j);
        if (number < keep)
            earlier->list[number] = v;
        else
            hand(earlier, &(trx_inversion_band){v.start_index, v.end_index, v.unbounded}, number);
    }
    for (uint32_t i = 0; i < later->held_n; i++) { /* bands: the trace's numbers, on */
        const held_band *h = &later->held[i];
        hand(earlier,
             &(trx_inversion_band){h->start_index + offset, h->end_index + offset, h->unbounded},
             MERGED_NUMBER(h->number));
    }
    if (earlier->oom)
        goto out;
    for (uint32_t i = 0; i < later->slot_count; i++) {
        waiter_slot *s = &later->slots[i];
        if (s->state != IDLE_STATE)
            s->at.start_index += offset;
        if (s->state == OPEN)
            s->item = MERGED_NUMBER(s->item);
    }
#undef MERGED_NUMBER
    free(later->list);
    later->list = earlier->list;
    later->cap = earlier->cap;
    later->count = (uint32_t)total;
    later->boundary_open = 0;
    later->unbounded += earlier->unbounded;
    later->last_index += offset;
    /* where the windows beyond those kept go from now on: the part before's */
    free(later->held);
    later->held = earlier->held;
    later->held_n = earlier->held_n;
    later->held_cap = earlier->held_cap;
    later->deferring = earlier->deferring;
    later->done = earlier->done;
    later->done_ctx = earlier->done_ctx;
    earlier->held = NULL;
    earlier->held_n = earlier->held_cap = 0;
    earlier->list = NULL; /* its open windows are later's now: discard stores none */
    earlier->cap = earlier->count = earlier->slot_count = 0;
    rc = 0;
out:
    free(earlier_open);
    free(later_open);
    if (rc < 0)
        later->oom = 1;
    return rc;
}

void trx_correct_inversions_discard(trx_correct_inversions *a)
{
    trx_stats s = {0};
    trx_correct_inversions_finish(a, &s);
    trx_stats_free(&s);
}
