/*
 * segment_driver.c - an analysis over segments of a trace on threads,
 * merged in trace order (segment_driver.h; the scheme: segment_merge.h).
 * The analysis that owns the trace so far is always segment 0's (a merged
 * unit's state is handed to it by ops->join); segment k's cursor, rebased
 * onto the one before it, is the truth at segment k + 1's start.
 */
#include "analyze/segment_driver.h"

#include <stdlib.h>
#include <string.h>

#ifdef TRX_HAVE_PTHREAD
#include <pthread.h>
#endif

#include "decode/event_cursor_internal.h"
#include "decode/txtb_salvage.h"
#include "trx/uia.h"

#define NO_END UINT64_MAX

typedef struct segment {
    void *a;          /* its analysis (segment 0: the caller's, r->first) */
    trx_cursor c;     /* its walk; then (rebased) the true cursor at its end */
    trx_cursor first; /* a copy at its first event, for walks again */
    bool have_c, have_first;
    uint64_t warm_at, start_at, end_at; /* raw entries (TXTB) or event numbers (UIA) */
    uint64_t base;                      /* events its cursor returned before its first event */
    uint64_t returned_end;              /* ... before the next segment's first */
    uint64_t synthetic, last_ticks;     /* its own events': RUNNING ones, the last's ticks */
    bool any_event;
    trx_prepare_state *part;    /* preparing the trace in parts: this segment's, else NULL */
    trx_cursor_guesses guesses; /* the RUNNING priorities its cursor guessed */
    trx_fingerprint fp[TRX_SEGMENT_UNITS];
    int rc;
    uint32_t k;
    uint64_t span;
    uint64_t warm_ticks; /* relative ticks and stamp of the entry before warm_at */
    uint32_t warm_stamp;
    trx_segment_run *r;
} segment;

static bool is_uia(const segment *g)
{
    return g->r->t->format == TRX_TRACE_UIA;
}

/* Whether cursor `c` has returned every event before position `at` and none after it. */
static bool at_position(const trx_cursor *c, uint64_t at, bool uia)
{
    if (at == NO_END)
        return false;
    if (uia)
        return trx_cursor_returned(c) == at;
    return trx_cursor_reached(c, (uint32_t)at);
}

/* Feeds the events of `c` until `end` to `units` of analysis `a`. */
static void walk_until(const trx_segment_ops *ops, trx_cursor *c, uint64_t end, bool uia, void *a,
                       uint32_t units)
{
    const trx_event *ev;
    while (!at_position(c, end, uia) && (ev = trx_cursor_next_ref(c)) != NULL)
        ops->feed(a, ev, units);
}

/* Walks segment g's own events (until the next segment's first) into its
 * analysis, counting what the trace's preparation needs. */
static void walk_own(segment *g)
{
    if (g->part)
        trx_cursor_attach_prepare(&g->c, g->part);
    const trx_segment_ops *ops = g->r->ops;
    bool uia = is_uia(g);
    const trx_event *ev;
    while (!at_position(&g->c, g->end_at, uia) &&
           !(g->part && trx_prepare_part_dirty(g->part)) /* prepared first: stop */ &&
           (ev = trx_cursor_next_ref(&g->c)) != NULL) {
        ops->feed_all(g->a, ev);
        g->synthetic += ev->synthetic;
        g->last_ticks = ev->ticks;
        g->any_event = true;
    }
    g->returned_end = trx_cursor_returned(&g->c);
}

/* Positions a new cursor of segment g where its warm-up starts. */
static int segment_cursor(segment *g)
{
    trx_trace *t = g->r->t;
    if (is_uia(g) || g->warm_at == 0) {
        if (trx_cursor_init(&g->c, t) < 0)
            return -1;
        for (uint64_t i = 0; is_uia(g) && i < g->warm_at; i++)
            if (!trx_cursor_next_ref(&g->c))
                break;
        return 0;
    }
    return trx_cursor_init_at_ticks(&g->c, t, (uint32_t)g->warm_at, g->warm_ticks, g->warm_stamp);
}

/* Segment k >= 1: its warm-up, the fingerprints at its first event, its events. */
static void *segment_walk(void *arg)
{
    segment *g = arg;
    const trx_segment_ops *ops = g->r->ops;
    g->rc = -1;
    if (ops->start(g->r->ctx, g->k, g->span, &g->a) < 0)
        return NULL;
    if (segment_cursor(g) < 0)
        return NULL;
    g->have_c = true;
    if (g->warm_at < g->start_at) /* (a cursor started at its first event has read nothing) */
        walk_until(ops, &g->c, g->start_at, is_uia(g), g->a, ~0u);
    g->base = trx_cursor_returned(&g->c);
    uint32_t units = ops->units(g->a);
    for (uint32_t k = 0; k < TRX_SEGMENT_UNITS; k++) {
        if (!(units & (1u << k)))
            continue;
        ops->fingerprint(g->a, k, &g->fp[k], g->base);
        if (ops->clear(g->a, k) < 0)
            return NULL;
    }
    if (trx_cursor_copy(&g->first, &g->c) < 0)
        return NULL;
    g->have_first = true;
    trx_cursor_record_guesses(&g->c, &g->guesses);
    walk_own(g);
    g->rc = 0;
    return NULL;
}

