/* analyses.h - the single-pass analyses behind trx_stats_compute. Each keeps
 * its own small state, is fed every event in TraceX order, and writes its
 * results into trx_stats when finished. */
#ifndef TRX_ANALYSES_H
#define TRX_ANALYSES_H

#include <stdbool.h>

#include "util/entry_index.h"
#include "trx/stats.h"
#include "util/address_map.h"
#include "decode/sysbios_tasks.h"

/* Thread-ish: a real thread address (not idle, not ISR, not initialization). */
static inline bool trx_is_threadish(uint32_t ctx)
{
    return ctx != 0 && ctx != TRX_CONTEXT_ISR && ctx != TRX_CONTEXT_INIT;
}

/* ThreadX changes a ready thread's priority (tx_thread_priority_change,
 * priority inheritance in tx_mutex_get, its restore in tx_mutex_put) by an
 * INTERNAL SUSPEND and RESUME of that thread with state TX_PRIORITY_CHANGE
 * (14), logged in the caller's context. Such a pair is no wait and no wakeup. */
/* trx_trace_first_thread_at(t, ev->context) for an event of a thread
 * context: the cursor's look-up (ev->thread) when it names the same thread,
 * i.e. when no address has a non-thread object first and a thread after it
 * (and the event is no RUNNING event TraceX gives to thread 0). */
static inline int32_t trx_event_first_thread(const trx_trace *t, const trx_event *ev)
{
    if (!t->first_thread_map_ && !(ev->synthetic && t->mode == TRX_MODE_TRACEX))
        return ev->thread;
    return trx_trace_first_thread_at(t, ev->context);
}

static inline bool trx_is_priority_change(const trx_event *ev)
{
    return ev->priority_change;
}

/* What trx_stats_compute_kept tells of an inversion beyond those kept: its
 * window (the blocking GET's event number, the waiter's first event after
 * it, or the trace's last for one still open at the end) and whether it was
 * unbounded - what trx serve draws. Segments hold these until their merge
 * (24 bytes each), not whole inversions (96). */
typedef struct trx_inversion_band {
    uint64_t start_index, end_index;
    bool unbounded;
} trx_inversion_band;

/* A complete priority inversion beyond those kept (trx_stats_compute_kept):
 * `number` is its place in the list all of them would make. */
typedef void (*trx_inversion_done_fn)(void *ctx, const trx_inversion_band *b, uint32_t number);

/* An analysis of the caller's fed beside the cursor of trx_stats_compute_fed
 * (the same walk, so no second pass over the trace). */
typedef void (*trx_stats_feed_fn)(void *ctx, const trx_event *ev);

/* trx_stats_compute_windowed, feeding every event to `extra` too (NULL:
 * none). The analyses keyed by the catalogue's ids (stack usage, services,
 * FileX, NetX) run on TXTB traces only: other formats' ids mean other things. */
int trx_stats_compute_fed(trx_trace *t, trx_stats *s, uint64_t window, trx_stats_feed_fn extra,
                          void *extra_ctx);

/* The caller's analysis beside the statistics' walk, which may run on
 * segments of the trace (on threads) when it can be forked and joined:
 * each later segment feeds a fork of its own (after a warm-up it forgets:
 * clear), joined in trace order into the one before; `ctx` ends up holding
 * the whole trace's. Without fork, the walk runs once. An analysis whose
 * state at a segment's start matters gives `fingerprint` too: the join may
 * then refuse, and the part before is fed the segment's events itself. */
struct trx_fingerprint;
typedef struct trx_stats_extra {
    trx_stats_feed_fn feed;
    void *ctx;
    /* an empty analysis like ctx, for a later segment; NULL: out of memory */
    void *(*fork)(void *ctx);
    /* forgets everything fed to `part` so far */
    void (*clear)(void *part);
    /* adds `later` (fed the events right after those fed to `earlier`;
     * its event numbers + offset are the trace's) to `earlier`: 0, -1
     * when out of memory, or (with `fingerprint`) TRX_MERGE_REFUSED:
     * nothing changed, earlier is fed later's events instead */
    int (*join)(void *earlier, void *later, uint64_t offset);
    /* frees a fork */
    void (*discard)(void *part);
    /* NULL, or adds the state of `part` to *f (segment_merge.h): a
     * segment's at its first event, the part before's at its end; the join
     * is tried only when they are equal */
    void (*fingerprint)(const void *part, struct trx_fingerprint *f, uint64_t base);
} trx_stats_extra;

