/*
 * stats_segments.c - trx_stats over segments of a trace (segment_merge.h):
 * segment 0 walks from the start; segment k >= 1 starts its analyses fresh
 * a warm-up before its first event, fingerprints their states there and
 * walks on to the next segment's start. The merge goes in trace order: each
 * analysis ("unit") of the part before that ends in the state the segment's
 * started from takes the segment's results after its own; any other walks
 * the segment again itself, from a copy of the segment's cursor made exact
 * (numbers, RUNNING priorities) by the cursor before it. The analyses that
 * own the trace so far always live in segment 0's walk (a merged unit's
 * state is swapped in), which is finished as the one walk would be. The
 * inversions beyond those kept whole (trx_stats_compute_kept) go to the
 * caller's `done` from this thread only: segment 0's as they end, each later
 * segment's held as bands until its merge.
 */
#include "analyze/stats_segments.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#ifdef TRX_HAVE_PTHREAD
#include <pthread.h>
#endif

#include "analyze/segment_units.h"
#include "decode/event_cursor_internal.h"
#include "decode/txtb_salvage.h"
#include "trx/uia.h"

typedef trx_stats_walk walk;

/* ---- the units' parts (segment_units.h), on a walk ---- */

/* Swaps the bytes of one member of two walks. */
static void swap_bytes(void *a, void *b, size_t n)
{
    unsigned char tmp[256], *x = a, *y = b;
    while (n) {
        size_t k = n < sizeof tmp ? n : sizeof tmp;
        memcpy(tmp, x, k);
        memcpy(x, y, k);
        memcpy(y, tmp, k);
        x += k;
        y += k;
        n -= k;
    }
}

#define SWAP_MEMBER(a, b, m) swap_bytes(&(a)->m, &(b)->m, sizeof(a)->m)

/* FileX, NetX and the per-thread counts keep no state: only results in trx_stats. */
static void no_state(const walk *w, trx_fingerprint *f, uint64_t base)
{
    (void)w;
    (void)f;
    (void)base;
}

static void add_words(uint64_t *dst, const uint64_t *src, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] += src[i];
}

static void filex_clear(walk *w)
{
    memset(&w->s->filex, 0, sizeof w->s->filex);
}

static int filex_merge(walk *later, walk *earlier, uint64_t offset)
{
    (void)offset;
    add_words((uint64_t *)&later->s->filex, (const uint64_t *)&earlier->s->filex,
              sizeof later->s->filex / sizeof(uint64_t));
    return 0;
}

static void filex_swap(walk *a, walk *b)
{
    SWAP_MEMBER(a->s, b->s, filex);
}

static void netx_clear(walk *w)
{
    memset(&w->s->netx, 0, sizeof w->s->netx);
}

static int netx_merge(walk *later, walk *earlier, uint64_t offset)
{
    (void)offset;
    add_words((uint64_t *)&later->s->netx, (const uint64_t *)&earlier->s->netx,
              sizeof later->s->netx / sizeof(uint64_t));
    return 0;
}

static void netx_swap(walk *a, walk *b)
{
    SWAP_MEMBER(a->s, b->s, netx);
}

static void counts_clear(walk *w)
{
    w->s->suspensions = w->s->resumptions = 0;
    for (uint32_t i = 0; i < w->s->thread_count; i++) {
        trx_thread_stats *x = &w->s->threads[i];
        x->total_events = x->suspensions = x->resumptions = 0;
    }
}

static int counts_merge(walk *later, walk *earlier, uint64_t offset)
{
    (void)offset;
    trx_stats *l = later->s;
    const trx_stats *e = earlier->s;
    l->suspensions += e->suspensions;
    l->resumptions += e->resumptions;
    for (uint32_t i = 0; i < l->thread_count; i++) {
        l->threads[i].total_events += e->threads[i].total_events;
        l->threads[i].suspensions += e->threads[i].suspensions;
        l->threads[i].resumptions += e->threads[i].resumptions;
    }
    return 0;
}

static void counts_swap(walk *a, walk *b)
{
    SWAP_MEMBER(a->s, b->s, suspensions);
    SWAP_MEMBER(a->s, b->s, resumptions);
    for (uint32_t i = 0; i < a->s->thread_count; i++) {
        SWAP_MEMBER(&a->s->threads[i], &b->s->threads[i], total_events);
        SWAP_MEMBER(&a->s->threads[i], &b->s->threads[i], suspensions);
        SWAP_MEMBER(&a->s->threads[i], &b->s->threads[i], resumptions);
    }
}

