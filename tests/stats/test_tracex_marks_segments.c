/* test_tracex_marks_segments.c - TraceX's priority-inversion marks (the end
 * index written on each window's start event, the last write winning), which
 * `trx stats --json` does not show, computed over segments of a trace and
 * merged (trx_stats_compute_segments) equal the one walk's, every field of
 * every mark, at every cut of the traces given (a stride on larger ones),
 * with a warm-up, a short one and none; and the segments' inversion finder
 * merged at some boundary (else the merge goes untested). Also of a built
 * trace whose window opened at its start never closes and whose thread Z
 * first runs 1,200 events in: a segment's warm-up knows neither, and at
 * every cut past Z's first event (with a warm-up) the finder must merge.
 * And of a built trace where, besides such a window, a segment's walk
 * opens and closes windows of the same mutex again and again (the one
 * walk opens none there): the finder must merge, taking them back; and
 * of one where a segment's warm-up opened a window the one walk did not,
 * which the segment closes: the finder must merge, taking its end back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stats_json_text.h"

#include "analyze/stats_segments.h"
#include "decode/trace_builder.h"

static int trace_count;
static char **trace_paths;

static uint32_t inversions_unit(void)
{
    for (uint32_t k = 0; k < STATS_UNIT_COUNT; k++)
        if (strcmp(trx_stats_unit_name(k), "inversions (TraceX)") == 0)
            return k;
    fail_msg("no unit named \"inversions (TraceX)\"");
    return 0;
}

static void same_marks(const trx_stats *want, const trx_stats *got, const char *path, uint64_t cut,
                       uint64_t warm)
{
    if (got->mark_count != want->mark_count)
        fail_msg("%s: cut %llu warm-up %llu: %u marks, one walk %u", path, (unsigned long long)cut,
                 (unsigned long long)warm, got->mark_count, want->mark_count);
    for (uint32_t i = 0; i < want->mark_count; i++) {
        const trx_inversion_mark *w = &want->marks[i], *g = &got->marks[i];
        if (w->start != g->start || w->end != g->end || w->order != g->order || w->bad != g->bad)
            fail_msg("%s: cut %llu warm-up %llu: mark %u is (%llu, %llu, %llu, %u), one walk "
                     "(%llu, %llu, %llu, %u)",
                     path, (unsigned long long)cut, (unsigned long long)warm, i,
                     (unsigned long long)g->start, (unsigned long long)g->end,
                     (unsigned long long)g->order, g->bad, (unsigned long long)w->start,
                     (unsigned long long)w->end, (unsigned long long)w->order, w->bad);
    }
    assert_int_equal(got->inversions, want->inversions);
    assert_int_equal(got->bad_inversions, want->bad_inversions);
}

enum { MUTEX_GET = 52, FOREVER = 0xFFFFFFFFu, Z_FIRST = 1200 };

static uint32_t prio(uint32_t p)
{
    return 0x80000000u | p << 16 | p;
}

/* H (10) blocks at the start on mutex M owned by L (20), which logs only at
 * the end and never puts M; X (8) runs on (no window closes); every 50
 * events A (5) blocks on M2 owned by B (6) and X closes that window (a
 * mark); Z (7) runs from event Z_FIRST on; with `closer`, L's window is
 * closed by W (15) at the end. */
/* Built trace b opened in TraceX's mode, prepared, its one walk's
 * statistics in *whole. */
static void open_tracex(test_trace *b, trx_trace *t, trx_stats *whole)
{
    tb_open(b, t);
    t->mode = TRX_MODE_TRACEX;
    trx_trace_prepare(t);
    assert_int_equal(trx_stats_compute(t, whole), 0);
}

/* The threads and mutexes the eternal and phantom traces share (their
 * thread at 0x8000, object 5, is `name` at `prio`; `objects` registry
 * slots), and H's block on M, the window open to the end; its ticks. */
