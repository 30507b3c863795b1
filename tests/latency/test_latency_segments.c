/* test_latency_segments.c - `trx latency` computed over segments of a trace
 * and merged (lib/analyze/latency_segments.c) gives the one walk's JSON byte
 * for byte: every cut of the traces given on the command line (the corpus,
 * SMP, priority-inheritance, FreeRTOS and chain traces; at most ~400 cuts a
 * trace, every TRX_TEST_SPARSE-th under the sanitizers) with warm-ups of
 * 256, 8 and 0 events (states that differ are walked again), three-segment
 * cuts, for the instances (5 worst and 1 worst: ties), the instances with
 * every semaphore of the trace taken as a lock, and user intervals from
 * one event id to another in each thread, and the same paired by their
 * first word (the interval engine's matcher); some cuts of the trace opened
 * again, unprepared (the segments prepare it in parts: the same preparation
 * as trx_trace_prepare's); some cuts with the statistics in the same walk,
 * the latency as their caller's analysis (trx_stats_latency_compute's
 * way: both JSON texts the one walks'). Across the cuts with a warm-up
 * of 256 most merge (a test of the fingerprint and the merge, not only of
 * the walk again); a built trace whose thread asked for a lock before the
 * warm-up must walk again. `trx latency` on threads (--jobs) on large generated
 * traces: stats_parallel_same.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyze/latency_segments.h"
#include "analyze/stats_segments.h"
#include "analyze/stats_walk.h"
#include "trx/trx.h"
#include "trx/uia.h"
#include "trx/uia_names.h"
#include "../test_sparse.h"
#include "decode/prepare_asserts.h"
#include "decode/trace_builder.h"
#include "../text_diff.h"
#include "stats/stats_json_text.h"

static int trace_count;
static char **trace_paths;

/* Opens `path`; a UIA capture (.uia) with the names of PATH.xml into
 * *names (free them after closing the trace). */
static void open_trace(trx_trace *t, const char *path, trx_uia_names *names)
{
    trx_error err;
    memset(t, 0, sizeof *t);
    memset(&err, 0, sizeof err);
    memset(names, 0, sizeof *names);
    size_t len = strlen(path);
    if (len > 4 && strcmp(path + len - 4, ".uia") == 0) {
        char meta[4096];
        snprintf(meta, sizeof meta, "%s.xml", path);
        assert_int_equal(trx_uia_names_load(names, meta, &err), 0);
        trx_open_options o = {.trace_format = TRX_TRACE_UIA, .uia_names = names};
        assert_int_equal(trx_trace_open_with(t, path, &o, &err), 0);
        t->uia_names = names;
        return;
    }
    assert_int_equal(trx_trace_open(t, path, TRX_FORMAT_AUTO, &err), 0);
}

/* Events of t: the entries of a TXTB trace, the records of a UIA one. */
static uint64_t events_of(const trx_trace *t)
{
    const trx_uia_info *u = trx_uia_info_of(t);
    return u ? u->records : t->used;
}

/* The JSON trx latency --json writes for l (malloc'd). */
static char *latency_json(const trx_trace *t, const trx_latency *l, bool intervals)
{
    char *text = latency_json_text(t, l, intervals);
    assert_non_null(text);
    return text;
}

/* The one walk's JSON (trx_latency_compute on one job). */
static char *one_walk(trx_trace *t, const trx_latency_options *o)
{
    uint32_t jobs = t->jobs;
    t->jobs = 1;
    trx_latency l;
    assert_int_equal(trx_latency_compute(t, o, &l), 0);
    t->jobs = jobs;
    char *text = latency_json(t, &l, o->intervals);
    trx_latency_free(&l);
    return text;
}

static uint64_t merged_total, walked_total;
static uint64_t beside_merged, beside_walked; /* the latency beside the statistics */
static char *stats_want;                      /* the trace's statistics, one walk */

/* trx_stats_compute_segments_with at `cuts` with the latency as the
 * statistics' caller's analysis: the latency into *l, the statistics'
 * JSON compared with stats_want; *rep: the latency unit's merges. */
