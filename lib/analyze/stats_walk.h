/* stats_walk.h - the analyses of one walk of trx_stats_compute as a unit
 * (stats.c): set up, fed event by event (all of them, or a chosen set:
 * the segments' fallback walks), finished into trx_stats. Each analysis is
 * one "unit" (STATS_U_*): what stats_segments.c fingerprints, merges or
 * walks again on its own. */
#ifndef TRX_STATS_WALK_H
#define TRX_STATS_WALK_H

#include "analyze/analyses.h"
#include "analyze/core_tracker.h"

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
    STATS_UNIT_COUNT = 15
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
    bool catalogue_ids; /* the event ids are the catalogue's (TXTB): id-keyed analyses run */
    bool correct;       /* the default mode's analyses (else TraceX's) */
    uint32_t units;     /* the STATS_U_* this walk runs */
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

/* The catalogue's event ids of FileX (200-299) and NetX (300-599): the
 * only ids their statistics count, so other events skip their feeds. */
static inline bool trx_is_filex_id(uint32_t id)
{
    return id - 200u < 100u;
}

static inline bool trx_is_netx_id(uint32_t id)
{
    return id - 300u < 300u;
}

/* The first thread at an event's context (-1: no thread context). */
static inline int32_t trx_stats_walk_first(const trx_stats_walk *w, const trx_event *ev)
{
    uint32_t ctx = ev->context;
    if (ctx == TRX_CONTEXT_ISR || ctx == TRX_CONTEXT_INIT || ctx == TRX_CONTEXT_IDLE)
        return -1;
    return trx_event_first_thread(w->t, ev);
}

/* Feeds `ev` to the units of `w` in `units` (STATS_U_*; those w does not
 * run are skipped), in the order of one walk. */
static inline void trx_stats_walk_feed(trx_stats_walk *w, const trx_event *ev, uint32_t units)
{
    units &= w->units;
    if (units & (STATS_U_FILEX | STATS_U_NETX)) {
        if ((units & STATS_U_FILEX) && trx_is_filex_id(ev->id))
            trx_filex_feed(&w->s->filex, ev);
        else if ((units & STATS_U_NETX) && trx_is_netx_id(ev->id))
            trx_netx_feed(&w->s->netx, ev);
    }
    if (units & STATS_U_STACK)
        trx_stack_usage_feed(&w->stack, w->t, ev);
    if (units & STATS_U_POP)
        trx_popularity_feed(&w->pop, ev);
    if (units & (STATS_U_TPOP | STATS_U_PROF | STATS_U_COUNTS)) {
        int32_t first = trx_stats_walk_first(w, ev);
        if (units & STATS_U_TPOP)
            trx_thread_popularity_feed(&w->tpop, ev, first);
        if (units & STATS_U_PROF)
            trx_profile_feed(&w->prof, w->t, ev, first, w->s);
        if (units & STATS_U_COUNTS)
            trx_thread_counts_feed(ev, first, w->s);
    }
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
    if (units & STATS_U_TIMING)
        trx_timing_feed(&w->timing, ev);
    if (units & STATS_U_CORES)
        trx_core_tracker_feed(w->cores, ev);
}

/* Finishes every analysis of `w` into its trx_stats (freed again on
 * failure). `failed`: a walk that went wrong (its results are dropped).
 * 0, or -1. */
int trx_stats_walk_finish(trx_stats_walk *w, bool failed);

/* Frees every analysis of `w` without results (and w's trx_stats). */
void trx_stats_walk_discard(trx_stats_walk *w);

/* The largest ticks of any event, as the statistics take it. */
uint64_t trx_stats_max_ticks(trx_trace *t, bool prepare_walk);

#endif