/* trx_stats_compute_fed with `x` (on segments when x->fork is set). */
int trx_stats_compute_extra(trx_trace *t, trx_stats *s, uint64_t window, const trx_stats_extra *x);

/* trx_stats_compute_extra when it would run on segments (x->fork set, a
 * trace large enough, more than one job); else TRX_STATS_ONE_WALK, with
 * nothing computed or fed (the trace may have been prepared). */
#define TRX_STATS_ONE_WALK 1
int trx_stats_compute_extra_on_segments(trx_trace *t, trx_stats *s, uint64_t window,
                                        const trx_stats_extra *x);

/* trx_stats_compute keeping the first `keep` priority inversions of the
 * default mode in the list; each other one goes to `done` once, with its
 * number (TraceX's mode keeps them all). `done` is never called from two
 * threads at once: one walk calls it from the thread that feeds the
 * inversions (a helper thread when it fans out), segments from the calling
 * thread only (segment 0's as they end, each later segment's at its merge,
 * so not in the order of the numbers). */
int trx_stats_compute_kept(trx_trace *t, trx_stats *s, uint32_t keep, trx_inversion_done_fn done,
                           void *ctx);

/* Context switches (tracex.md 2.9). */
typedef struct trx_switch_counter {
    uint32_t cur;
    uint64_t switches;
} trx_switch_counter;
void trx_switches_feed(trx_switch_counter *a, const trx_event *ev);

/* Preemptions and time slices, which share TraceX's look-ahead variable. */
typedef struct trx_preemption_counter {
    uint32_t cur;
    uint64_t preemptions;
    uint64_t time_slice_events;
    bool first_is_time_slice;
    bool seen_any;
    /* RESUME events waiting for the next thread-ish next context */
    uint64_t pending_resumes;
    uint32_t pending_cur;       /* cur when the first pending RESUME came */
    uint64_t pending_slices;    /* TIME_SLICEs after it */
    uint64_t pending_slices_ne; /* ... whose next differs from pending_cur */
    uint32_t last_next;
    bool last_is_resume;
} trx_preemption_counter;
void trx_preemptions_feed(trx_preemption_counter *a, const trx_event *ev);
void trx_preemptions_finish(trx_preemption_counter *a, trx_stats *s);

/* Interrupts and nested interrupts. */
typedef struct trx_interrupt_counter {
    uint32_t nesting;
    uint64_t interrupts, nested;
} trx_interrupt_counter;
void trx_interrupts_feed(trx_interrupt_counter *a, const trx_event *ev);

/* Priority inversions (tracex.md 2.8) in one pass; an owner's first
 * priority, before its first event, comes from a look-ahead cursor of its own
 * over `t` that reads only as far as needed. */
typedef struct trx_inversion_finder trx_inversion_finder;
trx_inversion_finder *trx_inversions_new(trx_trace *t);
void trx_inversions_feed(trx_inversion_finder *f, const trx_event *ev);
int trx_inversions_finish(trx_inversion_finder *f, trx_stats *s); /* frees f */

/* Correct mode (docs/analyses.md): context switches, preemptions, time
 * slices, interrupts and nested interrupts as they happened. */
typedef struct trx_performance_core {
    bool have_running, orphan_run, yielding;
    uint32_t running, nesting;
} trx_performance_core;
typedef struct trx_correct_performance {
    trx_performance_core one, *per_core; /* per_core: several cores' contexts */
    uint32_t cores;
    uint64_t switches, preemptions, time_slices, interrupts, nested;
    /* thread -> its state (performance_correct.c): suspended, known (a
     * SUSPEND or RESUME of it seen here), and 1 + its slot in
     * unknown_lookups once it is looked up before any was seen */
    trx_address_map suspended;
    /* per such thread: how often it was switched away from while its state
     * was unknown here (counted as preemptions; a segment's merge takes
     * back those of a thread the part before left suspended) */
    uint64_t *unknown_lookups;
    uint32_t unknown_count, unknown_cap;
    /* a segment's that starts part-way (set by stats_segments.c): only it
     * notes unknown lookups (a walk from the start knows every state, and
     * noting would cost a map entry per thread on traces of many threads) */
    bool part_way;
    int oom;
} trx_correct_performance;
/* 0, or -1 when out of memory. */
int trx_correct_performance_init(trx_correct_performance *a, const trx_trace *t);
void trx_correct_performance_feed(trx_correct_performance *a, const trx_event *ev);
void trx_correct_performance_finish(trx_correct_performance *a, trx_stats *s);