static int beside_stats(trx_trace *u, const trx_latency_options *o, trx_latency *l,
                        const uint64_t *cuts, uint32_t n, uint64_t warm, bool threads,
                        trx_latency_seg_report *rep)
{
    trx_latency_extra *e = trx_latency_extra_new(u, o, l);
    assert_non_null(e);
    const trx_stats_extra *x = trx_latency_extra_of(e);
    const trx_kept_inversions all = {UINT32_MAX, NULL, NULL};
    trx_stats s;
    trx_segment_report sr;
    int rc = trx_stats_compute_segments_with(u, &s, 0, cuts, n, warm, threads, &sr, &all, x);
    if (rc == TRX_STATS_SEGMENTS_UNPREPARED) { /* as trx_stats_latency_compute's way there */
        trx_trace_prepare(u);
        x->clear(x->ctx);
        rc = trx_stats_compute_segments_with(u, &s, 0, cuts, n, warm, threads, &sr, &all, x);
    }
    assert_int_equal(rc, 0);
    assert_int_equal(trx_latency_extra_end(e, true), 0);
    char *got = stats_json_text(u, &s);
    assert_non_null(got);
    if (strcmp(got, stats_want) != 0) {
        text_differs("statistics, one walk:", stats_want, "with the latency beside:", got);
        fail();
    }
    free(got);
    trx_stats_free(&s);
    uint32_t k = (uint32_t)__builtin_ctz(STATS_U_EXTRA);
    *rep =
        (trx_latency_seg_report){sr.segments, sr.merged[k], sr.walked_again[k], sr.guesses_failed};
    return rc;
}

/* The segments' JSON at `cuts` equals `want`; `fresh`: of the trace opened
 * again (unprepared: the segments prepare it in parts, as trx_trace_prepare
 * would). */
static void same_at(trx_trace *t, const trx_latency_options *o, const char *want,
                    const uint64_t *cuts, uint32_t n, uint64_t warm, bool threads, const char *path,
                    bool fresh, bool with_stats)
{
    trx_trace again, *u = t;
    trx_uia_names again_names;
    if (fresh) {
        open_trace(&again, path, &again_names);
        u = &again;
    }
    trx_latency l;
    trx_latency_seg_report rep;
    int rc = with_stats ? beside_stats(u, o, &l, cuts, n, warm, threads, &rep)
                        : trx_latency_compute_segments(u, o, &l, cuts, n, warm, threads, &rep);
    if (rc == TRX_LATENCY_UNPREPARED) { /* Un-named Threads: prepared first, as trx latency */
        trx_trace_prepare(u);
        rc = trx_latency_compute_segments(u, o, &l, cuts, n, warm, threads, &rep);
    }
    assert_int_equal(rc, 0);
    if (fresh)
        assert_same_preparation(t, u);
    char *got = latency_json(u, &l, o->intervals);
    if (strcmp(got, want) != 0) {
        fprintf(stderr, "%s%s%s: cut at %llu (%u cuts), warm-up %llu: the JSON\n", path,
                fresh ? " (unprepared)" : "", with_stats ? " (beside the statistics)" : "",
                (unsigned long long)cuts[0], n, (unsigned long long)warm);
        text_differs("one walk:", want, "segments:", got);
        fail();
    }
    if (warm == 256) {
        merged_total += rep.merged;
        walked_total += rep.walked_again;
        beside_merged += with_stats ? rep.merged : 0;
        beside_walked += with_stats ? rep.walked_again : 0;
    }
    free(got);
    trx_latency_free(&l);
    if (fresh) {
        trx_trace_close(&again);
        trx_uia_names_free(&again_names);
    }
}

/* Every cut (or ~400) of t and 30 three-segment cuts, three warm-ups. */
static void every_cut(trx_trace *t, const trx_latency_options *o, const char *path)
{
    char *want = one_walk(t, o);
    uint64_t n = events_of(t);
    uint64_t stride = (n <= 1500 ? 1 : n / 400) * test_sparse();
    static const uint64_t warms[] = {256, 8, 0};
    for (uint64_t cut = 1; cut < n; cut += stride)
        same_at(t, o, want, &cut, 1, warms[cut % 3], (cut % 5) == 0, path, cut % 7 == 3,
                cut % 4 == 1);
    srand(7);
    for (int k = 0; k < 30 / (int)test_sparse() && n > 3; k++) {
        uint64_t cuts[2] = {1 + (uint64_t)rand() % (n - 1), 1 + (uint64_t)rand() % (n - 1)};
        if (cuts[0] > cuts[1]) {
            uint64_t x = cuts[0];
            cuts[0] = cuts[1];
            cuts[1] = x;
        }
        same_at(t, o, want, cuts, 2, warms[k % 3], k % 2 == 0, path, k % 4 == 1, k % 3 == 2);
    }
    free(want);
}

