/* stats_walk.h - the analyses of one walk of trx_stats_compute as a unit
 * (stats.c): set up, fed event by event (all of them, or a chosen set:
 * the segments' fallback walks), finished into trx_stats. Each analysis is
 * one "unit" (STATS_U_*): what stats_segments.c fingerprints, merges or
 * walks again on its own. */
#ifndef TRX_STATS_WALK_H
#define TRX_STATS_WALK_H

#include "analyze/analyses.h"
#include "analyze/core_tracker.h"
#include "util/inline_hints.h"

/* How many inversions the list keeps, and where the others go. */
typedef struct trx_kept_inversions {
    uint32_t keep;
    trx_inversion_done_fn done;
    void *ctx;
} trx_kept_inversions;

enum {
    STATS_U_FILEX = 1u << 0,  /* FileX counts (trx_stats.filex) */
    STATS_U_NETX = 1u << 1,   /* NetX counts (trx_stats.netx) */
    STATS_U_COUNTS = 1u << 2, /* per-thread events, suspensions, resumptions */
    STATS_U_STACK = 1u << 3,
    STATS_U_POP = 1u << 4,  /* popular services */
    STATS_U_TPOP = 1u << 5, /* per-thread services */
    STATS_U_PROF = 1u << 6, /* execution profile */
    STATS_U_TIMING = 1u << 7,
    STATS_U_PERF = 1u << 8,   /* correct mode: switches, preemptions, ... */
    STATS_U_CINV = 1u << 9,   /* correct mode: inversions */
    STATS_U_CORES = 1u << 10, /* correct mode: core tracker */
    STATS_U_XSW = 1u << 11,   /* TraceX: context switches */
    STATS_U_XPRE = 1u << 12,  /* TraceX: preemptions, time slices */
    STATS_U_XIRQ = 1u << 13,  /* TraceX: interrupts */
    STATS_U_XINV = 1u << 14,  /* TraceX: inversions */
    STATS_U_EXTRA = 1u << 15, /* the caller's analysis (trx_stats_extra), on segments */
    STATS_UNIT_COUNT = 16
};

/* Not a unit: a walk whose events' thread (ev->thread) is always the first
 * thread at their context, -1 for the interrupt, initialization and idle
 * ones, whose profile and timing follow one core, and whose ids are the
 * catalogue's (TXTB's 16-bit ones) (trx_stats_walk.plain) feeds them with
 * this flag, the dispatch then taking all that for granted. */
#define STATS_F_PLAIN (1u << 31)

/* The units keyed by the catalogue's event ids (TXTB only: fed as the
 * walk's id classes say), and every unit of each mode. */
#define STATS_U_BY_ID (STATS_U_FILEX | STATS_U_NETX | STATS_U_STACK | STATS_U_POP | STATS_U_TPOP)
#define STATS_U_CORRECT_MODE                                                                       \
    (STATS_U_BY_ID | STATS_U_COUNTS | STATS_U_PROF | STATS_U_TIMING | STATS_U_PERF |               \
     STATS_U_CINV | STATS_U_CORES)
#define STATS_U_TRACEX_MODE                                                                        \
    (STATS_U_BY_ID | STATS_U_COUNTS | STATS_U_PROF | STATS_U_TIMING | STATS_U_XSW | STATS_U_XPRE | \
     STATS_U_XIRQ | STATS_U_XINV)

/* What the units keyed by ids make of an event id: one byte per id
 * (trx_stats_walk.id_class, STATS_CLASS_IDS of them when the ids are the
 * catalogue's), set up with the walk, so that a unit that ignores an id
 * costs nothing for it. */
#define STATS_CLASS_IDS 65536u
enum {
    STATS_ID_FILEX = 1u << 0,   /* FileX's (200-299): trx_filex_feed counts it */
    STATS_ID_NETX = 1u << 1,    /* NetX's (300-599): trx_netx_feed counts it */
    STATS_ID_SERVICE = 1u << 2, /* any id of a TXTB trace: the services count it */
    STATS_ID_STACK = 1u << 3,   /* a word of it holds the stack pointer: */
    STATS_ID_FIELD_SHIFT = 4    /* bits 4-5: that word (0-3) */
};

