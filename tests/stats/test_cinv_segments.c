/* test_cinv_segments.c - the correct mode's priority inversions computed
 * over segments of hand-built traces (trx_stats_compute_segments) equal the
 * one walk's JSON at every cut and warm-up, where the inversions' state at a
 * cut depends on a long history the corpus traces never show alone: a
 * semaphore held since before the warm-up by a thread that runs in it, and
 * a window open since before the warm-up whose waiter's priority the
 * warm-up learns from a PRIORITY_CHANGE. The one walk's windows are checked
 * field by field (the truth follows from the scenario), and the inversions
 * must both merge at some cuts and walk again at others. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stats_json_text.h"

#include "../decode/trace_builder.h"
#include "analyze/stats_segments.h"
#include "output/stats_json.h"
#include "trx/stats.h"

enum { SUSPEND = 2, RESUME = 1, USER = 4096, PRIORITY_CHANGE = 108 };
enum { MUTEX_GET = 52, MUTEX_PUT = 57, SEM_GET = 83, SEM_PUT = 88, FOREVER = 0xFFFFFFFFu };
enum { H = 0x1000, M = 0x2000, L = 0x3000, S = 0x5000, X = 0x6000 };
enum { LOOPS = 12 };

static uint32_t prio(uint32_t p)
{
    return 0x80000000u | p << 16 | p;
}

/* The JSON `trx stats --json` writes for s (malloc'd). */
static char *stats_json(const trx_trace *t, const trx_stats *s)
{
    char *text = stats_json_text(t, s);
    assert_non_null(text);
    return text;
}

/* Every single cut of t with warm-ups 0, 2, 4, 8 and all: the one walk's
 * JSON. Returns how often the inversions merged / walked again in *merged
 * / *again. */
static void every_cut(trx_trace *t, const char *want, uint64_t *merged, uint64_t *again)
{
    uint32_t k = 0;
    while ((1u << k) != STATS_U_CINV)
        k++;
    const uint64_t warms[] = {0, 2, 4, 8, 1000};
    *merged = *again = 0;
    for (uint64_t cut = 1; cut < t->used; cut++)
        for (size_t w = 0; w < sizeof warms / sizeof *warms; w++) {
            trx_stats s;
            trx_segment_report rep;
            assert_int_equal(trx_stats_compute_segments(t, &s, 0, &cut, 1, warms[w], false, &rep),
                             0);
            char *got = stats_json(t, &s);
            if (strcmp(got, want) != 0)
                fail_msg("cut at %llu, warm-up %llu: differs from the one walk",
                         (unsigned long long)cut, (unsigned long long)warms[w]);
            free(got);
            trx_stats_free(&s);
            *merged += rep.merged[k];
            *again += rep.walked_again[k];
        }
}

static void three_threads(test_trace *b, uint32_t lock, uint8_t lock_type)
{
    memset(b, 0, sizeof *b);
    tb_init(b, 4, 64, false);
    tb_object(b, 0, TRX_OBJ_THREAD, H, "high", 0x10000, 1024, 10);
    tb_object(b, 1, TRX_OBJ_THREAD, M, "medium", 0x20000, 1024, 15);
    tb_object(b, 2, TRX_OBJ_THREAD, L, "low", 0x30000, 1024, 20);
    tb_object(b, 3, lock_type, lock, "lock", 1, 0, 0);
}

/* The built trace has one unbounded window: H (10) blocked on `lock` held
 * by L (20), M (15) ran inside, from the GET at `get_at` to H's event at
 * `end_at` (stamps); its JSON is the same at every cut, which both merges
 * and walks again somewhere. */
static void one_window_every_cut(test_trace *b, uint32_t lock, uint8_t lock_type, uint32_t get_at,
                                 uint32_t end_at)
{
    trx_trace t;
    tb_open(b, &t);
    t.mode = TRX_MODE_CORRECT;
    trx_trace_prepare(&t);
    trx_stats s;
    assert_int_equal(trx_stats_compute(&t, &s), 0);
    assert_int_equal(s.inversions, 1);
    assert_int_equal(s.bad_inversions, 1);
    assert_int_equal(s.inversion_count, 1);
    const trx_inversion *v = &s.inversion_list[0];
    assert_int_equal(v->waiter, H);
    assert_int_equal(v->waiter_priority, 10);
    assert_int_equal(v->lock, lock);
    assert_int_equal(v->lock_type, lock_type);
    assert_int_equal(v->holder, L);
    assert_int_equal(v->holder_priority, 20);
    assert_true(v->unbounded && v->closed);
    assert_int_equal(v->ran_inside, M);
    assert_int_equal(v->ran_inside_count, 1);
    assert_int_equal(v->start_ticks, get_at - 110);
    assert_int_equal(v->end_ticks, end_at - 110);
    char *want = stats_json(&t, &s);
    trx_stats_free(&s);
    uint64_t merged, again;
    every_cut(&t, want, &merged, &again);
    free(want);
    trx_trace_close(&t);
    assert_true(merged > 0);
    assert_true(again > 0);
}