/* The first semaphore-like objects of the registry as locks. */
static void semaphores_as_locks(const trx_trace *t, trx_latency_options *o)
{
    for (uint32_t i = 0; i < t->object_count && o->lock_count < TRX_LATENCY_MAX_LOCKS; i++)
        if (t->objects[i].type == TRX_OBJ_SEMAPHORE)
            o->locks[o->lock_count++] = t->objects[i].address;
}

/* The two most frequent event ids of t's thread events: a user interval. */
static void frequent_ids(trx_trace *t, trx_latency_options *o)
{
    static uint64_t count[65536];
    memset(count, 0, sizeof count);
    trx_cursor c;
    assert_int_equal(trx_cursor_init(&c, t), 0);
    const trx_event *ev;
    while ((ev = trx_cursor_next_ref(&c)) != NULL)
        if (ev->thread >= 0 && !ev->synthetic)
            count[ev->id & 0xFFFF]++;
    uint32_t a = 0, b = 1;
    for (uint32_t id = 0; id < 65536; id++) {
        if (count[id] > count[a]) {
            b = a;
            a = id;
        } else if (id != a && count[id] > count[b])
            b = id;
    }
    o->intervals = true;
    o->from = (trx_event_pattern){a, -1};
    o->to = (trx_event_pattern){b, -1};
}

static void test_every_cut(void **state)
{
    (void)state;
    assert_true(trace_count > 0);
    for (int i = 0; i < trace_count; i++) {
        trx_trace t;
        trx_uia_names names;
        open_trace(&t, trace_paths[i], &names);
        trx_trace_prepare(&t);
        trx_stats s;
        uint32_t jobs = t.jobs;
        t.jobs = 1;
        assert_int_equal(trx_stats_compute(&t, &s), 0);
        t.jobs = jobs;
        stats_want = stats_json_text(&t, &s);
        assert_non_null(stats_want);
        trx_stats_free(&s);
        trx_latency_options o;
        memset(&o, 0, sizeof o);
        o.worst = 5;
        every_cut(&t, &o, trace_paths[i]);
        o.worst = 1;
        every_cut(&t, &o, trace_paths[i]);
        o.worst = 5;
        semaphores_as_locks(&t, &o);
        if (o.lock_count)
            every_cut(&t, &o, trace_paths[i]);
        memset(&o, 0, sizeof o);
        o.worst = 3;
        frequent_ids(&t, &o);
        every_cut(&t, &o, trace_paths[i]);
        o.from.field = o.to.field = 0; /* the same, paired by their first word */
        every_cut(&t, &o, trace_paths[i]);
        free(stats_want);
        trx_trace_close(&t);
        trx_uia_names_free(&names);
    }
    printf("latency segments, warm-ups of 256: %llu merged, %llu walked again; beside the "
           "statistics %llu merged, %llu walked again\n",
           (unsigned long long)merged_total, (unsigned long long)walked_total,
           (unsigned long long)beside_merged, (unsigned long long)beside_walked);
    /* warm-ups of 256 settle the state at most cuts: the merge path runs,
     * also beside the statistics */
    assert_true(merged_total > walked_total);
    assert_true(beside_merged > beside_walked);
}

/* Built trace t (prepared) cut at `cuts` (n) with warm-ups of 8 events:
 * the segments' JSON is `want` (freed here), `merged` of the n boundaries
 * merged and the others walked again; t closed. */
static void cuts_give(trx_trace *t, const trx_latency_options *o, const uint64_t *cuts, uint32_t n,
                      char *want, uint64_t merged)
{
    trx_latency l;
    trx_latency_seg_report rep;
    assert_int_equal(trx_latency_compute_segments(t, o, &l, cuts, n, 8, false, &rep), 0);
    char *got = latency_json(t, &l, false);
    assert_string_equal(got, want);
    assert_int_equal(rep.merged, merged);
    assert_int_equal(rep.walked_again, n - merged);
    free(got);
    free(want);
    trx_latency_free(&l);
    trx_trace_close(t);
}

