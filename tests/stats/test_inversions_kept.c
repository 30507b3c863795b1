/*
 * test_inversions_kept.c - the statistics keeping only the first K priority
 * inversions (trx_stats_compute_kept, as trx serve computes them) tell
 * exactly what the whole list of the one walk tells: the first K field for
 * field, every later one given once to the callback with its number and the
 * band (start, end, unbounded) of the whole list's entry of that number,
 * none of the first K given, the same counts (inversions, unbounded ones)
 * and the same statistics' JSON as serve writes it (the list apart). For
 * each trace given and K = 0, 1, 3 and 1,000: the one walk
 * (TRX_STATS_SERIAL), trx_stats_compute_kept as it chooses (segments on a
 * large trace), and segments cut by trx_stats_compute_segments_kept - on
 * traces with inversions of up to SMALL entries every single cut (every
 * TRX_TEST_SPARSE-th under the sanitizers) and a
 * second cut halfway to the end, on larger ones the cuts of --jobs 2 to 4
 * and CUTS cuts spread over the trace - each with a short and a long
 * warm-up (so the inversions both walk again and merge); some cuts on the
 * trace opened afresh too (the segments prepare it in parts, and hold
 * segment 0's inversions until they know it stands). A hand-built trace
 * whose inversions have an Un-named Thread run inside them is cut at every
 * entry afresh: its segments' first answer is "prepare first"
 * (TRX_STATS_SEGMENTS_UNPREPARED), which must have given the callback
 * nothing (the retry gives each once). The callback must run on the
 * calling thread only (serve's writes serve's state).
 *
 *   test_inversions_kept TRACE ...
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../decode/trace_builder.h"
#include "analyze/stats_segments.h"
#include "output/stats_json.h"
#include "trx/trx.h"
#include "../check_count.h"
#include "stats_json_text.h"

enum { SMALL = 4096, CUTS = 24 };

static const uint32_t keeps[] = {0, 1, 3, 1000};

/* The callback's side: what it was given, by number. */
typedef struct given {
    const trx_stats *all;
    const char *path;
    pthread_t caller;
    uint8_t *seen; /* per number: times given */
    uint64_t count;
    bool wrong_thread;
} given;

static bool same(const trx_inversion *a, const trx_inversion *b)
{
    return a->waiter == b->waiter && a->waiter_priority == b->waiter_priority &&
           a->lock == b->lock && a->lock_type == b->lock_type && a->unbounded == b->unbounded &&
           a->closed == b->closed && a->holder == b->holder &&
           a->holder_priority == b->holder_priority && a->ran_inside == b->ran_inside &&
           a->ran_inside_count == b->ran_inside_count &&
           memcmp(a->ran_inside_list, b->ran_inside_list,
                  a->ran_inside_count * sizeof a->ran_inside_list[0]) == 0 &&
           a->ran_inside_more == b->ran_inside_more && a->start_index == b->start_index &&
           a->end_index == b->end_index && a->start_ticks == b->start_ticks &&
           a->end_ticks == b->end_ticks;
}

static void done(void *ctx, const trx_inversion_band *b, uint32_t number)
{
    given *g = ctx;
    g->count++;
    if (!pthread_equal(pthread_self(), g->caller))
        g->wrong_thread = true;
    CHECK(number < g->all->inversion_count, "%s: inversion %u given, %u in all", g->path, number,
          g->all->inversion_count);
    if (number >= g->all->inversion_count)
        return;
    g->seen[number]++;
    const trx_inversion *v = &g->all->inversion_list[number];
    CHECK(b->start_index == v->start_index && b->end_index == v->end_index &&
              b->unbounded == v->unbounded,
          "%s: inversion %u given as %llu..%llu%s, the one walk's %llu..%llu%s", g->path, number,
          (unsigned long long)b->start_index, (unsigned long long)b->end_index,
          b->unbounded ? " unbounded" : "", (unsigned long long)v->start_index,
          (unsigned long long)v->end_index, v->unbounded ? " unbounded" : "");
}

/* The statistics' JSON as trx serve writes it (the list paged apart), malloc'd. */
static char *serve_json(const trx_trace *t, const trx_stats *s)
{
    trx_stats brief = *s;
    brief.inversion_count = 0;
    return stats_json_text(t, &brief);
}