/* The profile: its state in the walk, its results in trx_stats. */
static void prof_fp(const walk *w, trx_fingerprint *f, uint64_t base)
{
    trx_profile_fingerprint(&w->prof, w->t, f, base);
}

static void prof_clear(walk *w)
{
    trx_profile_clear_results(&w->prof, w->s);
}

static int prof_merge(walk *later, walk *earlier, uint64_t offset)
{
    return trx_profile_merge(&later->prof, later->s, &earlier->prof, earlier->s, later->t, offset);
}

static void prof_swap(walk *a, walk *b)
{
    SWAP_MEMBER(a, b, prof);
    SWAP_MEMBER(a->s, b->s, interrupt_ticks);
    SWAP_MEMBER(a->s, b->s, idle_ticks);
    for (uint32_t i = 0; i < a->s->thread_count; i++)
        SWAP_MEMBER(&a->s->threads[i], &b->s->threads[i], execution_ticks);
}

/* The analyses whose state and results are all their own (a member of the
 * walk): adapters by name. */
#define OWN_UNIT(NAME, MEMBER, PREFIX, REF)                                                        \
    static void NAME##_fp(const walk *w, trx_fingerprint *f, uint64_t base)                        \
    {                                                                                              \
        PREFIX##_fingerprint(REF w->MEMBER, w->t, f, base);                                        \
    }                                                                                              \
    static void NAME##_clear(walk *w)                                                              \
    {                                                                                              \
        PREFIX##_clear_results(REF w->MEMBER);                                                     \
    }                                                                                              \
    static int NAME##_merge(walk *later, walk *earlier, uint64_t offset)                           \
    {                                                                                              \
        return PREFIX##_merge(REF later->MEMBER, REF earlier->MEMBER, later->t, offset);           \
    }                                                                                              \
    static void NAME##_swap(walk *a, walk *b)                                                      \
    {                                                                                              \
        SWAP_MEMBER(a, b, MEMBER);                                                                 \
    }

OWN_UNIT(stack, stack, trx_stack_usage, &)
OWN_UNIT(pop, pop, trx_popularity, &)
OWN_UNIT(tpop, tpop, trx_thread_popularity, &)
OWN_UNIT(timing, timing, trx_timing, &)
OWN_UNIT(perf, perf, trx_correct_performance, &)
OWN_UNIT(cinv, cinv, trx_correct_inversions, )
OWN_UNIT(cores, cores, trx_core_tracker, )
OWN_UNIT(xsw, sw, trx_switches, &)
OWN_UNIT(xpre, pre, trx_preemptions, &)
OWN_UNIT(xirq, irq, trx_interrupts, &)
OWN_UNIT(xinv, inv, trx_inversions, )

typedef struct unit_ops {
    const char *name;
    void (*fingerprint)(const walk *w, trx_fingerprint *f, uint64_t base);
    void (*clear)(walk *w);
    int (*merge)(walk *later, walk *earlier, uint64_t offset);
    void (*swap)(walk *a, walk *b);
} unit_ops;

/* By unit bit (STATS_U_*). */
static const unit_ops units[STATS_UNIT_COUNT] = {
    {"filex", no_state, filex_clear, filex_merge, filex_swap},
    {"netx", no_state, netx_clear, netx_merge, netx_swap},
    {"thread counts", no_state, counts_clear, counts_merge, counts_swap},
    {"stack usage", stack_fp, stack_clear, stack_merge, stack_swap},
    {"popular services", pop_fp, pop_clear, pop_merge, pop_swap},
    {"thread services", tpop_fp, tpop_clear, tpop_merge, tpop_swap},
    {"execution profile", prof_fp, prof_clear, prof_merge, prof_swap},
    {"timing", timing_fp, timing_clear, timing_merge, timing_swap},
    {"performance", perf_fp, perf_clear, perf_merge, perf_swap},
    {"inversions", cinv_fp, cinv_clear, cinv_merge, cinv_swap},
    {"core tracker", cores_fp, cores_clear, cores_merge, cores_swap},
    {"switches (TraceX)", xsw_fp, xsw_clear, xsw_merge, xsw_swap},
    {"preemptions (TraceX)", xpre_fp, xpre_clear, xpre_merge, xpre_swap},
    {"interrupts (TraceX)", xirq_fp, xirq_clear, xirq_merge, xirq_swap},
    {"inversions (TraceX)", xinv_fp, xinv_clear, xinv_merge, xinv_swap},
};