/* Opens built trace b into t (prepared) with options o: the 5 worst,
 * `lock` (0: none) a configured lock; the one walk's JSON, which must
 * hold `expect`. */
static char *built_truth(test_trace *b, trx_trace *t, trx_latency_options *o, uint32_t lock,
                         const char *expect)
{
    tb_open(b, t);
    trx_trace_prepare(t);
    memset(o, 0, sizeof *o);
    o->worst = 5;
    if (lock)
        o->locks[o->lock_count++] = lock;
    char *want = one_walk(t, o);
    assert_non_null(strstr(want, expect));
    return want;
}

/* A thread whose last request (a semaphore configured as a lock) came
 * before the warm-up: the segment's state looks the same but for what the
 * thread asked for, and its next SUSPEND (a semaphore wait) blocks in the
 * one walk but ends the instance in the segment. The fingerprint must tell
 * them apart: walked again, the one walk's JSON. */
static void test_request_before_warm_up(void **state)
{
    (void)state;
    enum { A = 0x1000, B = 0x2000, S = 0x3000, GET = 83, RESUME = 1, SUSPEND = 2, USER = 4096 };
    static test_trace b;
    tb_init(&b, 4, 64, false);
    tb_object(&b, 0, TRX_OBJ_THREAD, A, "a", 0x8000, 512, 5);
    tb_object(&b, 1, TRX_OBJ_THREAD, B, "b", 0x9000, 512, 10);
    tb_object(&b, 2, TRX_OBJ_SEMAPHORE, S, "s", 1, 0, 0);
    uint32_t ts = 100;
    tb_event(&b, A, 5, GET, ts += 10, S, 0xFFFFFFFFu, 1, 0); /* 0: a asks for s */
    for (int i = 0; i < 20; i++)                             /* 1-20: b runs */
        tb_event(&b, B, 10, USER, ts += 10, (uint32_t)i, 0, 0, 0);
    tb_event(&b, B, 10, GET, ts += 10, S, 0, 1, 0);    /* 21: b takes s (its owner) */
    tb_event(&b, B, 10, RESUME, ts += 10, A, 4, 0, A); /* 22: a ready: released */
    for (int i = 0; i < 4; i++)                        /* 23-26: a runs (the cut at 26) */
        tb_event(&b, A, 5, USER, ts += 10, (uint32_t)i, 0, 0, 0);
    tb_event(&b, A, 5, SUSPEND, ts += 10, A, 6, 0, B); /* 27: a waits for s (a lock) */
    tb_event(&b, B, 10, USER, ts += 10, 0, 0, 0, 0);   /* 28 */
    tb_event(&b, B, 10, RESUME, ts += 10, A, 6, 0, A); /* 29: granted */
    tb_event(&b, A, 5, USER, ts += 10, 0, 0, 0, 0);    /* 30 */
    tb_event(&b, A, 5, SUSPEND, ts += 10, A, 4, 0, B); /* 31: a sleeps: its instance ends */
    tb_event(&b, B, 10, USER, ts += 10, 0, 0, 0, 0);   /* 32 */
    trx_trace t;
    trx_latency_options o; /* one instance, through the wait */
    char *want = built_truth(&b, &t, &o, S, "\"instances\": 1, \"incomplete\": 0");
    const uint64_t cut = 26;
    cuts_give(&t, &o, &cut, 1, want, 0);
}

/* A thread released while it runs (it resumes itself, its state unknown):
 * its instance's execution counts from the release, not from when it began
 * to run. A segment that starts inside that run cannot know the release:
 * it counts from the run's start and the merge takes the part before the
 * release off (here 20 of 100 ticks): the one walk's execution, merged. */
