/* stats.c - runs every analysis over a trace in one walk of its events
 * (after trx_trace_prepare's walk, which completes the thread table). */
#include <stdlib.h>
#include <string.h>

#include "analyze/analyses.h"
#include "analyze/core_tracker.h"
#include "analyze/event_fanout.h"

/* The correct mode's windows as marks (start, end, unbounded) for the report. */
static int marks_from_list(trx_stats *s)
{
    if (s->inversion_count == 0)
        return 0;
    s->marks = malloc(s->inversion_count * sizeof *s->marks);
    if (!s->marks)
        return -1;
    for (uint32_t i = 0; i < s->inversion_count; i++) {
        const trx_inversion *v = &s->inversion_list[i];
        s->marks[i] = (trx_inversion_mark){v->start_index, v->end_index, i, v->unbounded};
    }
    s->mark_count = s->inversion_count;
    return 0;
}

/* Traces with fewer entries walk on one thread (a helper thread costs more
 * than it saves there). TRX_STATS_SERIAL in the environment forces it. */
#define PARALLEL_MIN_ENTRIES 65536u

/* Every analysis of one walk. The two modes split them into two groups
 * (here: beside the cursor; there: on the helper thread) of about equal
 * cost that write disjoint memory: the "there" analyses keep their own
 * state, or write fields of trx_stats no "here" analysis touches. */
typedef struct walk {
    trx_trace *t;
    trx_stats *s;
    trx_inversion_finder *inv;
    trx_popularity *pop;
    trx_thread_popularity tpop;
    trx_stack_usage stack;
    trx_profile prof; /* here in the correct mode, there in TraceX's */
    /* the states written on the helper thread, a cache line away from the
     * others (no false sharing between the two threads) */
    _Alignas(64) trx_switch_counter sw;
    trx_preemption_counter pre;
    trx_interrupt_counter irq;
    trx_correct_performance perf;
    trx_timing timing;
    trx_core_tracker *cores;
    trx_correct_inversions *cinv;
    _Alignas(64) char end_; /* nothing of "here" after the helper's states */
} walk;

/* Analyses both modes run beside the cursor. */
static void common_here(walk *w, const trx_event *ev)
{
    trx_stack_usage_feed(&w->stack, w->t, ev);
    trx_popularity_feed(w->pop, ev);
    trx_thread_popularity_feed(&w->tpop, w->t, ev, w->s);
    trx_filex_feed(&w->s->filex, ev);
    trx_netx_feed(&w->s->netx, ev);
}

static void correct_here(void *ctx, const trx_event *ev)
{
    walk *w = ctx;
    common_here(w, ev);
    trx_profile_feed(&w->prof, w->t, ev, w->s);
    trx_thread_counts_feed(w->t, ev, w->s);
}

static void correct_there(void *ctx, const trx_event *ev)
{
    walk *w = ctx;
    trx_correct_performance_feed(&w->perf, ev);
    trx_correct_inversions_feed(w->cinv, ev);
    trx_timing_feed(&w->timing, ev);
    trx_core_tracker_feed(w->cores, ev);
}

/* TraceX's inversion finder stays beside the cursor: its look-ahead walk
 * opens a cursor of its own on the trace. */
static void tracex_here(void *ctx, const trx_event *ev)
{
    walk *w = ctx;
    common_here(w, ev);
    trx_inversions_feed(w->inv, ev);
}

static void tracex_there(void *ctx, const trx_event *ev)
{
    walk *w = ctx;
    trx_switches_feed(&w->sw, ev);
    trx_preemptions_feed(&w->pre, ev);
    trx_interrupts_feed(&w->irq, ev);
    trx_timing_feed(&w->timing, ev);
    trx_profile_feed(&w->prof, w->t, ev, w->s);
    trx_thread_counts_feed(w->t, ev, w->s);
}

int trx_stats_compute(trx_trace *t, trx_stats *s)
{
    return trx_stats_compute_windowed(t, s, 0);
}