static uint32_t eternal_cast(test_trace *b, uint32_t objects, uint32_t events, const char *name,
                             uint32_t prio5)
{
    tb_init(b, objects, events + 8, false);
    tb_object(b, 0, TRX_OBJ_THREAD, 0x1000, "high", 0x10000, 1024, 10);
    tb_object(b, 1, TRX_OBJ_THREAD, 0x3000, "low", 0x30000, 1024, 20);
    tb_object(b, 2, TRX_OBJ_THREAD, 0x4000, "other", 0x40000, 1024, 8);
    tb_object(b, 3, TRX_OBJ_THREAD, 0x6000, "a", 0x60000, 1024, 5);
    tb_object(b, 4, TRX_OBJ_THREAD, 0x7000, "b", 0x70000, 1024, 6);
    tb_object(b, 5, TRX_OBJ_THREAD, 0x8000, name, 0x80000, 1024, prio5);
    tb_object(b, 8, TRX_OBJ_THREAD, 0xA000, "closer", 0xA0000, 1024, 15);
    tb_object(b, 6, TRX_OBJ_MUTEX, 0x5000, "lock", 0, 0, 0);
    tb_object(b, 7, TRX_OBJ_MUTEX, 0x9000, "lock2", 0, 0, 0);
    uint32_t ts = 100;
    tb_event(b, 0x1000, prio(10), 4096, ts += 10, 0, 0, 0, 0);
    tb_event(b, 0x1000, prio(10), MUTEX_GET, ts += 10, 0x5000, FOREVER, 0x3000, 1);
    return ts;
}

static void build_eternal(test_trace *b, uint32_t events, bool closer)
{
    enum { L = 0x3000, X = 0x4000, A = 0x6000, B = 0x7000, Z = 0x8000, W = 0xA000, M2 = 0x9000 };
    uint32_t ts = eternal_cast(b, 9, events, "late", 7), i = 0;
    for (i = 2; i + 2 < events; i++) {
        if (i % 50 == 0)
            tb_event(b, A, prio(5), MUTEX_GET, ts += 10, M2, FOREVER, B, 1);
        else if (i >= Z_FIRST && i % 7 == 0)
            tb_event(b, Z, prio(7), 4096, ts += 10, i, 0, 0, 0);
        else if (i % 50 == 1)
            tb_event(b, B, prio(6), 4096, ts += 10, i, 0, 0, 0);
        else
            tb_event(b, X, prio(8), 4096, ts += 10, i, 0, 0, 0);
    }
    tb_event(b, L, prio(20), 4096, ts += 10, 0, 0, 0, 0);
    tb_event(b, closer ? W : X, prio(closer ? 15 : 8), 4096, ts += 10, 0, 0, 0, 0);
}

/* The built trace: marks as the one walk's at every cut past Z_FIRST - 500,
 * and, without the closer, the finder merged at each past Z's first event
 * with a warm-up of 256 (with it, the segment's walk closes the window). */
static void eternal_window_with(bool closer)
{
    uint32_t unit = inversions_unit();
    static test_trace b;
    build_eternal(&b, Z_FIRST + 500, closer);
    trx_trace t;
    trx_stats whole;
    open_tracex(&b, &t, &whole);
    assert_true(whole.mark_count > 20);
    uint64_t merged = 0, cuts = 0;
    for (uint64_t cut = Z_FIRST - 500, k = 0; cut < t.used; cut += test_sparse(), k++) {
        uint64_t warm = k % 4 == 3 ? 8 : 256;
        trx_stats s;
        trx_segment_report rep;
        assert_int_equal(trx_stats_compute_segments(&t, &s, 0, &cut, 1, warm, false, &rep), 0);
        same_marks(&whole, &s, "built", cut, warm);
        if (!closer && warm == 256 && cut > Z_FIRST + 300) {
            if (rep.merged[unit] != 1)
                fail_msg("built: cut %llu: the inversion finder walked again",
                         (unsigned long long)cut);
            merged++;
        }
        cuts++;
        trx_stats_free(&s);
    }
    printf("built: %llu cuts, inversion finder merged at all %llu past Z's first event\n",
           (unsigned long long)cuts, (unsigned long long)merged);
    assert_true(closer || merged > 10);
    trx_stats_free(&whole);
    trx_trace_close(&t);
}

