/*
 * stats_segments.c - trx_stats over segments of a trace, on the segment
 * driver (segment_driver.c; the scheme: segment_merge.h): each analysis of
 * the walk is a unit, with its fingerprint, its warm-up results cleared, its
 * merge and a swap that hands the merged state to segment 0's walk, which
 * owns the trace so far and is finished as the one walk would be. The
 * inversions beyond those kept whole (trx_stats_compute_kept) go to the
 * caller's `done` from this thread only: segment 0's as they end, each later
 * segment's held as bands until its merge.
 */
#include "analyze/stats_segments.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/core_tracker.h"
#include "analyze/segment_driver.h"
#include "analyze/segment_units.h"
#include "decode/txtb_salvage.h"

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

/* The caller's analysis (trx_stats_extra): its own fingerprint if it has
 * one, else exact when joined (a fork's events follow the earlier's), so
 * nothing to compare; the join leaves the whole in the earlier walk's. */
static void extra_fp(const walk *w, trx_fingerprint *f, uint64_t base)
{
    if (w->extra_ops->fingerprint)
        w->extra_ops->fingerprint(w->extra_ctx, f, base);
}

static void extra_clear(walk *w)
{
    w->extra_ops->clear(w->extra_ctx);
}

static int extra_merge(walk *later, walk *earlier, uint64_t offset)
{
    int rc = later->extra_ops->join(earlier->extra_ctx, later->extra_ctx, offset);
    return rc < 0 ? -1 : rc == TRX_MERGE_REFUSED && later->extra_ops->fingerprint ? rc : 0;
}

static void extra_swap(walk *a, walk *b)
{
    (void)a;
    (void)b;
}

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
    {"caller's analysis", extra_fp, extra_clear, extra_merge, extra_swap},
};

const char *trx_stats_unit_name(uint32_t k)
{
    return k < STATS_UNIT_COUNT ? units[k].name : "?";
}

/* ---- the statistics on the segment driver ---- */

/* The run: the caller's trx_stats and options. */
typedef struct stats_run {
    trx_trace *t;
    trx_stats *s;
    uint64_t window;
    int single_core; /* trx_core_tracker_new_known's */
    const trx_kept_inversions *kept;
    const trx_segment_run *r;
    bool held_first;              /* segment 0's inversions held until the walk stands */
    const trx_stats_extra *extra; /* the caller's analysis, or NULL */
} stats_run;

/* One segment's walk and (k >= 1) its own results. */
typedef struct stats_part {
    walk w;
    trx_stats own;
    bool forked; /* w.extra_ctx is a fork of the caller's analysis (k >= 1) */
} stats_part;

static int part_start(void *ctx, uint32_t k, uint64_t span, void **a)
{
    stats_run *run = ctx;
    stats_part *p = calloc(1, sizeof *p);
    if (!p)
        return -1;
    /* as many windows kept whole as the caller's walk; a later segment's
     * others held for the merge (never given to `done` on its thread) */
    const trx_kept_inversions held = {run->kept->keep, NULL, NULL};
    int rc = trx_stats_walk_init(&p->w, run->t, k == 0 ? run->s : &p->own, run->window, span,
                                 k == 0 ? run->kept : &held, run->single_core);
    if (rc != 0) {
        free(p);
        return rc;
    }
    if (run->extra) {
        void *x = k == 0 ? run->extra->ctx : run->extra->fork(run->extra->ctx);
        if (!x) {
            trx_stats_walk_discard(&p->w);
            free(p);
            return -1;
        }
        p->w.extra = run->extra->feed;
        p->w.extra_ctx = x;
        p->w.extra_ops = run->extra;
        p->w.units |= STATS_U_EXTRA;
        p->forked = k > 0;
    }
    if (k > 0) {
        p->w.perf.part_way = true;
        if (p->w.cinv && run->kept->done)
            trx_correct_inversions_defer(p->w.cinv);
    } else if (run->r->preparing && p->w.cinv && run->kept->done) {
        /* a walk that may be dropped (TRX_SEGMENTS_UNPREPARED) gives `done`
         * nothing before it is known to stand */
        run->held_first = true;
        trx_correct_inversions_defer(p->w.cinv);
    }
    *a = p;
    return 0;
}

