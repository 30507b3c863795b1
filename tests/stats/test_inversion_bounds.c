/* test_inversion_bounds.c - the inversion finders (both modes) skip asking
 * the open windows which close where bounds they keep show that none can
 * (the smallest blocked priority of the windows open, one owner for all):
 * `trx stats --json` must be the same bytes as when they ask at every event
 * (trx_open_windows_ask_always), on the traces given on the command line
 * (the corpus, priority-inheritance traces, generated traces with many
 * windows open at once under several owners and priorities). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stats_json_text.h"

#include "analyze/open_windows.h"
#include "../text_diff.h"

static int trace_count;
static char **trace_paths;

/* The statistics' JSON of `t`, asking the open windows always or not. */
static char *stats_with(trx_trace *t, bool ask_always)
{
    trx_open_windows_ask_always = ask_always;
    trx_stats s;
    assert_int_equal(trx_stats_compute(t, &s), 0);
    trx_open_windows_ask_always = false;
    char *text = stats_json_text(t, &s);
    assert_non_null(text);
    trx_stats_free(&s);
    return text;
}

static void test_bounds_change_nothing(void **state)
{
    (void)state;
    assert_true(trace_count > 0);
    uint64_t inversions = 0;
    for (int i = 0; i < trace_count; i++) {
        for (int mode = 0; mode < 2; mode++) {
            trx_trace t;
            trx_error err;
            memset(&t, 0, sizeof t);
            memset(&err, 0, sizeof err);
            assert_int_equal(trx_trace_open(&t, trace_paths[i], TRX_FORMAT_AUTO, &err), 0);
            trx_trace_set_mode(&t, mode ? TRX_MODE_TRACEX : TRX_MODE_CORRECT);
            char *skipping = stats_with(&t, false), *asking = stats_with(&t, true);
            if (strcmp(skipping, asking) != 0) {
                fprintf(stderr, "%s (%s mode):\n", trace_paths[i], mode ? "tracex" : "default");
                text_differs("asking", asking, "skipping", skipping);
                fail();
            }
            trx_stats s;
            assert_int_equal(trx_stats_compute(&t, &s), 0);
            inversions += s.inversions;
            trx_stats_free(&s);
            free(skipping);
            free(asking);
            trx_trace_close(&t);
        }
    }
    printf("%d traces, %llu inversions in both modes\n", trace_count,
           (unsigned long long)inversions);
    assert_true(inversions > 1000); /* the finders had windows to close */
}

int main(int argc, char **argv)
{
    trace_count = argc - 1;
    trace_paths = argv + 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bounds_change_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