const char *trx_stats_unit_name(uint32_t k)
{
    return k < STATS_UNIT_COUNT ? units[k].name : "?";
}

/* ---- segments ---- */

#define NO_END UINT64_MAX

typedef struct segment {
    walk w;
    trx_stats own;    /* segment k >= 1's results (segment 0 writes the caller's) */
    trx_cursor c;     /* its walk; then (rebased) the true cursor at its end */
    trx_cursor first; /* a copy at its first event, for walks again */
    bool have_c, have_first, have_walk;
    uint64_t warm_at, start_at, end_at; /* positions: raw entries (TXTB) or event numbers (UIA) */
    uint64_t base;                      /* events its cursor returned before its first event */
    uint64_t returned_end;              /* ... before the next segment's first */
    uint64_t synthetic, last_ticks;     /* its own events': RUNNING ones, the last's ticks */
    bool any_event;
    trx_prepare_state *part;    /* preparing the trace in parts: this segment's, else NULL */
    trx_cursor_guesses guesses; /* the RUNNING priorities its cursor guessed */
    trx_fingerprint fp[STATS_UNIT_COUNT];
    int rc;
    /* set up by the caller */
    trx_trace *t;
    uint64_t window, max_ticks;
    bool uia;
    int single_core;     /* trx_core_tracker_new_known's */
    uint64_t warm_ticks; /* relative ticks and stamp of the entry before warm_at */
    uint32_t warm_stamp;
    const trx_kept_inversions *kept; /* the caller's: what the inversions keep */
} segment;

/* Whether cursor `c` has returned every event before position `at` and none after it. */
static bool at_position(const trx_cursor *c, uint64_t at, bool uia)
{
    if (at == NO_END)
        return false;
    if (uia)
        return trx_cursor_returned(c) == at;
    return trx_cursor_reached(c, (uint32_t)at);
}

/* Feeds the events of `c` until `end` to `units` of `w`. */
static void walk_until(trx_cursor *c, uint64_t end, bool uia, walk *w, uint32_t mask)
{
    const trx_event *ev;
    while (!at_position(c, end, uia) && (ev = trx_cursor_next_ref(c)) != NULL)
        trx_stats_walk_feed(w, ev, mask);
}

/* Walks segment g's own events (until the next segment's first) into its
 * analyses, counting what the trace's preparation needs. */
static void walk_own(segment *g)
{
    if (g->part)
        trx_cursor_attach_prepare(&g->c, g->part);
    const trx_event *ev;
    while (!at_position(&g->c, g->end_at, g->uia) &&
           !(g->part && trx_prepare_part_dirty(g->part)) /* prepared first: stop */ &&
           (ev = trx_cursor_next_ref(&g->c)) != NULL) {
        trx_stats_walk_feed_all(&g->w, ev);
        g->synthetic += ev->synthetic;
        g->last_ticks = ev->ticks;
        g->any_event = true;
    }
    g->returned_end = trx_cursor_returned(&g->c);
}

/* Positions a new cursor of segment g where its warm-up starts. */
static int segment_cursor(segment *g)
{
    if (g->uia || g->warm_at == 0) {
        if (trx_cursor_init(&g->c, g->t) < 0)
            return -1;
        for (uint64_t i = 0; g->uia && i < g->warm_at; i++)
            if (!trx_cursor_next_ref(&g->c))
                break;
        return 0;
    }
    return trx_cursor_init_at_ticks(&g->c, g->t, (uint32_t)g->warm_at, g->warm_ticks,
                                    g->warm_stamp);
}

/* Walks segment g: its warm-up, the fingerprints at its first event, its events. */
static void *segment_walk(void *arg)
{
    segment *g = arg;
    /* as many windows kept whole as the caller's walk; the others held for
     * the merge (never given to `done` on this thread) */
    const trx_kept_inversions kept = {g->kept->keep, NULL, NULL};
    g->rc = -1;
    if (trx_stats_walk_init(&g->w, g->t, &g->own, g->window, g->max_ticks, &kept, g->single_core) !=
        0)
        return NULL;
    g->have_walk = true;
    g->w.perf.part_way = true;
    if (g->w.cinv && g->kept->done)
        trx_correct_inversions_defer(g->w.cinv);
    if (segment_cursor(g) < 0)
        return NULL;
    g->have_c = true;
    if (g->warm_at < g->start_at)
        walk_until(&g->c, g->start_at, g->uia, &g->w, ~0u);
    g->base = trx_cursor_returned(&g->c);
    for (uint32_t k = 0; k < STATS_UNIT_COUNT; k++) {
        if (!(g->w.units & (1u << k)))
            continue;
        units[k].fingerprint(&g->w, &g->fp[k], g->base);
        units[k].clear(&g->w);
    }
    if (trx_cursor_copy(&g->first, &g->c) < 0)
        return NULL;
    g->have_first = true;
    trx_cursor_record_guesses(&g->c, &g->guesses);
    walk_own(g);
    g->rc = 0;
    return NULL;
}

