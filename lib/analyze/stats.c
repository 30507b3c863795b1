/* stats.c - runs every analysis over a trace in one walk of its events:
 * the prepare walk itself when the trace's contexts are all registered
 * threads (prepare_walk.h), else a cursor after trx_trace_prepare. */
#include <stdlib.h>
#include <string.h>

#include "analyze/analyses.h"
#include "analyze/core_tracker.h"
#include "analyze/event_fanout.h"
#include "analyze/segment_driver.h"
#include "analyze/segment_units.h"
#include "analyze/stats_segments.h"
#include "analyze/stats_walk.h"
#include "decode/object_table.h"
#include "decode/prepare_walk.h"
#include "decode/txtb_salvage.h"
#include "trx/catalog.h"
#include "trx/uia.h"

/* Traces with fewer entries walk on one thread (a helper thread costs more
 * than it saves there). TRX_STATS_SERIAL in the environment forces it. */
#define PARALLEL_MIN_ENTRIES 65536u

typedef trx_stats_walk walk;

/* The units each group of the fan-out walk feeds (see trx_stats_walk): per
 * mode, "here" beside the cursor, "there" on the helper thread. */
#define CORRECT_HERE (STATS_U_FILEX | STATS_U_NETX | STATS_U_TPOP | STATS_U_PROF | STATS_U_COUNTS)
#define TRACEX_HERE (STATS_U_FILEX | STATS_U_NETX | STATS_U_XINV)

static void correct_here(void *ctx, const trx_event *ev)
{
    walk *w = ctx;
    if (w->plain)
        trx_stats_walk_feed_units(w, ev, CORRECT_HERE | STATS_F_PLAIN);
    else
        trx_stats_walk_feed_units(w, ev, CORRECT_HERE);
    if (w->extra)
        w->extra(w->extra_ctx, ev);
}

static void correct_there(void *ctx, const trx_event *ev)
{
    walk *w = ctx;
    if (w->plain)
        trx_stats_walk_feed_units(w, ev, (STATS_U_CORRECT_MODE & ~CORRECT_HERE) | STATS_F_PLAIN);
    else
        trx_stats_walk_feed_units(w, ev, STATS_U_CORRECT_MODE & ~CORRECT_HERE);
}

/* TraceX's inversion finder stays beside the cursor: its look-ahead walk
 * opens a cursor of its own on the trace. */
static void tracex_here(void *ctx, const trx_event *ev)
{
    walk *w = ctx;
    trx_stats_walk_feed_units(w, ev, TRACEX_HERE);
    if (w->extra)
        w->extra(w->extra_ctx, ev);
}

static void tracex_there(void *ctx, const trx_event *ev)
{
    trx_stats_walk_feed_units(ctx, ev, STATS_U_TRACEX_MODE & ~TRACEX_HERE);
}

void trx_stats_walk_feed(trx_stats_walk *w, const trx_event *ev, uint32_t units)
{
    trx_stats_walk_feed_units(w, ev, units & w->units);
}

/* Walks the events `next(src)` gives into every unit of `w` (and its
 * caller's analysis) on this thread: one dispatch per event. */
