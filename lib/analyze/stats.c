/* stats.c - runs every analysis over a trace in one walk of its events:
 * the prepare walk itself when the trace's contexts are all registered
 * threads (prepare_walk.h), else a cursor after trx_trace_prepare. */
#include <stdlib.h>
#include <string.h>

#include "analyze/analyses.h"
#include "analyze/core_tracker.h"
#include "analyze/event_fanout.h"
#include "decode/prepare_walk.h"
#include "trx/uia.h"

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
    trx_stats_feed_fn extra; /* the caller's own analysis beside the cursor, or NULL */
    void *extra_ctx;
    bool catalogue_ids; /* the event ids are the catalogue's (TXTB): id-keyed analyses run */
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
} walk;

/* The catalogue's event ids of FileX (200-299) and NetX (300-599): the
 * only ids their statistics count, so other events skip their feeds. */
static inline bool is_filex_id(uint32_t id)
{
    return id - 200u < 100u;
}

static inline bool is_netx_id(uint32_t id)
{
    return id - 300u < 300u;
}

/* Analyses both modes run beside the cursor. */
static inline void common_here(walk *w, const trx_event *ev)
{
    if (w->catalogue_ids) { /* FileX, NetX: from the catalogue's ids */
        if (is_filex_id(ev->id))
            trx_filex_feed(&w->s->filex, ev);
        else if (is_netx_id(ev->id))
            trx_netx_feed(&w->s->netx, ev);
    }
    if (w->extra)
        w->extra(w->extra_ctx, ev);
}

/* Analyses both modes run on the helper thread: stacks and services, from
 * the catalogue's ids, each writing state of its own only. */
static inline void common_there(walk *w, const trx_event *ev)
{
    if (w->catalogue_ids) {
        trx_stack_usage_feed(&w->stack, w->t, ev);
        trx_popularity_feed(&w->pop, ev);
    }
}

/* The analyses that write per-thread figures into trx_stats.threads: all on
 * one thread, so that no two threads write the same cache lines. */
static inline void per_thread(walk *w, const trx_event *ev)
{
    uint32_t ctx = ev->context;
    int32_t first;
    if (ctx == TRX_CONTEXT_ISR || ctx == TRX_CONTEXT_INIT || ctx == TRX_CONTEXT_IDLE)
        first = -1;
    else
        first = trx_event_first_thread(w->t, ev);
    if (w->catalogue_ids) /* services per thread: by the catalogue's ids */
        trx_thread_popularity_feed(&w->tpop, ev, first);
    trx_profile_feed(&w->prof, w->t, ev, first, w->s);
    trx_thread_counts_feed(ev, first, w->s);
}

static void correct_here(void *ctx, const trx_event *ev)
{
    walk *w = ctx;
    common_here(w, ev);
    per_thread(w, ev);
}

static void correct_there(void *ctx, const trx_event *ev)
{
    walk *w = ctx;
    common_there(w, ev);
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
    common_there(w, ev);
    trx_switches_feed(&w->sw, ev);
    trx_preemptions_feed(&w->pre, ev);
    trx_interrupts_feed(&w->irq, ev);
    trx_timing_feed(&w->timing, ev);
    per_thread(w, ev);
}

/* The two sources of the walk: a cursor over the prepared trace, or
 * trx_trace_prepare's own walk. */
static const trx_event *from_cursor(void *src)
{
    return trx_cursor_next_ref(src);
}

static const trx_event *from_prepare(void *src)
{
    return trx_prepare_walk_next(src);
}

#define STATS_RETRY 1

/* How many inversions the list keeps, and where the others go. */
typedef struct kept_inversions {
    uint32_t keep;
    trx_inversion_done_fn done;
    void *ctx;
} kept_inversions;

/* Every analysis in one walk. With `pw` the walk is the trace's prepare walk
 * (the trace is prepared at its end): STATS_RETRY when that walk stopped
 * (a context that is no registered thread), s then empty. */
