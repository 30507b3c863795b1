/* test_durations_segments.c - the UIABenchmark durations (lib/analyze/
 * durations.h) fed in parts and merged (trx_durations_merge) give what one
 * feed gives, field by field: every row's counts, distribution, worst list
 * (numbers, event indexes, ticks) and unmatched stops. Random sequences of
 * starts and stops of a few names on three cores, with restarts, stops
 * without a start (before and after a key was touched), lost-event gaps on
 * one core and synthetic events, cut at every event into two parts and at
 * pairs of points into three; the later parts numbered from 0 and merged
 * with their offset (every TRX_TEST_SPARSE-th cut under the sanitizers). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyze/durations.h"
#include "test_sparse.h"

enum { START = 7, STOP = 8, OTHER = 9, EVENTS = 240 };

static trx_event events[EVENTS];

/* A durations analysis matching START / STOP (no trace names needed). */
static void ready(trx_durations *d)
{
    trx_trace none;
    memset(&none, 0, sizeof none);
    trx_durations_init(d, &none, 3);
    d->start_ids[0] = START;
    d->stop_ids[0] = STOP;
    d->start_n = d->stop_n = 1;
}

/* A random sequence (seed): 3 cores, 3 names, mostly starts and stops. */
static void make_events(uint32_t seed)
{
    uint64_t ticks = 1000;
    for (uint32_t i = 0; i < EVENTS; i++) {
        seed = seed * 1103515245u + 12345u;
        uint32_t r = seed >> 8;
        trx_event *ev = &events[i];
        memset(ev, 0, sizeof *ev);
        ev->index = i;
        ticks += 1 + (r % 97);
        ev->ticks = ticks;
        ev->core = (r >> 7) % 3;
        ev->info[0] = 0x1000u + 0x10u * ((r >> 9) % 3);
        uint32_t kind = (r >> 12) % 16;
        ev->id = kind < 7 ? START : kind < 14 ? STOP : OTHER;
        ev->lost_before = ((r >> 16) % 23) == 0 ? 1 + (r >> 20) % 5 : 0;
        ev->synthetic = ((r >> 21) % 41) == 0;
    }
}

/* Everything a finished analysis says, as text (compared whole). */
static char *describe(trx_durations *d)
{
    size_t cap = 1 << 16, n = 0;
    char *out = malloc(cap);
    assert_non_null(out);
    for (uint32_t i = 0; i < d->row_count; i++) {
        const trx_duration_row *w = &d->rows[i];
        const trx_latency_dist *x = &w->r.duration;
        n += (size_t)snprintf(out + n, cap - n,
                              "%s core %u addr %x: complete %llu incomplete %llu unmatched %llu "
                              "count %llu sum %llu min %llu max %llu p50 %llu p90 %llu p99 %llu\n",
                              w->name, w->core, w->address, (unsigned long long)w->r.complete,
                              (unsigned long long)w->r.incomplete,
                              (unsigned long long)w->unmatched_stops, (unsigned long long)x->count,
                              (unsigned long long)x->sum, (unsigned long long)x->min,
                              (unsigned long long)x->max, (unsigned long long)x->p50,
                              (unsigned long long)x->p90, (unsigned long long)x->p99);
        for (uint32_t k = 0; k < w->r.worst_count; k++) {
            const trx_instance *in = &w->r.worst[k];
            n += (size_t)snprintf(
                out + n, cap - n, "  #%llu %llu..%llu %llu..%llu %llu\n",
                (unsigned long long)in->number, (unsigned long long)in->release_index,
                (unsigned long long)in->end_index, (unsigned long long)in->release_ticks,
                (unsigned long long)in->end_ticks, (unsigned long long)in->response_ticks);
        }
        assert_true(n < cap);
    }
    return out;
}

/* Feeds events [from, to) to d, numbered from `from - base`. */
static void feed(trx_durations *d, uint32_t from, uint32_t to, uint32_t base)
{
    for (uint32_t i = from; i < to; i++) {
        trx_event ev = events[i];
        ev.index -= base;
        trx_durations_feed(d, &ev);
    }
}

/* One feed of every event; adds its unmatched stops, incomplete and
 * complete intervals to totals[0..2]. */
static char *one_feed(uint64_t totals[3])
{
    trx_durations d;
    ready(&d);
    feed(&d, 0, EVENTS, 0);
    assert_int_equal(trx_durations_finish(&d, &(trx_trace){0}), 0);
    for (uint32_t i = 0; i < d.row_count; i++) {
        totals[0] += d.rows[i].unmatched_stops;
        totals[1] += d.rows[i].r.incomplete;
        totals[2] += d.rows[i].r.complete;
    }
    char *text = describe(&d);
    trx_durations_free(&d);
    return text;
}

/* The parts starting at cuts[0..n) (cuts[0] = 0), merged left to right. */
static char *in_parts(const uint32_t *cuts, uint32_t n)
{
    trx_durations whole;
    ready(&whole);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t from = cuts[k], to = k + 1 < n ? cuts[k + 1] : EVENTS;
        if (k == 0) {
            feed(&whole, from, to, 0);
            continue;
        }
        trx_durations part;
        ready(&part);
        /* a warm-up fed and forgotten first, as a segment's */
        feed(&part, from > 5 ? from - 5 : 0, from, 0);
        trx_durations_clear(&part);
        feed(&part, from, to, from);
        assert_int_equal(trx_durations_merge(&whole, &part, from), 0);
        trx_durations_free(&part);
    }
    assert_int_equal(trx_durations_finish(&whole, &(trx_trace){0}), 0);
    char *text = describe(&whole);
    trx_durations_free(&whole);
    return text;
}

static void expect_same(const char *want, const char *got, uint32_t seed, const uint32_t *cuts,
                        uint32_t n)
{
    if (strcmp(want, got) == 0)
        return;
    fprintf(stderr, "seed %u, cuts at %u %u:\none feed:\n%s\nparts:\n%s", seed, cuts[1],
            n > 2 ? cuts[2] : 0, want, got);
    fail();
}

static void test_two_parts_every_cut(void **state)
{
    (void)state;
    uint64_t totals[3] = {0, 0, 0};
    for (uint32_t seed = 1; seed <= 40; seed++) {
        make_events(seed);
        char *want = one_feed(totals);
        for (uint32_t cut = 1; cut < EVENTS; cut += test_sparse()) {
            const uint32_t cuts[2] = {0, cut};
            char *got = in_parts(cuts, 2);
            expect_same(want, got, seed, cuts, 2);
            free(got);
        }
        free(want);
    }
    printf("40 sequences: %llu unmatched stops, %llu incomplete, %llu complete intervals\n",
           (unsigned long long)totals[0], (unsigned long long)totals[1],
           (unsigned long long)totals[2]);
    assert_true(totals[0] > 100 && totals[1] > 100 && totals[2] > 100); /* every case met */
}

static void test_three_parts(void **state)
{
    (void)state;
    for (uint32_t seed = 100; seed < 106; seed++) {
        make_events(seed);
        uint64_t totals[3] = {0, 0, 0};
        char *want = one_feed(totals);
        for (uint32_t a = 1; a < EVENTS; a += 3 * test_sparse())
            for (uint32_t b = a + 1; b < EVENTS; b += 7) {
                const uint32_t cuts[3] = {0, a, b};
                char *got = in_parts(cuts, 3);
                expect_same(want, got, seed, cuts, 3);
                free(got);
            }
        free(want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_parts_every_cut),
        cmocka_unit_test(test_three_parts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