static void eternal_window(void **state)
{
    (void)state;
    eternal_window_with(false);
    eternal_window_with(true);
}

/* H (10) blocks at the start on mutex M owned by L (20), which never puts
 * it, and no thread of a lower priority than H's runs: M's window stays
 * open to the end. Every PERIOD events A (5) blocks on M2 owned by B (6)
 * (a window), C (4) blocks on M owned by L too (in the one walk M's window
 * is open, so nothing opens; a segment whose warm-up did not see H block
 * opens one), X (8) closes both, A runs, then C: a segment's walk opens
 * and closes M's windows again and again, and the ends of M2's windows
 * read the start index C's opens wrote. F (2), closing nothing, runs
 * between A's block and X's run, X at the other events. With `closer`, W
 * (15) closes M's window at the end. */
enum { PERIOD = 50, AT_A = 0, AT_B = 1, AT_C = 3, AT_CLOSE = 5, AT_A_RUNS = 6, AT_C_RUNS = 7 };

static void build_phantom(test_trace *b, uint32_t events, bool closer)
{
    enum { L = 0x3000, X = 0x4000, A = 0x6000, B = 0x7000, C = 0x8000, W = 0xA000 };
    enum { M = 0x5000, M2 = 0x9000, F = 0xB000 };
    uint32_t ts = eternal_cast(b, 10, events, "c", 4), i = 0;
    tb_object(b, 9, TRX_OBJ_THREAD, F, "filler", 0xB0000, 1024, 2);
    for (i = 2; i + 2 < events; i++) {
        switch (i % PERIOD) {
        case AT_A:
            tb_event(b, A, prio(5), MUTEX_GET, ts += 10, M2, FOREVER, B, 1);
            break;
        case AT_B:
            tb_event(b, B, prio(6), 4096, ts += 10, i, 0, 0, 0);
            break;
        case AT_C:
            tb_event(b, C, prio(4), MUTEX_GET, ts += 10, M, FOREVER, L, 1);
            break;
        case AT_A_RUNS:
            tb_event(b, A, prio(5), 4096, ts += 10, i, 0, 0, 0);
            break;
        case AT_C_RUNS:
            tb_event(b, C, prio(4), 4096, ts += 10, i, 0, 0, 0);
            break;
        default: /* (AT_CLOSE too) */
            if (i % PERIOD < AT_CLOSE)
                tb_event(b, F, prio(2), 4096, ts += 10, i, 0, 0, 0);
            else
                tb_event(b, X, prio(8), 4096, ts += 10, i, 0, 0, 0);
        }
    }
    tb_event(b, L, prio(20), 4096, ts += 10, 0, 0, 0, 0);
    tb_event(b, closer ? W : X, prio(closer ? 15 : 8), 4096, ts += 10, 0, 0, 0, 0);
}

/* The built trace: marks and counts as the one walk's at every cut, and,
 * without the closer, the finder merged at every cut past the first
 * warm-up's reach (cuts from PHANTOM_FAR) but those where an end waits for
 * A or C (first events AT_A_RUNS and AT_C_RUNS of a period: the
 * fingerprints differ there): the segment's windows of M taken back, the
 * ends of M2's windows given the one walk's start index. (Its walk opens
 * M's windows again and again, and ends read their starts: this used to
 * refuse.) */
enum { PHANTOM_FAR = 300 };