/* Opens the trace checked afresh (unprepared): 0, or -1. */
typedef int (*open_fn)(const char *path, trx_trace *t);

/* One computation of the kept statistics. */
typedef struct kept_run {
    trx_trace *t;
    const char *path;
    open_fn open; /* fresh: segments of a trace opened afresh with it */
    bool fresh;
    uint64_t unprepared;      /* segments' answers "prepare first" */
    const trx_stats *all;     /* the one walk's whole list */
    const char *const *jsons; /* the one walk's serve JSON per keep */
    const uint64_t *cuts;     /* NULL: trx_stats_compute_kept */
    uint32_t n;
    uint64_t warm;
    uint64_t merged, again; /* the inversions' merges / walks again */
} kept_run;

static uint32_t cinv_unit(void)
{
    uint32_t k = 0;
    while ((1u << k) != STATS_U_CINV)
        k++;
    return k;
}

/* Computes r's statistics keeping keeps[i] and checks them against the one walk's. */
static void check_kept(kept_run *r, size_t i, const char *how)
{
    uint32_t keep = keeps[i];
    const trx_stats *all = r->all;
    given g = {all, r->path, pthread_self(), calloc(all->inversion_count + 1, 1), 0, false};
    trx_stats some;
    int rc = -1;
    if (g.seen && !r->cuts) {
        rc = trx_stats_compute_kept(r->t, &some, keep, done, &g);
    } else if (g.seen) {
        const trx_kept_inversions kept = {keep, done, &g};
        trx_segment_report rep;
        trx_trace fresh, *t = r->t;
        if (r->fresh && r->open(r->path, &fresh) == 0)
            t = &fresh;
        CHECK(t != r->t || !r->fresh, "%s: cannot open it again", r->path);
        rc =
            trx_stats_compute_segments_kept(t, &some, 0, r->cuts, r->n, r->warm, true, &rep, &kept);
        if (rc == TRX_STATS_SEGMENTS_UNPREPARED) { /* as trx_stats_compute_kept does */
            r->unprepared++;
            CHECK(g.count == 0, "%s: %s keep %u: %llu given before the trace was prepared", r->path,
                  how, keep, (unsigned long long)g.count);
            trx_trace_prepare(t);
            rc = trx_stats_compute_segments_kept(t, &some, 0, r->cuts, r->n, r->warm, true, &rep,
                                                 &kept);
        }
        r->merged += rep.merged[cinv_unit()];
        r->again += rep.walked_again[cinv_unit()];
        if (t != r->t)
            trx_trace_close(t);
    }
    CHECK(rc == 0, "%s: %s keep %u: no statistics", r->path, how, keep);
    if (rc != 0) {
        free(g.seen);
        return;
    }
    uint32_t want = all->inversion_count < keep ? all->inversion_count : keep;
    CHECK(some.inversion_count == want, "%s: %s keep %u: %u kept, %u expected", r->path, how, keep,
          some.inversion_count, want);
    CHECK(some.inversions == all->inversions && some.bad_inversions == all->bad_inversions,
          "%s: %s keep %u: counts %llu/%llu, all %llu/%llu", r->path, how, keep,
          (unsigned long long)some.inversions, (unsigned long long)some.bad_inversions,
          (unsigned long long)all->inversions, (unsigned long long)all->bad_inversions);
    for (uint32_t k = 0; k < some.inversion_count && k < want; k++)
        CHECK(same(&some.inversion_list[k], &all->inversion_list[k]),
              "%s: %s keep %u: kept inversion %u differs", r->path, how, keep, k);
    for (uint32_t k = 0; k < all->inversion_count; k++)
        CHECK(g.seen[k] == (k >= keep), "%s: %s keep %u: inversion %u given %u times", r->path, how,
              keep, k, g.seen[k]);
    CHECK(!g.wrong_thread, "%s: %s keep %u: done called on another thread", r->path, how, keep);
    char *json = serve_json(r->t, &some);
    CHECK(json && r->jsons[i] && strcmp(json, r->jsons[i]) == 0,
          "%s: %s keep %u: the statistics' JSON differs from the one walk's", r->path, how, keep);
    free(json);
    free(g.seen);
    trx_stats_free(&some);
}

