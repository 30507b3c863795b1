/* critical_path.c - the critical path of one instance (trx_path_compute,
 * include/trx/latency.h). One pass over the events with the rules of
 * instance_rules.h kept for every thread (so that a lock holder's state is
 * known when a wait begins). While the instance is open, after each event,
 * the chain "its thread, the holder of the lock it waits for, that
 * holder's holder ..." is classified level by level; a level whose state
 * changes closes its segment (and the deeper ones) and opens the next, so
 * every tick of the response lands in exactly one segment per level.
 * Wakers (--depth): one more pass per level, each ending at the event
 * that released the instance after it.
 * The walker's state before any instance is recorded (the rules and the
 * per-thread facts: O(threads) bytes) can be saved every K events into a
 * trx_path_index (one pass), and a path then computed from the last saved
 * state before its release instead of from the trace's start. */
#include <stdlib.h>
#include <string.h>

#include "analyze/analyses.h"
#include "analyze/instance_rules.h"
#include "decode/event_cursor_internal.h"

#define MAX_CHAIN 64u /* lock holders followed one behind the other */

const char *trx_segment_state_name(trx_segment_state s)
{
    static const char *const names[] = {"running", "preempted", "interrupted",
                                        "blocked", "ready",     "waiting"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

/* A segment being built: its parent (node index, -1: top level) and its
 * last closed child (merged with the next one when they are alike). */
typedef struct node {
    trx_segment seg;
    int32_t parent;
    int32_t last_child;
} node;

/* One level of the chain: its thread and its open segment (-1: none). */
typedef struct level {
    int32_t thread;
    int32_t open;
} level;

/* What a thread is doing now (a segment's identity). */
typedef struct seg_key {
    uint8_t state;
    bool swi;
    uint32_t context, isr, object, holder;
    int32_t holder_thread; /* blocked: the holder's thread index, -1 unknown */
} seg_key;

/* Which instance to find: `number` of `thread`, else the one holding
 * `at_ticks`; a waker's ends at event `stop_index` (UINT64_MAX: its end). */
typedef struct path_request {
    int32_t thread;
    uint64_t number, at_ticks, stop_index;
} path_request;

typedef struct walker {
    trx_trace *trace;
    trx_instance_rules rules;
    path_request req;
    /* per thread */
    uint64_t *releases;  /* its releases so far: the number of its current instance */
    bool *open, *gapped; /* an instance open; it crossed a lost-event gap */
    uint32_t *priority;  /* the last priority its own events carried (TRX_UNKNOWN) */
    uint32_t *lock, *holder;
    int32_t *running_on; /* slot it runs on, -1 */
    uint32_t *last_slot; /* slot it ran on last (where it waits to run) */
    /* the instance being recorded */
    bool recording, done, oom;
    bool passed; /* --at: a release after at_ticks came first: none holds it */
    trx_path *out;
    node *nodes;
    uint32_t count, cap;
    int32_t top_last; /* last closed top-level node */
    level chain[MAX_CHAIN];
    uint32_t chain_len;
    path_request waker; /* thread -1: none */
} walker;

/* txtb_smp: as trx_instance_rules_init_as (-1: find out). */
static int walker_init(walker *w, trx_trace *t, const trx_latency_options *o, int txtb_smp)
{
    memset(w, 0, sizeof *w);
    w->trace = t;
    size_t n = t->thread_count ? t->thread_count : 1;
    if (trx_instance_rules_init_as(&w->rules, t, o, txtb_smp) < 0)
        return -1;
    w->releases = calloc(n, sizeof *w->releases);
    w->open = calloc(n, sizeof *w->open);
    w->gapped = calloc(n, sizeof *w->gapped);
    w->priority = malloc(n * sizeof *w->priority);
    w->lock = calloc(n, sizeof *w->lock);
    w->holder = calloc(n, sizeof *w->holder);
    w->running_on = malloc(n * sizeof *w->running_on);
    w->last_slot = calloc(n, sizeof *w->last_slot);
    if (!w->releases || !w->open || !w->gapped || !w->priority || !w->lock || !w->holder ||
        !w->running_on || !w->last_slot)
        return -1;
    for (size_t i = 0; i < n; i++) {
        w->priority[i] = TRX_UNKNOWN;
        w->running_on[i] = -1;
    }
    w->top_last = -1;
    w->waker.thread = -1;
    return 0;
}

static void walker_free(walker *w)
{
    trx_instance_rules_free(&w->rules);
    free(w->releases);
    free(w->open);
    free(w->gapped);
    free(w->priority);
    free(w->lock);
    free(w->holder);
    free(w->running_on);
    free(w->last_slot);
    free(w->nodes);
}

/* The walker's state between instances, saved at one event: the rules'
 * per-thread and per-slot state (slots from slot_count on are as
 * trx_instance_rules_init leaves them) and the walker's per-thread facts.
 * One allocation (`block`) holds every array. */
typedef struct walker_snapshot {
    trx_cursor cursor; /* at the event after the saved state */
    uint32_t slot_count, slots_used;
    uint32_t lock_owner[TRX_LATENCY_MAX_LOCKS];
    trx_rule_thread *threads;
    trx_rule_slot *slots;
    uint32_t *last_object, *last_object_by;
    uint64_t *releases;
    bool *open, *gapped;
    uint32_t *priority, *lock, *holder, *last_slot;
    int32_t *running_on;
    void *block;
    size_t bytes;
} walker_snapshot;

/* Slots up to the last one any event changed (the rest are as initialized). */
static uint32_t slots_touched(const trx_instance_rules *r)
{
    trx_rule_slot blank;
    memset(&blank, 0, sizeof blank);
    blank.thread = -1;
    uint32_t n = 0;
    for (uint32_t k = 0; k < TRX_INSTANCE_SLOTS; k++)
        if (memcmp(&r->slots[k], &blank, sizeof blank) != 0 || r->last_object[k] ||
            r->last_object_by[k])
            n = k + 1;
    return n;
}

/* Carves a snapshot's arrays for `threads` threads and `slots` slots out of
 * one block. 0, or -1 when out of memory. */
static int snapshot_alloc(walker_snapshot *s, uint32_t threads, uint32_t slots)
{
    size_t n = threads ? threads : 1;
    size_t bytes = n * (sizeof *s->threads + sizeof *s->releases + 2 * sizeof(bool) +
                        4 * sizeof(uint32_t) + sizeof(int32_t)) +
                   slots * (sizeof *s->slots + 2 * sizeof(uint32_t)) + 64;
    char *b = malloc(bytes);
    if (!b)
        return -1;
    s->block = b;
    s->bytes = bytes + sizeof *s;
    /* the widest elements first: each array stays aligned */
    s->releases = (uint64_t *)(void *)b;
    b += n * sizeof *s->releases;
    s->slots = (trx_rule_slot *)(void *)b;
    b += slots * sizeof *s->slots;
    s->threads = (trx_rule_thread *)(void *)b;
    b += n * sizeof *s->threads;
    s->last_object = (uint32_t *)(void *)b;
    b += slots * sizeof(uint32_t);
    s->last_object_by = (uint32_t *)(void *)b;
    b += slots * sizeof(uint32_t);
    s->priority = (uint32_t *)(void *)b;
    b += n * sizeof(uint32_t);
    s->lock = (uint32_t *)(void *)b;
    b += n * sizeof(uint32_t);
    s->holder = (uint32_t *)(void *)b;
    b += n * sizeof(uint32_t);
    s->last_slot = (uint32_t *)(void *)b;
    b += n * sizeof(uint32_t);
    s->running_on = (int32_t *)(void *)b;
    b += n * sizeof(int32_t);
    s->open = (bool *)b;
    b += n;
    s->gapped = (bool *)b;
    return 0;
}

/* Saves the state of `w` (recording nothing) into `s` (its cursor aside).
 * 0, or -1 when out of memory. */
static int walker_save(const walker *w, walker_snapshot *s)
{
    const trx_instance_rules *r = &w->rules;
    uint32_t n = r->thread_count;
    uint32_t slots = slots_touched(r);
    if (snapshot_alloc(s, n, slots) < 0)
        return -1;
    s->slot_count = slots;
    s->slots_used = r->slots_used;
    memcpy(s->lock_owner, r->lock_owner, sizeof s->lock_owner);
    memcpy(s->slots, r->slots, slots * sizeof *s->slots);
    memcpy(s->last_object, r->last_object, slots * sizeof *s->last_object);
    memcpy(s->last_object_by, r->last_object_by, slots * sizeof *s->last_object_by);
    memcpy(s->threads, r->threads, n * sizeof *s->threads);
    memcpy(s->releases, w->releases, n * sizeof *s->releases);
    memcpy(s->open, w->open, n * sizeof *s->open);
    memcpy(s->gapped, w->gapped, n * sizeof *s->gapped);
    memcpy(s->priority, w->priority, n * sizeof *s->priority);
    memcpy(s->lock, w->lock, n * sizeof *s->lock);
    memcpy(s->holder, w->holder, n * sizeof *s->holder);
    memcpy(s->last_slot, w->last_slot, n * sizeof *s->last_slot);
    memcpy(s->running_on, w->running_on, n * sizeof *s->running_on);
    return 0;
}

/* Puts the state saved in `s` into `w`, just initialized for the same trace
 * and options. */
static void walker_restore(walker *w, const walker_snapshot *s)
{
    trx_instance_rules *r = &w->rules;
    uint32_t n = r->thread_count;
    r->slots_used = s->slots_used;
    memcpy(r->lock_owner, s->lock_owner, sizeof r->lock_owner);
    memcpy(r->slots, s->slots, s->slot_count * sizeof *s->slots);
    memcpy(r->last_object, s->last_object, s->slot_count * sizeof *s->last_object);
    memcpy(r->last_object_by, s->last_object_by, s->slot_count * sizeof *s->last_object_by);
    memcpy(r->threads, s->threads, n * sizeof *s->threads);
    memcpy(w->releases, s->releases, n * sizeof *s->releases);
    memcpy(w->open, s->open, n * sizeof *s->open);
    memcpy(w->gapped, s->gapped, n * sizeof *s->gapped);
    memcpy(w->priority, s->priority, n * sizeof *s->priority);
    memcpy(w->lock, s->lock, n * sizeof *s->lock);
    memcpy(w->holder, s->holder, n * sizeof *s->holder);
    memcpy(w->last_slot, s->last_slot, n * sizeof *s->last_slot);
    memcpy(w->running_on, s->running_on, n * sizeof *s->running_on);
}

static void snapshot_free(walker_snapshot *s)
{
    trx_cursor_free(&s->cursor);
    free(s->block);
    s->block = NULL;
}

/* Saved walker states, oldest first, one every `interval` events (see
 * trx_path_index_build). */
struct trx_path_index {
    trx_latency_options options; /* the locks it was built with */
    int txtb_smp;                /* the rules' ThreadX SMP flag (a scan of the trace, once) */
    uint64_t interval;
    uint32_t count, max;
    walker_snapshot *snaps;
};

/* What thread `th` is doing now. */
static void classify(const walker *w, int32_t th, seg_key *k)
{
    memset(k, 0, sizeof *k);
    k->holder_thread = -1;
    uint32_t self = w->trace->threads[th].address;
    k->context = self;
    if (w->running_on[th] >= 0) {
        k->state = TRX_SEG_RUNNING;
        return;
    }
    uint8_t state = w->rules.threads[th].state;
    if (state == TRX_TS_BLOCKED) {
        k->state = TRX_SEG_BLOCKED;
        k->object = w->lock[th];
        k->holder = w->holder[th];
        k->holder_thread = trx_rules_thread_of(&w->rules, k->holder);
        return;
    }
    if (state == TRX_TS_WAITING) { /* a holder waiting with the lock held */
        k->state = TRX_SEG_WAITING;
        return;
    }
    /* ready (or never seen to wait): what runs on the core it waits for */
    const trx_rule_slot *s = &w->rules.slots[w->last_slot[th]];
    k->context = s->seen ? s->context : TRX_CONTEXT_IDLE;
    if (k->context == TRX_CONTEXT_ISR) {
        k->state = TRX_SEG_INTERRUPTED;
        k->isr = s->isr_depth ? s->isr[s->isr_depth - 1] : TRX_UNKNOWN;
        k->swi = s->isr_depth && (s->isr_swi >> (s->isr_depth - 1) & 1u);
    } else if (trx_is_threadish(k->context) && k->context != self) {
        k->state = TRX_SEG_PREEMPTED;
    } else {
        k->state = TRX_SEG_READY;
    }
}

static bool same_key(const trx_segment *s, const seg_key *k)
{
    return s->state == k->state && s->context == k->context && s->isr == k->isr &&
           s->swi == k->swi && s->object == k->object && s->holder == k->holder;
}

/* True when the preempting thread of a holder's segment has a lower
 * priority (numerically larger) than the instance's thread. */
static bool lower_than_waiter(const walker *w, const seg_key *k)
{
    if (k->state != TRX_SEG_PREEMPTED)
        return false;
    int32_t x = trx_rules_thread_of(&w->rules, k->context);
    uint32_t waiter = w->priority[w->req.thread];
    return x >= 0 && waiter != TRX_UNKNOWN && w->priority[x] != TRX_UNKNOWN &&
           w->priority[x] > waiter;
}

/* Closes the open segments of levels `from` and deeper at `now`; one that
 * spans no tick is dropped with its (equally empty) descendants, which are
 * the nodes after it. */
static void close_from(walker *w, uint32_t from, uint64_t now)
{
    while (w->chain_len > from) {
        level *lv = &w->chain[--w->chain_len];
        if (lv->open < 0)
            continue;
        node *n = &w->nodes[lv->open];
        n->seg.end_ticks = now;
        if (n->seg.end_ticks == n->seg.start_ticks)
            w->count = (uint32_t)lv->open;
        else if (n->parent >= 0)
            w->nodes[n->parent].last_child = lv->open;
        else
            w->top_last = lv->open;
        lv->open = -1;
    }
}

/* Opens a segment at level d (its parent: level d - 1's) from `now`, or
 * reopens the last closed one when it ended now and is alike. */
static void open_at(walker *w, uint32_t d, const seg_key *k, uint64_t now)
{
    int32_t parent = d ? w->chain[d - 1].open : -1;
    int32_t last = parent >= 0 ? w->nodes[parent].last_child : w->top_last;
    level *lv = &w->chain[d];
    w->chain_len = d + 1;
    if (last >= 0 && w->nodes[last].seg.end_ticks == now && same_key(&w->nodes[last].seg, k)) {
        lv->open = last;
        return;
    }
    if (w->count == w->cap) {
        uint32_t cap = w->cap ? 2 * w->cap : 64;
        node *n = realloc(w->nodes, (size_t)cap * sizeof *n);
        if (!n) {
            w->oom = true;
            lv->open = -1;
            return;
        }
        w->nodes = n;
        w->cap = cap;
    }
    node *n = &w->nodes[w->count];
    memset(n, 0, sizeof *n);
    n->seg.start_ticks = n->seg.end_ticks = now;
    n->seg.state = k->state;
    n->seg.swi = k->swi;
    n->seg.context = k->context;
    n->seg.isr = k->isr;
    n->seg.object = k->object;
    n->seg.holder = k->holder;
    n->seg.depth = d;
    n->parent = parent;
    n->last_child = -1;
    lv->open = (int32_t)w->count++;
}

/* Brings every level of the chain up to date at `now`. */
static void update(walker *w, uint64_t now)
{
    for (uint32_t d = 0; d < MAX_CHAIN; d++) {
        int32_t th = w->chain[d].thread;
        seg_key k;
        classify(w, th, &k);
        bool keep = d < w->chain_len && w->chain[d].open >= 0 &&
                    same_key(&w->nodes[w->chain[d].open].seg, &k);
        if (!keep) {
            close_from(w, d, now);
            open_at(w, d, &k, now);
            if (w->oom)
                return;
        }
        if (d > 0 && lower_than_waiter(w, &k))
            w->nodes[w->chain[d].open].seg.unbounded = true;
        /* a lock wait: follow its holder unless it already waits up the chain */
        int32_t h = k.state == TRX_SEG_BLOCKED ? k.holder_thread : -1;
        for (uint32_t up = 0; h >= 0 && up <= d; up++)
            if (w->chain[up].thread == h)
                h = -1;
        if (h < 0 || d + 1 == MAX_CHAIN) {
            close_from(w, d + 1, now);
            return;
        }
        if (w->chain_len > d + 1 && w->chain[d + 1].thread != h)
            close_from(w, d + 1, now);
        w->chain[d + 1].thread = h;
    }
}

/* Starts recording the instance released by `ev`. */
static void start(walker *w, const trx_event *ev)
{
    w->recording = true;
    w->count = 0;
    w->top_last = -1;
    w->chain_len = 0;
    w->chain[0].thread = w->req.thread;
    w->chain[0].open = -1;
    trx_path *p = w->out;
    p->instance.number = w->releases[w->req.thread];
    p->instance.release_index = ev->index;
    p->instance.release_ticks = ev->ticks;
    uint32_t slot = trx_rules_slot_of(&w->rules, ev);
    const trx_rule_slot *s = &w->rules.slots[slot];
    p->released_by = ev->context;
    p->released_index = ev->index;
    p->released_object =
        w->rules.last_object_by[slot] == ev->context ? w->rules.last_object[slot] : 0;
    p->released_isr = 0;
    p->released_swi = false;
    if (ev->context == TRX_CONTEXT_ISR && s->isr_depth) {
        p->released_isr = s->isr[s->isr_depth - 1];
        p->released_swi = s->isr_swi >> (s->isr_depth - 1) & 1u;
    }
    /* the waker: a thread whose own instance is open and whole */
    w->waker.thread = -1;
    int32_t wt = ev->thread >= 0 && !ev->synthetic ? trx_event_first_thread(w->trace, ev) : -1;
    if (wt >= 0 && (uint32_t)wt < w->rules.thread_count && wt != w->req.thread && w->open[wt] &&
        !w->gapped[wt])
        w->waker = (path_request){wt, w->releases[wt], 0, ev->index};
}

/* Ends the recording at `ev`: the instance is complete. */
static void finish(walker *w, const trx_event *ev)
{
    close_from(w, 0, ev->ticks);
    w->recording = false;
    w->done = true;
    trx_instance *in = &w->out->instance;
    in->end_index = ev->index;
    in->end_ticks = ev->ticks;
    in->response_ticks = ev->ticks - in->release_ticks;
}

/* Keeps per-thread facts: where threads run, their priorities, their locks. */
static void note_event(walker *w, const trx_event *ev, const trx_instance_change *ch)
{
    if (ev->thread >= 0 && !ev->synthetic && ev->priority != TRX_UNKNOWN &&
        trx_is_threadish(ev->context)) {
        int32_t th = trx_event_first_thread(w->trace, ev);
        if (th >= 0 && (uint32_t)th < w->rules.thread_count)
            w->priority[th] = ev->priority;
    }
    switch (ch->what) {
    case TRX_CHANGE_RELEASE:
        w->releases[ch->thread]++;
        w->open[ch->thread] = true;
        w->gapped[ch->thread] = false;
        break;
    case TRX_CHANGE_END:
        w->open[ch->thread] = false;
        break;
    case TRX_CHANGE_BLOCK:
        w->lock[ch->thread] = ch->lock;
        w->holder[ch->thread] = ch->holder;
        break;
    case TRX_CHANGE_GRANT: /* the other waiters for that lock now wait for this thread */
        for (uint32_t i = 0; i < w->rules.thread_count; i++)
            if (w->rules.threads[i].state == TRX_TS_BLOCKED && w->lock[i] == w->lock[ch->thread])
                w->holder[i] = w->trace->threads[ch->thread].address;
        break;
    default:
        break;
    }
}

/* Moves the event's slot to its next context, keeping running_on (SMP: a
 * thread that logs on another core has left its old one, as trx latency
 * counts it). */
static void run(walker *w, const trx_event *ev)
{
    int32_t moved = trx_rules_moved_from(&w->rules, ev);
    if (moved >= 0) {
        int32_t gone = w->rules.slots[moved].thread;
        trx_rules_vacate(&w->rules, (uint32_t)moved, ev->ticks);
        if (gone >= 0 && w->running_on[gone] == moved)
            w->running_on[gone] = -1;
    }
    uint32_t slot = trx_rules_slot_of(&w->rules, ev);
    int32_t before = w->rules.slots[slot].seen ? w->rules.slots[slot].thread : -1;
    trx_rules_run(&w->rules, ev);
    int32_t after = w->rules.slots[slot].thread;
    if (before == after)
        return;
    if (before >= 0 && w->running_on[before] == (int32_t)slot)
        w->running_on[before] = -1;
    if (after >= 0) {
        w->running_on[after] = (int32_t)slot;
        w->last_slot[after] = slot;
    }
}

/* One event: the rules, the facts, and the instance's segments. */
static void feed(walker *w, const trx_event *ev)
{
    if (ev->lost_before)
        for (uint32_t i = 0; i < w->rules.thread_count; i++)
            w->gapped[i] = w->gapped[i] || w->open[i];
    if (w->recording && ev->index == w->req.stop_index) {
        finish(w, ev);
        return;
    }
    trx_instance_change ch;
    trx_rules_apply(&w->rules, ev, &ch);
    bool mine = ch.what != TRX_CHANGE_NONE && ch.thread == w->req.thread;
    if (mine && ch.what == TRX_CHANGE_END && w->recording) {
        if (w->req.number || ev->ticks >= w->req.at_ticks) {
            finish(w, ev);
            return;
        }
        w->recording = false; /* --at: ended before it; the next one may hold it */
    }
    note_event(w, ev, &ch);
    run(w, ev);
    if (mine && ch.what == TRX_CHANGE_RELEASE) {
        if (w->req.number ? w->releases[w->req.thread] == w->req.number
                          : ev->ticks <= w->req.at_ticks)
            start(w, ev);
        else if (!w->req.number)
            w->passed = true;
    }
    if (w->recording)
        update(w, ev->ticks);
}

/* Lays the nodes out as trx_path wants: top level first, then each
 * segment's children together, breadth first (chronological within). */
static int lay_out(const walker *w, trx_path *p)
{
    uint32_t n = w->count;
    p->segments = calloc(n ? n : 1, sizeof *p->segments);
    uint32_t *begin = calloc((size_t)n + 2, sizeof *begin); /* group k: children of node k - 1 */
    uint32_t *order = malloc((n ? n : 1) * sizeof *order);  /* node indexes by group */
    uint32_t *placed_node = malloc((n ? n : 1) * sizeof *placed_node);
    int rc = -1;
    if (!p->segments || !begin || !order || !placed_node)
        goto out;
    for (uint32_t i = 0; i < n; i++)
        begin[w->nodes[i].parent + 2]++;
    for (uint32_t k = 1; k < n + 2; k++)
        begin[k] += begin[k - 1];
    for (uint32_t i = 0; i < n; i++) /* begin[k + 1] runs through group k */
        order[begin[w->nodes[i].parent + 2 - 1]++] = i;
    /* now begin[k] is the end of group k (its start is begin[k - 1], 0 for k 0) */
    uint32_t placed = 0;
    for (uint32_t j = 0; j < begin[0]; j++)
        placed_node[placed++] = order[j];
    p->top_count = placed;
    for (uint32_t q = 0; q < placed; q++) {
        uint32_t i = placed_node[q];
        uint32_t from = begin[i], to = begin[i + 1];
        p->segments[q] = w->nodes[i].seg;
        p->segments[q].first_child = placed;
        p->segments[q].child_count = to - from;
        for (uint32_t j = from; j < to; j++)
            placed_node[placed++] = order[j];
    }
    p->segment_count = placed;
    rc = 0;
out:
    free(begin);
    free(order);
    free(placed_node);
    return rc;
}

/* The last saved state in which `req`'s thread has had fewer releases than
 * the instance asked for (its release comes after it); NULL: from the start
 * (an instance found by time). */
static const walker_snapshot *last_before(const trx_path_index *x, const path_request *req)
{
    if (!req->number || !x->count)
        return NULL;
    uint32_t lo = 0, hi = x->count; /* snaps[lo] qualifies (the first: no releases) */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (x->snaps[mid].releases[req->thread] < req->number)
            lo = mid;
        else
            hi = mid;
    }
    return &x->snaps[lo];
}

/* One pass: the path of the instance `req` asks for into `out`, and the
 * request for its waker's path in `waker`. 0, 1 (none), 2 (incomplete), -1. */
static int compute_one(trx_trace *t, const trx_latency_options *o, const trx_path_index *x,
                       const path_request *req, trx_path *out, path_request *waker)
{
    walker w;
    waker->thread = -1;
    if (walker_init(&w, t, o, x ? x->txtb_smp : -1) < 0) {
        walker_free(&w);
        return -1;
    }
    w.req = *req;
    w.out = out;
    const walker_snapshot *from = x ? last_before(x, req) : NULL;
    if (from)
        walker_restore(&w, from);
    trx_cursor c;
    if ((from ? trx_cursor_copy(&c, &from->cursor) : trx_cursor_init(&c, t)) < 0) {
        walker_free(&w);
        return -1;
    }
    const trx_event *ev;
    while (!w.done && !w.oom && !w.passed && (ev = trx_cursor_next_ref(&c)) != NULL)
        feed(&w, ev);
    trx_cursor_free(&c);
    int rc = 0;
    if (w.oom)
        rc = -1;
    else if (!w.done) /* released and never ended in the trace: incomplete */
        rc = w.recording || (req->number && w.releases[req->thread] >= req->number) ? 2 : 1;
    else if (w.gapped[req->thread])
        rc = 2;
    else if (lay_out(&w, out) < 0)
        rc = -1;
    if (rc == 0) {
        uint64_t ran = 0;
        for (uint32_t k = 0; k < out->top_count; k++)
            if (out->segments[k].state == TRX_SEG_RUNNING)
                ran += out->segments[k].end_ticks - out->segments[k].start_ticks;
        out->instance.execution_ticks = ran;
        *waker = w.waker;
    }
    walker_free(&w);
    return rc;
}

int trx_path_compute(trx_trace *t, const trx_latency_options *o, uint32_t address, uint64_t number,
                     uint64_t at_ticks, uint32_t depth, trx_path *out)
{
    return trx_path_compute_indexed(t, o, NULL, address, number, at_ticks, depth, out);
}

/* True when options `a` and `b` name the same locks (the rules differ otherwise). */
static bool same_locks(const trx_latency_options *a, const trx_latency_options *b)
{
    trx_latency_options zero;
    memset(&zero, 0, sizeof zero);
    if (!a)
        a = &zero;
    if (!b)
        b = &zero;
    uint32_t na = a->lock_count < TRX_LATENCY_MAX_LOCKS ? a->lock_count : TRX_LATENCY_MAX_LOCKS;
    uint32_t nb = b->lock_count < TRX_LATENCY_MAX_LOCKS ? b->lock_count : TRX_LATENCY_MAX_LOCKS;
    return na == nb && memcmp(a->locks, b->locks, na * sizeof *a->locks) == 0;
}

int trx_path_compute_indexed(trx_trace *t, const trx_latency_options *o, const trx_path_index *x,
                             uint32_t address, uint64_t number, uint64_t at_ticks, uint32_t depth,
                             trx_path *out)
{
    if (x && !same_locks(&x->options, o))
        x = NULL; /* built for other locks: from the start */
    memset(out, 0, sizeof *out);
    trx_trace_prepare(t);
    int32_t th = trx_trace_first_thread_at(t, address);
    out->thread = address;
    if (th < 0)
        return 1;
    path_request req = {th, number, at_ticks, UINT64_MAX}, next;
    int rc = compute_one(t, o, x, &req, out, &next);
    trx_path *p = out;
    for (uint32_t level = 0; rc == 0 && level < depth && next.thread >= 0; level++) {
        trx_path *waker = calloc(1, sizeof *waker);
        if (!waker)
            return -1;
        waker->thread = t->threads[next.thread].address;
        req = next;
        int wrc = compute_one(t, o, x, &req, waker, &next);
        if (wrc != 0) { /* the waker's instance is not whole in the trace: the chain ends */
            trx_path_free(waker);
            free(waker);
            return wrc < 0 ? -1 : 0;
        }
        p->waker = waker;
        p = waker;
    }
    return rc;
}

void trx_path_free(trx_path *p)
{
    trx_path *waker = p->waker;
    while (waker) {
        trx_path *next = waker->waker;
        free(waker->segments);
        free(waker);
        waker = next;
    }
    free(p->segments);
    p->segments = NULL;
    p->waker = NULL;
    p->segment_count = p->top_count = 0;
}

/* Drops every other snapshot (keeping the first): the interval doubles. */
static void thin_out(trx_path_index *x)
{
    uint32_t kept = 0;
    for (uint32_t k = 0; k < x->count; k++) {
        if (k % 2 == 0) {
            walker_snapshot *to = &x->snaps[kept++];
            if (to != &x->snaps[k]) {
                trx_cursor moved;
                trx_cursor_move(&moved, &x->snaps[k].cursor); /* it points into itself */
                *to = x->snaps[k];
                trx_cursor_move(&to->cursor, &moved);
            }
        } else
            snapshot_free(&x->snaps[k]);
    }
    x->count = kept;
    x->interval *= 2;
}

int trx_path_index_build(trx_trace *t, const trx_latency_options *o, uint64_t interval,
                         uint32_t max_snapshots, trx_path_index **out)
{
    *out = NULL;
    trx_trace_prepare(t);
    trx_path_index *x = calloc(1, sizeof *x);
    if (!x)
        return -1;
    if (o)
        x->options = *o;
    x->interval = interval ? interval : 1;
    x->max = max_snapshots < 2 ? 2 : max_snapshots;
    x->snaps = calloc(x->max, sizeof *x->snaps);
    walker w;
    memset(&w, 0, sizeof w);
    int rc = x->snaps && walker_init(&w, t, o, -1) == 0 ? 0 : -1;
    x->txtb_smp = rc == 0 && w.rules.txtb_smp;
    trx_cursor c;
    bool cursor_ok = rc == 0 && trx_cursor_init(&c, t) == 0;
    if (!cursor_ok)
        rc = -1;
    w.req = (path_request){-1, 0, 0, UINT64_MAX}; /* records nothing */
    const trx_event *ev;
    for (uint64_t fed = 0; rc == 0; fed++) {
        if (fed % x->interval == 0) {
            if (x->count == x->max)
                thin_out(x);
            if (fed % x->interval == 0) {
                walker_snapshot *s = &x->snaps[x->count];
                memset(s, 0, sizeof *s);
                if (walker_save(&w, s) < 0 || trx_cursor_copy(&s->cursor, &c) < 0) {
                    free(s->block);
                    rc = -1;
                    break;
                }
                x->count++;
            }
        }
        if ((ev = trx_cursor_next_ref(&c)) == NULL)
            break;
        feed(&w, ev);
    }
    if (cursor_ok)
        trx_cursor_free(&c);
    walker_free(&w);
    if (rc < 0) {
        trx_path_index_free(x);
        return -1;
    }
    *out = x;
    return 0;
}

size_t trx_path_index_memory(const trx_path_index *x)
{
    size_t bytes = x ? sizeof *x + x->max * sizeof *x->snaps : 0;
    for (uint32_t k = 0; x && k < x->count; k++)
        bytes += x->snaps[k].bytes + trx_cursor_state_size(&x->snaps[k].cursor);
    return bytes;
}

uint32_t trx_path_index_snapshots(const trx_path_index *x)
{
    return x ? x->count : 0;
}

uint64_t trx_path_index_interval(const trx_path_index *x)
{
    return x ? x->interval : 0;
}

void trx_path_index_free(trx_path_index *x)
{
    if (!x)
        return;
    for (uint32_t k = 0; k < x->count; k++)
        snapshot_free(&x->snaps[k]);
    free(x->snaps);
    free(x);
}