static int compute(trx_trace *t, trx_stats *s, uint64_t window, trx_prepare_walk *pw,
                   trx_stats_feed_fn extra, void *extra_ctx, const kept_inversions *kept)
{
    memset(s, 0, sizeof *s);
    /* the largest ticks of any event (UIA streams' ticks are not monotonic:
     * the last event's need not be the largest) */
    uint64_t max_ticks = pw || t->format == TRX_TRACE_UIA ? trx_trace_span_ticks(t) : t->max_ticks;
    s->mode = t->mode;
    bool correct = t->mode == TRX_MODE_CORRECT;
    s->max_relative_ticks = max_ticks;
    if (t->mode == TRX_MODE_TRACEX && s->max_relative_ticks == 0)
        s->max_relative_ticks = 1;
    s->thread_count = t->thread_count;
    s->threads = calloc(t->thread_count ? t->thread_count : 1, sizeof *s->threads);
    /* TraceX's inversion finder: its mode only */
    trx_inversion_finder *inv = correct ? NULL : trx_inversions_new(t);
    trx_popularity pop;
    int pop_ok = trx_popularity_init(&pop);
    pop.tracex_order = t->mode == TRX_MODE_TRACEX;
    if (!s->threads || (!correct && !inv) || pop_ok < 0) {
        if (inv)
            trx_inversions_finish(inv, s);
        if (pop_ok == 0)
            trx_popularity_finish(&pop, s);
        trx_stats_free(s);
        return -1;
    }
    int fail_rc = -1;
    walk w = {0};
    w.t = t;
    w.s = s;
    w.extra = extra;
    w.extra_ctx = extra_ctx;
    w.catalogue_ids = s->catalogue_figures = trx_stats_has_catalogue_figures(t);
    w.inv = inv;
    w.pop = pop;
    w.tpop.tracex_order = t->mode == TRX_MODE_TRACEX;
    if (trx_stack_usage_init(&w.stack, t) < 0)
        goto fail;
    if (trx_profile_init(&w.prof, t) < 0 || trx_correct_performance_init(&w.perf, t) < 0)
        goto fail;
    if (window == 0)
        window = max_ticks / 100 ? max_ticks / 100 : 1;
    if ((s->load_unavailable = trx_trace_load_missing(t)) != NULL)
        window = 0; /* no idle context: no load (and time may run back: UIA) */
    int timing_rc = trx_timing_init(&w.timing, t, window, max_ticks);
    if (timing_rc < 0) {
        fail_rc = timing_rc == -2 ? TRX_STATS_TOO_MANY_WINDOWS : -1;
        goto fail;
    }
    if (correct && !(w.cores = trx_core_tracker_new(t))) {
        trx_timing_finish(&w.timing, s);
        goto fail;
    }
    if (correct && !(w.cinv = trx_correct_inversions_new(t))) {
        trx_core_tracker_discard(w.cores);
        trx_timing_finish(&w.timing, s);
        goto fail;
    }
    if (w.cinv)
        trx_correct_inversions_keep(w.cinv, kept->keep, kept->done, kept->ctx);
    uint64_t events = t->format == TRX_TRACE_UIA ? trx_uia_info_of(t)->records : t->used;
    bool parallel =
        events >= PARALLEL_MIN_ENTRIES && trx_trace_jobs(t) > 1 && !getenv("TRX_STATS_SERIAL");
    trx_fanout_fn here = correct ? correct_here : tracex_here;
    trx_fanout_fn there = correct ? correct_there : tracex_there;
    trx_cursor c;
    int walked = -1;
    if (pw)
        walked = trx_fanout_walk(from_prepare, pw, here, &w, there, &w, parallel);
    else if (trx_cursor_init(&c, t) == 0) {
        walked = trx_fanout_walk(from_cursor, &c, here, &w, there, &w, parallel);
        trx_cursor_free(&c); /* when the walk stopped early; else done already */
    }
    int stopped = pw && trx_prepare_walk_end(pw) != 0;
    int r = walked < 0 ? -1 : 0;
    if (trx_timing_finish(&w.timing, s) < 0)
        r = -1;
    trx_profile_free(&w.prof);
    if (correct) {
        trx_correct_performance_finish(&w.perf, s);
        if (w.perf.oom)
            r = -1;
        if (trx_correct_inversions_finish(w.cinv, s) < 0 || marks_from_list(s) < 0)
            r = -1;
    } else {
        free(w.perf.per_core); /* not fed in TraceX's mode */
        s->context_switches = w.sw.switches;
        trx_preemptions_finish(&w.pre, s);
        s->interrupts = w.irq.interrupts;
        s->nested_interrupts = w.irq.nested;
        if (trx_inversions_finish(inv, s) < 0)
            r = -1;
    }
    if (trx_stack_usage_finish(&w.stack, t, s) < 0)
        r = -1;
    if (trx_thread_popularity_finish(&w.tpop, s) < 0 || trx_same_address_spread(t, s) < 0)
        r = -1;
    /* after the two above have freed their per-thread state: its table of
     * (core, thread) pairs is the last large allocation */
    if (w.cores) {
        if ((s->cores = malloc(sizeof *s->cores)) == NULL) {
            trx_core_tracker_discard(w.cores);
            r = -1;
        } else if (trx_core_tracker_finish(w.cores, s->cores) < 0) {
            r = -1;
        }
    }
    if (trx_popularity_finish(&w.pop, s) < 0)
        r = -1;
    if (r < 0 || stopped) {
        trx_stats_free(s);
        return r < 0 ? -1 : STATS_RETRY;
    }
    return 0;
fail:
    trx_profile_free(&w.prof);
    free(w.perf.per_core);
    if (pw)
        trx_prepare_walk_end(pw);
    trx_stack_usage_discard(&w.stack);
    if (inv)
        trx_inversions_finish(inv, s);
    trx_popularity_finish(&w.pop, s);
    trx_stats_free(s);
    return fail_rc;
}