/* Correct mode: every priority inversion on a mutex or a semaphore used as
 * a lock, each window on its own (inversions_correct.c). */
typedef struct trx_correct_inversions trx_correct_inversions;
trx_correct_inversions *trx_correct_inversions_new(const trx_trace *t);
void trx_correct_inversions_feed(trx_correct_inversions *f, const trx_event *ev);
int trx_correct_inversions_finish(trx_correct_inversions *f, trx_stats *s); /* frees f */
/* Stores only the first `keep` windows in the list (trx_stats.inversion_list,
 * inversion_count); each later one, once complete, goes to `done` as a band
 * (in the order they end, with its number), so that memory does not grow
 * with the windows (trx serve). The counts (inversions, bad_inversions) are
 * of all. */
void trx_correct_inversions_keep(trx_correct_inversions *f, uint32_t keep,
                                 trx_inversion_done_fn done, void *ctx);

/* Timing analyses (timing.c): ISR durations, latencies, CPU load. */
typedef struct trx_isr_frame {
    uint32_t id;
    bool swi; /* a software interrupt's (SWI_BEGIN) */
    uint64_t enter, nested;
    uint64_t backsteps; /* trx_timing.backsteps at its start */
} trx_isr_frame;
/* What one core of the trace's contexts runs, as the timing analyses follow it. */
typedef struct trx_timing_core {
    bool have_prev;
    uint8_t prev_state;  /* what the time after the previous event counts as (timing.c LOAD_*) */
    uint64_t prev_ticks; /* the latest ticks seen (time that ran back does not lower it) */
    uint64_t last_ticks; /* the previous event's own ticks */
    trx_isr_frame *nest; /* MAX_NEST frames (timing.c) */
    uint32_t depth;
} trx_timing_core;
/* A recent look-up of trx_timing.pending_map: key, value (0: absent). */
#define TRX_TIMING_RECENT_BITS 4
typedef struct trx_timing_recent {
    uint32_t key, value;
} trx_timing_recent;
/* A recent look-up of an interrupt's entry in trx_timing.isr or swi: its
 * (core or 0, number / handle), index + 1 (0: none), and trx_timing.tables
 * then. */
#define TRX_TIMING_IRQ_RECENT 8
typedef struct trx_timing_irq_recent {
    uint32_t core, id, at, tables;
} trx_timing_irq_recent;
typedef struct trx_timing {
    uint64_t window;
    uint64_t last_ticks; /* the latest ticks (with the cores' prev_ticks: sync_last_ticks) */
    /* per window and core ([window x cores + core]): busy ticks, ticks whose
     * state is unknown (before the core's first event or its first task
     * switch (SYS/BIOS), after its last event) */
    uint64_t *busy, *unknown, window_count, window_cap, window_limit;
    bool init_unknown;  /* initialization time is unknown time (UIA), not busy (TXTB) */
    uint64_t backsteps; /* how often a core's time went backwards so far */
    uint64_t dropped;   /* intervals spanning a backward step, left out */
    uint64_t win_index, win_lo, win_hi; /* the last window load_add used: [lo, hi) */
    trx_timing_core *per_core;          /* one per core of the trace's contexts */
    uint32_t cores;
    uint8_t init_state;    /* what time after an initialization event counts as (LOAD_*) */
    trx_isr_frame *frames; /* the cores' nest frames, one block */
    trx_keyed_duration *isr, *swi, *latency, *response;
    uint32_t isr_count, isr_cap, swi_count, swi_cap, latency_count, latency_cap, response_count,
        response_cap;
    trx_address_map lat_map, resp_map, pending_map;
    trx_pair_map isr_map, swi_map; /* (core or 0, number / handle) -> index */
    bool per_core_interrupts;      /* AMP: Hwis and Swis per (core, key) */
    void *pending;
    uint32_t pending_count, pending_cap;
    uint32_t pending_live; /* pending starts not ended yet */
    uint32_t no_wait;      /* an address known to have no pending start (0: idle, none) */
    /* the recent look-ups of pending_map, by hash of the key */
    trx_timing_recent recent[1u << TRX_TIMING_RECENT_BITS];
    /* the recent look-ups of isr_map ([0]) and swi_map ([1]), by hash */
    trx_timing_irq_recent irq_recent[2][TRX_TIMING_IRQ_RECENT];
    uint32_t tables;   /* changes where the keyed tables' indexes may (a clear, a merge) */
    bool keys_dropped; /* a keyed table was full: a key's figures were left out */
    int oom;
} trx_timing;
/* 0; -1 out of memory; -2 when `span` / `window` reaches TRX_LOAD_WINDOWS_MAX:
 * the CPU-load windows are bounded by that cap, never by a tick value alone.
 * window 0: no CPU load (a trace without thread context). */