static void phantom_windows_with(bool closer)
{
    uint32_t unit = inversions_unit();
    static test_trace b;
    build_phantom(&b, 40 * PERIOD, closer);
    trx_trace t;
    trx_stats whole;
    open_tracex(&b, &t, &whole);
    assert_true(whole.mark_count > 30);
    uint64_t merged = 0, cuts = 0;
    for (uint64_t cut = 2, k = 0; cut < t.used; cut += test_sparse(), k++) {
        uint64_t warm = k % 4 == 3 ? 8 : 256;
        trx_stats s;
        trx_segment_report rep;
        assert_int_equal(trx_stats_compute_segments(&t, &s, 0, &cut, 1, warm, false, &rep), 0);
        same_marks(&whole, &s, "built (phantom)", cut, warm);
        bool waits = cut % PERIOD > AT_CLOSE && cut % PERIOD <= AT_C_RUNS;
        if (!closer && cut >= PHANTOM_FAR) {
            if (rep.merged[unit] != !waits)
                fail_msg("built (phantom): cut %llu warm-up %llu: the inversion finder %s",
                         (unsigned long long)cut, (unsigned long long)warm,
                         waits ? "merged with an end waiting" : "walked again");
            merged += !waits;
        }
        cuts++;
        trx_stats_free(&s);
    }
    printf("built (phantom): %llu cuts, inversion finder merged at all %llu expected\n",
           (unsigned long long)cuts, (unsigned long long)merged);
    assert_true(closer || merged > 1000 / test_sparse());
    trx_stats_free(&whole);
    trx_trace_close(&t);
}

static void phantom_windows(void **state)
{
    (void)state;
    phantom_windows_with(false);
    phantom_windows_with(true);
}

/* D (3) blocks at the start on mutex M3 owned by E (30); at SHADOW_GET, C
 * (12) blocks on M3 too (the one walk opens nothing: D's window is open),
 * at SHADOW_GET + 20 G (5) closes D's window (not C's, had it opened: 5 is
 * not below 12) and D runs; at SHADOW_CLOSE J (15) runs (it would close
 * C's), then C; F (2) runs between. A segment whose warm-up starts after
 * D blocked has C's window open at its first event, which the one walk
 * has not, and closes it at SHADOW_CLOSE. */
enum { SHADOW_GET = 400, SHADOW_CLOSE = SHADOW_GET + 100, SHADOW_EVENTS = 800 };

static void build_shadow(test_trace *b)
{
    enum { D = 0x1000, E = 0x3000, F = 0x4000, C = 0x6000, G = 0x7000, J = 0x8000, M3 = 0x5000 };
    tb_init(b, 7, SHADOW_EVENTS + 8, false);
    tb_object(b, 0, TRX_OBJ_THREAD, D, "d", 0x10000, 1024, 3);
    tb_object(b, 1, TRX_OBJ_THREAD, E, "e", 0x30000, 1024, 30);
    tb_object(b, 2, TRX_OBJ_THREAD, F, "f", 0x40000, 1024, 2);
    tb_object(b, 3, TRX_OBJ_THREAD, C, "c", 0x60000, 1024, 12);
    tb_object(b, 4, TRX_OBJ_THREAD, G, "g", 0x70000, 1024, 5);
    tb_object(b, 5, TRX_OBJ_THREAD, J, "j", 0x80000, 1024, 15);
    tb_object(b, 6, TRX_OBJ_MUTEX, M3, "lock3", 0, 0, 0);
    uint32_t ts = 100;
    tb_event(b, D, prio(3), 4096, ts += 10, 0, 0, 0, 0);
    tb_event(b, D, prio(3), MUTEX_GET, ts += 10, M3, FOREVER, E, 1);
    for (uint32_t i = 2; i + 1 < SHADOW_EVENTS; i++) {
        if (i == SHADOW_GET)
            tb_event(b, C, prio(12), MUTEX_GET, ts += 10, M3, FOREVER, E, 1);
        else if (i == SHADOW_GET + 20)
            tb_event(b, G, prio(5), 4096, ts += 10, i, 0, 0, 0);
        else if (i == SHADOW_GET + 21)
            tb_event(b, D, prio(3), 4096, ts += 10, i, 0, 0, 0);
        else if (i == SHADOW_CLOSE)
            tb_event(b, J, prio(15), 4096, ts += 10, i, 0, 0, 0);
        else if (i == SHADOW_CLOSE + 1)
            tb_event(b, C, prio(12), 4096, ts += 10, i, 0, 0, 0);
        else
            tb_event(b, F, prio(2), 4096, ts += 10, i, 0, 0, 0);
    }
    tb_event(b, E, prio(30), 4096, ts += 10, 0, 0, 0, 0);
}