bool trx_stats_has_catalogue_figures(const trx_trace *t)
{
    return t->format == TRX_TRACE_TXTB;
}

int trx_stats_compute(trx_trace *t, trx_stats *s)
{
    return trx_stats_compute_windowed(t, s, 0);
}

int trx_stats_compute_windowed(trx_trace *t, trx_stats *s, uint64_t window)
{
    return trx_stats_compute_fed(t, s, window, NULL, NULL);
}

/* trx_stats_compute_fed and _kept: the prepare walk, else prepared and walked. */
static int compute_any(trx_trace *t, trx_stats *s, uint64_t window, trx_stats_feed_fn extra,
                       void *extra_ctx, const kept_inversions *kept)
{
    /* An unprepared trace: the analyses ride on the prepare walk, unless it
     * meets a context that is no registered thread (then it stops there and
     * the trace is prepared and walked again, as below). */
    trx_prepare_walk *pw = trx_prepare_walk_begin(t);
    if (pw) {
        int r = compute(t, s, window, pw, extra, extra_ctx, kept);
        if (r != STATS_RETRY)
            return r;
    }
    trx_trace_prepare(t);
    return compute(t, s, window, NULL, extra, extra_ctx, kept);
}

int trx_stats_compute_fed(trx_trace *t, trx_stats *s, uint64_t window, trx_stats_feed_fn extra,
                          void *extra_ctx)
{
    const kept_inversions all = {UINT32_MAX, NULL, NULL};
    return compute_any(t, s, window, extra, extra_ctx, &all);
}

int trx_stats_compute_kept(trx_trace *t, trx_stats *s, uint32_t keep, trx_inversion_done_fn done,
                           void *ctx)
{
    const kept_inversions some = {keep, done, ctx};
    return compute_any(t, s, 0, NULL, NULL, &some);
}

void trx_stats_free(trx_stats *s)
{
    free(s->thread_services_);
    free(s->threads);
    free(s->services);
    free(s->marks);
    free(s->inversion_list);
    free(s->isr);
    free(s->swi);
    free(s->latency);
    free(s->response);
    free(s->load_busy);
    free(s->load_unknown);
    free(s->load_core_busy);
    free(s->load_core_unknown);
    if (s->cores)
        trx_core_stats_free(s->cores);
    free(s->cores);
    memset(s, 0, sizeof *s);
}