/* Every keep over the segments starting at cuts[0 .. n - 1], warm-up
 * `warm`; of the trace opened afresh when `fresh`. */
static void check_cuts(kept_run *r, const uint64_t *cuts, uint32_t n, uint64_t warm, bool fresh)
{
    char how[112];
    snprintf(how, sizeof how, "cuts %llu%s (%u), warm-up %llu%s", (unsigned long long)cuts[0],
             n > 1 ? "..." : "", n, (unsigned long long)warm, fresh ? ", afresh" : "");
    r->cuts = cuts;
    r->n = n;
    r->warm = warm;
    r->fresh = fresh;
    for (size_t i = 0; i < sizeof keeps / sizeof keeps[0]; i++)
        check_kept(r, i, how);
}

static int open_path(const char *path, trx_trace *t)
{
    trx_error err;
    if (trx_trace_open(t, path, TRX_FORMAT_AUTO, &err) < 0) {
        CHECK(false, "%s: %s", path, err.message);
        return -1;
    }
    return 0;
}

/* A trace like serve's of a system where thread A (10) blocks on mutex M
 * held by B (20) LOOPS times; an interrupt resumes U, a thread the trace's
 * registry does not name (an Un-named Thread, priority 30), which runs
 * inside every other window (those are unbounded). */
enum { LOOPS = 24 };
static test_trace built;

static uint32_t prio(uint32_t p)
{
    return 0x80000000u | p << 16 | p;
}

static void build_unnamed(void)
{
    enum { A = 0x1000, B = 0x2000, U = 0x7000, M = 0x5000, ISR = 0xFFFFFFFFu };
    enum { RESUME = 1, SUSPEND = 2, ISR_ENTER = 3, ISR_EXIT = 4, MUTEX_GET = 52 };
    enum { MUTEX_PUT = 57, USER = 4096, FOREVER = 0xFFFFFFFFu };
    memset(&built, 0, sizeof built);
    tb_init(&built, 3, 12 * LOOPS, false);
    tb_object(&built, 0, TRX_OBJ_THREAD, A, "A", 0x10000, 1024, 10);
    tb_object(&built, 1, TRX_OBJ_THREAD, B, "B", 0x20000, 1024, 20);
    tb_object(&built, 2, TRX_OBJ_MUTEX, M, "lock", 0, 0, 0);
    uint32_t ts = 100;
    for (uint32_t k = 0; k < LOOPS; k++) {
        tb_event(&built, B, prio(20), MUTEX_GET, ts += 10, M, 0, 0, 1);
        tb_event(&built, A, prio(10), MUTEX_GET, ts += 10, M, FOREVER, B, 1);
        tb_event(&built, A, prio(10), SUSPEND, ts += 10, A, 13, 0, B);
        if (k % 2 == 0) {
            tb_event(&built, ISR, A, ISR_ENTER, ts += 10, 5, 0, 0, 0);
            tb_event(&built, ISR, A, RESUME, ts += 10, U, 0, 0, 0);
            tb_event(&built, ISR, A, ISR_EXIT, ts += 10, 5, 0, 0, 0);
            tb_event(&built, U, prio(30), USER, ts += 10, k, 0, 0, 0);
            tb_event(&built, U, prio(30), SUSPEND, ts += 10, U, 4, 0, B);
        }
        tb_event(&built, B, prio(20), USER, ts += 10, k, 0, 0, 0);
        tb_event(&built, B, prio(20), MUTEX_PUT, ts += 10, M, 0, 1, 0);
        tb_event(&built, B, prio(20), RESUME, ts += 10, A, 13, 0, A);
        tb_event(&built, A, prio(10), USER, ts += 10, k, 0, 0, 0);
    }
}

static int open_built(const char *path, trx_trace *t)
{
    trx_image img;
    trx_error err;
    if (trx_image_load_memory(&img, built.bytes, built.size, TRX_FORMAT_BIN, &err) < 0 ||
        trx_trace_open_image(t, &img, path, &err) < 0) {
        CHECK(false, "%s: %s", path, err.message);
        return -1;
    }
    trx_trace_set_mode(t, TRX_MODE_CORRECT);
    return 0;
}

