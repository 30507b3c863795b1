/* timing.c - the timing analyses TraceX lacks (docs/analyses.md): ISR
 * duration per ISR number (inclusive and exclusive of nested ISRs),
 * interrupt-to-thread latency, thread response time and CPU load per
 * window, and software-interrupt (Swi) durations by handle (on an AMP
 * capture both per (core, number / handle): separate instances). Traces whose
 * cores carry contexts of their own follow each core's interrupts and
 * previous event on their own; the load then sums the cores' busy time,
 * and keeps each core's windows too. Time whose state is unknown (before a
 * core's first event, a SYS/BIOS core's time before its first task switch,
 * after its last event) is neither busy nor idle: the windows' known time
 * leaves it out. A duration or response time spanning a step where time
 * went backwards (a broken time source) is left out, never a wrapped value.
 * Durations go into fixed-size log-linear histograms (p99 within 1/32 of
 * the true value), so memory does not grow with the trace. */
#include <stdlib.h>
#include <string.h>

#include "analyze/analyses.h"
#include "util/log_histogram.h"
#include "analyze/segment_units.h"
#include "decode/object_table.h"
#include "util/inline_hints.h"

#define MAX_NEST 64
#define MAX_KEYS 4096 /* distinct ISR numbers / threads tracked */

/* ------------------------------------------------------------ histogram */

void trx_duration_add(trx_duration *d, uint64_t v)
{
    trx_log_hist_add(&d->hist, &d->count, &d->sum, &d->min, &d->max, v);
}

/* The 99th percentile from the histogram: the top of the bucket holding it,
 * clamped to [min, max]. */
static void duration_finish(trx_duration *d)
{
    d->p99 = trx_log_hist_percentile(d->hist, d->count, 99, d->min, d->max);
    free(d->hist);
    d->hist = NULL;
}

/* --------------------------------------------------------------- keyed */

/* Room for one more keyed duration in *v (doubling *cap); false, with
 * a->oom set, when out of memory. */
static bool grow_keyed(trx_timing *a, trx_keyed_duration **v, uint32_t *cap)
{
    uint32_t c = *cap ? *cap * 2 : 16;
    trx_keyed_duration *p = realloc(*v, (size_t)c * sizeof *p);
    if (!p) {
        a->oom = 1;
        return false;
    }
    *v = p;
    *cap = c;
    return true;
}

/* The entry for `key` in a keyed table (address map + array), created on
 * first use; NULL past MAX_KEYS or out of memory. */
static trx_keyed_duration *keyed(trx_timing *a, trx_address_map *map, trx_keyed_duration **v,
                                 uint32_t *n, uint32_t *cap, uint32_t key)
{
    uint32_t *slot = trx_address_map_find(map, key);
    if (slot)
        return &(*v)[*slot];
    if (*n >= MAX_KEYS) {
        a->keys_dropped = true;
        return NULL;
    }
    if (*n == *cap && !grow_keyed(a, v, cap))
        return NULL;
    if (trx_address_map_put(map, key, *n) < 0) {
        a->oom = 1;
        return NULL;
    }
    trx_keyed_duration *k = &(*v)[(*n)++];
    memset(k, 0, sizeof *k);
    k->key = key;
    k->core = TRX_UNKNOWN;
    return k;
}

/* The entry of interrupt `id` (an ISR number, or a Swi handle when `swi`)
 * on core `core`: one per id, or on an AMP capture one per (core, id);
 * created on first use; NULL past MAX_KEYS or out of memory. */
static trx_keyed_duration *interrupt_keyed(trx_timing *a, bool swi, uint32_t core, uint32_t id)
{
    trx_pair_map *map = swi ? &a->swi_map : &a->isr_map;
    trx_keyed_duration **v = swi ? &a->swi : &a->isr;
    uint32_t *n = swi ? &a->swi_count : &a->isr_count, *cap = swi ? &a->swi_cap : &a->isr_cap;
    uint32_t key_core = a->per_core_interrupts ? core : 0, at;
    /* small numbers (ISRs) in slots of their own, aligned handles (Swis) mixed */
    trx_timing_irq_recent *r =
        &a->irq_recent[swi][(id ^ id >> 4 ^ id >> 8 ^ key_core) % TRX_TIMING_IRQ_RECENT];
    if (r->at && r->tables == a->tables && r->id == id && r->core == key_core)
        return &(*v)[r->at - 1];
    if (trx_pair_map_get(map, key_core, id, &at)) {
        *r = (trx_timing_irq_recent){key_core, id, at + 1, a->tables};
        return &(*v)[at];
    }
    if (*n >= MAX_KEYS) {
        a->keys_dropped = true;
        return NULL;
    }
    if (key_core == UINT32_MAX && id == UINT32_MAX)
        return NULL;
    if (*n == *cap && !grow_keyed(a, v, cap))
        return NULL;
    uint32_t *slot = trx_pair_map_put(map, key_core, id, *n);
    if (!slot) {
        a->oom = 1;
        return NULL;
    }
    trx_keyed_duration *k = &(*v)[(*n)++];
    memset(k, 0, sizeof *k);
    k->key = id;
    k->core = a->per_core_interrupts ? core : TRX_UNKNOWN;
    return k;
}

