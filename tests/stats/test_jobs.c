/* test_jobs.c TRACE - `--jobs` reaches the analyses: trx_trace_jobs gives
 * the caller's count, or the processors online for 0; `trx stats` with
 * jobs 1 runs on the calling thread only, with jobs 2 on a large trace (the
 * generated TRACE, 150,000 entries) a helper thread runs beside the cursor
 * (threads counted from /proc/self/status while the walk runs, against
 * those before it); the statistics are
 * the same both ways. Linux only (/proc). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "analyze/analyses.h"

static const char *trace_path;

/* The threads of this process now (/proc/self/status "Threads:"). */
static int threads_now(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    int n = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "Threads:", 8) == 0)
            n = atoi(line + 8);
    if (f)
        fclose(f);
    return n;
}

typedef struct seen {
    uint64_t events;
    int most_threads;
} seen;

static void count_threads(void *ctx, const trx_event *ev)
{
    seen *s = ctx;
    (void)ev;
    if (s->events++ % 4096 == 2048) {
        int n = threads_now();
        if (n > s->most_threads)
            s->most_threads = n;
    }
}

/* Statistics of TRACE with `jobs`; the most threads seen while they ran
 * beyond those before (a sanitizer's own thread is not the walk's). */
static int stats_with(uint32_t jobs, trx_stats *st)
{
    trx_trace t;
    trx_error err;
    memset(&t, 0, sizeof t);
    memset(&err, 0, sizeof err);
    assert_int_equal(trx_trace_open(&t, trace_path, TRX_FORMAT_AUTO, &err), 0);
    t.jobs = jobs;
    assert_int_equal(trx_trace_jobs(&t), jobs);
    seen s = {0, 0};
    int before = threads_now();
    assert_int_equal(trx_stats_compute_fed(&t, st, 0, count_threads, &s), 0);
    assert_true(s.events > 100000);
    trx_trace_close(&t);
    return s.most_threads - before;
}

static void test_jobs_reach_the_walk(void **state)
{
    (void)state;
    trx_stats one, two;
    assert_int_equal(stats_with(1, &one), 0); /* no thread beside the walk */
    assert_true(stats_with(2, &two) >= 1);    /* its helper (and a sanitizer's, first time) */
    assert_int_equal(one.context_switches, two.context_switches);
    assert_int_equal(one.interrupts, two.interrupts);
    assert_int_equal(one.thread_count, two.thread_count);
    for (uint32_t i = 0; i < one.thread_count; i++) {
        const trx_thread_stats *a = &one.threads[i], *b = &two.threads[i];
        assert_int_equal(a->total_events, b->total_events);
        assert_int_equal(a->suspensions, b->suspensions);
        assert_int_equal(a->resumptions, b->resumptions);
        assert_int_equal(a->execution_ticks, b->execution_ticks);
        assert_int_equal(a->stack_min_available, b->stack_min_available);
        assert_int_equal(a->stack_min_event, b->stack_min_event);
        assert_int_equal(a->service_count, b->service_count);
        for (uint32_t k = 0; k < a->service_count; k++) {
            assert_int_equal(a->services[k].id, b->services[k].id);
            assert_int_equal(a->services[k].count, b->services[k].count);
        }
    }
    trx_stats_free(&one);
    trx_stats_free(&two);
}

static void test_default_is_the_processors(void **state)
{
    (void)state;
    trx_trace t;
    memset(&t, 0, sizeof t);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    assert_int_equal(trx_trace_jobs(&t), n > 1 ? (uint32_t)n : 1u);
    t.jobs = 7;
    assert_int_equal(trx_trace_jobs(&t), 7);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_jobs TRACE\n");
        return 2;
    }
    trace_path = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jobs_reach_the_walk),
        cmocka_unit_test(test_default_is_the_processors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