/* Every analysis of one walk. The two modes split them into two groups
 * (here: beside the cursor; there: on the helper thread) of about equal
 * cost that write disjoint memory: the "there" analyses keep their own
 * state, or write fields of trx_stats no "here" analysis touches. */
typedef struct trx_stats_walk {
    trx_trace *t;
    trx_stats *s;
    trx_stats_feed_fn extra; /* the caller's own analysis beside the cursor, or NULL */
    void *extra_ctx;
    const trx_stats_extra *extra_ops; /* on segments: how to fork and join it, else NULL */
    bool catalogue_ids; /* the event ids are the catalogue's (TXTB): id-keyed analyses run */
    bool correct;       /* the default mode's analyses (else TraceX's) */
    bool plain;         /* its events may be fed with STATS_F_PLAIN (trx_stats_walk_init) */
    uint32_t units;     /* the STATS_U_* this walk runs */
    /* STATS_ID_* of the ids below class_ids; class_beyond for the others
     * (all 0 unless catalogue_ids). Read-only while walking (both threads). */
    uint8_t *id_class;
    uint32_t class_ids;
    uint8_t class_beyond;
    trx_inversion_finder *inv;
    /* here in the correct mode, there in TraceX's; each on cache lines of
     * its own (no false sharing between the two threads) */
    _Alignas(64) trx_thread_popularity tpop;
    _Alignas(64) trx_profile prof;
    /* the states the helper thread uses only */
    _Alignas(64) trx_stack_usage stack;
    trx_popularity pop;
    trx_switch_counter sw;
    trx_preemption_counter pre;
    trx_interrupt_counter irq;
    trx_correct_performance perf;
    trx_timing timing;
    trx_core_tracker *cores;
    trx_correct_inversions *cinv;
    _Alignas(64) char end_; /* nothing of "here" after the helper's states */
} trx_stats_walk;

/* Sets up every analysis of `t`'s mode in `w`, writing into `s` (zeroed
 * here). 0; -1 out of memory; TRX_STATS_TOO_MANY_WINDOWS. Nothing to free
 * on failure. `max_ticks`: the largest ticks of any event; `single_core`:
 * as trx_core_tracker_new_known. */
int trx_stats_walk_init(trx_stats_walk *w, trx_trace *t, trx_stats *s, uint64_t window,
                        uint64_t max_ticks, const trx_kept_inversions *kept, int single_core);

/* The first thread at an event's context (-1: no thread context). */
static inline int32_t trx_stats_walk_first(const trx_stats_walk *w, const trx_event *ev)
{
    uint32_t ctx = ev->context;
    if (ctx == TRX_CONTEXT_ISR || ctx == TRX_CONTEXT_INIT || ctx == TRX_CONTEXT_IDLE)
        return -1;
    return trx_event_first_thread(w->t, ev);
}

/* The STATS_ID_* of `ev`'s id. */
static inline uint32_t trx_stats_walk_class(const trx_stats_walk *w, const trx_event *ev)
{
    return ev->id < w->class_ids ? w->id_class[ev->id] : w->class_beyond;
}

/* Feeds `ev` to the units `units` of `w`, in the order of one walk: the
 * dispatch of every event. `units` must be of w's mode (STATS_U_*_MODE):
 * those keyed by ids run as the id's class says (none on traces whose ids
 * are not the catalogue's). Inline: with constant `units`, each caller gets
 * its own dispatch without the tests of units it does not feed. */
