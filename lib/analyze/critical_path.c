/* critical_path.c - the critical path of one instance (trx_path_compute,
 * include/trx/latency.h). One pass over the events with the rules of
 * instance_rules.h kept for every thread (so that a lock holder's state is
 * known when a wait begins). While the instance is open, after each event,
 * the chain "its thread, the holder of the lock it waits for, that
 * holder's holder ..." is classified level by level; a level whose state
 * changes closes its segment (and the deeper ones) and opens the next, so
 * every tick of the response lands in exactly one segment per level.
 * Wakers (--depth): one more pass per level, each ending at the event
 * that released the instance after it. */
#include <stdlib.h>
#include <string.h>

#include "analyze/analyses.h"
#include "analyze/instance_rules.h"

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

static int walker_init(walker *w, trx_trace *t, const trx_latency_options *o)
{
    memset(w, 0, sizeof *w);
    w->trace = t;
    size_t n = t->thread_count ? t->thread_count : 1;
    if (trx_instance_rules_init(&w->rules, t, o) < 0)
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

/* One pass: the path of the instance `req` asks for into `out`, and the
 * request for its waker's path in `waker`. 0, 1 (none), 2 (incomplete), -1. */
static int compute_one(trx_trace *t, const trx_latency_options *o, const path_request *req,
                       trx_path *out, path_request *waker)
{
    walker w;
    waker->thread = -1;
    if (walker_init(&w, t, o) < 0) {
        walker_free(&w);
        return -1;
    }
    w.req = *req;
    w.out = out;
    trx_cursor c;
    if (trx_cursor_init(&c, t) < 0) {
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
    memset(out, 0, sizeof *out);
    trx_trace_prepare(t);
    int32_t th = trx_trace_first_thread_at(t, address);
    out->thread = address;
    if (th < 0)
        return 1;
    path_request req = {th, number, at_ticks, UINT64_MAX}, next;
    int rc = compute_one(t, o, &req, out, &next);
    trx_path *p = out;
    for (uint32_t level = 0; rc == 0 && level < depth && next.thread >= 0; level++) {
        trx_path *waker = calloc(1, sizeof *waker);
        if (!waker)
            return -1;
        waker->thread = t->threads[next.thread].address;
        req = next;
        int wrc = compute_one(t, o, &req, waker, &next);
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