int trx_timing_init(trx_timing *a, const trx_trace *t, uint64_t window, uint64_t span);
void trx_timing_feed(trx_timing *a, const trx_event *ev);
/* trx_timing_feed for an `a` of one core (a->cores 1: a trace whose
 * contexts are all of one core), faster. */
void trx_timing_feed_one(trx_timing *a, const trx_event *ev);
int trx_timing_finish(trx_timing *a, trx_stats *s); /* hands its tables to s */
void trx_duration_add(trx_duration *d, uint64_t v);

/* The slot of `ev`'s core among `cores` per-core states (trx_trace_context_cores). */
static inline uint32_t trx_core_slot(uint32_t cores, const trx_event *ev)
{
    return ev->core < cores ? ev->core : 0;
}

/* Execution profile: ticks per next context, per core of the trace's
 * contexts (the ticks between two events of one core go to the first
 * one's next context). */
typedef struct trx_profile_core {
    bool have_prev;
    uint32_t prev_next;
    uint64_t prev_ticks;
} trx_profile_core;
typedef struct trx_profile {
    trx_profile_core one, *per_core; /* per_core: several cores' contexts */
    uint32_t cores;
    uint32_t last_context; /* the last event's context and its first thread (-1: none) */
    int32_t last_first;
    /* the last next context looked up and its first thread, with 1 + the
     * trace's thread count then (0: none yet; a thread added: stale) */
    uint32_t looked_up, looked_up_threads;
    int32_t looked_up_first;
} trx_profile;
/* 0, or -1 when out of memory. */
int trx_profile_init(trx_profile *a, const trx_trace *t);
void trx_profile_free(trx_profile *a);
/* The per-thread feeds take `first`: trx_trace_first_thread_at of the
 * event's context, -1 for no thread context (looked up once per event).
 * Inline: it is fed every event (execution_profile.c has the rest).
 * `one_core` (a constant): a->per_core is NULL (the walk knows). */
static inline void trx_profile_feed_on(trx_profile *a, const trx_trace *t, const trx_event *ev,
                                       int32_t first, trx_stats *s, const bool one_core)
{
    trx_profile_core *c =
        one_core || !a->per_core ? &a->one : &a->per_core[trx_core_slot(a->cores, ev)];
    uint64_t ticks = ev->ticks, prev = c->prev_ticks;
    uint32_t n = c->prev_next;
    if (!c->have_prev) {
        c->prev_ticks = ticks;
        c->have_prev = true;
    } else {
        uint64_t d = ticks > prev ? ticks - prev : 0;
        /* time that ran back (UIA) is not counted twice */
        c->prev_ticks = ticks > prev ? ticks : prev;
        if (n == ev->context && first >= 0) {
            /* mostly: the thread of this event (a thread context, so no
             * interrupt, idle or initialization) */
            s->threads[first].execution_ticks += d;
        } else if (n == TRX_CONTEXT_ISR) {
            s->interrupt_ticks += d;
        } else if (n == TRX_CONTEXT_IDLE) {
            s->idle_ticks += d;
        } else if (n != TRX_CONTEXT_INIT) {
            /* else mostly the thread of the last event; else mostly the one
             * looked up last (while no thread is added) */
            int32_t i;
            if (n == ev->context) {
                i = first;
            } else if (n == a->last_context && a->last_first >= 0) {
                i = a->last_first;
            } else if (n == a->looked_up && a->looked_up_threads == t->thread_count + 1) {
                i = a->looked_up_first;
            } else {
                i = a->looked_up_first = trx_trace_first_thread_at(t, n);
                a->looked_up = n;
                a->looked_up_threads = t->thread_count + 1;
            }
            if (i >= 0)
                s->threads[i].execution_ticks += d;
        }
    }
    a->last_context = ev->context; /* (its first: when it has one) */
    a->last_first = first;
    c->prev_next = ev->next_context;
}