static TRX_ALWAYS_INLINE void trx_stats_walk_feed_units(trx_stats_walk *w, const trx_event *ev,
                                                        const uint32_t units)
{
    uint32_t cls = 0;
    if ((units & STATS_U_BY_ID) && (units & STATS_F_PLAIN))
        cls = w->id_class[ev->id & (STATS_CLASS_IDS - 1)]; /* TXTB's 16-bit ids */
    else if (units & STATS_U_BY_ID)
        cls = trx_stats_walk_class(w, ev);
    if ((units & (STATS_U_FILEX | STATS_U_NETX)) && (cls & (STATS_ID_FILEX | STATS_ID_NETX))) {
        if ((units & STATS_U_FILEX) && (cls & STATS_ID_FILEX))
            trx_filex_feed(&w->s->filex, ev);
        if ((units & STATS_U_NETX) && (cls & STATS_ID_NETX))
            trx_netx_feed(&w->s->netx, ev);
    }
    int32_t first = -1;
    if (units & STATS_F_PLAIN)
        first = ev->thread;
    else if (units & (STATS_U_STACK | STATS_U_TPOP | STATS_U_PROF | STATS_U_COUNTS))
        first = trx_stats_walk_first(w, ev);
    /* ids with a stack field are TXTB's, whose cursor gives events of the
     * interrupt and initialization contexts no thread (an entry of context
     * 0 is an empty one): an event of a thread has first = its look-up */
    if ((units & STATS_U_STACK) && (cls & STATS_ID_STACK) && ev->thread >= 0 && first >= 0)
        trx_stack_usage_feed(&w->stack, w->t, ev, (uint32_t)first, cls >> STATS_ID_FIELD_SHIFT);
    if ((units & STATS_U_POP) && (cls & STATS_ID_SERVICE))
        trx_popularity_feed(&w->pop, ev);
    if ((units & STATS_U_TPOP) && (cls & STATS_ID_SERVICE))
        trx_thread_popularity_feed(&w->tpop, ev, first);
    if (units & STATS_U_PROF)
        trx_profile_feed_on(&w->prof, w->t, ev, first, w->s, (units & STATS_F_PLAIN) != 0);
    if (units & STATS_U_COUNTS)
        trx_thread_counts_feed(ev, first, w->s);
    if (units & STATS_U_PERF)
        trx_correct_performance_feed(&w->perf, ev);
    if (units & STATS_U_CINV)
        trx_correct_inversions_feed(w->cinv, ev);
    if (units & STATS_U_XINV)
        trx_inversions_feed(w->inv, ev);
    if (units & STATS_U_XSW)
        trx_switches_feed(&w->sw, ev);
    if (units & STATS_U_XPRE)
        trx_preemptions_feed(&w->pre, ev);
    if (units & STATS_U_XIRQ)
        trx_interrupts_feed(&w->irq, ev);
    if ((units & STATS_U_TIMING) && (units & STATS_F_PLAIN))
        trx_timing_feed_one(&w->timing, ev);
    else if (units & STATS_U_TIMING)
        trx_timing_feed(&w->timing, ev);
    if ((units & STATS_U_CORES) && (units & STATS_F_PLAIN))
        trx_core_tracker_feed_unshared(w->cores, ev);
    else if (units & STATS_U_CORES)
        trx_core_tracker_feed(w->cores, ev);
}

/* Feeds `ev` to every unit of `w`. */
static TRX_ALWAYS_INLINE void trx_stats_walk_feed_all(trx_stats_walk *w, const trx_event *ev)
{
    if (w->plain)
        trx_stats_walk_feed_units(w, ev, STATS_U_CORRECT_MODE | STATS_F_PLAIN);
    else if (w->correct)
        trx_stats_walk_feed_units(w, ev, STATS_U_CORRECT_MODE);
    else
        trx_stats_walk_feed_units(w, ev, STATS_U_TRACEX_MODE);
}

/* Feeds `ev` to the units of `w` in `units` (STATS_U_*, any; those w does
 * not run are skipped): the segments' walks again of chosen units. */
void trx_stats_walk_feed(trx_stats_walk *w, const trx_event *ev, uint32_t units);

/* Finishes every analysis of `w` into its trx_stats (freed again on
 * failure). `failed`: a walk that went wrong (its results are dropped).
 * 0, or -1. */
int trx_stats_walk_finish(trx_stats_walk *w, bool failed);

/* Frees every analysis of `w` without results (and w's trx_stats). */
void trx_stats_walk_discard(trx_stats_walk *w);

/* The largest ticks of any event, as the statistics take it. */
uint64_t trx_stats_max_ticks(trx_trace *t, bool prepare_walk);

#endif