/* L (20) takes the last count of S and holds it while H (10), M (15) and L
 * run LOOPS times; then H blocks on S, M runs inside, L puts S and resumes
 * H: one unbounded window on S. A warm-up that misses L's GET but sees all
 * three threads knows every priority and not the holder. */
static void test_semaphore_held_long(void **state)
{
    (void)state;
    static test_trace b;
    three_threads(&b, S, TRX_OBJ_SEMAPHORE);
    uint32_t ts = 100;
    tb_event(&b, L, prio(20), SEM_GET, ts += 10, S, FOREVER, 1, 0x30200);
    for (int i = 0; i < LOOPS; i++) {
        tb_event(&b, H, prio(10), USER, ts += 10, i, 0, 0, 0);
        tb_event(&b, M, prio(15), USER, ts += 10, i, 0, 0, 0);
        tb_event(&b, L, prio(20), USER, ts += 10, i, 0, 0, 0);
    }
    uint32_t get_at = ts + 10;
    tb_event(&b, H, prio(10), SEM_GET, ts += 10, S, FOREVER, 0, 0x10200);
    tb_event(&b, H, prio(10), SUSPEND, ts += 10, H, 6, 0x10200, M);
    tb_event(&b, M, prio(15), USER, ts += 10, 0, 0, 0, 0);
    tb_event(&b, M, prio(15), SUSPEND, ts += 10, M, 4, 0x20200, L);
    tb_event(&b, L, prio(20), SEM_PUT, ts += 10, S, 0, 1, 0x30200);
    tb_event(&b, L, prio(20), RESUME, ts += 10, H, 6, 0x30200, H);
    uint32_t end_at = ts + 10;
    tb_event(&b, H, prio(10), USER, ts += 10, 0, 0, 0, 0);
    one_window_every_cut(&b, S, TRX_LOCK_SEMAPHORE, get_at, end_at);
}

/* L (20) gets mutex X; H (10) blocks on it (the window opens); L changes
 * H's priority to 10 (naming it) and runs with M (15) LOOPS times (M runs
 * inside: unbounded); L puts X and resumes H. A warm-up inside the loops
 * knows every priority but not the open window. */
static void test_window_open_long(void **state)
{
    (void)state;
    static test_trace b;
    three_threads(&b, X, TRX_OBJ_MUTEX);
    uint32_t ts = 100;
    tb_event(&b, L, prio(20), MUTEX_GET, ts += 10, X, FOREVER, 0, 0x30200);
    tb_event(&b, L, prio(20), RESUME, ts += 10, H, 3, 0x30200, H);
    uint32_t get_at = ts + 10;
    tb_event(&b, H, prio(10), MUTEX_GET, ts += 10, X, FOREVER, L, 0x10200);
    tb_event(&b, H, prio(10), SUSPEND, ts += 10, H, 13, 0x10200, L);
    for (int i = 0; i < LOOPS; i++) {
        tb_event(&b, L, prio(20), PRIORITY_CHANGE, ts += 10, H, 10, 10, 0x30200);
        tb_event(&b, M, prio(15), USER, ts += 10, i, 0, 0, 0);
        tb_event(&b, L, prio(20), USER, ts += 10, i, 0, 0, 0);
    }
    tb_event(&b, L, prio(20), MUTEX_PUT, ts += 10, X, 0, 0, 0x30200);
    tb_event(&b, L, prio(20), RESUME, ts += 10, H, 13, 0x30200, H);
    uint32_t end_at = ts + 10;
    tb_event(&b, H, prio(10), USER, ts += 10, 0, 0, 0, 0);
    one_window_every_cut(&b, X, TRX_LOCK_MUTEX, get_at, end_at);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_semaphore_held_long),
        cmocka_unit_test(test_window_open_long),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