/* trx_profile_feed_on for any profile (one_core: a profile without per_core
 * states, its trace's contexts all of one core). */
static inline void trx_profile_feed(trx_profile *a, const trx_trace *t, const trx_event *ev,
                                    int32_t first, trx_stats *s)
{
    trx_profile_feed_on(a, t, ev, first, s, false);
}

/* Per-thread event totals (RUNNING events included) and the suspensions and
 * resumptions each thread performed, plus the system-wide counts. Threads
 * sharing an address get the same counts: only the first (`first`) is
 * counted here, same_address.c copies them. Inline: it is fed every event. */
static inline void trx_thread_counts_feed(const trx_event *ev, int32_t first, trx_stats *s)
{
    if (first >= 0)
        s->threads[first].total_events++;
    _Static_assert(TRX_KIND_SUSPEND == TRX_KIND_RESUME + 1, "one range test for both kinds");
    if ((uint32_t)ev->kind - TRX_KIND_RESUME < 2u) {
        bool suspend = ev->kind == TRX_KIND_SUSPEND;
        s->suspensions += suspend;
        s->resumptions += !suspend;
        if (first >= 0) {
            s->threads[first].suspensions += suspend;
            s->threads[first].resumptions += !suspend;
        }
    }
}

/* Copies the per-thread figures the analyses credit to the first thread at
 * an address (counts, ticks, services) to the other threads there
 * (same_address.c); after trx_thread_popularity_finish. 0, or -1 out of memory. */
int trx_same_address_spread(const trx_trace *t, trx_stats *s);
/* Stack usage (stack_usage.c): per address group of threads, the lowest
 * stack pointer and, per distinct stack start, the last event below it. */
typedef struct trx_stack_group {
    uint32_t first_start, start_count; /* its sorted distinct starts in trx_stack_usage.starts */
    uint32_t min_sp;                   /* the lowest stack pointer its events showed */
    uint64_t min_index;                /* the first event that showed it */
    bool seen;
} trx_stack_group;
typedef struct trx_stack_usage {
    uint32_t *group_of; /* by first thread at an address: its group */
    trx_stack_group *groups;
    uint32_t group_count;
    uint32_t *starts; /* every group's distinct stack starts */
    uint32_t start_count;
    uint64_t *below; /* per start: 1 + the last event whose pointer was just below it (0: none) */
    bool one_each;   /* no two threads share an address: group = start = thread, and
                        group_of and starts are not kept (groups, below: touched on use) */
} trx_stack_usage;
int trx_stack_usage_init(trx_stack_usage *u, const trx_trace *t); /* 0, or -1 out of memory */
/* The information word (0-3) that holds the stack pointer in events `id`
 * (the catalogue's field of role "stack"), or -1: none. */
int trx_stack_usage_field(uint32_t id);
/* trx_stack_usage_feed where threads share addresses (stack_usage.c). */
void trx_stack_usage_feed_shared(trx_stack_usage *u, uint64_t index, uint32_t first, uint32_t sp);
/* Feeds `ev`, an event of thread `first` (trx_event_first_thread, >= 0)
 * whose word `field` (trx_stack_usage_field) holds its stack pointer; the
 * walk feeds only such events. Inline: most events are. */
static inline void trx_stack_usage_feed(trx_stack_usage *u, const trx_trace *t, const trx_event *ev,
                                        uint32_t first, uint32_t field)
{
    uint32_t sp = ev->info[field & 3];
    if (!u->one_each) {
        trx_stack_usage_feed_shared(u, ev->index, first, sp);
        return;
    }
    trx_stack_group *g = &u->groups[first];
    if (!g->seen || sp < g->min_sp) {
        g->seen = true;
        g->min_sp = sp;
        g->min_index = ev->index;
    }
    if (sp < t->threads[first].stack_start)
        u->below[first] = ev->index + 1;
}
/* Writes every thread's stack_min_available / stack_min_event and frees u. */
int trx_stack_usage_finish(trx_stack_usage *u, const trx_trace *t, trx_stats *s);
void trx_stack_usage_discard(trx_stack_usage *u); /* frees u without results */