/* Adds duration `v` ended by `ev` to a keyed table entry, remembering the
 * event that ended the longest one (the evidence of trx check). */
static void keyed_add(trx_keyed_duration *k, uint64_t v, const trx_event *ev)
{
    if (k->d.count == 0 || v > k->d.max) {
        k->max_index = ev->index;
        k->max_ticks = ev->ticks;
    }
    trx_duration_add(&k->d, v);
}

/* A thread's pending start (resume, or ISR resume) in a per-thread map:
 * value = index into `pending` + 1. */
typedef struct pending_start {
    uint64_t resume, irq; /* ticks + 1 (0: none) */
    uint64_t backsteps;   /* trx_timing.backsteps at the resume */
    /* the thread's entries in a->response and a->latency (index + 1, 0: not
     * looked up yet) while a->tables = `tables` */
    uint32_t response_at, latency_at, tables;
} pending_start;

enum { LOAD_IDLE, LOAD_BUSY, LOAD_UNKNOWN };

int trx_timing_init(trx_timing *a, const trx_trace *t, uint64_t window, uint64_t span)
{
    memset(a, 0, sizeof *a);
    uint32_t cores = trx_trace_context_cores(t);
    if (window != 0 && span / window >= TRX_LOAD_WINDOWS_MAX / cores)
        return -2;
    a->init_unknown = t->format == TRX_TRACE_UIA;
    a->init_state = a->init_unknown ? LOAD_UNKNOWN : LOAD_BUSY;
    a->per_core_interrupts = trx_trace_per_core_instances(t);
    a->win_lo = 1; /* no window used yet: [1, 0) is empty */
    a->window = window;
    a->window_limit = window ? span / window + 1 : 0; /* windows covering [0, span] */
    a->cores = cores;
    a->frames = calloc((size_t)a->cores * MAX_NEST, sizeof *a->frames);
    a->per_core = calloc(a->cores, sizeof *a->per_core);
    if (!a->frames || !a->per_core) {
        free(a->frames);
        free(a->per_core);
        return -1;
    }
    for (uint32_t c = 0; c < a->cores; c++) {
        a->per_core[c].nest = a->frames + (size_t)c * MAX_NEST;
        /* before a core's first event: unknown, or (TXTB) idle; from 0 on */
        a->per_core[c].prev_state = a->init_unknown ? LOAD_UNKNOWN : LOAD_IDLE;
    }
    return 0;
}

/* Makes room for windows [0, need) of every core; false when out of memory. */
static bool load_windows(trx_timing *a, uint64_t need)
{
    if (need > a->window_cap) {
        uint64_t c = a->window_cap ? a->window_cap * 2 : 64, n = a->cores;
        while (c < need)
            c *= 2;
        uint64_t *b = realloc(a->busy, c * n * sizeof *b);
        if (b)
            a->busy = b;
        uint64_t *u = b ? realloc(a->unknown, c * n * sizeof *u) : NULL;
        if (!u) {
            a->oom = 1;
            return false;
        }
        a->unknown = u;
        memset(b + a->window_cap * n, 0, (c - a->window_cap) * n * sizeof *b);
        memset(u + a->window_cap * n, 0, (c - a->window_cap) * n * sizeof *u);
        a->window_cap = c;
    }
    if (need > a->window_count)
        a->window_count = need;
    return true;
}

/* load_add's way for an interval outside the last window used: split
 * [from, to) over the windows it covers. */
static void load_add_split(trx_timing *a, uint32_t core, uint64_t from, uint64_t to, int state)
{
    if (to > a->window_limit * a->window) /* past the span the windows cover */
        to = a->window_limit * a->window;
    while (from < to) {
        uint64_t w = from / a->window, end = (w + 1) * a->window;
        uint64_t part = (to < end ? to : end) - from;
        if (w >= a->window_limit || !load_windows(a, w + 1))
            return;
        uint64_t *v = state == LOAD_BUSY ? a->busy : state == LOAD_UNKNOWN ? a->unknown : NULL;
        if (v)
            v[w * a->cores + core] += part;
        from += part;
        a->win_index = w;
        a->win_lo = w * a->window;
        a->win_hi = end;
    }
}

/* Adds [from, to) of core `core` in `state` (LOAD_*) to the windows: inline
 * for the common case, an interval inside the last window used (win_hi
 * never passes the span the windows cover). */
static inline void load_add(trx_timing *a, uint32_t core, uint64_t from, uint64_t to, int state)
{
    if (to <= from) /* time that went backwards (UIA streams) adds nothing */
        return;
    if (from < a->win_lo || to > a->win_hi) {
        load_add_split(a, core, from, to, state);
        return;
    }
    if (state != LOAD_IDLE)
        (state == LOAD_BUSY ? a->busy : a->unknown)[a->win_index * a->cores + core] += to - from;
}