/* The built trace: marks and counts as the one walk's at every cut, and
 * the finder merged at every cut between D's run and SHADOW_CLOSE whose
 * warm-up starts after D blocked: C's window's end taken back. */
static void shadow_window(void **state)
{
    (void)state;
    uint32_t unit = inversions_unit();
    static test_trace b;
    build_shadow(&b);
    trx_trace t;
    trx_stats whole;
    open_tracex(&b, &t, &whole);
    assert_int_equal(whole.mark_count, 1); /* D's window */
    uint64_t merged = 0;
    for (uint64_t cut = 2, k = 0; cut < t.used; cut += test_sparse(), k++) {
        uint64_t warm = k % 4 == 3 ? 8 : 256;
        trx_stats s;
        trx_segment_report rep;
        assert_int_equal(trx_stats_compute_segments(&t, &s, 0, &cut, 1, warm, false, &rep), 0);
        same_marks(&whole, &s, "built (shadow)", cut, warm);
        if (cut > SHADOW_GET + 30 && cut < SHADOW_CLOSE) {
            if (rep.merged[unit] != 1)
                fail_msg("built (shadow): cut %llu warm-up %llu: the inversion finder walked again",
                         (unsigned long long)cut, (unsigned long long)warm);
            merged++;
        }
        trx_stats_free(&s);
    }
    printf("built (shadow): inversion finder merged at all %llu cuts expected\n",
           (unsigned long long)merged);
    assert_true(merged > 50 / test_sparse());
    trx_stats_free(&whole);
    trx_trace_close(&t);
}

static void all_cuts(void **state)
{
    (void)state;
    uint32_t unit = inversions_unit();
    uint64_t merged = 0, again = 0, marks = 0;
    for (int i = 0; i < trace_count; i++) {
        const char *path = trace_paths[i];
        trx_trace t;
        trx_error err;
        assert_int_equal(trx_trace_open(&t, path, TRX_FORMAT_AUTO, &err), 0);
        t.mode = TRX_MODE_TRACEX;
        trx_trace_prepare(&t);
        trx_stats whole;
        assert_int_equal(trx_stats_compute(&t, &whole), 0);
        assert_true(whole.mark_count > 0); /* a trace without marks tests nothing here */
        marks += whole.mark_count;
        uint64_t stride = (t.used <= 3000 ? 1 : t.used / 1000) * test_sparse();
        static const uint64_t warms[] = {256, 8, 0};
        for (uint64_t cut = 1, k = 0; cut < t.used; cut += stride, k++) {
            uint64_t warm = warms[k % 3];
            trx_stats s;
            trx_segment_report rep;
            assert_int_equal(trx_stats_compute_segments(&t, &s, 0, &cut, 1, warm, false, &rep), 0);
            same_marks(&whole, &s, path, cut, warm);
            merged += rep.merged[unit];
            again += rep.walked_again[unit];
            trx_stats_free(&s);
        }
        trx_stats_free(&whole);
        trx_trace_close(&t);
    }
    printf("%llu marks; inversion finder merged %llu, walked again %llu\n",
           (unsigned long long)marks, (unsigned long long)merged, (unsigned long long)again);
    assert_true(merged > 0);
}

int main(int argc, char **argv)
{
    trace_count = argc - 1;
    trace_paths = argv + 1;
    const struct CMUnitTest tests[] = {cmocka_unit_test(eternal_window),
                                       cmocka_unit_test(phantom_windows),
                                       cmocka_unit_test(shadow_window), cmocka_unit_test(all_cuts)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