/* Segment 0: from the start into the caller's trx_stats. */
static void *first_walk(void *arg)
{
    segment *g = arg;
    g->rc = -1;
    if (trx_cursor_init(&g->c, g->t) < 0)
        return NULL;
    g->have_c = true;
    walk_own(g);
    g->rc = 0;
    return NULL;
}

/* Joins segment g (k >= 1) to the analyses of the trace before it, which
 * live in `owner`; `truth` is the cursor from the start where g begins,
 * whose returned count is `before`. 0, or -1 out of memory. */
static int join(walk *owner, segment *g, const trx_cursor *truth, uint64_t before,
                trx_segment_report *rep)
{
    bool guesses_hold = g->uia || trx_cursor_guesses_hold(&g->guesses, truth);
    if (!guesses_hold && rep)
        rep->guesses_failed++;
    uint64_t offset = before - g->base;
    uint32_t again = 0;
    for (uint32_t k = 0; k < STATS_UNIT_COUNT; k++) {
        uint32_t bit = 1u << k;
        if (!(owner->units & bit))
            continue;
        trx_fingerprint f = {0, 0};
        units[k].fingerprint(owner, &f, before);
        int merged = guesses_hold && trx_fp_equal(&f, &g->fp[k])
                         ? units[k].merge(&g->w, owner, offset)
                         : TRX_MERGE_REFUSED;
        if (merged < 0)
            return -1;
        if (merged == 0) {
            units[k].swap(owner, &g->w);
            if (rep)
                rep->merged[k]++;
        } else {
            again |= bit;
            if (rep)
                rep->walked_again[k]++;
        }
    }
    if (again) {
        trx_cursor fc;
        if (trx_cursor_copy(&fc, &g->first) < 0)
            return -1;
        if (!g->uia)
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
        walk_until(&fc, g->end_at, g->uia, owner, again);
        trx_cursor_free(&fc);
    }
    return 0;
}

/* Moves TXTB position `raw` on to the next entry of a thread's context (a
 * cursor started there knows its state), or returns 0 when none is near. */
static uint64_t thread_event_at_or_after(const trx_trace *t, uint64_t raw, uint64_t limit)
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

uint32_t trx_stats_plan_cuts(const trx_trace *t, uint32_t jobs, uint64_t *cuts)
{
    uint32_t n = 0;
    for (uint32_t k = 1; k < jobs && t->format == TRX_TRACE_TXTB; k++) {
        uint64_t from = (uint64_t)t->used * k / jobs;
        uint64_t at = thread_event_at_or_after(t, from, from + 65536);
        if (at && (n == 0 || at > cuts[n - 1]))
            cuts[n++] = at;
    }
    return n;
}

int trx_stats_compute_segments(trx_trace *t, trx_stats *s, uint64_t window, const uint64_t *cuts,
                               uint32_t n, uint64_t warm, bool threads, trx_segment_report *rep)
{
    const trx_kept_inversions all = {UINT32_MAX, NULL, NULL};
    return trx_stats_compute_segments_kept(t, s, window, cuts, n, warm, threads, rep, &all);
}