/* Segment 0: from the start into the caller's analysis. */
static void *first_walk(void *arg)
{
    segment *g = arg;
    g->rc = -1;
    if (trx_cursor_init(&g->c, g->r->t) < 0)
        return NULL;
    g->have_c = true;
    walk_own(g);
    g->rc = 0;
    return NULL;
}

/* Joins segment g (k >= 1) to the analysis of the trace before it (`owner`);
 * `truth` is the cursor from the start where g begins, whose returned count
 * is `before`. 0, or -1 out of memory. */
static int join(void *owner, segment *g, const trx_cursor *truth, uint64_t before)
{
    trx_segment_run *r = g->r;
    const trx_segment_ops *ops = r->ops;
    bool uia = is_uia(g);
    bool guesses_hold = uia || trx_cursor_guesses_hold(&g->guesses, truth);
    r->guesses_failed += !guesses_hold;
    uint64_t offset = before - g->base;
    uint32_t units = ops->units(owner), again = 0;
    for (uint32_t k = 0; k < TRX_SEGMENT_UNITS; k++) {
        uint32_t bit = 1u << k;
        if (!(units & bit))
            continue;
        trx_fingerprint f = {0, 0};
        ops->fingerprint(owner, k, &f, before);
        int joined = guesses_hold && trx_fp_equal(&f, &g->fp[k]) ? ops->join(g->a, owner, k, offset)
                                                                 : TRX_MERGE_REFUSED;
        if (joined < 0)
            return -1;
        if (joined == 0) {
            r->merged[k]++;
        } else {
            again |= bit;
            r->walked_again[k]++;
        }
    }
    if (again) {
        trx_cursor fc;
        if (trx_cursor_copy(&fc, &g->first) < 0)
            return -1;
        if (!uia)
            trx_cursor_rebase(&fc, truth, g->base);
        if (!guesses_hold && g->part) {
            /* the part's RUNNING priorities were guessed wrong too: again */
            trx_prepare_part_free(g->part);
            if (!(g->part = trx_prepare_part_new())) {
                trx_cursor_free(&fc);
                return -1;
            }
            trx_cursor_attach_prepare(&fc, g->part);
        }
        walk_until(ops, &fc, g->end_at, uia, owner, again);
        trx_cursor_free(&fc);
    }
    return 0;
}

uint64_t trx_txtb_thread_entry_from(const trx_trace *t, uint64_t raw, uint64_t limit)
{
    for (uint64_t i = raw < 1 ? 1 : raw; i < t->used && i < limit; i++) {
        trx_entry e;
        trx_trace_entry(t, (uint32_t)i, &e);
        if (e.context != TRX_CONTEXT_ISR && e.context != TRX_CONTEXT_INIT && e.context != 0)
            return i;
    }
    return 0;
}

/* The relative ticks and stamps of the entries before the warm-ups' starts
 * (segments 1..count-1, warm_at > 0) and, with `span`, of the last entry
 * into *span: one pass over the time stamps. False when out of memory. */
static bool warm_ticks(const trx_trace *t, segment *g, uint32_t count, bool span, uint64_t *out)
{
    uint32_t n = 0, *last = malloc((count + 1) * sizeof *last),
             *who = malloc((count + 1) * sizeof *who);
    uint64_t *ticks = malloc((count + 1) * sizeof *ticks);
    uint32_t *stamps = malloc((count + 1) * sizeof *stamps);
    bool ok = last && who && ticks && stamps;
    for (uint32_t k = 1; ok && k < count; k++)
        if (g[k].warm_at > 0) { /* ascending by insertion (few segments) */
            uint32_t at = n++;
            while (at > 0 && last[at - 1] > g[k].warm_at - 1) {
                last[at] = last[at - 1];
                who[at] = who[at - 1];
                at--;
            }
            last[at] = (uint32_t)g[k].warm_at - 1;
            who[at] = k;
        }
    if (ok && span && t->used > 0) {
        last[n] = t->used - 1;
        who[n++] = UINT32_MAX;
    }
    if (ok && n > 0)
        trx_trace_ticks_at(t, last, n, ticks, stamps);
    for (uint32_t i = 0; ok && i < n; i++) {
        if (who[i] == UINT32_MAX) {
            *out = ticks[i];
        } else {
            g[who[i]].warm_ticks = ticks[i];
            g[who[i]].warm_stamp = stamps[i];
        }
    }
    free(last);
    free(who);
    free(ticks);
    free(stamps);
    return ok;
}