/* What the time after an event whose next context is `next` counts as. */
static inline int load_state(const trx_timing *a, uint32_t next)
{
    return next == TRX_CONTEXT_IDLE   ? LOAD_IDLE
           : next == TRX_CONTEXT_INIT ? a->init_state
                                      : LOAD_BUSY;
}

/* Not interrupt, initialization or idle. */
static bool is_thread(uint32_t ctx)
{
    return ctx != TRX_CONTEXT_ISR && ctx != TRX_CONTEXT_INIT && ctx != TRX_CONTEXT_IDLE;
}

/* The cache entry of `thread` among the recent look-ups of pending_map. */
static inline trx_timing_recent *recent_of(trx_timing *a, uint32_t thread)
{
    return &a->recent[(thread * 0x9E3779B1u) >> (32 - TRX_TIMING_RECENT_BITS)];
}

/* The value of `thread` in pending_map (0: none), through the cache (whose
 * empty entries, key 0, say none: 0 is idle, never looked up). */
static inline uint32_t pending_index(trx_timing *a, uint32_t thread)
{
    trx_timing_recent *r = recent_of(a, thread);
    if (r->key != thread) {
        uint32_t *p = trx_address_map_find(&a->pending_map, thread);
        *r = (trx_timing_recent){thread, p ? *p : 0};
    }
    return r->value;
}

/* Ends thread `thread`'s pending response time and latency `ps` at `ev`. */
static TRX_NOINLINE void end_pending(trx_timing *a, uint32_t thread, pending_start *ps,
                                     const trx_event *ev)
{
    if (ps->backsteps != a->backsteps) { /* time went backwards meanwhile: no figure */
        a->dropped++;
        ps->resume = ps->irq = 0;
    }
    if (ps->tables != a->tables) { /* the tables' indexes may have changed */
        ps->tables = a->tables;
        ps->response_at = ps->latency_at = 0;
    }
    if (ps->resume && ev->ticks >= ps->resume - 1) {
        trx_keyed_duration *k = ps->response_at
                                    ? &a->response[ps->response_at - 1]
                                    : keyed(a, &a->resp_map, &a->response, &a->response_count,
                                            &a->response_cap, thread);
        if (k) {
            ps->response_at = (uint32_t)(k - a->response) + 1;
            keyed_add(k, ev->ticks - (ps->resume - 1), ev);
        }
    }
    if (ps->irq && ev->ticks >= ps->irq - 1) {
        trx_keyed_duration *k = ps->latency_at ? &a->latency[ps->latency_at - 1]
                                               : keyed(a, &a->lat_map, &a->latency,
                                                       &a->latency_count, &a->latency_cap, thread);
        if (k) {
            ps->latency_at = (uint32_t)(k - a->latency) + 1;
            keyed_add(k, ev->ticks - (ps->irq - 1), ev);
        }
    }
    a->pending_live--;
    ps->resume = ps->irq = 0;
}

/* The pending start of `thread` when it has one, else NULL. */
static inline pending_start *waiting(trx_timing *a, uint32_t thread)
{
    uint32_t i = pending_index(a, thread);
    pending_start *ps = i ? &((pending_start *)a->pending)[i - 1] : NULL;
    return ps && (ps->resume || ps->irq) ? ps : NULL;
}

/* Ends core c's (number `core`) innermost interrupt (ISR or Swi) at `ev`:
 * its durations. */
static TRX_NOINLINE void close_frame(trx_timing *a, trx_timing_core *c, uint32_t core,
                                     const trx_event *ev)
{
    uint64_t now = ev->ticks;
    c->depth--;
    if (c->depth < MAX_NEST && c->nest[c->depth].backsteps != a->backsteps) {
        a->dropped++; /* time went backwards meanwhile: no figure (nor for the outer ones) */
    } else if (c->depth < MAX_NEST) {
        trx_isr_frame *f = &c->nest[c->depth];
        uint64_t incl = now >= f->enter ? now - f->enter : 0; /* time never runs back in TXTB */
        trx_keyed_duration *k = interrupt_keyed(a, f->swi, core, f->id);
        if (k) {
            keyed_add(k, incl, ev);
            uint64_t excl = incl > f->nested ? incl - f->nested : 0;
            if (k->d.count == 1 || excl < k->min_excl)
                k->min_excl = excl;
            if (excl > k->max_excl)
                k->max_excl = excl;
        }
        if (c->depth > 0 && c->depth - 1 < MAX_NEST)
            c->nest[c->depth - 1].nested += incl;
    }
}

/* A resume (`ev`, on core c) starts a response time of its thread (and a
 * latency, from the outer ISR ENTER, when an ISR resumes it). False when
 * out of memory. */