int trx_stats_compute_windowed(trx_trace *t, trx_stats *s, uint64_t window)
{
    memset(s, 0, sizeof *s);
    trx_trace_prepare(t);
    s->mode = t->mode;
    bool correct = t->mode == TRX_MODE_CORRECT;
    s->max_relative_ticks = t->max_ticks;
    if (t->mode == TRX_MODE_TRACEX && s->max_relative_ticks == 0)
        s->max_relative_ticks = 1;
    s->thread_count = t->thread_count;
    s->threads = calloc(t->thread_count ? t->thread_count : 1, sizeof *s->threads);
    trx_inversion_finder *inv = trx_inversions_new(t);
    trx_popularity pop;
    int pop_ok = trx_popularity_init(&pop);
    pop.tracex_order = t->mode == TRX_MODE_TRACEX;
    if (!s->threads || !inv || pop_ok < 0) {
        if (inv)
            trx_inversions_finish(inv, s);
        if (pop_ok == 0)
            trx_popularity_finish(&pop, s);
        trx_stats_free(s);
        return -1;
    }
    walk w = {0};
    w.t = t;
    w.s = s;
    w.inv = inv;
    w.pop = &pop;
    w.tpop.tracex_order = t->mode == TRX_MODE_TRACEX;
    if (trx_stack_usage_init(&w.stack, t) < 0)
        goto fail;
    if (window == 0)
        window = t->max_ticks / 100 ? t->max_ticks / 100 : 1;
    if (trx_timing_init(&w.timing, window) < 0)
        goto fail;
    if (correct && !(w.cores = trx_core_tracker_new(t))) {
        trx_timing_finish(&w.timing, s);
        goto fail;
    }
    if (correct && !(w.cinv = trx_correct_inversions_new(t))) {
        trx_core_tracker_discard(w.cores);
        trx_timing_finish(&w.timing, s);
        goto fail;
    }
    bool parallel = t->used >= PARALLEL_MIN_ENTRIES && !getenv("TRX_STATS_SERIAL");
    if (trx_fanout_walk(t, correct ? correct_here : tracex_here, &w,
                        correct ? correct_there : tracex_there, &w, parallel) < 0) {
        trx_core_tracker_discard(w.cores);
        if (w.cinv)
            trx_correct_inversions_finish(w.cinv, s);
        trx_timing_finish(&w.timing, s);
        goto fail;
    }
    trx_timing timing = w.timing;
    trx_correct_performance perf = w.perf;
    trx_core_tracker *cores = w.cores;
    trx_correct_inversions *cinv = w.cinv;
    trx_switch_counter sw = w.sw;
    trx_preemption_counter pre = w.pre;
    trx_interrupt_counter irq = w.irq;
    trx_thread_popularity tpop = w.tpop;
    int r = 0, rt = trx_timing_finish(&timing, s);
    if (correct) {
        trx_correct_performance_finish(&perf, s);
        r = perf.oom ? -1 : 0;
        trx_inversions_finish(inv, s); /* TraceX's finder, unused here */
        free(s->marks);
        s->marks = NULL;
        s->mark_count = 0;
        if (trx_correct_inversions_finish(cinv, s) < 0 || marks_from_list(s) < 0)
            r = -1;
    } else {
        s->context_switches = sw.switches;
        trx_preemptions_finish(&pre, s);
        s->interrupts = irq.interrupts;
        s->nested_interrupts = irq.nested;
        r = trx_inversions_finish(inv, s);
    }
    if (rt < 0)
        r = -1;
    if (cores) {
        if ((s->cores = malloc(sizeof *s->cores)) == NULL) {
            trx_core_tracker_discard(cores);
            r = -1;
        } else if (trx_core_tracker_finish(cores, s->cores) < 0) {
            r = -1;
        }
    }
    if (trx_stack_usage_finish(&w.stack, t, s) < 0)
        r = -1;
    if (trx_thread_popularity_finish(&tpop, s) < 0 || trx_same_address_spread(t, s) < 0)
        r = -1;
    if (trx_popularity_finish(&pop, s) < 0 || r < 0) {
        trx_stats_free(s);
        return -1;
    }
    return 0;
fail:
    trx_stack_usage_discard(&w.stack);
    trx_inversions_finish(inv, s);
    trx_popularity_finish(&pop, s);
    trx_stats_free(s);
    return -1;
}

void trx_stats_free(trx_stats *s)
{
    for (uint32_t i = 0; s->threads && i < s->thread_count; i++)
        free(s->threads[i].services);
    free(s->threads);
    free(s->services);
    free(s->marks);
    free(s->inversion_list);
    free(s->isr);
    free(s->latency);
    free(s->response);
    free(s->load_busy);
    if (s->cores)
        trx_core_stats_free(s->cores);
    free(s->cores);
    memset(s, 0, sizeof *s);
}
