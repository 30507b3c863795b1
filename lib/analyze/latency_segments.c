/*
 * latency_segments.c - trx latency over segments of a TXTB trace, one
 * thread each, merged in trace order (issue 33; the scheme of
 * segment_merge.h): segment k starts its analysis a warm-up before its first
 * event, fingerprints the state there and forgets the warm-up's results.
 * At the merge, an analysis of the part before that ended in the same state
 * (and whose cursor agrees with the segment's RUNNING guesses) takes the
 * segment's results after its own; otherwise it walks the segment itself
 * from a copy of the segment's cursor made exact. The rows are the one
 * walk's, byte for byte, for every cut (test_latency_segments).
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/core_tracker.h"
#include "analyze/latency_segments.h"
#include "analyze/stats_segments.h"
#include "decode/event_cursor_internal.h"
#include "decode/txtb_salvage.h"

#ifdef TRX_HAVE_PTHREAD
#include <pthread.h>
#endif

#define SEGMENT_MIN_ENTRIES 65536u /* a segment has this many entries at least */
#define SEGMENT_WARM_UP 16384u
/* each segment keeps per-thread state: segments only for a trace with at
 * most one thread per this many entries (as the statistics) */
#define ENTRIES_PER_THREAD 64u
#define NO_END UINT64_MAX

typedef struct lseg {
    trx_latency l;    /* segment k >= 1's own analysis (segment 0: the caller's) */
    trx_cursor c;     /* its walk; then (rebased) the true cursor at its end */
    trx_cursor first; /* a copy at its first event, for a walk again */
    bool have_l, have_c, have_first;
    uint64_t warm_at, start_at, end_at; /* raw entries */
    uint64_t base;                      /* events its cursor returned before its first */
    uint64_t warm_ticks;                /* relative ticks and stamp of the entry before warm_at */
    uint32_t warm_stamp;
    uint64_t *numbers; /* per thread: its instances before the segment's first event */
    trx_cursor_guesses guesses;
    trx_fingerprint fp;
    int rc;
    trx_trace *t;
    const trx_latency_options *o;
    int txtb_smp;
} lseg;

/* Feeds the events of `c` before raw entry `end` (NO_END: all) to `l`. */
static void feed_until(trx_cursor *c, uint64_t end, trx_latency *l)
{
    const trx_event *ev;
    while (!(end != NO_END && trx_cursor_reached(c, (uint32_t)end)) &&
           (ev = trx_cursor_next_ref(c)) != NULL)
        trx_latency_feed(l, ev);
}

/* Segment 0: from the trace's start into the caller's analysis. */
static void *first_walk(void *arg)
{
    lseg *g = arg;
    g->rc = -1;
    if (trx_cursor_init(&g->c, g->t) < 0)
        return NULL;
    g->have_c = true;
    feed_until(&g->c, g->end_at, &g->l);
    g->rc = 0;
    return NULL;
}

/* Segment k >= 1: its warm-up, the fingerprint at its first event, its events. */
static void *segment_walk(void *arg)
{
    lseg *g = arg;
    g->rc = -1;
    if (trx_latency_start_as(&g->l, g->t, g->o, g->txtb_smp) < 0)
        return NULL;
    g->have_l = true;
    int rc = g->warm_at == 0 ? trx_cursor_init(&g->c, g->t)
                             : trx_cursor_init_at_ticks(&g->c, g->t, (uint32_t)g->warm_at,
                                                        g->warm_ticks, g->warm_stamp);
    if (rc < 0)
        return NULL;
    g->have_c = true;
    if (g->warm_at < g->start_at) /* (a cursor started at its first event has read nothing) */
        feed_until(&g->c, g->start_at, &g->l);
    g->base = trx_cursor_returned(&g->c);
    trx_latency_fingerprint(&g->l, &g->fp, g->base);
    if (trx_latency_clear_results(&g->l, g->numbers) < 0 || trx_cursor_copy(&g->first, &g->c) < 0)
        return NULL;
    g->have_first = true;
    trx_cursor_record_guesses(&g->c, &g->guesses);
    feed_until(&g->c, g->end_at, &g->l);
    g->rc = 0;
    return NULL;
}

/* Joins segment g to `owner` (the analysis of the trace before it); `truth`
 * is the cursor from the start where g begins, which returned `before`
 * events. 0, or -1 out of memory. */
static int join(trx_latency *owner, lseg *g, const trx_cursor *truth, uint64_t before,
                trx_latency_seg_report *rep)
{
    bool hold = trx_cursor_guesses_hold(&g->guesses, truth);
    trx_fingerprint f = {0, 0};
    trx_latency_fingerprint(owner, &f, before);
    if (hold && trx_fp_equal(&f, &g->fp)) {
        if (rep)
            rep->merged++;
        return trx_latency_merge(&g->l, owner, g->numbers, before - g->base);
    }
    if (rep) {
        rep->walked_again++;
        rep->guesses_failed += !hold;
    }
    trx_cursor fc;
    if (trx_cursor_copy(&fc, &g->first) < 0)
        return -1;
    trx_cursor_rebase(&fc, truth, g->base);
    feed_until(&fc, g->end_at, owner);
    trx_cursor_free(&fc);
    return 0;
}

/* Runs segment 0 here and the others on threads of their own (or here,
 * one after the other). */