static TRX_NOINLINE bool start_pending(trx_timing *a, const trx_timing_core *c, const trx_event *ev)
{
    uint64_t now = ev->ticks;
    uint32_t i = pending_index(a, ev->subject);
    if (i == 0) {
        if (a->pending_count == a->pending_cap) {
            uint32_t n = a->pending_cap ? a->pending_cap * 2 : 16;
            void *q = realloc(a->pending, (size_t)n * sizeof(pending_start));
            if (!q) {
                a->oom = 1;
                return false;
            }
            a->pending = q;
            a->pending_cap = n;
        }
        ((pending_start *)a->pending)[a->pending_count] = (pending_start){0, 0, 0, 0, 0, 0};
        i = ++a->pending_count;
        if (trx_address_map_put(&a->pending_map, ev->subject, i) < 0) {
            a->oom = 1;
            return false;
        }
        *recent_of(a, ev->subject) = (trx_timing_recent){ev->subject, i};
    }
    if (ev->subject == a->no_wait)
        a->no_wait = TRX_CONTEXT_IDLE; /* it waits now */
    pending_start *ps = &((pending_start *)a->pending)[i - 1];
    a->pending_live += !ps->resume && !ps->irq;
    if (!ps->resume && !ps->irq)
        ps->backsteps = a->backsteps;
    if (!ps->resume)
        ps->resume = now + 1;
    if (ev->context == TRX_CONTEXT_ISR && !ps->irq)
        ps->irq = (c->depth > 0 ? c->nest[0].enter : now) + 1; /* from the outer ENTER */
    return true;
}

/* Ends the pending start of `thread` (a thread) at `ev` when it has one. */
static inline void end_if_waiting(trx_timing *a, uint32_t thread, const trx_event *ev)
{
    pending_start *ps = waiting(a, thread);
    if (ps)
        end_pending(a, thread, ps, ev);
}

/* Whether `ev` may end a pending start (a->pending_live): its next context
 * or its own context is a thread not known to wait for nothing (a->no_wait). */
static inline bool may_end(const trx_timing *a, const trx_event *ev)
{
    uint32_t ctx = ev->context, next = ev->next_context;
    return (next != a->no_wait && is_thread(next)) ||
           (ctx != next && ctx != a->no_wait && is_thread(ctx));
}

/* The CPU handed to a thread (it is the event's next context) ends its
 * response time and, if an ISR resumed it, its interrupt-to-thread latency;
 * its own event does when the next contexts never named it. The next
 * context, a thread, waits no more then (a->no_wait). */
static TRX_NOINLINE void end_waiting(trx_timing *a, const trx_event *ev)
{
    uint32_t ctx = ev->context, next = ev->next_context;
    if (next != a->no_wait && is_thread(next)) {
        end_if_waiting(a, next, ev);
        a->no_wait = next;
    }
    if (ctx != next && ctx != a->no_wait && is_thread(ctx))
        end_if_waiting(a, ctx, ev);
}

/* The kinds of event trx_timing_feed hands to interrupt_or_resume. */
_Static_assert(TRX_KINDS <= 32, "kinds as bits of a 32-bit mask");
#define FRAME_OR_RESUME                                                                            \
    (1u << TRX_KIND_ISR_ENTER | 1u << TRX_KIND_ISR_EXIT | 1u << TRX_KIND_SWI_BEGIN |               \
     1u << TRX_KIND_SWI_END | 1u << TRX_KIND_RESUME)

/* The kinds of event that open an interrupt frame. */
#define FRAME_OPEN (1u << TRX_KIND_ISR_ENTER | 1u << TRX_KIND_SWI_BEGIN)

/* An ISR or Swi (`ev`) starts on core c. */
static inline void open_frame(const trx_timing *a, trx_timing_core *c, const trx_event *ev)
{
    if (c->depth < MAX_NEST)
        c->nest[c->depth] = (trx_isr_frame){ev->subject, ev->kind == TRX_KIND_SWI_BEGIN, ev->ticks,
                                            0, a->backsteps};
    c->depth++;
}

/* trx_timing_feed for the events that open or close an interrupt frame
 * (ISR and Swi durations) or resume a thread (a response time starts, and
 * a latency from an ISR), after the load. */
static TRX_NOINLINE void interrupt_or_resume(trx_timing *a, trx_timing_core *c, uint32_t core,
                                             const trx_event *ev)
{
    switch (ev->kind) {
    case TRX_KIND_ISR_ENTER:
    case TRX_KIND_SWI_BEGIN:
        open_frame(a, c, ev);
        break;
    case TRX_KIND_ISR_EXIT:
    case TRX_KIND_SWI_END:
        if (c->depth > 0)
            close_frame(a, c, core, ev);
        break;
    default: /* TRX_KIND_RESUME */
        if (ev->context != TRX_CONTEXT_ISR)
            c->depth = 0; /* a thread runs: any ISR without EXIT is over */
        if (ev->subject != 0 && !trx_is_priority_change(ev) && !start_pending(a, c, ev))
            return;
        break;
    }
    if (a->pending_live && may_end(a, ev))
        end_waiting(a, ev);
}

/* trx_timing_feed after the load: core c's (number `core`) previous event
 * becomes `ev`, then the interrupt frames and pending starts. Only tail
 * calls: nothing to save around them on the common path. */
