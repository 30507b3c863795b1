/* test_segment_units_simple.c - the segment merges (segment_units.h) of the
 * correct mode's performance counts and of the execution profile, on
 * pseudo-random event sequences cut into two and three segments at every
 * place, with warm-ups of 0 to 6 events: wherever the fingerprints of the
 * part before and of the segment are equal, the merged results must be the
 * one walk's (field by field). The corpus's traces never switch away from a
 * thread the part before left suspended while the segment does not know it
 * (performance_correct.c's unknown_lookups), nor leave states that differ in
 * a core's yielding / nesting / orphan run or previous event only; these
 * sequences do, and the test checks that they did. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyze/segment_units.h"
#include "decode/trace_builder.h"

#define EVENTS 40
#define MAX_WARM 6
#define THREADS 3

static const uint32_t thread_at[THREADS] = {0x1000, 0x2000, 0x3000};

static uint64_t rng;

static uint32_t next_random(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 32) % n;
}

/* A sequence of events in no real scheduler's order: every kind the two
 * analyses look at, contexts and next contexts drawn at random (mostly the
 * one running on), a few cores, ticks that mostly go forward. */
static void make_events(trx_event *ev, uint32_t n, uint32_t cores)
{
    static const uint8_t kinds[] = {TRX_KIND_NONE,       TRX_KIND_RESUME,    TRX_KIND_SUSPEND,
                                    TRX_KIND_SUSPEND,    TRX_KIND_ISR_ENTER, TRX_KIND_ISR_EXIT,
                                    TRX_KIND_TIME_SLICE, TRX_KIND_YIELD,     TRX_KIND_SWITCH,
                                    TRX_KIND_SWI_BEGIN,  TRX_KIND_SWI_END,   TRX_KIND_NONE};
    uint32_t running[4] = {thread_at[0], thread_at[1], thread_at[2], thread_at[0]};
    uint64_t ticks = 100;
    for (uint32_t i = 0; i < n; i++) {
        trx_event *e = &ev[i];
        memset(e, 0, sizeof *e);
        e->index = i;
        e->core = next_random(cores);
        e->kind = kinds[next_random(sizeof kinds)];
        uint32_t r = next_random(10);
        e->context = r < 2 ? TRX_CONTEXT_ISR : r < 3 ? TRX_CONTEXT_INIT : running[e->core];
        e->subject = thread_at[next_random(THREADS)];
        r = next_random(10);
        if (r < 3)
            running[e->core] = r == 0 ? TRX_CONTEXT_IDLE : thread_at[next_random(THREADS)];
        e->next_context = r == 3 ? TRX_CONTEXT_ISR : r == 4 ? TRX_CONTEXT_INIT : running[e->core];
        ticks = next_random(12) == 0 ? ticks - next_random(5) : ticks + next_random(9);
        e->ticks = ticks;
        e->thread = -1;
    }
}

/* ---- performance (correct mode) ---- */

static void perf_init(trx_correct_performance *a, const trx_trace *t, uint32_t cores)
{
    assert_int_equal(trx_correct_performance_init(a, t), 0);
    if (cores > 1) { /* as for a trace whose cores carry contexts of their own */
        free(a->per_core);
        a->per_core = calloc(cores, sizeof *a->per_core);
        assert_non_null(a->per_core);
        a->cores = cores;
    }
}

static void perf_feed(trx_correct_performance *a, const trx_event *ev, uint32_t from, uint32_t to)
{
    for (uint32_t i = from; i < to; i++)
        trx_correct_performance_feed(a, &ev[i]);
}

/* The merged counts are the one walk's; frees `merged`. */
static void perf_expect(const trx_correct_performance *whole, trx_correct_performance *merged)
{
    assert_int_equal(merged->oom, 0);
    assert_int_equal(merged->switches, whole->switches);
    assert_int_equal(merged->preemptions, whole->preemptions);
    assert_int_equal(merged->time_slices, whole->time_slices);
    assert_int_equal(merged->interrupts, whole->interrupts);
    assert_int_equal(merged->nested, whole->nested);
    trx_correct_performance_discard(merged);
}

typedef struct tally {
    uint32_t merged, walked_again, corrected;
} tally;

/* Segment [from, to) of `ev` joined to `owner` (the analysis of all before
 * `from`), with a warm-up of `warm` events, as stats_segments.c does it. */
