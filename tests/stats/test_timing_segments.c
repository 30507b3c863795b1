/* test_timing_segments.c - the timing analyses (ISR / Swi durations,
 * latencies, response times, CPU load, figures left out where time ran
 * backwards) computed over segments of SYS/BIOS captures and merged give the
 * one walk's `trx stats` JSON byte for byte. stats_segments walks the UIA
 * captures without their metadata (no contexts: the timing analyses see
 * nothing); here each capture is opened with its .uia.xml and, where given,
 * its Idle tasks (--idle), so that the load windows hold busy, idle and
 * unknown time and open interrupts and pending starts cross the cuts.
 * Every cut, warm-ups of 256, 8 and 0 (states differ: walked again), both
 * modes. Arguments: triples CAPTURE.uia IDLE_SPEC ("-": none) SETTLES, where
 * SETTLES "all" says timing must merge at every cut with a warm-up of 256,
 * "some" at some (a task made ready at the start that never runs keeps a
 * pending start no warm-up sees). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stats_json_text.h"

#include "analyze/stats_segments.h"
#include "analyze/stats_walk.h"
#include "output/stats_json.h"
#include "trx/uia.h"
#include "trx/uia_names.h"
#include "../text_diff.h"

static int arg_count;
static char **args;

/* The JSON `trx stats --json` writes for s (malloc'd). */
static char *stats_json(const trx_trace *t, const trx_stats *s)
{
    char *text = stats_json_text(t, s);
    assert_non_null(text);
    return text;
}

/* The timing unit's index among the report's units. */
static uint32_t timing_unit(void)
{
    uint32_t k = 0;
    while ((1u << k) != STATS_U_TIMING)
        k++;
    return k;
}

/* Splits the capture at each cut on its own with warm-up `warm`; fails at
 * the first JSON that differs from `want`. Returns how often timing merged. */
static uint64_t every_cut(trx_trace *t, const char *want, uint64_t records, uint64_t warm,
                          const char *path, uint64_t *walked_again)
{
    uint64_t merged = 0;
    for (uint64_t cut = 1; cut < records; cut += test_sparse()) {
        trx_stats s;
        trx_segment_report rep;
        assert_int_equal(trx_stats_compute_segments(t, &s, 0, &cut, 1, warm, false, &rep), 0);
        char *got = stats_json(t, &s);
        if (strcmp(got, want) != 0) {
            fprintf(stderr, "%s (%s mode): cut at %llu, warm-up %llu:\n", path,
                    t->mode == TRX_MODE_TRACEX ? "TraceX" : "default", (unsigned long long)cut,
                    (unsigned long long)warm);
            text_differs("one walk:", want, "segments:", got);
            fail();
        }
        merged += rep.merged[timing_unit()];
        *walked_again += rep.walked_again[timing_unit()];
        free(got);
        trx_stats_free(&s);
    }
    return merged;
}

static void one_capture(const char *path, const char *idle, bool settles, trx_mode mode)
{
    char meta[4096];
    snprintf(meta, sizeof meta, "%s.xml", path);
    trx_uia_names names;
    trx_error err;
    memset(&names, 0, sizeof names);
    memset(&err, 0, sizeof err);
    assert_int_equal(trx_uia_names_load(&names, meta, &err), 0);
    trx_open_options o = {.trace_format = TRX_TRACE_UIA, .uia_names = &names};
    trx_trace t;
    assert_int_equal(trx_trace_open_with(&t, path, &o, &err), 0);
    t.uia_names = &names;
    trx_trace_set_mode(&t, mode);
    if (strcmp(idle, "-") != 0)
        assert_true(trx_trace_mark_idle(&t, idle) > 0);
    trx_trace_prepare(&t);
    trx_stats whole;
    assert_int_equal(trx_stats_compute(&t, &whole), 0);
    char *want = stats_json(&t, &whole);
    trx_stats_free(&whole);
    /* the figures this test is about are there (not unavailable) */
    assert_non_null(strstr(want, "\"isr\": [\n"));
    if (strcmp(idle, "-") != 0)
        assert_non_null(strstr(want, "\"cpu_load\": {"));
    uint64_t records = trx_uia_info_of(&t)->records, again = 0, settled_again = 0;
    uint64_t settled = every_cut(&t, want, records, 256, path, &settled_again);
    uint64_t short_warm = every_cut(&t, want, records, 8, path, &again);
    uint64_t no_warm = every_cut(&t, want, records, 0, path, &again);
    printf("%s (%s mode): timing merged %llu of %llu cuts with a warm-up of 256, %llu with 8 or "
           "0, walked again %llu\n",
           path, mode == TRX_MODE_TRACEX ? "TraceX" : "default", (unsigned long long)settled,
           (unsigned long long)(records - 1), (unsigned long long)(short_warm + no_warm),
           (unsigned long long)(again + settled_again));
    /* settled states merge; short warm-ups leave some states unsettled */
    if (settles) {
        assert_int_equal(settled, (records - 2) / test_sparse() + 1); /* every cut made */
        assert_int_equal(settled_again, 0);
    } else {
        assert_true(settled > 0 && settled_again > 0);
    }
    assert_true(again > 0);
    free(want);
    trx_trace_close(&t);
    trx_uia_names_free(&names);
}

static void all_captures(void **state)
{
    (void)state;
    for (int i = 0; i + 2 < arg_count; i += 3) {
        bool settles = strcmp(args[i + 2], "all") == 0;
        one_capture(args[i], args[i + 1], settles, TRX_MODE_CORRECT);
        one_capture(args[i], args[i + 1], settles, TRX_MODE_TRACEX);
    }
}

int main(int argc, char **argv)
{
    arg_count = argc - 1;
    args = argv + 1;
    if (arg_count < 3 || arg_count % 3) {
        fprintf(stderr, "usage: test_timing_segments CAPTURE.uia IDLE_SPEC|- all|some ...\n");
        return 2;
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(all_captures)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