static TRX_ALWAYS_INLINE void feed_after_load(trx_timing *a, trx_timing_core *c, uint32_t core,
                                              const trx_event *ev)
{
    uint64_t now = ev->ticks;
    if (now < c->last_ticks) /* (0 before the core's first event) */
        a->backsteps++;      /* intervals open across this step get no figure */
    c->last_ticks = now;
    if (now > c->prev_ticks)
        c->prev_ticks = now; /* time that ran back (UIA) is not counted twice */
    c->have_prev = true;
    c->prev_state = (uint8_t)load_state(a, ev->next_context);
    uint32_t kind = 1u << (ev->kind & 31);
    if (kind & FRAME_OPEN) {
        open_frame(a, c, ev); /* inline: as often as the ends, and short */
    } else if (kind & FRAME_OR_RESUME) {
        interrupt_or_resume(a, c, core, ev);
        return;
    } else if (ev->context != TRX_CONTEXT_ISR)
        c->depth = 0;                      /* a thread runs: any ISR without EXIT is over */
    if (a->pending_live && may_end(a, ev)) /* else no thread waits for the CPU */
        end_waiting(a, ev);
}

/* trx_timing_feed when the load's interval leaves the last window used. */
static TRX_NOINLINE void feed_new_window(trx_timing *a, trx_timing_core *c, uint32_t core,
                                         const trx_event *ev)
{
    load_add_split(a, core, c->prev_ticks, ev->ticks, c->prev_state);
    feed_after_load(a, c, core, ev);
}

/* trx_timing_feed; `one_core` (a constant): a->cores is 1. */
static TRX_ALWAYS_INLINE void feed_on(trx_timing *a, const trx_event *ev, const bool one_core)
{
    uint32_t core = one_core ? 0 : trx_core_slot(a->cores, ev);
    trx_timing_core *c = &a->per_core[core];
    /* CPU load: the time since the core's previous event is busy unless
     * idle (or unknown); before its first event (from 0), unknown or idle.
     * Inline for an interval inside the last window used (win_hi never
     * passes the span the windows cover); time that went backwards (UIA
     * streams) adds nothing. */
    uint64_t from = c->prev_ticks, to = ev->ticks;
    if (a->window && to > from) {
        if (from < a->win_lo || to > a->win_hi) {
            feed_new_window(a, c, core, ev);
            return;
        }
        if (c->prev_state != LOAD_IDLE)
            (c->prev_state == LOAD_BUSY
                 ? a->busy
                 : a->unknown)[one_core ? a->win_index : a->win_index * a->cores + core] +=
                to - from;
    }
    feed_after_load(a, c, core, ev);
}

void trx_timing_feed(trx_timing *a, const trx_event *ev)
{
    feed_on(a, ev, false);
}

void trx_timing_feed_one(trx_timing *a, const trx_event *ev)
{
    feed_on(a, ev, true);
}

static void finish_table(trx_keyed_duration *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        duration_finish(&v[i].d);
}

/* By core (AMP; TRX_UNKNOWN everywhere else), then key. */
static int by_key(const void *x, const void *y)
{
    const trx_keyed_duration *a = x, *b = y;
    if (a->core != b->core)
        return a->core < b->core ? -1 : 1;
    return a->key < b->key ? -1 : a->key > b->key;
}

uint64_t trx_stats_profile_span(const trx_trace *t, const trx_stats *s)
{
    return t->max_ticks * (s->load_cores ? s->load_cores : 1);
}

/* The ticks of load window `i` (the last one may be partial). */
static uint64_t window_length(const trx_stats *s, uint64_t i)
{
    uint64_t start = i * s->load_window, len = s->load_window;
    if (start + len > s->load_span)
        len = s->load_span > start ? s->load_span - start : 0;
    return len;
}

uint64_t trx_stats_load_capacity(const trx_stats *s, uint64_t i)
{
    uint64_t all = window_length(s, i) * (s->load_cores ? s->load_cores : 1);
    uint64_t unknown = s->load_unknown ? s->load_unknown[i] : 0;
    return all > unknown ? all - unknown : 0;
}

double trx_stats_load_percent(const trx_stats *s, uint64_t i)
{
    uint64_t len = trx_stats_load_capacity(s, i);
    return len ? 100.0 * (double)s->load_busy[i] / (double)len : -1.0;
}

double trx_stats_core_load_percent(const trx_stats *s, uint64_t i, uint32_t core)
{
    if (s->load_cores <= 1 || !s->load_core_busy)
        return core == 0 ? trx_stats_load_percent(s, i) : -1.0;
    if (core >= s->load_cores)
        return -1.0;
    uint64_t k = i * s->load_cores + core, all = window_length(s, i);
    uint64_t known = all > s->load_core_unknown[k] ? all - s->load_core_unknown[k] : 0;
    return known ? 100.0 * (double)s->load_core_busy[k] / (double)known : -1.0;
}

/* Brings a->last_ticks up to the latest ticks of any event fed: the cores'
 * prev_ticks (the feed does not keep it, each core's prev_ticks is the
 * latest of its events). */
