/* test_intervals.c - the interval engine (lib/analyze/intervals.h) at the
 * library level: pairing by key, a restart, an unmatched stop, the cap on
 * open intervals, gaps per lane and on all lanes, the worst list (longest
 * first, ties: the earlier first) and the figures of the distribution; and
 * segments: a scripted run of starts, stops and gaps over four keys on two
 * lanes, cut at every point into two segments and merged, gives the
 * figures of one pass (complete, incomplete, count, sum, min, max, p50,
 * the worst list); and cut into three, merged left to right. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analyze/intervals.h"

static trx_instance instance(uint64_t n, uint64_t start, uint64_t end)
{
    return (trx_instance){n, n * 10, n * 10 + 1, start, end, end - start, 0};
}

static void test_pairing(void **state)
{
    (void)state;
    trx_interval_matcher m;
    trx_open_interval iv;
    assert_int_equal(trx_interval_matcher_init(&m, 2, false), 0);
    assert_int_equal(trx_interval_start(&m, 7, 1, 0, 1, 100, &iv), TRX_INTERVAL_OPENED);
    assert_int_equal(trx_interval_start(&m, 8, 2, 1, 2, 110, &iv), TRX_INTERVAL_OPENED);
    assert_int_equal(trx_interval_start(&m, 9, 3, 0, 3, 120, &iv), TRX_INTERVAL_FULL);
    assert_int_equal(trx_interval_start(&m, 7, 4, 0, 4, 130, &iv), TRX_INTERVAL_RESTARTED);
    assert_int_equal(iv.owner, 1); /* the earlier one, replaced */
    assert_int_equal(iv.start_ticks, 100);
    assert_int_equal(trx_interval_stop(&m, 9, 0, 5, 140, &iv), 0); /* none open */
    trx_interval_gap(&m, 1);                                       /* lane 1 only */
    assert_int_equal(trx_interval_stop(&m, 7, 0, 6, 150, &iv), 1);
    assert_int_equal(iv.owner, 4);
    assert_int_equal(iv.start_index, 4);
    assert_int_equal(iv.start_ticks, 130);
    assert_false(trx_interval_crossed_gap(&m, &iv)); /* lane 0 had none */
    assert_int_equal(trx_interval_stop(&m, 8, 1, 7, 160, &iv), 1);
    assert_true(trx_interval_crossed_gap(&m, &iv));
    assert_int_equal(m.open_count, 0);
    assert_int_equal(trx_interval_start(&m, 7, 1, 0, 8, 170, &iv), TRX_INTERVAL_OPENED);
    trx_interval_gap(&m, TRX_INTERVAL_ALL_LANES);
    assert_int_equal(trx_interval_stop(&m, 7, 0, 9, 180, &iv), 1);
    assert_true(trx_interval_crossed_gap(&m, &iv));
    trx_interval_matcher_free(&m);
}

static void test_many_keys(void **state)
{
    (void)state; /* keys come and go: the table holds the open ones only */
    trx_interval_matcher m;
    trx_open_interval iv;
    trx_interval_matcher_init(&m, 0, false);
    for (uint64_t k = 0; k < 100000; k++) {
        assert_int_equal(trx_interval_start(&m, k * 0x9E3779B97F4A7C15ull, 0, 0, k, k, &iv),
                         TRX_INTERVAL_OPENED);
        if (k >= 3) {
            assert_int_equal(
                trx_interval_stop(&m, (k - 3) * 0x9E3779B97F4A7C15ull, 0, k, k + 5, &iv), 1);
            assert_int_equal(iv.start_index, k - 3);
        }
    }
    assert_int_equal(m.open_count, 3);
    assert_true(m.by_key.cap <= 16);
    trx_interval_matcher_free(&m);
}