static void test_released_while_running(void **state)
{
    (void)state;
    enum { A = 0x1000, B = 0x2000, RESUME = 1, SUSPEND = 2, USER = 4096 };
    static test_trace b;
    tb_init(&b, 4, 64, false);
    tb_object(&b, 0, TRX_OBJ_THREAD, A, "a", 0x8000, 512, 5);
    tb_object(&b, 1, TRX_OBJ_THREAD, B, "b", 0x9000, 512, 10);
    tb_event(&b, A, 5, USER, 100, 0, 0, 0, 0);    /* 0: a runs (since 100) */
    tb_event(&b, A, 5, RESUME, 120, A, 4, 0, A);  /* 1: a released, running */
    tb_event(&b, A, 5, USER, 130, 1, 0, 0, 0);    /* 2 */
    tb_event(&b, A, 5, USER, 140, 2, 0, 0, 0);    /* 3: the segment starts here */
    tb_event(&b, A, 5, SUSPEND, 200, A, 4, 0, B); /* 4: a sleeps: 80 ticks of execution */
    tb_event(&b, B, 10, USER, 210, 0, 0, 0, 0);   /* 5 */
    tb_event(&b, B, 10, RESUME, 260, A, 4, 0, A); /* 6: a released again */
    tb_event(&b, A, 5, SUSPEND, 290, A, 4, 0, B); /* 7 */
    tb_event(&b, B, 10, USER, 300, 0, 0, 0, 0);   /* 8 */
    trx_trace t;
    trx_latency_options o; /* execution from the release at 120 */
    char *want = built_truth(&b, &t, &o, 0, "\"execution_ticks\": 80");
    const uint64_t cut = 3;
    cuts_give(&t, &o, &cut, 1, want, 1); /* the merge, not a walk again, makes it */
}

enum { DA = 0x1000, DB = 0x2000, DS = 0x3000, DM = 0x4000 };
enum { D_MUTEX_GET = 52, D_RESUME = 1, D_SUSPEND = 2, D_USER = 4096 };
enum { D_ISR_ENTER = 3, D_ISR_EXIT = 4, D_QUEUE_SEND = 69, DQ = 0x5000 };

/* 30 events from *ts on: `runner` runs, interrupted (its slot's running
 * context and last object settle in any 8 of them), naming no thread. */
static void deferred_middle(test_trace *b, uint32_t runner, uint32_t prio, uint32_t *ts)
{
    for (uint32_t i = 0; i < 10; i++) {
        tb_event(b, 0xFFFFFFFFu, runner, D_ISR_ENTER, *ts += 10, 0, 5, 0, 0);
        tb_event(b, 0xFFFFFFFFu, runner, D_ISR_EXIT, *ts += 10, 0, 5, 0, 0);
        tb_event(b, runner, prio, D_QUEUE_SEND, *ts += 10, DQ, i, 0, 0);
    }
}

/* Threads a (priority 5) and b (10), semaphore s, mutex m. */
static void deferred_objects(test_trace *b)
{
    tb_init(b, 4, 64, false);
    tb_object(b, 0, TRX_OBJ_THREAD, DA, "a", 0x8000, 512, 5);
    tb_object(b, 1, TRX_OBJ_THREAD, DB, "b", 0x9000, 512, 10);
    tb_object(b, 2, TRX_OBJ_SEMAPHORE, DS, "s", 1, 0, 0);
    tb_object(b, 3, TRX_OBJ_MUTEX, DM, "m", 0, 0, 0);
}

/* The one walk's JSON of built trace b with semaphore s as a lock, and a
 * check that it has one instance, through the lock wait. */
static char *deferred_truth(test_trace *b, trx_trace *t, trx_latency_options *o)
{
    return built_truth(b, t, o, DS, "\"instances\": 1, \"incomplete\": 0");
}

/* After the lock wait at `ts`: b runs, grants a (state `state`), a runs
 * and sleeps (its instance ends), b runs. */
static void deferred_tail(test_trace *b, uint32_t ts, uint32_t state)
{
    tb_event(b, DB, 10, D_USER, ts += 10, 0, 0, 0, 0);
    tb_event(b, DB, 10, D_RESUME, ts += 10, DA, state, 0, DA); /* granted */
    tb_event(b, DA, 5, D_USER, ts += 10, 0, 0, 0, 0);
    tb_event(b, DA, 5, D_SUSPEND, ts += 10, DA, 4, 0, DB); /* sleeps: the instance ends */
    tb_event(b, DB, 10, D_USER, ts += 10, 0, 0, 0, 0);
}

/* A thread the segment's warm-up does not touch (its rule state unknown
 * there) starts from the part before's state, which the merge checks
 * against the thread's first change in the segment: a asked for s (a
 * lock) and was released long before; its first change in the later
 * segment is a semaphore wait - a block in the one walk, the end of its
 * instance from "unknown": walked again. Three segments: a thread
 * untouched in the whole middle one keeps the part before's state (a
 * mutex wait; the third's first change of it, a grant, is not a release)
 * and what it asked for (the semaphore wait). */