static void walk_serial(trx_fanout_source next, void *src, walk *w)
{
    const trx_event *ev;
    if (w->plain && !w->extra) {
        while ((ev = next(src)) != NULL)
            trx_stats_walk_feed_units(w, ev, STATS_U_CORRECT_MODE | STATS_F_PLAIN);
    } else if (w->plain) {
        while ((ev = next(src)) != NULL) {
            trx_stats_walk_feed_units(w, ev, STATS_U_CORRECT_MODE | STATS_F_PLAIN);
            w->extra(w->extra_ctx, ev);
        }
    } else if (w->correct) {
        while ((ev = next(src)) != NULL) {
            trx_stats_walk_feed_units(w, ev, STATS_U_CORRECT_MODE);
            if (w->extra)
                w->extra(w->extra_ctx, ev);
        }
    } else {
        while ((ev = next(src)) != NULL) {
            trx_stats_walk_feed_units(w, ev, STATS_U_TRACEX_MODE);
            if (w->extra)
                w->extra(w->extra_ctx, ev);
        }
    }
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

uint64_t trx_stats_max_ticks(trx_trace *t, bool prepare_walk)
{
    /* UIA streams' ticks are not monotonic: the last event's need not be the largest */
    return prepare_walk || t->format == TRX_TRACE_UIA ? trx_trace_span_ticks(t) : t->max_ticks;
}

/* The id classes of walk `w` (STATS_ID_*, trx_stats_walk_class): every id
 * of the catalogue looked up once. 0, or -1 out of memory. */
static int classify_ids(trx_stats_walk *w)
{
    if (!w->catalogue_ids)
        return 0; /* other formats' ids mean other things: no id-keyed unit runs */
    uint32_t n = trx_catalog_max_id() + 1;
    if (n < 600)
        n = 600; /* every FileX and NetX id */
    /* every 16-bit id (a TXTB event's), so that a plain walk needs no bound test */
    if (!(w->id_class = malloc(STATS_CLASS_IDS)))
        return -1;
    if (n > STATS_CLASS_IDS)
        n = STATS_CLASS_IDS;
    memset(w->id_class + n, STATS_ID_SERVICE, STATS_CLASS_IDS - n);
    for (uint32_t id = 0; id < n; id++) {
        uint32_t c = STATS_ID_SERVICE;
        if (id - 200u < 100u)
            c |= STATS_ID_FILEX;
        else if (id - 300u < 300u)
            c |= STATS_ID_NETX;
        int field = trx_stack_usage_field(id);
        if (field >= 0)
            c |= STATS_ID_STACK | (uint32_t)field << STATS_ID_FIELD_SHIFT;
        w->id_class[id] = (uint8_t)c;
    }
    w->class_ids = STATS_CLASS_IDS;
    w->class_beyond = STATS_ID_SERVICE;
    return 0;
}

int trx_stats_walk_init(trx_stats_walk *w, trx_trace *t, trx_stats *s, uint64_t window,
                        uint64_t max_ticks, const trx_kept_inversions *kept, int single_core)
{
    memset(s, 0, sizeof *s);
    memset(w, 0, sizeof *w);
    s->mode = t->mode;
    bool correct = t->mode == TRX_MODE_CORRECT;
    s->max_relative_ticks = max_ticks;
    if (t->mode == TRX_MODE_TRACEX && s->max_relative_ticks == 0)
        s->max_relative_ticks = 1;
    s->thread_count = t->thread_count;
    s->threads = calloc(t->thread_count ? t->thread_count : 1, sizeof *s->threads);
    w->t = t;
    w->s = s;
    w->correct = correct;
    w->catalogue_ids = s->catalogue_figures = trx_stats_has_catalogue_figures(t);
    w->units = STATS_U_COUNTS | STATS_U_PROF | STATS_U_TIMING;
    if (w->catalogue_ids)
        w->units |= STATS_U_FILEX | STATS_U_NETX | STATS_U_STACK | STATS_U_POP | STATS_U_TPOP;
    w->units |= correct ? STATS_U_PERF | STATS_U_CINV | STATS_U_CORES
                        : STATS_U_XSW | STATS_U_XPRE | STATS_U_XIRQ | STATS_U_XINV;
    int classes_ok = classify_ids(w);
    /* TraceX's inversion finder: its mode only */
    w->inv = correct ? NULL : trx_inversions_new(t);
    int pop_ok = trx_popularity_init(&w->pop);
    w->pop.tracex_order = w->tpop.tracex_order = t->mode == TRX_MODE_TRACEX;
    int fail_rc = -1;
    if (!s->threads || (!correct && !w->inv) || pop_ok < 0 || classes_ok < 0)
        goto fail;
    if (trx_stack_usage_init(&w->stack, t) < 0)
        goto fail;
    if (trx_profile_init(&w->prof, t) < 0 || trx_correct_performance_init(&w->perf, t) < 0)
        goto fail;
    if (window == 0)
        window = max_ticks / 100 ? max_ticks / 100 : 1;
    if ((s->load_unavailable = trx_trace_load_missing(t)) != NULL)
        window = 0; /* no idle context: no load (and time may run back: UIA) */
    int timing_rc = trx_timing_init(&w->timing, t, window, max_ticks);
    if (timing_rc < 0) {
        fail_rc = timing_rc == -2 ? TRX_STATS_TOO_MANY_WINDOWS : -1;
        goto fail;
    }
    /* TXTB's cursor gives an event of the interrupt or initialization
     * context, or of the idle task, thread -1, and any other its context's
     * thread: the first thread there when no address has a non-thread
     * object first and a thread after it, and when no thread is at the idle
     * context's address (0, whose events would get it). The correct mode's
     * RUNNING events too (TraceX's give a non-thread thread 0). Its
     * profile and timing follow one core (trx_timing_feed_one). */
    w->plain = correct && t->format == TRX_TRACE_TXTB && w->catalogue_ids &&
               !t->first_thread_map_ && !w->prof.per_core && w->timing.cores == 1 &&
               trx_thread_for_context(t, TRX_CONTEXT_IDLE) < 0;
    if (correct && !(w->cores = trx_core_tracker_new_known(t, single_core))) {
        trx_timing_discard(&w->timing);
        goto fail;
    }
    if (correct && !(w->cinv = trx_correct_inversions_new(t))) {
        trx_core_tracker_discard(w->cores);
        trx_timing_discard(&w->timing);
        goto fail;
    }
    if (w->cinv)
        trx_correct_inversions_keep(w->cinv, kept->keep, kept->done, kept->ctx);
    return 0;
fail:
    free(w->id_class);
    trx_profile_free(&w->prof);
    free(w->perf.per_core);
    trx_stack_usage_discard(&w->stack);
    if (w->inv)
        trx_inversions_discard(w->inv);
    if (pop_ok == 0)
        trx_popularity_discard(&w->pop);
    trx_stats_free(s);
    return fail_rc;
}

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

int trx_stats_walk_finish(trx_stats_walk *w, bool failed)
{
    trx_trace *t = w->t;
    trx_stats *s = w->s;
    int r = failed ? -1 : 0;
    if (trx_timing_finish(&w->timing, s) < 0)
        r = -1;
    trx_profile_free(&w->prof);
    if (w->correct) {
        trx_correct_performance_finish(&w->perf, s);
        if (w->perf.oom)
            r = -1;
        if (trx_correct_inversions_finish(w->cinv, s) < 0 || marks_from_list(s) < 0)
            r = -1;
    } else {
        free(w->perf.per_core); /* not fed in TraceX's mode */
        s->context_switches = w->sw.switches;
        trx_preemptions_finish(&w->pre, s);
        s->interrupts = w->irq.interrupts;
        s->nested_interrupts = w->irq.nested;
        if (trx_inversions_finish(w->inv, s) < 0)
            r = -1;
    }
    if (trx_stack_usage_finish(&w->stack, t, s) < 0)
        r = -1;
    if (trx_thread_popularity_finish(&w->tpop, s) < 0 || trx_same_address_spread(t, s) < 0)
        r = -1;
    /* after the two above have freed their per-thread state: its table of
     * (core, thread) pairs is the last large allocation */
    if (w->cores) {
        if ((s->cores = malloc(sizeof *s->cores)) == NULL) {
            trx_core_tracker_discard(w->cores);
            r = -1;
        } else if (trx_core_tracker_finish(w->cores, s->cores) < 0) {
            r = -1;
        }
    }
    if (trx_popularity_finish(&w->pop, s) < 0)
        r = -1;
    free(w->id_class);
    w->id_class = NULL;
    if (r < 0)
        trx_stats_free(s);
    return r;
}

void trx_stats_walk_discard(trx_stats_walk *w)
{
    trx_stats_walk_finish(w, true);
}

/* Every analysis in one walk. With `pw` the walk is the trace's prepare walk
 * (the trace is prepared at its end): STATS_RETRY when that walk stopped
 * (a context that is no registered thread), s then empty. */
static int compute(trx_trace *t, trx_stats *s, uint64_t window, trx_prepare_walk *pw,
                   trx_stats_feed_fn extra, void *extra_ctx, const trx_kept_inversions *kept)
{
    walk w;
    int rc = trx_stats_walk_init(&w, t, s, window, trx_stats_max_ticks(t, pw != NULL), kept, -1);
    if (rc != 0) {
        if (pw)
            trx_prepare_walk_end(pw);
        return rc;
    }
    w.extra = extra;
    w.extra_ctx = extra_ctx;
    bool correct = w.correct;
    uint64_t events = t->format == TRX_TRACE_UIA ? trx_uia_info_of(t)->records : t->used;
    bool parallel =
        events >= PARALLEL_MIN_ENTRIES && trx_trace_jobs(t) > 1 && !getenv("TRX_STATS_SERIAL");
    trx_fanout_fn here = correct ? correct_here : tracex_here;
    trx_fanout_fn there = correct ? correct_there : tracex_there;
    trx_cursor c;
    int walked = -1;
    trx_fanout_source next = pw ? from_prepare : from_cursor;
    void *src = pw;
    if (!pw && trx_cursor_init(&c, t) == 0)
        src = &c;
    if (src && parallel) {
        walked = trx_fanout_walk(next, src, here, &w, there, &w, true);
    } else if (src) {
        walk_serial(next, src, &w);
        walked = 0;
    }
    if (!pw && src)
        trx_cursor_free(&c); /* when the walk stopped early; else done already */
    int stopped = pw && trx_prepare_walk_end(pw) != 0;
    if (trx_stats_walk_finish(&w, walked < 0) < 0)
        return -1;
    if (stopped) {
        trx_stats_free(s);
        return STATS_RETRY;
    }
    return 0;
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

/* Segments start their analyses this many entries before their first event. */
#define SEGMENT_WARM_UP 16384u

/* The statistics over `trx_trace_jobs` segments of the trace, one thread
 * each (stats_segments.c), when that is how they are computed: a TXTB trace
 * large enough, no caller's analysis beside the walk (the inversions kept
 * whole or given to kept->done as the one walk would: stats_segments.h).
 * STATS_RETRY: not so (s untouched). */
/* Statistics over segments (segment_driver.h: trx_segments_cuts_for_jobs
 * says when), or STATS_RETRY. A trace that names Un-named Threads is
 * prepared first; one that then has too many threads walks once. */
static int compute_segmented(trx_trace *t, trx_stats *s, uint64_t window, const trx_stats_extra *x,
                             const trx_kept_inversions *kept)
{
    if ((x && !x->fork) || getenv("TRX_STATS_SERIAL") || getenv("TRX_STATS_FANOUT"))
        return STATS_RETRY;
    uint64_t *cuts;
    int n = trx_segments_cuts_for_jobs(t, PARALLEL_MIN_ENTRIES, &cuts);
    if (n <= 0)
        return n < 0 ? -1 : STATS_RETRY;
    int rc = trx_stats_compute_segments_with(t, s, window, cuts, (uint32_t)n, SEGMENT_WARM_UP, true,
                                             NULL, kept, x);
    if (rc == TRX_STATS_SEGMENTS_UNPREPARED) { /* Un-named Threads: prepared first */
        trx_trace_prepare(t);
        if (x)
            x->clear(x->ctx); /* fed by the walk that stopped */
        rc = trx_segments_few_threads(t)
                 ? trx_stats_compute_segments_with(t, s, window, cuts, (uint32_t)n, SEGMENT_WARM_UP,
                                                   true, NULL, kept, x)
                 : STATS_RETRY;
    }
    free(cuts);
    return rc;
}

/* trx_stats_compute_fed and _kept: segments on threads, else the prepare
 * walk, else prepared and walked. */
static int compute_any(trx_trace *t, trx_stats *s, uint64_t window, const trx_stats_extra *x,
                       const trx_kept_inversions *kept)
{
    int seg = compute_segmented(t, s, window, x, kept);
    if (seg != STATS_RETRY)
        return seg;
    trx_stats_feed_fn extra = x ? x->feed : NULL;
    void *extra_ctx = x ? x->ctx : NULL;
    /* An unprepared trace: the analyses ride on the prepare walk, unless it
     * meets a context that is no registered thread (then it stops there and
     * the trace is prepared and walked again, as below). */
    trx_prepare_walk *pw = trx_prepare_walk_begin(t);
    if (pw) {
        int r = compute(t, s, window, pw, extra, extra_ctx, kept);
        if (r != STATS_RETRY)
            return r;
        if (x && x->clear)
            x->clear(x->ctx); /* fed by the walk that stopped */
    }
    trx_trace_prepare(t);
    return compute(t, s, window, NULL, extra, extra_ctx, kept);
}

int trx_stats_compute_fed(trx_trace *t, trx_stats *s, uint64_t window, trx_stats_feed_fn extra,
                          void *extra_ctx)
{
    const trx_stats_extra x = {extra, extra_ctx, NULL, NULL, NULL, NULL, NULL};
    const trx_kept_inversions all = {UINT32_MAX, NULL, NULL};
    return compute_any(t, s, window, extra ? &x : NULL, &all);
}

int trx_stats_compute_extra_on_segments(trx_trace *t, trx_stats *s, uint64_t window,
                                        const trx_stats_extra *x)
{
    const trx_kept_inversions all = {UINT32_MAX, NULL, NULL};
    _Static_assert(STATS_RETRY == TRX_STATS_ONE_WALK, "compute_segmented's answer as it is");
    return compute_segmented(t, s, window, x, &all);
}

int trx_stats_compute_extra(trx_trace *t, trx_stats *s, uint64_t window, const trx_stats_extra *x)
{
    const trx_kept_inversions all = {UINT32_MAX, NULL, NULL};
    return compute_any(t, s, window, x, &all);
}

int trx_stats_compute_kept(trx_trace *t, trx_stats *s, uint32_t keep, trx_inversion_done_fn done,
                           void *ctx)
{
    const trx_kept_inversions some = {keep, done, ctx};
    return compute_any(t, s, 0, NULL, &some);
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