static void run_walks(lseg *g, uint32_t count, bool threads)
{
#ifdef TRX_HAVE_PTHREAD
    pthread_t *tid = threads && count > 1 ? calloc(count, sizeof *tid) : NULL;
    bool *started = tid ? calloc(count, sizeof *started) : NULL;
    for (uint32_t k = 1; started && k < count; k++)
        started[k] = pthread_create(&tid[k], NULL, segment_walk, &g[k]) == 0;
    first_walk(&g[0]);
    for (uint32_t k = 1; k < count; k++) {
        if (started && started[k])
            pthread_join(tid[k], NULL);
        else
            segment_walk(&g[k]);
    }
    free(tid);
    free(started);
#else
    (void)threads;
    first_walk(&g[0]);
    for (uint32_t k = 1; k < count; k++)
        segment_walk(&g[k]);
#endif
}

/* Where each segment starts (thread events, ascending) and warms up, and
 * the ticks before each warm-up. The segment count. */
static uint32_t place(trx_trace *t, lseg *g, const uint64_t *cuts, uint32_t n, uint64_t warm)
{
    uint32_t count = 1;
    for (uint32_t k = 0; k < n; k++) {
        uint64_t at = trx_txtb_thread_entry_from(t, cuts[k], t->used);
        if (at == 0 || at >= t->used || at <= g[count - 1].start_at)
            continue;
        g[count++].start_at = at;
    }
    for (uint32_t k = 1; k < count; k++) {
        uint64_t from = g[k].start_at > warm ? g[k].start_at - warm : 0;
        uint64_t at = from > 0 ? trx_txtb_thread_entry_from(t, from, g[k].start_at) : 0;
        g[k].warm_at = from == 0 ? 0 : at ? at : g[k].start_at;
        if (g[k].warm_at > 0) {
            uint32_t last = (uint32_t)g[k].warm_at - 1;
            trx_trace_ticks_at(t, &last, 1, &g[k].warm_ticks, &g[k].warm_stamp);
        }
    }
    for (uint32_t k = 0; k < count; k++)
        g[k].end_at = k + 1 < count ? g[k + 1].start_at : NO_END;
    return count;
}

int trx_latency_compute_segments(trx_trace *t, const trx_latency_options *o, trx_latency *out,
                                 const uint64_t *cuts, uint32_t n, uint64_t warm, bool threads,
                                 trx_latency_seg_report *rep)
{
    trx_trace_prepare(t);
    if (rep)
        memset(rep, 0, sizeof *rep);
    int txtb_smp = trx_txtb_multi_core(t); /* one scan, not one per segment */
    if (trx_latency_start_as(out, t, o, txtb_smp) < 0)
        return -1;
    lseg *g = calloc((size_t)n + 1, sizeof *g);
    if (!g) {
        trx_latency_free(out);
        return -1;
    }
    uint32_t count = place(t, g, cuts, n, warm);
    if (rep)
        rep->segments = count;
    int rc = 0;
    for (uint32_t k = 0; k < count; k++) {
        g[k].t = t;
        g[k].o = o;
        g[k].txtb_smp = txtb_smp;
        if (k > 0 &&
            !(g[k].numbers = calloc(t->thread_count ? t->thread_count : 1, sizeof *g[k].numbers)))
            rc = -1;
    }
    g[0].l = *out; /* segment 0 walks the caller's analysis */
    if (rc == 0) {
        run_walks(g, count, threads);
        for (uint32_t k = 0; k < count; k++)
            if (g[k].rc < 0)
                rc = -1;
    }
    uint64_t before = trx_cursor_returned(&g[0].c);
    for (uint32_t k = 1; rc == 0 && k < count; k++) {
        if (join(&g[0].l, &g[k], &g[k - 1].c, before, rep) < 0) {
            rc = -1;
            break;
        }
        trx_cursor_rebase(&g[k].c, &g[k - 1].c, g[k].base);
        before = trx_cursor_returned(&g[k].c);
    }
    *out = g[0].l;
    for (uint32_t k = 0; k < count; k++) {
        if (k > 0 && g[k].have_l)
            trx_latency_free(&g[k].l);
        if (g[k].have_c)
            trx_cursor_free(&g[k].c);
        if (g[k].have_first)
            trx_cursor_free(&g[k].first);
        free(g[k].numbers);
    }
    free(g);
    if (rc == 0)
        rc = trx_latency_finish(out);
    if (rc != 0)
        trx_latency_free(out);
    return rc;
}

int trx_latency_compute_parallel(trx_trace *t, const trx_latency_options *o, trx_latency *out)
{
    uint32_t jobs = trx_trace_jobs(t);
    if (t->format != TRX_TRACE_TXTB || jobs < 2 || t->used < 2 * SEGMENT_MIN_ENTRIES ||
        !trx_latency_segmentable(o))
        return TRX_LATENCY_ONE_WALK;
    trx_trace_prepare(t);
    trx_trace_use_view(t);
    if ((uint64_t)t->thread_count * ENTRIES_PER_THREAD > t->used)
        return TRX_LATENCY_ONE_WALK;
    if (jobs > t->used / SEGMENT_MIN_ENTRIES)
        jobs = t->used / SEGMENT_MIN_ENTRIES;
    uint64_t *cuts = malloc((jobs - 1) * sizeof *cuts);
    if (!cuts)
        return -1;
    uint32_t n = trx_stats_plan_cuts(t, jobs, cuts);
    int rc = n > 0 ? trx_latency_compute_segments(t, o, out, cuts, n, SEGMENT_WARM_UP, true, NULL)
                   : TRX_LATENCY_ONE_WALK;
    free(cuts);
    return rc;
}