int trx_stats_compute_segments_kept(trx_trace *t, trx_stats *s, uint64_t window,
                                    const uint64_t *cuts, uint32_t n, uint64_t warm, bool threads,
                                    trx_segment_report *rep, const trx_kept_inversions *kept)
{
    bool uia = t->format == TRX_TRACE_UIA;
    if (uia)
        trx_trace_prepare(t); /* the open pass knew all */
    else
        trx_trace_use_view(t);
    /* an unprepared TXTB trace is prepared by the segments themselves, in parts */
    bool preparing = !t->prepared;
    uint64_t limit = uia ? trx_uia_info_of(t)->records : t->used;
    if (rep)
        memset(rep, 0, sizeof *rep);
    segment *g = calloc((size_t)n + 1, sizeof *g);
    if (!g)
        return -1;
    /* the segments' starts: ascending, inside the trace, on thread events (TXTB) */
    uint32_t count = 1;
    for (uint32_t k = 0; k < n; k++) {
        uint64_t at = cuts[k];
        if (!uia)
            at = thread_event_at_or_after(t, at, t->used);
        if (at == 0 || at >= limit || at <= g[count - 1].start_at)
            continue;
        g[count++].start_at = at;
    }
    if (rep)
        rep->segments = count;
    /* where each segment's warm-up starts (a thread's event: TXTB) */
    for (uint32_t k = 1; k < count; k++) {
        uint64_t from = g[k].start_at > warm ? g[k].start_at - warm : 0;
        g[k].warm_at = from;
        if (!uia && from > 0) {
            uint64_t at = thread_event_at_or_after(t, from, g[k].start_at);
            g[k].warm_at = at ? at : g[k].start_at;
        }
    }
    /* one pass over the time stamps: the ticks where the warm-ups start and,
     * unprepared, the span (the largest ticks, which the load windows need) */
    uint64_t max_ticks = 0;
    int rc = 0;
    if (!uia && !warm_ticks(t, g, count, preparing, &max_ticks))
        rc = -1;
    if (uia || !preparing)
        max_ticks = trx_stats_max_ticks(t, false);
    int single = uia ? -1 : !trx_txtb_multi_core(t); /* one scan, not one per segment */
    if (rc == 0)
        rc = trx_stats_walk_init(&g[0].w, t, s, window, max_ticks, kept, single);
    if (rc != 0) {
        free(g);
        return rc;
    }
    g[0].have_walk = true;
    /* a walk that may be dropped (TRX_STATS_SEGMENTS_UNPREPARED) gives
     * `done` nothing before it is known to stand */
    bool held_first = preparing && g[0].w.cinv && kept->done;
    if (held_first)
        trx_correct_inversions_defer(g[0].w.cinv);
    for (uint32_t k = 0; k < count; k++) {
        g[k].t = t;
        g[k].window = window;
        g[k].max_ticks = max_ticks;
        g[k].uia = uia;
        g[k].single_core = single;
        g[k].kept = kept;
        g[k].end_at = k + 1 < count ? g[k + 1].start_at : NO_END;
        if (preparing && !(g[k].part = trx_prepare_part_new()))
            rc = -1;
    }
    if (rc < 0)
        goto out;
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
    rc = 0;
    bool dirty = false;
    for (uint32_t k = 0; k < count; k++) {
        if (g[k].rc < 0)
            rc = -1;
        if (g[k].part && trx_prepare_part_dirty(g[k].part))
            dirty = true;
    }
    if (dirty && rc == 0)
        rc = TRX_STATS_SEGMENTS_UNPREPARED;
    if (rc == 0 && held_first) /* on this thread, as every merge's `done` */
        trx_correct_inversions_hand_over(g[0].w.cinv);
    /* the merge, in trace order; the truth at each boundary is the cursor
     * of the segment before, made exact */
    uint64_t before = g[0].returned_end;
    for (uint32_t k = 1; rc == 0 && k < count; k++) {
        if (join(&g[0].w, &g[k], &g[k - 1].c, before, rep) < 0) {
            rc = -1;
            break;
        }
        if (!uia)
            trx_cursor_rebase(&g[k].c, &g[k - 1].c, g[k].base);
        before = trx_cursor_returned(&g[k].c);
    }
    if (rc == 0 && preparing) { /* the trace as one prepare walk leaves it */
        trx_prepare_state **parts = malloc(count * sizeof *parts);
        if (!parts) {
            rc = -1;
        } else {
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
        }
    }
out:
    for (uint32_t k = 1; k < count; k++)
        if (g[k].have_walk)
            trx_stats_walk_discard(&g[k].w);
    if (trx_stats_walk_finish(&g[0].w, rc != 0) < 0 && rc == 0)
        rc = -1;
    for (uint32_t k = 0; k < count; k++) {
        if (g[k].have_c)
            trx_cursor_free(&g[k].c);
        if (g[k].have_first)
            trx_cursor_free(&g[k].first);
        trx_prepare_part_free(g[k].part);
    }
    free(g);
    return rc;
}