static void perf_join(trx_correct_performance *owner, const trx_trace *t, const trx_event *ev,
                      uint32_t from, uint32_t to, uint32_t warm, uint32_t cores, tally *y)
{
    trx_correct_performance later;
    perf_init(&later, t, cores);
    later.part_way = true; /* as stats_segments.c marks a segment's */
    uint32_t w = from < warm ? 0 : from - warm;
    perf_feed(&later, ev, w, from);
    trx_fingerprint fl = {0, 0}, fo = {0, 0};
    trx_correct_performance_fingerprint(&later, t, &fl, from - w);
    trx_correct_performance_clear_results(&later);
    perf_feed(&later, ev, from, to);
    trx_correct_performance_fingerprint(owner, t, &fo, from);
    if (!trx_fp_equal(&fo, &fl)) {
        y->walked_again++;
        perf_feed(owner, ev, from, to);
        trx_correct_performance_discard(&later);
        return;
    }
    /* the sum as it stands, to see the merge take some back */
    uint64_t before = owner->preemptions, naive = later.preemptions;
    assert_int_equal(trx_correct_performance_merge(&later, owner, t, from - w), 0);
    trx_correct_performance_discard(owner);
    *owner = later;
    y->merged++;
    y->corrected += owner->preemptions != before + naive;
}

static void perf_splits(const trx_trace *t, uint32_t cores, tally *y)
{
    trx_event ev[EVENTS];
    make_events(ev, EVENTS, cores);
    trx_correct_performance whole;
    perf_init(&whole, t, cores);
    perf_feed(&whole, ev, 0, EVENTS);
    for (uint32_t c1 = 1; c1 < EVENTS; c1++)
        for (uint32_t warm = 0; warm <= MAX_WARM; warm++) {
            /* two segments */
            trx_correct_performance owner;
            perf_init(&owner, t, cores);
            perf_feed(&owner, ev, 0, c1);
            perf_join(&owner, t, ev, c1, EVENTS, warm, cores, y);
            perf_expect(&whole, &owner);
            /* three segments */
            uint32_t c2 = c1 + 1 + next_random(EVENTS - c1);
            if (c2 >= EVENTS)
                continue;
            perf_init(&owner, t, cores);
            perf_feed(&owner, ev, 0, c1);
            perf_join(&owner, t, ev, c1, c2, warm, cores, y);
            perf_join(&owner, t, ev, c2, EVENTS, MAX_WARM - warm, cores, y);
            perf_expect(&whole, &owner);
        }
    trx_correct_performance_discard(&whole);
}

/* States equal but for one of a core's flags fingerprint differently. */
static void perf_flags_fingerprinted(const trx_trace *t)
{
    trx_correct_performance a, b;
    perf_init(&a, t, 1);
    perf_init(&b, t, 1);
    trx_fingerprint fa = {0, 0}, fb = {0, 0};
    trx_correct_performance_fingerprint(&a, t, &fa, 0);
    trx_correct_performance_fingerprint(&b, t, &fb, 0);
    assert_true(trx_fp_equal(&fa, &fb));
    bool *flags[] = {&b.one.have_running, &b.one.orphan_run, &b.one.yielding};
    for (size_t i = 0; i < sizeof flags / sizeof *flags; i++) {
        *flags[i] = true;
        fb = (trx_fingerprint){0, 0};
        trx_correct_performance_fingerprint(&b, t, &fb, 0);
        assert_false(trx_fp_equal(&fa, &fb));
        *flags[i] = false;
    }
    uint32_t *words[] = {&b.one.running, &b.one.nesting};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        *words[i] = 1;
        fb = (trx_fingerprint){0, 0};
        trx_correct_performance_fingerprint(&b, t, &fb, 0);
        assert_false(trx_fp_equal(&fa, &fb));
        *words[i] = 0;
    }
    trx_correct_performance_discard(&a);
    trx_correct_performance_discard(&b);
}

static void open_trace(test_trace *b, trx_trace *t)
{
    tb_init(b, 4, 8, false);
    tb_event(b, TRX_CONTEXT_INIT, 0, 1, 10, 0, 0, 0, 0); /* no threads */
    tb_open(b, t);
    trx_trace_prepare(t);
}