static void sync_last_ticks(trx_timing *a)
{
    for (uint32_t c = 0; a->per_core && c < a->cores; c++)
        if (a->per_core[c].prev_ticks > a->last_ticks)
            a->last_ticks = a->per_core[c].prev_ticks;
}

/* Core `c`'s time after its last event, up to the span's end: unknown. */
static void unknown_tail(trx_timing *a, uint32_t core, const trx_timing_core *c)
{
    if (a->window && a->init_unknown && c->have_prev)
        load_add(a, core, c->prev_ticks, a->last_ticks, LOAD_UNKNOWN);
}

/* Hands the load windows to s: totals over the cores, and each core's when
 * there are several. 0, or -1 when out of memory. */
static int finish_load(trx_timing *a, trx_stats *s)
{
    sync_last_ticks(a);
    for (uint32_t c = 0; a->per_core && c < a->cores; c++)
        unknown_tail(a, c, &a->per_core[c]);
    s->load_window = a->window;
    s->load_count = a->window_count;
    s->load_span = a->last_ticks;
    if (a->cores <= 1 || !a->busy) {
        s->load_busy = a->busy;
        s->load_unknown = a->unknown;
        return 0;
    }
    s->load_core_busy = a->busy;
    s->load_core_unknown = a->unknown;
    s->load_busy = calloc(a->window_count ? a->window_count : 1, sizeof *s->load_busy);
    s->load_unknown = calloc(a->window_count ? a->window_count : 1, sizeof *s->load_unknown);
    if (!s->load_busy || !s->load_unknown)
        return -1;
    for (uint64_t w = 0; w < a->window_count; w++)
        for (uint32_t c = 0; c < a->cores; c++) {
            s->load_busy[w] += a->busy[w * a->cores + c];
            s->load_unknown[w] += a->unknown[w * a->cores + c];
        }
    return 0;
}

int trx_timing_finish(trx_timing *a, trx_stats *s)
{
    finish_table(a->isr, a->isr_count);
    finish_table(a->swi, a->swi_count);
    finish_table(a->latency, a->latency_count);
    finish_table(a->response, a->response_count);
    if (a->isr_count > 1)
        qsort(a->isr, a->isr_count, sizeof *a->isr, by_key);
    if (a->swi_count > 1)
        qsort(a->swi, a->swi_count, sizeof *a->swi, by_key);
    s->isr = a->isr;
    s->isr_count = a->isr_count;
    s->swi = a->swi;
    s->swi_count = a->swi_count;
    s->load_cores = a->cores;
    s->latency = a->latency;
    s->latency_count = a->latency_count;
    s->response = a->response;
    s->response_count = a->response_count;
    if (finish_load(a, s) < 0)
        a->oom = 1;
    s->time_dropped = a->dropped;
    trx_pair_map_free(&a->isr_map);
    trx_pair_map_free(&a->swi_map);
    trx_address_map_free(&a->lat_map);
    trx_address_map_free(&a->resp_map);
    trx_address_map_free(&a->pending_map);
    free(a->pending);
    free(a->frames);
    free(a->per_core);
    return a->oom ? -1 : 0;
}

/* ------------------------------------------------------------ segments */

/* Fingerprint tags: which part of the state an entry is. */
enum {
    FP_CORE = 0x74696d31, /* a core's previous event */
    FP_FRAME,             /* an open ISR / Swi frame of a core */
    FP_PENDING,           /* a thread's pending start (pending_live counts them) */
    FP_SHAPE              /* the windows' and cores' set-up */
};

/* Whether a pending start of `thread` can never end: every event of the
 * thread shows idle time instead of it (the default mode's idle task of a
 * FreeRTOS trace, as the cursor shows it; a SYS/BIOS Idle task, as the model
 * shows it in both modes), so it neither runs nor is handed the CPU. Its
 * resume ticks go back to its first resume, which no warm-up sees. */
static bool never_ends(const trx_trace *t, uint32_t thread)
{
    if (t->format == TRX_TRACE_TXTB)
        return t->idle_task != 0 && thread == t->idle_task && trx_context_is_idle_task(t, thread);
    int32_t th = t->idle_threads ? trx_thread_for_context(t, thread) : -1;
    return th >= 0 && t->threads[th].idle;
}

/* Segments (segment_units.h): the state is each core's previous event and
 * open interrupt frames, and the threads' pending starts (pending_live
 * counts them) but those that can never end (never_ends). Counts of
 * backward steps enter relative to the running count (only their
 * differences matter). Of a core's previous event, what the time after it
 * counts as (prev_state) and its ticks. a->last_ticks is left out: only the
 * end reads it, and the merge takes the larger (the cores' prev_ticks
 * brought in first). A full keyed table (MAX_KEYS) decides which later keys
 * are dropped: it makes the state unmergeable. */
