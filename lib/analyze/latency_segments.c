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
#include "analyze/segment_driver.h"

#define SEGMENT_MIN_ENTRIES 65536u /* a segment has this many entries at least */
#define SEGMENT_WARM_UP 16384u

/* The run: the caller's options and analysis (segment 0's). */
typedef struct latency_run {
    trx_trace *t;
    const trx_latency_options *o;
    trx_latency *out;
    int txtb_smp;
} latency_run;

/* One segment's analysis. */
typedef struct latency_part {
    trx_latency *l; /* segment 0: the caller's; else `own` */
    trx_latency own;
    uint64_t *numbers; /* per thread: its instances before the segment's first event */
    const latency_run *run;
    bool failed; /* as the statistics' extra: out of memory in a call that cannot say so */
} latency_part;

static void part_free(latency_part *p)
{
    if (p->l == &p->own)
        trx_latency_free(&p->own);
    free(p->numbers);
    free(p);
}

static int part_start(void *ctx, uint32_t k, uint64_t span, void **a)
{
    (void)span;
    latency_run *run = ctx;
    latency_part *p = calloc(1, sizeof *p);
    if (!p)
        return -1;
    p->l = k == 0 ? run->out : &p->own;
    p->run = run;
    uint32_t n = run->t->thread_count ? run->t->thread_count : 1;
    if (trx_latency_start_as(p->l, run->t, run->o, run->txtb_smp) < 0) {
        p->l = NULL;
        part_free(p);
        return -1;
    }
    if (k > 0 && !(p->numbers = calloc(n, sizeof *p->numbers))) {
        part_free(p);
        return -1;
    }
    *a = p;
    return 0;
}

static uint32_t part_units(const void *a)
{
    (void)a;
    return 1u; /* one unit: the whole analysis */
}

static void part_feed(void *a, const trx_event *ev, uint32_t units)
{
    if (units & 1u)
        trx_latency_feed(((latency_part *)a)->l, ev);
}

static void part_feed_all(void *a, const trx_event *ev)
{
    trx_latency_feed(((latency_part *)a)->l, ev);
}

static void part_fingerprint(const void *a, uint32_t unit, trx_fingerprint *f, uint64_t base)
{
    (void)unit;
    trx_latency_fingerprint(((const latency_part *)a)->l, f, base);
}

static int part_clear(void *a, uint32_t unit)
{
    (void)unit;
    latency_part *p = a;
    return trx_latency_clear_results(p->l, p->numbers);
}

static int part_join(void *later, void *earlier, uint32_t unit, uint64_t offset)
{
    (void)unit;
    latency_part *l = later, *e = earlier;
    return trx_latency_merge(l->l, e->l, l->numbers, offset);
}

static void part_discard(void *a)
{
    part_free(a);
}

static const trx_segment_ops latency_ops = {
    .start = part_start,
    .units = part_units,
    .feed = part_feed,
    .feed_all = part_feed_all,
    .fingerprint = part_fingerprint,
    .clear = part_clear,
    .join = part_join,
    .discard = part_discard,
};

int trx_latency_compute_segments(trx_trace *t, const trx_latency_options *o, trx_latency *out,
                                 const uint64_t *cuts, uint32_t n, uint64_t warm, bool threads,
                                 trx_latency_seg_report *rep)
{
    latency_run run = {t, o, out, trx_txtb_multi_core(t)}; /* one scan, not one per segment */
    trx_segment_run r;
    memset(&r, 0, sizeof r);
    r.t = t;
    r.ops = &latency_ops;
    r.ctx = &run;
    r.warm = warm;
    r.threads = threads;
    int rc = trx_segments_run(&r, cuts, n);
    latency_part *first = r.first;
    if (first) {
        first->l = NULL; /* the caller's analysis stays */
        part_free(first);
    }
    if (rep) {
        rep->segments = r.segments;
        rep->merged = r.merged[0];
        rep->walked_again = r.walked_again[0];
        rep->guesses_failed = r.guesses_failed;
    }
    if (rc == 0)
        return trx_latency_finish(out);
    if (first)
        trx_latency_free(out);
    return rc == TRX_SEGMENTS_UNPREPARED ? TRX_LATENCY_UNPREPARED : -1;
}

