/* test_tracex_marks_segments.c - TraceX's priority-inversion marks (the end
 * index written on each window's start event, the last write winning), which
 * `trx stats --json` does not show, computed over segments of a trace and
 * merged (trx_stats_compute_segments) equal the one walk's, every field of
 * every mark, at every cut of the traces given (a stride on larger ones),
 * with a warm-up, a short one and none; and the segments' inversion finder
 * merged at some boundary (else the merge goes untested). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stats_json_text.h"

#include "analyze/stats_segments.h"

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
    const struct CMUnitTest tests[] = {cmocka_unit_test(all_cuts)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
