/*
 * test_inversions_kept.c - the statistics keeping only the first K priority
 * inversions (trx_stats_compute_kept, as trx serve computes them) tell
 * exactly what the whole list tells: the first K field for field, every
 * later one given once to the callback with its number and every field of
 * the whole list's entry of that number, and the same counts (inversions,
 * unbounded ones). For each trace given and K = 0, 1, 3 and 1,000.
 *
 *   test_inversions_kept TRACE ...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyses.h"
#include "trx/trx.h"
#include "../check_count.h"

/* The callback's side: what it was given, by number. */
typedef struct given {
    const trx_stats *all;
    const char *path;
    uint8_t *seen; /* per number: times given */
    uint64_t count;
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

static void done(void *ctx, const trx_inversion *v, uint32_t number)
{
    given *g = ctx;
    g->count++;
    CHECK(number < g->all->inversion_count, "%s: inversion %u given, %u in all", g->path, number,
          g->all->inversion_count);
    if (number >= g->all->inversion_count)
        return;
    g->seen[number]++;
    CHECK(same(v, &g->all->inversion_list[number]), "%s: inversion %u given differs", g->path,
          number);
}

static void check_trace(const char *path)
{
    trx_trace t;
    trx_error err;
    if (trx_trace_open(&t, path, TRX_FORMAT_AUTO, &err) < 0) {
        CHECK(false, "%s: %s", path, err.message);
        return;
    }
    trx_stats all;
    if (trx_stats_compute(&t, &all) != 0) {
        CHECK(false, "%s: no statistics", path);
        trx_trace_close(&t);
        return;
    }
    static const uint32_t keeps[] = {0, 1, 3, 1000};
    for (size_t k = 0; k < sizeof keeps / sizeof keeps[0]; k++) {
        uint32_t keep = keeps[k];
        given g = {&all, path, calloc(all.inversion_count + 1, 1), 0};
        trx_stats some;
        CHECK(g.seen && trx_stats_compute_kept(&t, &some, keep, done, &g) == 0,
              "%s: keep %u: no statistics", path, keep);
        uint32_t want = all.inversion_count < keep ? all.inversion_count : keep;
        CHECK(some.inversion_count == want, "%s: keep %u: %u kept, %u expected", path, keep,
              some.inversion_count, want);
        CHECK(some.inversions == all.inversions && some.bad_inversions == all.bad_inversions,
              "%s: keep %u: counts %llu/%llu, all %llu/%llu", path, keep,
              (unsigned long long)some.inversions, (unsigned long long)some.bad_inversions,
              (unsigned long long)all.inversions, (unsigned long long)all.bad_inversions);
        for (uint32_t i = 0; i < some.inversion_count && i < want; i++)
            CHECK(same(&some.inversion_list[i], &all.inversion_list[i]),
                  "%s: keep %u: kept inversion %u differs", path, keep, i);
        for (uint32_t i = 0; g.seen && i < all.inversion_count; i++)
            CHECK(g.seen[i] == (i >= keep), "%s: keep %u: inversion %u given %u times", path, keep,
                  i, g.seen[i]);
        printf("%s: keep %u: %u kept, %llu given, %llu in all\n", path, keep, some.inversion_count,
               (unsigned long long)g.count, (unsigned long long)all.inversions);
        free(g.seen);
        trx_stats_free(&some);
    }
    trx_stats_free(&all);
    trx_trace_close(&t);
}

int main(int argc, char **argv)
{
    return check_traces(argc, argv, check_trace);
}