static void test_results(void **state)
{
    (void)state;
    trx_interval_result r;
    assert_int_equal(trx_interval_result_init(&r, 3), 0);
    trx_instance a = instance(1, 0, 50), b = instance(2, 100, 130), c = instance(3, 200, 250),
                 d = instance(4, 300, 390), e = instance(5, 400, 410);
    trx_interval_result_add(&r, &a, false);
    trx_interval_result_add(&r, &b, false);
    trx_interval_result_add(&r, &c, false); /* ties a: goes after it */
    trx_interval_result_add(&r, &d, false);
    trx_interval_result_add(&r, &e, false);
    assert_int_equal(r.complete, 5);
    assert_int_equal(r.worst_count, 3);
    assert_int_equal(r.worst[0].number, 4);
    assert_int_equal(r.worst[1].number, 1);
    assert_int_equal(r.worst[2].number, 3);
    trx_interval_result_finish(&r);
    assert_int_equal(r.duration.count, 5);
    assert_int_equal(r.duration.sum, 50 + 30 + 50 + 90 + 10);
    assert_int_equal(r.duration.min, 10);
    assert_int_equal(r.duration.max, 90);
    assert_int_equal(r.duration.p50, 50);
    assert_int_equal(r.work.count, 0);
    trx_interval_result_free(&r);
}

/* ------------------------------------------------------------ segments */

enum { KEYS = 4, STEPS = 240 };
typedef struct step {
    int what; /* 0 start, 1 stop, 2 gap */
    uint32_t key, lane;
    uint64_t ticks;
} step;

typedef struct run {
    trx_interval_matcher m;
    trx_interval_result r[KEYS];
} run;

static step script[STEPS];

static void make_script(void)
{
    uint32_t rng = 7;
    uint64_t ticks = 0;
    for (uint32_t i = 0; i < STEPS; i++) {
        rng = rng * 1103515245u + 12345u;
        uint32_t x = rng >> 8;
        ticks += 1 + x % 97;
        script[i] = (step){x % 23 == 0 ? 2 : (int)((x >> 5) & 1), (x >> 7) % KEYS, 0, ticks};
        script[i].lane = script[i].what == 2
                             ? ((x >> 9) % 3 == 2 ? TRX_INTERVAL_ALL_LANES : (x >> 9) % 2)
                             : script[i].key % 2;
    }
}

static void add_complete(trx_interval_result *r, const trx_open_interval *o, uint64_t index,
                         uint64_t ticks)
{
    trx_instance in = {0, o->start_index, index, o->start_ticks, ticks, ticks - o->start_ticks, 0};
    trx_interval_result_add(r, &in, false);
}

static void run_init(run *x)
{
    trx_interval_matcher_init(&x->m, 0, true);
    for (uint32_t k = 0; k < KEYS; k++)
        assert_int_equal(trx_interval_result_init(&x->r[k], 4), 0);
}

static void feed(run *x, uint32_t from, uint32_t to)
{
    trx_open_interval iv;
    for (uint32_t i = from; i < to; i++) {
        const step *s = &script[i];
        if (s->what == 2)
            trx_interval_gap(&x->m, s->lane);
        else if (s->what == 0) {
            if (trx_interval_start(&x->m, s->key, s->key, s->lane, i, s->ticks, &iv) ==
                TRX_INTERVAL_RESTARTED)
                x->r[iv.owner].incomplete++;
        } else if (trx_interval_stop(&x->m, s->key, s->lane, i, s->ticks, &iv) == 1) {
            if (trx_interval_crossed_gap(&x->m, &iv))
                x->r[iv.owner].incomplete++;
            else
                add_complete(&x->r[iv.owner], &iv, i, s->ticks);
        }
    }
}

static void resolved(void *ctx, const trx_open_interval *start, const trx_orphan_stop *stop)
{
    run *x = ctx;
    if (stop)
        add_complete(&x->r[start->owner], start, stop->stop_index, stop->stop_ticks);
    else
        x->r[start->owner].incomplete++;
}

static void run_finish(run *x)
{
    for (uint32_t i = 0; i < x->m.pool_size; i++)
        if (x->m.open[i].used)
            x->r[x->m.open[i].owner].incomplete++;
    for (uint32_t k = 0; k < KEYS; k++)
        trx_interval_result_finish(&x->r[k]);
    trx_interval_matcher_free(&x->m);
}

static void run_free(run *x)
{
    for (uint32_t k = 0; k < KEYS; k++)
        trx_interval_result_free(&x->r[k]);
}

