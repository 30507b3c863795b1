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
 * traces with inversions of up to SMALL entries every single cut and a
 * second cut halfway to the end, on larger ones the cuts of --jobs 2 to 4
 * and CUTS cuts spread over the trace - each with a short and a long
 * warm-up (so the inversions both walk again and merge). The callback must
 * run on the calling thread only (serve's writes serve's state).
 *
 *   test_inversions_kept TRACE ...
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/stats_segments.h"
#include "output/stats_json.h"
#include "trx/trx.h"
#include "../check_count.h"

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
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    trx_out o;
    trx_out_init(&o, f, false);
    trx_stats_write_json(t, &brief, NULL, &o);
    trx_out_flush(&o);
    fclose(f);
    return buf;
}

/* One computation of the kept statistics. */
typedef struct kept_run {
    trx_trace *t;
    const char *path;
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
        rc = trx_stats_compute_segments_kept(r->t, &some, 0, r->cuts, r->n, r->warm, true, &rep,
                                             &kept);
        r->merged += rep.merged[cinv_unit()];
        r->again += rep.walked_again[cinv_unit()];
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

/* Every keep over the segments starting at cuts[0 .. n - 1], warm-up `warm`. */
static void check_cuts(kept_run *r, const uint64_t *cuts, uint32_t n, uint64_t warm)
{
    char how[96];
    snprintf(how, sizeof how, "cuts %llu%s (%u), warm-up %llu", (unsigned long long)cuts[0],
             n > 1 ? "..." : "", n, (unsigned long long)warm);
    r->cuts = cuts;
    r->n = n;
    r->warm = warm;
    for (size_t i = 0; i < sizeof keeps / sizeof keeps[0]; i++)
        check_kept(r, i, how);
}

static void check_trace(const char *path)
{
    trx_trace t;
    trx_error err;
    if (trx_trace_open(&t, path, TRX_FORMAT_AUTO, &err) < 0) {
        CHECK(false, "%s: %s", path, err.message);
        return;
    }
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
    kept_run r = {&t, path, &all, (const char *const *)jsons, NULL, 0, 0, 0, 0};
    for (size_t i = 0; i < NK; i++)
        check_kept(&r, i, "one walk");
    unsetenv("TRX_STATS_SERIAL");
    for (size_t i = 0; i < NK; i++)
        check_kept(&r, i, "compute_kept");
    uint64_t checked = 0;
    if (all.inversions > 0 && t.used <= SMALL) { /* every cut, and a second one halfway on */
        for (uint64_t c = 1; c < t.used; c++)
            for (uint64_t warm = 4; warm <= 1024; warm *= 256) {
                check_cuts(&r, &c, 1, warm);
                uint64_t two[2] = {c, c + (t.used - c) / 2};
                if (two[1] > c)
                    check_cuts(&r, two, 2, warm);
                checked++;
            }
    } else if (all.inversions > 0) { /* --jobs 2 to 4, and spread single cuts */
        uint64_t cuts[3];
        for (uint32_t jobs = 2; jobs <= 4; jobs++) {
            uint32_t n = trx_stats_plan_cuts(&t, jobs, cuts);
            for (uint64_t warm = 64; n && warm <= 16384; warm *= 256, checked++)
                check_cuts(&r, cuts, n, warm);
        }
        for (uint64_t k = 1; k <= CUTS; k++) {
            uint64_t c = t.used * k / (CUTS + 1);
            for (uint64_t warm = 64; warm <= 16384; warm *= 256, checked++)
                check_cuts(&r, &c, 1, warm);
        }
    }
    printf("%s: %llu inversions; %llu splits: inversions merged at %llu, walked again at %llu\n",
           path, (unsigned long long)all.inversions, (unsigned long long)checked,
           (unsigned long long)r.merged, (unsigned long long)r.again);
    CHECK(checked == 0 || (r.merged > 0 && r.again > 0),
          "%s: the inversions must both merge and walk again somewhere", path);
    for (size_t i = 0; i < NK; i++)
        free(jsons[i]);
    trx_stats_free(&all);
    trx_trace_close(&t);
}

int main(int argc, char **argv)
{
    return check_traces(argc, argv, check_trace);
}