uint32_t trx_segments_plan_cuts(const trx_trace *t, uint32_t jobs, uint64_t *cuts)
{
    uint32_t n = 0;
    for (uint32_t k = 1; k < jobs && t->format == TRX_TRACE_TXTB; k++) {
        uint64_t from = (uint64_t)t->used * k / jobs;
        uint64_t at = trx_txtb_thread_entry_from(t, from, from + 65536);
        if (at && (n == 0 || at > cuts[n - 1]))
            cuts[n++] = at;
    }
    return n;
}

bool trx_segments_few_threads(const trx_trace *t)
{
    return (uint64_t)t->thread_count * TRX_SEGMENT_ENTRIES_PER_THREAD <= t->used;
}

/* A UIA trace's segments walk the cursor from the start (no start part-way):
 * the share, in percent, of a segment's cost per event that is the cursor's
 * alone, which the cuts below balance (SYS/BIOS captures: ~40). */
#define UIA_CURSOR_SHARE_PERCENT 40u

/* trx_segments_cuts_for_jobs of a UIA trace: placed so that the segments'
 * threads end together although each walks the cursor from the start. */
static int uia_cuts_for_jobs(trx_trace *t, uint64_t min_events, uint64_t **cuts)
{
    *cuts = NULL;
    const trx_uia_info *u = trx_uia_info_of(t);
    uint64_t jobs = trx_trace_jobs(t), events = u ? u->records : 0;
    if (!u || jobs < 2 || min_events == 0 || events < 2 * min_events ||
        (uint64_t)t->thread_count * TRX_SEGMENT_ENTRIES_PER_THREAD > events)
        return 0;
    if (jobs > events / min_events)
        jobs = events / min_events;
    if (jobs > 64)
        jobs = 64;
    /* segment k's thread walks the cursor over [0, cut k) and everything
     * over its own events: with the cursor a share r of the cost, thread k
     * ends at e_k = T (1 + q + ... + q^k), q = 1 - r; e_(jobs-1) = events */
    double q = 1.0 - UIA_CURSOR_SHARE_PERCENT / 100.0, sum = 0, term = 1;
    for (uint64_t k = 0; k < jobs; k++, term *= q)
        sum += term;
    if (!(*cuts = malloc((size_t)(jobs - 1) * sizeof **cuts)))
        return -1;
    uint32_t n = 0;
    double end = 0;
    term = 1;
    for (uint64_t k = 0; k + 1 < jobs; k++, term *= q) {
        end += term;
        uint64_t at = (uint64_t)((double)events * end / sum);
        if (at >= min_events && at + min_events <= events &&
            (n == 0 || at >= (*cuts)[n - 1] + min_events))
            (*cuts)[n++] = at;
    }
    if (n == 0) {
        free(*cuts);
        *cuts = NULL;
    }
    return (int)n;
}

int trx_segments_cuts_for_jobs(trx_trace *t, uint64_t min_entries, uint64_t **cuts)
{
    if (t->format == TRX_TRACE_UIA)
        return uia_cuts_for_jobs(t, min_entries, cuts);
    *cuts = NULL;
    uint64_t jobs = trx_trace_jobs(t);
    if (t->format != TRX_TRACE_TXTB || jobs < 2 || min_entries == 0 || t->used < 2 * min_entries)
        return 0;
    trx_trace_use_view(t);
    if (!trx_segments_few_threads(t))
        return 0;
    if (jobs > t->used / min_entries)
        jobs = t->used / min_entries;
    if (!(*cuts = malloc((size_t)(jobs - 1) * sizeof **cuts)))
        return -1;
    uint32_t n = trx_segments_plan_cuts(t, (uint32_t)jobs, *cuts);
    if (n == 0) {
        free(*cuts);
        *cuts = NULL;
    }
    return (int)n;
}

/* Where the segments start (ascending, inside the trace, on thread events:
 * TXTB) and warm up. Their count. */
