/* test_stats_segments.c - `trx stats` computed over segments of a trace and
 * merged (trx_stats_compute_segments) gives the one walk's JSON byte for
 * byte, in both modes, for every cut of the smaller traces given on the
 * command line and a few hundred cuts (and three-segment cuts) of the
 * larger ones, with and without a warm-up (without: the analyses' states
 * at the cut are unknown and the segments are walked again), a few on
 * threads. Then it prints, per analysis, how often a segment's results
 * were merged and how often walked again, and checks that every analysis
 * of each mode merged somewhere (a merge that never happens is not tested). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyze/stats_segments.h"
#include "output/stats_json.h"
#include "trx/uia.h"

static int trace_count;
static char **trace_paths;
static trx_segment_report total[2]; /* per mode: correct, TraceX */

/* The JSON `trx stats --json` writes for s (malloc'd). */
static char *stats_json(const trx_trace *t, const trx_stats *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    trx_out o;
    trx_out_init(&o, f, false);
    trx_stats_write_json(t, s, NULL, &o);
    trx_out_flush(&o);
    fclose(f);
    return buf;
}

static void add_report(trx_segment_report *sum, const trx_segment_report *r)
{
    for (uint32_t k = 0; k < STATS_UNIT_COUNT; k++) {
        sum->merged[k] += r->merged[k];
        sum->walked_again[k] += r->walked_again[k];
    }
    sum->guesses_failed += r->guesses_failed;
    sum->segments += r->segments;
}

/* The statistics over the segments at `cuts` equal `want`. */
static void check_cuts(trx_trace *t, const char *want, const uint64_t *cuts, uint32_t n,
                       uint64_t warm, bool threads, const char *path)
{
    trx_stats s;
    trx_segment_report rep;
    int rc = trx_stats_compute_segments(t, &s, 0, cuts, n, warm, threads, &rep);
    assert_int_equal(rc, 0);
    char *got = stats_json(t, &s);
    if (strcmp(got, want) != 0) {
        size_t at = 0;
        while (got[at] && got[at] == want[at])
            at++;
        fprintf(stderr,
                "%s (%s mode): cut at %llu%s%llu, warm-up %llu: differs at byte %zu:\n"
                "  one walk: %.160s\n  segments: %.160s\n",
                path, t->mode == TRX_MODE_CORRECT ? "default" : "tracex",
                (unsigned long long)cuts[0], n > 1 ? " and " : "",
                (unsigned long long)(n > 1 ? cuts[1] : 0), (unsigned long long)warm, at,
                want + (at > 40 ? at - 40 : 0), got + (at > 40 ? at - 40 : 0));
        fail();
    }
    add_report(&total[t->mode == TRX_MODE_CORRECT ? 0 : 1], &rep);
    free(got);
    trx_stats_free(&s);
}

static void one_trace(const char *path, trx_mode mode)
{
    trx_trace t;
    trx_error err;
    assert_int_equal(trx_trace_open(&t, path, TRX_FORMAT_AUTO, &err), 0);
    t.mode = mode;
    trx_trace_prepare(&t);
    trx_stats whole;
    assert_int_equal(trx_stats_compute(&t, &whole), 0);
    char *want = stats_json(&t, &whole);
    trx_stats_free(&whole);
    uint64_t n = t.format == TRX_TRACE_UIA ? trx_uia_info_of(&t)->records : t.used;
    /* every cut of a small trace; about 400 of a larger one */
    uint64_t stride = n <= 1500 ? 1 : n / 400;
    uint64_t warm_big = 256;
    for (uint64_t at = 1, k = 0; at < n; at += stride, k++) {
        uint64_t cut = at;
        check_cuts(&t, want, &cut, 1, k % 4 == 3 ? 0 : warm_big, k % 50 == 7, path);
    }
    /* three segments, pseudo-random cuts */
    uint64_t x = 0x9E3779B97F4A7C15u ^ n;
    for (int k = 0; k < 60 && n > 3; k++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint64_t a = 1 + x % (n - 1), b = 1 + (x >> 32) % (n - 1);
        uint64_t cuts[2] = {a < b ? a : b, a < b ? b : a};
        check_cuts(&t, want, cuts, 2, k % 3 == 0 ? 8 : warm_big, k % 10 == 0, path);
    }
    free(want);
    trx_trace_close(&t);
}

static void all_splits(void **state)
{
    (void)state;
    for (int i = 0; i < trace_count; i++) {
        one_trace(trace_paths[i], TRX_MODE_CORRECT);
        one_trace(trace_paths[i], TRX_MODE_TRACEX);
    }
    for (int m = 0; m < 2; m++) {
        printf("%s mode: %u segments\n", m == 0 ? "default" : "TraceX", total[m].segments);
        for (uint32_t k = 0; k < STATS_UNIT_COUNT; k++)
            if (total[m].merged[k] || total[m].walked_again[k])
                printf("  %-22s merged %8llu  walked again %8llu\n", trx_stats_unit_name(k),
                       (unsigned long long)total[m].merged[k],
                       (unsigned long long)total[m].walked_again[k]);
        printf("  RUNNING priorities guessed wrong at %llu boundaries\n",
               (unsigned long long)total[m].guesses_failed);
    }
}

int main(int argc, char **argv)
{
    trace_count = argc - 1;
    trace_paths = argv + 1;
    const struct CMUnitTest tests[] = {cmocka_unit_test(all_splits)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