/* Checks the trace `path` opened with `open`. */
static void check_opened(const char *path, open_fn open)
{
    trx_trace t;
    if (open(path, &t) < 0)
        return;
    /* the truth: the one walk */
    setenv("TRX_STATS_SERIAL", "1", 1);
    trx_stats all;
    if (trx_stats_compute(&t, &all) != 0) {
        unsetenv("TRX_STATS_SERIAL");
        CHECK(false, "%s: no statistics", path);
        trx_trace_close(&t);
        return;
    }
    enum { NK = sizeof keeps / sizeof keeps[0] };
    char *jsons[NK] = {0};
    for (size_t i = 0; i < NK; i++) { /* the one walk keeping keeps[i]: serve's JSON */
        given g = {&all, path, pthread_self(), calloc(all.inversion_count + 1, 1), 0, false};
        trx_stats some;
        if (g.seen && trx_stats_compute_kept(&t, &some, keeps[i], done, &g) == 0) {
            jsons[i] = serve_json(&t, &some);
            trx_stats_free(&some);
        }
        free(g.seen);
    }
    kept_run r = {&t, path, open, false, 0, &all, (const char *const *)jsons, NULL, 0, 0, 0, 0};
    for (size_t i = 0; i < NK; i++)
        check_kept(&r, i, "one walk");
    unsetenv("TRX_STATS_SERIAL");
    for (size_t i = 0; i < NK; i++)
        check_kept(&r, i, "compute_kept");
    uint64_t checked = 0;
    bool every_fresh = open == open_built;
    if (all.inversions > 0 && t.used <= SMALL) { /* every cut, and a second one halfway on */
        for (uint64_t c = 1; c < t.used; c += test_sparse())
            for (uint64_t warm = 4; warm <= 1024; warm *= 256) {
                check_cuts(&r, &c, 1, warm, every_fresh);
                uint64_t two[2] = {c, c + (t.used - c) / 2};
                if (two[1] > c)
                    check_cuts(&r, two, 2, warm, every_fresh);
                if (!every_fresh && c % 16 == 1)
                    check_cuts(&r, &c, 1, warm, true);
                checked++;
            }
    } else if (all.inversions > 0) { /* --jobs 2 to 4, and spread single cuts */
        uint64_t cuts[3];
        for (uint32_t jobs = 2; jobs <= 4; jobs++) {
            uint32_t n = trx_stats_plan_cuts(&t, jobs, cuts);
            for (uint64_t warm = 64; n && warm <= 16384; warm *= 256, checked++)
                check_cuts(&r, cuts, n, warm, false);
            if (n && jobs == 2)
                check_cuts(&r, cuts, n, 16384, true);
        }
        for (uint64_t k = 1; k <= CUTS; k += test_sparse()) {
            uint64_t c = t.used * k / (CUTS + 1);
            for (uint64_t warm = 64; warm <= 16384; warm *= 256, checked++)
                check_cuts(&r, &c, 1, warm, false);
        }
    }
    printf("%s: %llu inversions; %llu splits: inversions merged at %llu, walked again at %llu; "
           "%llu times \"prepare first\"\n",
           path, (unsigned long long)all.inversions, (unsigned long long)checked,
           (unsigned long long)r.merged, (unsigned long long)r.again,
           (unsigned long long)r.unprepared);
    CHECK(checked == 0 || (r.merged > 0 && r.again > 0),
          "%s: the inversions must both merge and walk again somewhere", path);
    CHECK(!every_fresh || r.unprepared > 0, "%s: never \"prepare first\"", path);
    for (size_t i = 0; i < NK; i++)
        free(jsons[i]);
    trx_stats_free(&all);
    trx_trace_close(&t);
}

static void check_trace(const char *path)
{
    check_opened(path, open_path);
}

int main(int argc, char **argv)
{
    build_unnamed();
    check_opened("built (an Un-named Thread inside)", open_built);
    return check_traces(argc, argv, check_trace);
}