static void test_deferred_threads(void **state)
{
    (void)state;
    static test_trace b;
    trx_trace t;
    trx_latency_options o;
    /* asked for s, released; its semaphore wait comes after the cut */
    deferred_objects(&b);
    uint32_t ts = 100;
    /* 0: a asks for s (as a mutex get, which leaves s's owner alone) */
    tb_event(&b, DA, 5, D_MUTEX_GET, ts += 10, DS, 0xFFFFFFFFu, 0, 0);
    tb_event(&b, DB, 10, D_RESUME, ts += 10, DA, 4, 0, DA); /* 1: a released */
    deferred_middle(&b, DA, 5, &ts);                        /* 2-31: a runs */
    tb_event(&b, DA, 5, D_SUSPEND, ts += 10, DA, 6, 0, DB); /* 32: waits for s: blocked */
    deferred_tail(&b, ts, 6);
    char *want = deferred_truth(&b, &t, &o);
    const uint64_t at_wait[1] = {26}, twice[2] = {14, 26};
    cuts_give(&t, &o, at_wait, 1, want, 0);
    tb_open(&b, &t);
    trx_trace_prepare(&t);
    cuts_give(&t, &o, twice, 2, one_walk(&t, &o), 1); /* 14: a untouched, merged */
    /* a waits for mutex m before the first cut; b grants it after the second */
    deferred_objects(&b);
    ts = 100;
    tb_event(&b, DB, 10, D_MUTEX_GET, ts += 10, DM, 0, 0, 0); /* 0: b takes m */
    tb_event(&b, DB, 10, D_RESUME, ts += 10, DA, 4, 0, DA);   /* 1: a released */
    tb_event(&b, DA, 5, D_MUTEX_GET, ts += 10, DM, 0, DB, 0); /* 2: a asks for m */
    tb_event(&b, DA, 5, D_SUSPEND, ts += 10, DA, 13, 0, DB);  /* 3: a waits for m */
    deferred_middle(&b, DB, 10, &ts);                         /* 4-33: b runs */
    deferred_tail(&b, ts, 13);
    want = deferred_truth(&b, &t, &o);
    cuts_give(&t, &o, twice, 2, want, 1); /* 26: the grant is no release */
}

/* A thread running since a switch before the segment's warm-up, whose
 * warm-up events and first charge in the segment all have the same ticks:
 * the segment charges nothing there (no time since its guess of the
 * switch), the one walk the time since the real switch. The merge moves
 * that first charge's start back to the part before's switch: the
 * instance's execution is the one walk's (100 ticks), merged. */
static void test_charge_at_the_guessed_switch(void **state)
{
    (void)state;
    static test_trace b;
    tb_init(&b, 4, 64, false);
    tb_object(&b, 0, TRX_OBJ_THREAD, DA, "a", 0x8000, 512, 5);
    tb_object(&b, 1, TRX_OBJ_THREAD, DB, "b", 0x9000, 512, 10);
    tb_event(&b, DB, 10, D_RESUME, 100, DA, 4, 0, DA); /* 0: a released, runs from 100 */
    for (uint32_t i = 0; i < 12; i++)                  /* 1-12: a runs, at 200 */
        tb_event(&b, DA, 5, D_USER, 200, i, 0, 0, 0);
    tb_event(&b, DA, 5, D_SUSPEND, 200, DA, 4, 0, DB); /* 13: a sleeps: 100 ticks run */
    tb_event(&b, DB, 10, D_USER, 210, 0, 0, 0, 0);
    trx_trace t;
    trx_latency_options o;
    char *want = built_truth(&b, &t, &o, 0, "\"execution_ticks\": 100");
    const uint64_t cut = 10; /* its warm-up from 2: the slot's switch guessed at 200 */
    cuts_give(&t, &o, &cut, 1, want, 1);
}

int main(int argc, char **argv)
{
    trace_count = argc - 1;
    trace_paths = argv + 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_cut),
        cmocka_unit_test(test_request_before_warm_up),
        cmocka_unit_test(test_released_while_running),
        cmocka_unit_test(test_deferred_threads),
        cmocka_unit_test(test_charge_at_the_guessed_switch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