static uint32_t place(const trx_trace *t, segment *g, const uint64_t *cuts, uint32_t n,
                      uint64_t warm, uint64_t limit)
{
    bool uia = t->format == TRX_TRACE_UIA;
    uint32_t count = 1;
    for (uint32_t k = 0; k < n; k++) {
        uint64_t at = cuts[k];
        if (!uia)
            at = trx_txtb_thread_entry_from(t, at, t->used);
        if (at == 0 || at >= limit || at <= g[count - 1].start_at)
            continue;
        g[count++].start_at = at;
    }
    for (uint32_t k = 1; k < count; k++) {
        uint64_t from = g[k].start_at > warm ? g[k].start_at - warm : 0;
        g[k].warm_at = from;
        if (!uia && from > 0) {
            uint64_t at = trx_txtb_thread_entry_from(t, from, g[k].start_at);
            g[k].warm_at = at ? at : g[k].start_at;
        }
    }
    for (uint32_t k = 0; k < count; k++)
        g[k].end_at = k + 1 < count ? g[k + 1].start_at : NO_END;
    return count;
}

/* Runs segment 0 here and the others on threads of their own (or here,
 * one after the other). */
static void run_walks(segment *g, uint32_t count, bool threads)
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

/* The trace as one prepare walk leaves it, from the segments' parts. */
static int finish_prepare(trx_trace *t, segment *g, uint32_t count)
{
    trx_prepare_state **parts = malloc(count * sizeof *parts);
    if (!parts)
        return -1;
    uint64_t total = 0, synthetic = 0, last_ticks = 0;
    for (uint32_t k = 0; k < count; k++) {
        parts[k] = g[k].part;
        total += g[k].returned_end - g[k].base;
        synthetic += g[k].synthetic;
        if (g[k].any_event)
            last_ticks = g[k].last_ticks;
    }
    trx_prepare_parts_finish(t, parts, count, total, synthetic, last_ticks);
    free(parts);
    return 0;
}

int trx_segments_run(trx_segment_run *r, const uint64_t *cuts, uint32_t n)
{
    trx_trace *t = r->t;
    bool uia = t->format == TRX_TRACE_UIA;
    if (uia)
        trx_trace_prepare(t); /* the open pass knew all */
    else
        trx_trace_use_view(t);
    /* an unprepared TXTB trace is prepared by the segments themselves, in parts */
    r->preparing = !t->prepared;
    r->first = NULL;
    r->guesses_failed = 0;
    memset(r->merged, 0, sizeof r->merged);
    memset(r->walked_again, 0, sizeof r->walked_again);
    segment *g = calloc((size_t)n + 1, sizeof *g);
    if (!g)
        return -1;
    uint64_t limit = uia ? trx_uia_info_of(t)->records : t->used;
    uint32_t count = place(t, g, cuts, n, r->warm, limit);
    r->segments = count;
    /* one pass over the time stamps: the ticks where the warm-ups start and,
     * unprepared, the span (the largest ticks) */
    uint64_t span = 0;
    int rc = 0;
    if (!uia && !warm_ticks(t, g, count, r->preparing, &span))
        rc = -1;
    if (uia || !r->preparing)
        span = uia ? trx_trace_span_ticks(t) : t->max_ticks;
    for (uint32_t k = 0; k < count; k++) {
        g[k].r = r;
        g[k].k = k;
        g[k].span = span;
        if (r->preparing && !(g[k].part = trx_prepare_part_new()))
            rc = -1;
    }
    if (rc == 0 && (rc = r->ops->start(r->ctx, 0, span, &r->first)) == 0) {
        g[0].a = r->first;
        run_walks(g, count, r->threads);
        bool dirty = false;
        for (uint32_t k = 0; k < count; k++) {
            if (g[k].rc < 0)
                rc = -1;
            if (g[k].part && trx_prepare_part_dirty(g[k].part))
                dirty = true;
        }
        if (dirty && rc == 0)
            rc = TRX_SEGMENTS_UNPREPARED;
    }
    /* the merge, in trace order; the truth at each boundary is the cursor
     * of the segment before, made exact */
    uint64_t before = g[0].returned_end;
    for (uint32_t k = 1; rc == 0 && k < count; k++) {
        if (join(r->first, &g[k], &g[k - 1].c, before) < 0) {
            rc = -1;
            break;
        }
        if (!uia)
            trx_cursor_rebase(&g[k].c, &g[k - 1].c, g[k].base);
        before = trx_cursor_returned(&g[k].c);
    }
    if (rc == 0 && r->preparing)
        rc = finish_prepare(t, g, count);
    for (uint32_t k = 0; k < count; k++) {
        if (k > 0 && g[k].a)
            r->ops->discard(g[k].a);
        if (g[k].have_c)
            trx_cursor_free(&g[k].c);
        if (g[k].have_first)
            trx_cursor_free(&g[k].first);
        trx_prepare_part_free(g[k].part);
    }
    free(g);
    return rc;
}