void trx_timing_fingerprint(const trx_timing *a, const trx_trace *t, trx_fingerprint *f,
                            uint64_t base)
{
    (void)base; /* the state holds no event numbers */
    if (a->isr_count >= MAX_KEYS || a->swi_count >= MAX_KEYS || a->latency_count >= MAX_KEYS ||
        a->response_count >= MAX_KEYS) {
        trx_fp_unmergeable(f);
        return;
    }
    uint64_t shape[2] = {a->window, a->cores};
    trx_fp_add(f, FP_SHAPE, shape, 2);
    for (uint32_t n = 0; n < a->cores; n++) {
        const trx_timing_core *c = &a->per_core[n];
        uint64_t core[6] = {n, c->have_prev, c->prev_state, c->prev_ticks, c->last_ticks, c->depth};
        trx_fp_add(f, FP_CORE, core, 6);
        for (uint32_t d = 0; d < c->depth && d < MAX_NEST; d++) {
            const trx_isr_frame *fr = &c->nest[d];
            uint64_t frame[7] = {
                n, d, fr->id, fr->swi, fr->enter, fr->nested, a->backsteps - fr->backsteps};
            trx_fp_add(f, FP_FRAME, frame, 7);
        }
    }
    const pending_start *p = a->pending;
    for (uint32_t s = 0; s < a->pending_map.cap; s++) {
        const trx_address_slot *slot = &a->pending_map.slots[s];
        if (!slot->used || slot->value == 0 || slot->value > a->pending_count)
            continue;
        const pending_start *ps = &p[slot->value - 1];
        if ((!ps->resume && !ps->irq) /* ended: as good as absent */ || never_ends(t, slot->key))
            continue;
        uint64_t start[4] = {slot->key, ps->resume, ps->irq, a->backsteps - ps->backsteps};
        trx_fp_add(f, FP_PENDING, start, 4);
    }
}

/* Empties a keyed table (its map is freed apart). */
static void clear_table(trx_keyed_duration *v, uint32_t *n)
{
    for (uint32_t i = 0; i < *n; i++)
        free(v[i].d.hist);
    *n = 0;
}

void trx_timing_clear_results(trx_timing *a)
{
    a->tables++; /* the indexes remembered into the tables go */
    a->keys_dropped = false;
    clear_table(a->isr, &a->isr_count);
    clear_table(a->swi, &a->swi_count);
    clear_table(a->latency, &a->latency_count);
    clear_table(a->response, &a->response_count);
    trx_pair_map_free(&a->isr_map);
    trx_pair_map_free(&a->swi_map);
    trx_address_map_free(&a->lat_map);
    trx_address_map_free(&a->resp_map);
    if (a->busy)
        memset(a->busy, 0, a->window_cap * a->cores * sizeof *a->busy);
    if (a->unknown)
        memset(a->unknown, 0, a->window_cap * a->cores * sizeof *a->unknown);
    a->window_count = 0;
    a->win_index = 0; /* the next interval goes through load_add_split (window_count) */
    a->win_lo = 1;
    a->win_hi = 0;
    a->dropped = 0;
}

/* One keyed table of a trx_timing: its entries and the map of their keys
 * (by thread, or by (core or 0, number / handle)). */
typedef struct keyed_table {
    trx_keyed_duration **v;
    uint32_t *n, *cap;
    trx_address_map *threads; /* NULL: `pairs` */
    trx_pair_map *pairs;
} keyed_table;

static keyed_table thread_table(trx_keyed_duration **v, uint32_t *n, uint32_t *cap,
                                trx_address_map *m)
{
    return (keyed_table){v, n, cap, m, NULL};
}

static keyed_table pair_table(trx_keyed_duration **v, uint32_t *n, uint32_t *cap, trx_pair_map *m)
{
    return (keyed_table){v, n, cap, NULL, m};
}

/* The pair map's key of an interrupt entry (its core on AMP, else 0). */
static uint32_t pair_core(const trx_timing *a, const trx_keyed_duration *k)
{
    return a->per_core_interrupts ? k->core : 0;
}

/* Adds the durations of `from` (later) to `to` (earlier): as if `to`'s had
 * been added first (the earlier keeps the worst on ties). */
static void join_entry(trx_keyed_duration *to, trx_keyed_duration *from)
{
    if (from->d.count == 0)
        return;
    if (to->d.count == 0 || from->d.max > to->d.max) {
        to->max_index = from->max_index;
        to->max_ticks = from->max_ticks;
    }
    if (to->d.count == 0 || from->min_excl < to->min_excl)
        to->min_excl = from->min_excl;
    if (from->max_excl > to->max_excl)
        to->max_excl = from->max_excl;
    if (to->d.count == 0 || from->d.min < to->d.min)
        to->d.min = from->d.min;
    if (from->d.max > to->d.max)
        to->d.max = from->d.max;
    to->d.count += from->d.count;
    to->d.sum += from->d.sum;
    if (!to->d.hist) {
        to->d.hist = from->d.hist;
        from->d.hist = NULL;
    } else if (from->d.hist) {
        for (uint32_t b = 0; b < TRX_LOG_HIST_BUCKETS; b++)
            to->d.hist[b] += from->d.hist[b];
    }
}

