/* test_stats_segments.c - `trx stats` computed over segments of a trace and
 * merged (trx_stats_compute_segments) gives the one walk's JSON byte for
 * byte, in both modes, for every cut of the smaller traces given on the
 * command line and a few hundred cuts (and three-segment cuts) of the
 * larger ones, with and without a warm-up (without: the analyses' states
 * at the cut are unknown and the segments are walked again), a few on
 * threads, some of the trace unprepared (the segments prepare it in parts:
 * its thread ranges and totals must be trx_trace_prepare's; SYS/BIOS
 * captures are opened with their metadata), and of a
 * built trace whose threads' thresholds come and go. Then it prints, per analysis, how
 * often a segment's results were merged and how often walked again, and checks that every analysis
 * of each mode merged somewhere (a merge that never happens is not tested). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stats_json_text.h"

#include "analyze/stats_segments.h"
#include "decode/prepare_asserts.h"
#include "decode/trace_builder.h"
#include "output/stats_json.h"
#include "trx/uia.h"
#include "trx/uia_names.h"
#include "../text_diff.h"

static int trace_count;
static char **trace_paths;
static trx_segment_report total[2]; /* per mode: correct, TraceX */

/* The JSON `trx stats --json` writes for s (malloc'd). */
static char *stats_json(const trx_trace *t, const trx_stats *s)
{
    char *text = stats_json_text(t, s);
    assert_non_null(text);
    return text;
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

/* Opens `path` in `mode`: a UIA capture with its metadata (PATH.xml, kept
 * in *names), so that its events carry the tasks' and interrupts' contexts. */
static void open_trace(trx_trace *t, const char *path, trx_mode mode, trx_uia_names *names)
{
    char meta[4096];
    trx_error err;
    memset(names, 0, sizeof *names);
    memset(&err, 0, sizeof err);
    snprintf(meta, sizeof meta, "%s.xml", path);
    size_t n = strlen(path);
    FILE *f = n > 4 && strcmp(path + n - 4, ".uia") == 0 ? fopen(meta, "r") : NULL;
    if (f) {
        fclose(f);
        assert_int_equal(trx_uia_names_load(names, meta, &err), 0);
        trx_open_options o = {.trace_format = TRX_TRACE_UIA, .uia_names = names};
        assert_int_equal(trx_trace_open_with(t, path, &o, &err), 0);
        t->uia_names = names;
    } else {
        assert_int_equal(trx_trace_open(t, path, TRX_FORMAT_AUTO, &err), 0);
    }
    trx_trace_set_mode(t, mode);
}

/* The statistics over the segments at `cuts` equal `want`; `fresh`: of the
 * trace opened again (unprepared: the segments prepare it, in parts), whose
 * preparation must then equal t's. */
static void check_cuts(trx_trace *t, const char *want, const uint64_t *cuts, uint32_t n,
                       uint64_t warm, bool threads, const char *path, bool fresh)
{
    trx_trace again, *u = t;
    trx_uia_names again_names;
    if (fresh) {
        open_trace(&again, path, t->mode, &again_names);
        u = &again;
    }
    trx_stats s;
    trx_segment_report rep;
    int rc = trx_stats_compute_segments(u, &s, 0, cuts, n, warm, threads, &rep);
    if (rc ==
        TRX_STATS_SEGMENTS_UNPREPARED) { /* Un-named Threads: prepared first, as trx stats does */
        trx_trace_prepare(u);
        rc = trx_stats_compute_segments(u, &s, 0, cuts, n, warm, threads, &rep);
    }
    assert_int_equal(rc, 0);
    if (fresh)
        assert_same_preparation(t, u);
    char *got = stats_json(u, &s);
    if (strcmp(got, want) != 0) {
        fprintf(stderr, "%s (%s mode%s): cut at %llu%s%llu, warm-up %llu:\n", path,
                t->mode == TRX_MODE_CORRECT ? "default" : "tracex", fresh ? ", unprepared" : "",
                (unsigned long long)cuts[0], n > 1 ? " and " : "",
                (unsigned long long)(n > 1 ? cuts[1] : 0), (unsigned long long)warm);
        text_differs("one walk:", want, "segments:", got);
        fail();
    }
    add_report(&total[t->mode == TRX_MODE_CORRECT ? 0 : 1], &rep);
    free(got);
    trx_stats_free(&s);
    if (fresh) {
        trx_trace_close(&again);
        trx_uia_names_free(&again_names);
    }
}

static void one_trace(const char *path, trx_mode mode)
{
    trx_trace t;
    trx_uia_names names;
    open_trace(&t, path, mode, &names);
    trx_trace_prepare(&t);
    trx_stats whole;
    assert_int_equal(trx_stats_compute(&t, &whole), 0);
    char *want = stats_json(&t, &whole);
    trx_stats_free(&whole);
    uint64_t n = t.format == TRX_TRACE_UIA ? trx_uia_info_of(&t)->records : t.used;
    /* every cut of a small trace; about 400 of a larger one */
    uint64_t stride = (n <= 1500 ? 1 : n <= 20000 ? n / 400 : n / 150) * test_sparse();
    uint64_t warm_big = 256;
    for (uint64_t at = 1, k = 0; at < n; at += stride, k++) {
        uint64_t cut = at;
        check_cuts(&t, want, &cut, 1, k % 4 == 3 ? 0 : warm_big, k % 50 == 7, path, k % 8 == 5);
    }
    /* three segments, pseudo-random cuts */
    uint64_t x = 0x9E3779B97F4A7C15u ^ n;
    for (int k = 0; k < 60 / (int)test_sparse() && n > 3; k++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint64_t a = 1 + x % (n - 1), b = 1 + (x >> 32) % (n - 1);
        uint64_t cuts[2] = {a < b ? a : b, a < b ? b : a};
        check_cuts(&t, want, cuts, 2, k % 3 == 0 ? 8 : warm_big, k % 10 == 0, path, k % 4 == 1);
    }
    free(want);
    trx_trace_close(&t);
    trx_uia_names_free(&names);
}

/* A built trace whose threads' priority words come with and without a
 * preemption-threshold in a pseudo-random order: the threshold range's
 * set-once-and-reset rule crosses every cut (the preparation in parts). */
static const char *threshold_trace(void)
{
    static char path[] = "/tmp/trx-segments-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    static test_trace b;
    tb_init(&b, 3, 600, false);
    const uint32_t a = 0x1000, c = 0x2000, d = 0x3000;
    tb_object(&b, 0, TRX_OBJ_THREAD, a, "a", 0x10000, 1024, 5);
    tb_object(&b, 1, TRX_OBJ_THREAD, c, "c", 0x20000, 1024, 6);
    tb_object(&b, 2, TRX_OBJ_THREAD, d, "d", 0x30000, 1024, 7);
    uint32_t x = 12345;
    for (uint32_t i = 0; i < 600; i++) {
        x = x * 1103515245u + 12345u;
        uint32_t who = (x >> 8) % 3, prio = 3 + (x >> 12) % 6, pt = 1 + (x >> 16) % 8;
        uint32_t word = (x >> 20) % 3 ? 0x80000000u | pt << 16 | prio : prio;
        uint32_t ctx = who == 0 ? a : who == 1 ? c : d;
        tb_event(&b, ctx, word, 4001 + (x >> 24) % 4, 100 + 10 * i, i, 0, 0, 0);
    }
    FILE *f = fdopen(fd, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b.bytes, 1, b.size, f), b.size);
    fclose(f);
    return path;
}

static void all_splits(void **state)
{
    (void)state;
    const char *built = threshold_trace();
    one_trace(built, TRX_MODE_CORRECT);
    one_trace(built, TRX_MODE_TRACEX);
    remove(built);
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