int trx_latency_compute_parallel(trx_trace *t, const trx_latency_options *o, trx_latency *out)
{
    uint64_t *cuts;
    int n = trx_segments_cuts_for_jobs(t, SEGMENT_MIN_ENTRIES, &cuts);
    if (n <= 0)
        return n < 0 ? -1 : TRX_LATENCY_ONE_WALK;
    int rc =
        trx_latency_compute_segments(t, o, out, cuts, (uint32_t)n, SEGMENT_WARM_UP, true, NULL);
    if (rc == TRX_LATENCY_UNPREPARED) { /* Un-named Threads: prepared first */
        trx_trace_prepare(t);
        rc = trx_segments_few_threads(t)
                 ? trx_latency_compute_segments(t, o, out, cuts, (uint32_t)n, SEGMENT_WARM_UP, true,
                                                NULL)
                 : TRX_LATENCY_ONE_WALK;
    }
    free(cuts);
    return rc;
}

/* ---- trx latency as the statistics' caller's analysis (trx_stats_extra) ---- */

struct trx_latency_extra {
    trx_stats_extra x;
    latency_run run;
    latency_part root; /* segment 0's: the caller's analysis */
};

static void extra_feed(void *ctx, const trx_event *ev)
{
    latency_part *p = ctx;
    if (!p->failed)
        trx_latency_feed(p->l, ev);
}

static void *extra_fork(void *ctx)
{
    latency_part *root = ctx;
    void *a;
    return part_start((void *)root->run, 1, 0, &a) == 0 ? a : NULL;
}

/* A fork: the warm-up's results forgotten. The root: everything (the
 * statistics' walk stopped to prepare the trace, which may have added
 * threads), started afresh. */
static void extra_clear(void *part)
{
    latency_part *p = part;
    if (p->numbers) {
        p->failed |= trx_latency_clear_results(p->l, p->numbers) < 0;
        return;
    }
    trx_latency_free(p->l); /* (safe after a failed start: zeroed) */
    p->failed = trx_latency_start_as(p->l, p->run->t, p->run->o, p->run->txtb_smp) < 0;
}

static int extra_join(void *earlier, void *later, uint64_t offset)
{
    latency_part *e = earlier, *l = later;
    if (e->failed || l->failed)
        return -1;
    return trx_latency_merge(l->l, e->l, l->numbers, offset);
}

static void extra_fingerprint(const void *part, trx_fingerprint *f, uint64_t base)
{
    const latency_part *p = part;
    if (p->failed)
        trx_fp_unmergeable(f);
    else
        trx_latency_fingerprint(p->l, f, base);
}

trx_latency_extra *trx_latency_extra_new(trx_trace *t, const trx_latency_options *o,
                                         trx_latency *out)
{
    trx_latency_extra *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->run = (latency_run){t, o, out, trx_txtb_multi_core(t)};
    e->root.l = out;
    e->root.run = &e->run;
    if (trx_latency_start_as(out, t, o, e->run.txtb_smp) < 0) {
        free(e);
        return NULL;
    }
    e->x = (trx_stats_extra){extra_feed, &e->root,     extra_fork,       extra_clear,
                             extra_join, part_discard, extra_fingerprint};
    return e;
}

const trx_stats_extra *trx_latency_extra_of(const trx_latency_extra *e)
{
    return &e->x;
}

int trx_latency_extra_end(trx_latency_extra *e, bool fed)
{
    int rc = fed && !e->root.failed ? trx_latency_finish(e->run.out) : -1;
    if (rc < 0)
        trx_latency_free(e->run.out);
    free(e);
    return rc;
}