/* Joins table `l` (later's, its event numbers moved on by `offset`) into
 * `e` (earlier's), keys in first-seen order: earlier's, then later's new
 * ones up to MAX_KEYS (the one walk drops those past it); then moves the
 * joined table into `l`, leaving `e` empty. 0, or -1 out of memory. */
static int join_table(trx_timing *later, keyed_table l, keyed_table e, uint64_t offset)
{
    int rc = 0;
    for (uint32_t i = 0; i < *l.n; i++) {
        trx_keyed_duration *k = &(*l.v)[i];
        k->max_index += offset;
        uint32_t at;
        bool found = l.threads ? trx_address_map_get(e.threads, k->key, &at)
                               : trx_pair_map_get(e.pairs, pair_core(later, k), k->key, &at);
        if (found) {
            join_entry(&(*e.v)[at], k);
        } else if (rc == 0 && *e.n < MAX_KEYS) {
            if (*e.n == *e.cap && !grow_keyed(later, e.v, e.cap)) {
                rc = -1;
            } else if (l.threads ? trx_address_map_put(e.threads, k->key, *e.n) < 0
                                 : !trx_pair_map_put(e.pairs, pair_core(later, k), k->key, *e.n)) {
                rc = -1;
            } else {
                (*e.v)[(*e.n)++] = *k;
                k->d.hist = NULL; /* moved */
            }
        }
        free(k->d.hist);
    }
    free(*l.v);
    *l.v = *e.v;
    *l.n = *e.n;
    *l.cap = *e.cap;
    *e.v = NULL;
    *e.n = *e.cap = 0;
    if (l.threads) {
        trx_address_map_free(l.threads);
        *l.threads = *e.threads;
        memset(e.threads, 0, sizeof *e.threads);
    } else {
        trx_pair_map_free(l.pairs);
        *l.pairs = *e.pairs;
        memset(e.pairs, 0, sizeof *e.pairs);
    }
    return rc;
}

/* Adds earlier's load windows to later's (per window and core sums). */
static void join_load(trx_timing *later, trx_timing *earlier)
{
    if (earlier->window_cap > later->window_cap) { /* keep the larger arrays */
        uint64_t *b = later->busy, *u = later->unknown, cap = later->window_cap;
        later->busy = earlier->busy;
        later->unknown = earlier->unknown;
        later->window_cap = earlier->window_cap;
        earlier->busy = b;
        earlier->unknown = u;
        earlier->window_cap = cap;
    }
    uint64_t n = earlier->window_cap * earlier->cores;
    for (uint64_t i = 0; earlier->busy && earlier->unknown && i < n; i++) {
        later->busy[i] += earlier->busy[i];
        later->unknown[i] += earlier->unknown[i];
    }
    if (earlier->window_count > later->window_count)
        later->window_count = earlier->window_count;
}

int trx_timing_merge(trx_timing *later, trx_timing *earlier, const trx_trace *t, uint64_t offset)
{
    (void)t;
    /* a key the segment left out for want of room may be one the part
     * before has (the one walk would count its events): not exact */
    if (later->keys_dropped)
        return TRX_MERGE_REFUSED;
    later->keys_dropped = earlier->keys_dropped;
    later->tables++; /* the joined tables' indexes differ */
    int rc = 0;
    if (join_table(
            later, pair_table(&later->isr, &later->isr_count, &later->isr_cap, &later->isr_map),
            pair_table(&earlier->isr, &earlier->isr_count, &earlier->isr_cap, &earlier->isr_map),
            offset) < 0)
        rc = -1;
    if (join_table(
            later, pair_table(&later->swi, &later->swi_count, &later->swi_cap, &later->swi_map),
            pair_table(&earlier->swi, &earlier->swi_count, &earlier->swi_cap, &earlier->swi_map),
            offset) < 0)
        rc = -1;
    if (join_table(later,
                   thread_table(&later->latency, &later->latency_count, &later->latency_cap,
                                &later->lat_map),
                   thread_table(&earlier->latency, &earlier->latency_count, &earlier->latency_cap,
                                &earlier->lat_map),
                   offset) < 0)
        rc = -1;
    if (join_table(later,
                   thread_table(&later->response, &later->response_count, &later->response_cap,
                                &later->resp_map),
                   thread_table(&earlier->response, &earlier->response_count,
                                &earlier->response_cap, &earlier->resp_map),
                   offset) < 0)
        rc = -1;
    join_load(later, earlier);
    later->dropped += earlier->dropped;
    sync_last_ticks(earlier);
    sync_last_ticks(later);
    if (earlier->last_ticks > later->last_ticks)
        later->last_ticks = earlier->last_ticks; /* the span: the latest ticks of all */
    if (earlier->oom)
        later->oom = 1;
    return rc;
}

void trx_timing_discard(trx_timing *a)
{
    trx_stats s = {0};
    trx_timing_finish(a, &s);
    trx_stats_free(&s);
}