/* Popular services: counts per id in first-seen order, then TraceX's sort. */
typedef struct trx_popularity {
    uint64_t *count; /* 65536 counters */
    uint32_t *order; /* ids in first-seen order */
    uint32_t distinct;
    bool tracex_order; /* TraceX's unstable sort, else count then first seen */
} trx_popularity;
int trx_popularity_init(trx_popularity *p);
/* Counts `ev`'s id (RUNNING events are no service). Inline: it is fed every event. */
static inline void trx_popularity_feed(trx_popularity *p, const trx_event *ev)
{
    if (ev->kind == TRX_KIND_RUNNING)
        return;
    if (p->count[ev->id]++ == 0)
        p->order[p->distinct++] = ev->id;
}
int trx_popularity_finish(trx_popularity *p, trx_stats *s); /* frees p's memory */

/* Service counts, most frequent first: with `tracex_order` TraceX's exchange
 * sort (not stable, O(n^2) in the distinct ids, at most 65,536), else equal
 * counts in first-seen order (O(n log n)). */
int trx_services_sort(trx_service_count *v, uint32_t n, bool tracex_order);

/* Per-thread popular services (RUNNING included), as TraceX's per-thread
 * popularity lists them. */
#define TRX_TPOP_RECENT_BITS 8        /* slots of a thread's recent counters: by an id's low bits */
#define TRX_TPOP_RECENT_THREADS 1024u /* threads with such slots (1 KB each); the others hash */
typedef struct trx_thread_popularity {
    struct trx_thread_service *entries; /* (thread, id, count), first seen first */
    uint32_t entry_count, entry_cap;
    uint32_t *first; /* per thread: its first entry + 1, 0 = none (no hash for it) */
    uint32_t first_cap;
    trx_entry_index hash; /* (thread, id) of the other entries */
    uint32_t hashed;
    /* per thread below recent_threads (a thread index, at most
     * TRX_TPOP_RECENT_THREADS): 1 << TRX_TPOP_RECENT_BITS slots, the entry + 1
     * (0: none) of an id of that thread counted last, by the id's low bits */
    uint32_t *recent;
    uint32_t recent_threads;
    int oom;
    bool tracex_order; /* as trx_popularity.tracex_order */
} trx_thread_popularity;
/* One (thread, id) counter while counting. */
struct trx_thread_service {
    uint32_t thread, id;
    uint64_t count;
};
/* Where (thread, id) starts its search in trx_thread_popularity.hash. */
static inline uint32_t trx_thread_service_hash(uint32_t thread, uint32_t id)
{
    uint64_t key = (uint64_t)thread << 16 ^ id;
    key ^= key >> 29;
    key *= 0xBF58476D1CE4E5B9ull;
    key ^= key >> 32;
    return (uint32_t)key;
}
/* Counts `n` events `id` of thread `th`, adding its counter when new
 * (thread_services.c), and makes it the recent one of its slot. */
void trx_thread_popularity_count(trx_thread_popularity *p, uint32_t th, uint32_t id, uint64_t n);
/* Counts `ev` for thread `first` (none: -1). Inline: a counter counted
 * lately is found in the thread's recent slots (one load, one compare of
 * the id); any other goes through trx_thread_popularity_count. */
static inline void trx_thread_popularity_feed(trx_thread_popularity *p, const trx_event *ev,
                                              int32_t first)
{
    if (first < 0)
        return;
    uint32_t th = (uint32_t)first, id = ev->id;
    if (th < p->recent_threads) {
        uint32_t e = p->recent[(size_t)th << TRX_TPOP_RECENT_BITS |
                               (id & ((1u << TRX_TPOP_RECENT_BITS) - 1))];
        if (e != 0 && p->entries[e - 1].id == id) {
            p->entries[e - 1].count++;
            return;
        }
    }
    trx_thread_popularity_count(p, th, id, 1);
}
int trx_thread_popularity_finish(trx_thread_popularity *p, trx_stats *s); /* frees p */

/* FileX and NetX statistics: each counts only its component's ids (FileX
 * 200-299, NetX 300-599; stats.c feeds them those only). */
void trx_filex_feed(trx_filex_stats *f, const trx_event *ev);
void trx_netx_feed(trx_netx_stats *n, const trx_event *ev);

#endif