static void performance_merges(void **state)
{
    (void)state;
    static test_trace b;
    trx_trace t;
    open_trace(&b, &t);
    perf_flags_fingerprinted(&t);
    tally y = {0};
    for (uint32_t k = 0; k < 60; k++) {
        rng = 0x9E3779B97F4A7C15u + k;
        perf_splits(&t, 1 + k % 3, &y);
    }
    printf("performance: merged %u, walked again %u, preemptions taken back at %u\n", y.merged,
           y.walked_again, y.corrected);
    assert_true(y.merged > 1000);
    assert_true(y.walked_again > 1000);
    assert_true(y.corrected > 10); /* the case the corpus lacks happened */
    trx_trace_close(&t);
}

/* ---- execution profile ---- */

typedef struct profiled {
    trx_profile a;
    trx_stats s;
} profiled;

static void prof_init(profiled *p, const trx_trace *t, uint32_t cores)
{
    memset(&p->s, 0, sizeof p->s);
    assert_int_equal(trx_profile_init(&p->a, t), 0);
    if (cores > 1) {
        free(p->a.per_core);
        p->a.per_core = calloc(cores, sizeof *p->a.per_core);
        assert_non_null(p->a.per_core);
        p->a.cores = cores;
    }
}

static void prof_feed(profiled *p, const trx_trace *t, const trx_event *ev, uint32_t from,
                      uint32_t to)
{
    for (uint32_t i = from; i < to; i++)
        trx_profile_feed(&p->a, t, &ev[i], -1, &p->s);
}

static void prof_join(profiled *owner, const trx_trace *t, const trx_event *ev, uint32_t from,
                      uint32_t to, uint32_t warm, uint32_t cores, tally *y)
{
    profiled later;
    prof_init(&later, t, cores);
    uint32_t w = from < warm ? 0 : from - warm;
    prof_feed(&later, t, ev, w, from);
    trx_fingerprint fl = {0, 0}, fo = {0, 0};
    trx_profile_fingerprint(&later.a, t, &fl, from - w);
    trx_profile_clear_results(&later.a, &later.s);
    prof_feed(&later, t, ev, from, to);
    trx_profile_fingerprint(&owner->a, t, &fo, from);
    if (!trx_fp_equal(&fo, &fl)) {
        y->walked_again++;
        prof_feed(owner, t, ev, from, to);
        trx_profile_free(&later.a);
        return;
    }
    assert_int_equal(trx_profile_merge(&later.a, &later.s, &owner->a, &owner->s, t, from - w), 0);
    trx_profile_free(&owner->a);
    *owner = later;
    y->merged++;
}

static void prof_splits(const trx_trace *t, uint32_t cores, tally *y)
{
    trx_event ev[EVENTS];
    make_events(ev, EVENTS, cores);
    profiled whole;
    prof_init(&whole, t, cores);
    prof_feed(&whole, t, ev, 0, EVENTS);
    for (uint32_t c1 = 1; c1 < EVENTS; c1++)
        for (uint32_t warm = 0; warm <= MAX_WARM; warm++) {
            profiled owner;
            prof_init(&owner, t, cores);
            prof_feed(&owner, t, ev, 0, c1);
            uint32_t c2 = c1 + 1 + next_random(EVENTS - c1);
            if (c2 < EVENTS) {
                prof_join(&owner, t, ev, c1, c2, warm, cores, y);
                prof_join(&owner, t, ev, c2, EVENTS, MAX_WARM - warm, cores, y);
            } else {
                prof_join(&owner, t, ev, c1, EVENTS, warm, cores, y);
            }
            assert_int_equal(owner.s.interrupt_ticks, whole.s.interrupt_ticks);
            assert_int_equal(owner.s.idle_ticks, whole.s.idle_ticks);
            trx_profile_free(&owner.a);
        }
    trx_profile_free(&whole.a);
}

static void profile_merges(void **state)
{
    (void)state;
    static test_trace b;
    trx_trace t;
    open_trace(&b, &t);
    tally y = {0};
    for (uint32_t k = 0; k < 60; k++) {
        rng = 0xD1B54A32D192ED03u + k;
        prof_splits(&t, 1 + k % 3, &y);
    }
    printf("execution profile: merged %u, walked again %u\n", y.merged, y.walked_again);
    assert_true(y.merged > 1000);
    assert_true(y.walked_again > 100);
    trx_trace_close(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(performance_merges),
                                       cmocka_unit_test(profile_merges)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