static void test_segments_merge(void **state)
{
    (void)state;
    make_script();
    static run whole;
    run_init(&whole);
    feed(&whole, 0, STEPS);
    run_finish(&whole);
    uint64_t total = 0, incomplete = 0;
    for (uint32_t k = 0; k < KEYS; k++) {
        total += whole.r[k].complete;
        incomplete += whole.r[k].incomplete;
    }
    assert_true(total > 20 && incomplete > 5); /* the script exercises both */
    for (uint32_t cut = 0; cut <= STEPS; cut++) {
        static run a, b;
        run_init(&a);
        run_init(&b);
        feed(&a, 0, cut);
        feed(&b, cut, STEPS);
        assert_int_equal(trx_interval_matcher_merge(&a.m, &b.m, resolved, &a), 0);
        for (uint32_t k = 0; k < KEYS; k++)
            assert_int_equal(trx_interval_result_merge(&a.r[k], &b.r[k]), 0);
        run_finish(&a);
        trx_interval_matcher_free(&b.m);
        for (uint32_t k = 0; k < KEYS; k++) {
            const trx_interval_result *w = &whole.r[k], *g = &a.r[k];
            assert_int_equal(g->complete, w->complete);
            assert_int_equal(g->incomplete, w->incomplete);
            assert_int_equal(g->duration.count, w->duration.count);
            assert_int_equal(g->duration.sum, w->duration.sum);
            assert_int_equal(g->duration.min, w->duration.min);
            assert_int_equal(g->duration.max, w->duration.max);
            assert_int_equal(g->duration.p50, w->duration.p50);
            assert_int_equal(g->duration.p99, w->duration.p99);
            assert_int_equal(g->worst_count, w->worst_count);
            for (uint32_t i = 0; i < w->worst_count; i++) {
                assert_int_equal(g->worst[i].response_ticks, w->worst[i].response_ticks);
                assert_int_equal(g->worst[i].release_index, w->worst[i].release_index);
                assert_int_equal(g->worst[i].end_index, w->worst[i].end_index);
            }
        }
        run_free(&a);
        run_free(&b);
    }
    run_free(&whole);
}

/* Three segments (cut at i and j), merged left to right: an interval open
 * in the first, untouched in the second (whose gaps it crosses) and stopped
 * in the third needs the second's gaps carried over. */
static void test_three_segments(void **state)
{
    (void)state;
    make_script();
    static run whole;
    run_init(&whole);
    feed(&whole, 0, STEPS);
    run_finish(&whole);
    for (uint32_t i = 0; i <= STEPS; i += 3)
        for (uint32_t j = i; j <= STEPS; j += 5) {
            static run a, b, c;
            run_init(&a);
            run_init(&b);
            run_init(&c);
            feed(&a, 0, i);
            feed(&b, i, j);
            feed(&c, j, STEPS);
            assert_int_equal(trx_interval_matcher_merge(&a.m, &b.m, resolved, &a), 0);
            assert_int_equal(trx_interval_matcher_merge(&a.m, &c.m, resolved, &a), 0);
            for (uint32_t k = 0; k < KEYS; k++) {
                assert_int_equal(trx_interval_result_merge(&a.r[k], &b.r[k]), 0);
                assert_int_equal(trx_interval_result_merge(&a.r[k], &c.r[k]), 0);
            }
            run_finish(&a);
            for (uint32_t k = 0; k < KEYS; k++) {
                assert_int_equal(a.r[k].complete, whole.r[k].complete);
                assert_int_equal(a.r[k].incomplete, whole.r[k].incomplete);
                assert_int_equal(a.r[k].duration.sum, whole.r[k].duration.sum);
                assert_int_equal(a.r[k].duration.max, whole.r[k].duration.max);
            }
            run_free(&a);
            run_free(&b);
            run_free(&c);
        }
    run_free(&whole);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pairing),        cmocka_unit_test(test_many_keys),
        cmocka_unit_test(test_results),        cmocka_unit_test(test_segments_merge),
        cmocka_unit_test(test_three_segments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