static uint32_t part_units(const void *a)
{
    return ((const stats_part *)a)->w.units;
}

static void part_feed(void *a, const trx_event *ev, uint32_t mask)
{
    walk *w = &((stats_part *)a)->w;
    trx_stats_walk_feed(w, ev, mask);
    if ((mask & STATS_U_EXTRA) && w->extra)
        w->extra(w->extra_ctx, ev);
}

static void part_feed_all(void *a, const trx_event *ev)
{
    walk *w = &((stats_part *)a)->w;
    trx_stats_walk_feed_all(w, ev);
    if (w->extra)
        w->extra(w->extra_ctx, ev);
}

static void part_fingerprint(const void *a, uint32_t unit, trx_fingerprint *f, uint64_t base)
{
    units[unit].fingerprint(&((const stats_part *)a)->w, f, base);
}

static int part_clear(void *a, uint32_t unit)
{
    units[unit].clear(&((stats_part *)a)->w);
    return 0;
}

static int part_join(void *later, void *earlier, uint32_t unit, uint64_t offset)
{
    walk *l = &((stats_part *)later)->w, *e = &((stats_part *)earlier)->w;
    int rc = units[unit].merge(l, e, offset);
    if (rc == 0)
        units[unit].swap(e, l);
    return rc;
}

static void part_discard(void *a)
{
    stats_part *p = a;
    if (p->forked)
        p->w.extra_ops->discard(p->w.extra_ctx);
    trx_stats_walk_discard(&p->w);
    free(p);
}

static const trx_segment_ops stats_ops = {
    .start = part_start,
    .units = part_units,
    .feed = part_feed,
    .feed_all = part_feed_all,
    .fingerprint = part_fingerprint,
    .clear = part_clear,
    .join = part_join,
    .discard = part_discard,
};

uint32_t trx_stats_plan_cuts(const trx_trace *t, uint32_t jobs, uint64_t *cuts)
{
    return trx_segments_plan_cuts(t, jobs, cuts);
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
    return trx_stats_compute_segments_with(t, s, window, cuts, n, warm, threads, rep, kept, NULL);
}

int trx_stats_compute_segments_with(trx_trace *t, trx_stats *s, uint64_t window,
                                    const uint64_t *cuts, uint32_t n, uint64_t warm, bool threads,
                                    trx_segment_report *rep, const trx_kept_inversions *kept,
                                    const trx_stats_extra *x)
{
    trx_segment_run r;
    memset(&r, 0, sizeof r);
    stats_run run = {t, s, window, 0, kept, &r, false, x};
    if (t->format == TRX_TRACE_TXTB) {
        trx_trace_use_view(t);
        run.single_core = !trx_txtb_multi_core(t); /* one scan, not one per segment */
    } else {
        run.single_core = -1;
    }
    r.t = t;
    r.ops = &stats_ops;
    r.ctx = &run;
    r.warm = warm;
    r.threads = threads;
    int rc = trx_segments_run(&r, cuts, n);
    stats_part *first = r.first;
    if (rep) {
        memset(rep, 0, sizeof *rep);
        rep->segments = r.segments;
        for (uint32_t k = 0; k < STATS_UNIT_COUNT; k++) {
            rep->merged[k] = r.merged[k];
            rep->walked_again[k] = r.walked_again[k];
        }
        rep->guesses_failed = r.guesses_failed;
    }
    if (!first)
        return rc;
    if (rc == 0 && run.held_first) /* on this thread, as every merge's `done` */
        trx_correct_inversions_hand_over(first->w.cinv);
    if (trx_stats_walk_finish(&first->w, rc != 0) < 0 && rc == 0)
        rc = -1;
    free(first);
    return rc == TRX_SEGMENTS_UNPREPARED ? TRX_STATS_SEGMENTS_UNPREPARED : rc;
}
