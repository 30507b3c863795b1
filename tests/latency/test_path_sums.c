/* test_path_sums.c - trx_path_compute on EVERY instance of EVERY thread of
 * the ThreadX corpus, the SMP corpus, the mutex traces of
 * tests/stats/inherit, a FreeRTOS trace (the preemptive
 * POSIX example's buffer, freertos_preemptive.trx) and the SYS/BIOS-shaped
 * UIA captures (one and four cores, made by tests/uia_recorder's
 * sysbios_shaped): for each instance number until there is none, the path
 * must exist exactly for the complete instances trx_latency counts, equal
 * trx_latency's instance field by field (release and end events and ticks,
 * response, execution), its top-level segments must run contiguously from
 * the release to the end (so their ticks add up to the response exactly),
 * a blocked segment's children contiguously over it, alike neighbours must
 * be merged, and no segment may be empty. --at in the middle of an
 * instance finds it; the waker (depth 2) ends at the release event, is the
 * releasing thread, and its own path holds the same rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../decode/trace_builder.h"
#include "trx/latency.h"
#include "trx/trx.h"
#include "trx/uia_names.h"

static const char *const corpus[] = {
    "a_sample_threadx.trx",    "b_sample_wrap.trx",     "c_prio_inversion_mutex_noinherit.trx",
    "d_interrupts_nested.trx", "demo_filex.trx",        "demo_netx_tcp.trx",
    "demo_netx_udp.trx",       "demo_threadx.trx",      "e_user_events_filter.trx",
    "z_every_event_id.trx",    "smp/smp2_pingpong.trx", "smp/smp4_mutex_contention.trx",
};

/* Real ThreadX traces of mutex waits with and without inheritance. */
static const char *const inherit[] = {"inherit.trx", "inherit_correct.trx", "noinherit.trx",
                                      "noinherit_correct.trx"};

/* What every walk counted (so that a test that walks nothing fails). */
static struct {
    uint64_t instances, segments, blocked_with_children, wakers;
} seen;

static bool alike(const trx_segment *a, const trx_segment *b)
{
    return a->state == b->state && a->context == b->context && a->isr == b->isr &&
           a->swi == b->swi && a->object == b->object && a->holder == b->holder;
}

/* Segments first .. first + n - 1 cover [from, to) one after the other,
 * none empty, alike neighbours merged; children of each the same way. */
static void check_run(const char *what, const trx_path *p, uint32_t first, uint32_t n,
                      uint64_t from, uint64_t to, uint32_t depth)
{
    uint64_t at = from, sum = 0;
    if (first + n > p->segment_count)
        fail_msg("%s: segments %u..%u beyond %u", what, first, first + n, p->segment_count);
    for (uint32_t i = 0; i < n; i++) {
        const trx_segment *s = &p->segments[first + i];
        seen.segments++;
        if (s->start_ticks != at)
            fail_msg("%s: depth %u segment %u starts at %llu, the one before ended at %llu", what,
                     depth, i, (unsigned long long)s->start_ticks, (unsigned long long)at);
        if (s->end_ticks <= s->start_ticks)
            fail_msg("%s: depth %u segment %u is empty", what, depth, i);
        if (s->depth != depth)
            fail_msg("%s: segment %u has depth %u, expected %u", what, i, s->depth, depth);
        if (i && alike(s, s - 1))
            fail_msg("%s: depth %u segments %u and %u are alike and not merged", what, depth, i - 1,
                     i);
        if (depth == 0 && s->state == TRX_SEG_RUNNING && s->context != p->thread)
            fail_msg("%s: running segment %u names another thread", what, i);
        if (depth == 0 && s->state == TRX_SEG_WAITING)
            fail_msg("%s: the instance's own thread cannot wait for a trigger inside it", what);
        if (s->child_count && s->state != TRX_SEG_BLOCKED)
            fail_msg("%s: a %s segment has children", what, trx_segment_state_name(s->state));
        if (s->child_count) {
            seen.blocked_with_children++;
            check_run(what, p, s->first_child, s->child_count, s->start_ticks, s->end_ticks,
                      depth + 1);
        }
        sum += s->end_ticks - s->start_ticks;
        at = s->end_ticks;
    }
    if (n && at != to)
        fail_msg("%s: depth %u segments end at %llu, expected %llu", what, depth,
                 (unsigned long long)at, (unsigned long long)to);
    if (sum != to - from && (n || to != from))
        fail_msg("%s: depth %u segments add up to %llu ticks, expected %llu", what, depth,
                 (unsigned long long)sum, (unsigned long long)(to - from));
}

/* The rules of the top of this file for one path (and its wakers). */
static void check_path(const char *what, trx_trace *t, const trx_path *p)
{
    const trx_instance *in = &p->instance;
    if (in->response_ticks != in->end_ticks - in->release_ticks)
        fail_msg("%s: response %llu != end - release", what,
                 (unsigned long long)in->response_ticks);
    check_run(what, p, 0, p->top_count, in->release_ticks, in->end_ticks, 0);
    uint64_t ran = 0;
    for (uint32_t i = 0; i < p->top_count; i++)
        if (p->segments[i].state == TRX_SEG_RUNNING)
            ran += p->segments[i].end_ticks - p->segments[i].start_ticks;
    assert_int_equal(ran, in->execution_ticks);
    if (p->released_index != in->release_index)
        fail_msg("%s: released at event %llu, instance begins at %llu", what,
                 (unsigned long long)p->released_index, (unsigned long long)in->release_index);
    if (p->waker) {
        seen.wakers++;
        if (p->waker->thread != p->released_by)
            fail_msg("%s: the waker is not the releasing context", what);
        if (p->waker->instance.end_index != p->released_index)
            fail_msg("%s: the waker's path ends at event %llu, not at the release %llu", what,
                     (unsigned long long)p->waker->instance.end_index,
                     (unsigned long long)p->released_index);
        if (p->waker->instance.end_ticks != in->release_ticks)
            fail_msg("%s: the waker's path ends at tick %llu, not at the release", what,
                     (unsigned long long)p->waker->instance.end_ticks);
        char sub[300];
        snprintf(sub, sizeof sub, "%s, waker", what);
        check_path(sub, t, p->waker);
    }
}

/* Every instance of every thread of an opened trace. */
static void walk_all(const char *name, trx_trace *t)
{
    trx_latency_options o;
    memset(&o, 0, sizeof o);
    o.worst = TRX_LATENCY_MAX_WORST;
    trx_latency l;
    assert_int_equal(trx_latency_compute(t, &o, &l), 0);
    uint64_t before = seen.instances;
    for (uint32_t r = 0; r < l.row_count; r++) {
        const trx_latency_row *row = &l.rows[r];
        uint64_t complete = 0, listed = 0;
        for (uint64_t number = 1;; number++) {
            trx_path p;
            int rc = trx_path_compute(t, &o, row->address, number, 0, 2, &p);
            assert_true(rc >= 0);
            char what[256];
            snprintf(what, sizeof what, "%s thread 0x%08x #%llu", name, row->address,
                     (unsigned long long)number);
            if (rc == 1) {
                trx_path_free(&p);
                break;
            }
            if (rc == 2) {
                trx_path_free(&p);
                continue;
            }
            complete++;
            seen.instances++;
            assert_int_equal(p.thread, row->address);
            assert_int_equal(p.instance.number, number);
            check_path(what, t, &p);
            for (uint32_t k = 0; k < row->worst_count; k++) {
                const trx_instance *w = &row->worst[k];
                if (w->number != number)
                    continue;
                listed++;
                if (w->release_index != p.instance.release_index ||
                    w->end_index != p.instance.end_index ||
                    w->release_ticks != p.instance.release_ticks ||
                    w->end_ticks != p.instance.end_ticks ||
                    w->response_ticks != p.instance.response_ticks ||
                    w->execution_ticks != p.instance.execution_ticks)
                    fail_msg("%s: differs from trx latency's instance (release %llu/%llu end "
                             "%llu/%llu response %llu/%llu execution %llu/%llu)",
                             what, (unsigned long long)w->release_ticks,
                             (unsigned long long)p.instance.release_ticks,
                             (unsigned long long)w->end_ticks,
                             (unsigned long long)p.instance.end_ticks,
                             (unsigned long long)w->response_ticks,
                             (unsigned long long)p.instance.response_ticks,
                             (unsigned long long)w->execution_ticks,
                             (unsigned long long)p.instance.execution_ticks);
            }
            /* --at inside it finds the same instance */
            if (p.instance.response_ticks > 1) {
                trx_path q;
                uint64_t mid = p.instance.release_ticks + p.instance.response_ticks / 2;
                assert_int_equal(trx_path_compute(t, &o, row->address, 0, mid, 0, &q), 0);
                if (q.instance.number != number || q.segment_count != p.segment_count)
                    fail_msg("%s: --at %llu finds #%llu", what, (unsigned long long)mid,
                             (unsigned long long)q.instance.number);
                trx_path_free(&q);
            }
            trx_path_free(&p);
        }
        if (complete != row->instances)
            fail_msg("%s thread 0x%08x: %llu complete paths, trx latency counts %llu", name,
                     row->address, (unsigned long long)complete,
                     (unsigned long long)row->instances);
        uint64_t want = row->instances < row->worst_count ? row->instances : row->worst_count;
        if (listed != want)
            fail_msg("%s thread 0x%08x: %llu of %llu listed instances compared", name, row->address,
                     (unsigned long long)listed, (unsigned long long)want);
    }
    trx_latency_free(&l);
    printf("%s: %llu complete instances\n", name, (unsigned long long)(seen.instances - before));
}

static void test_threadx_corpus(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof corpus / sizeof *corpus; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/corpus/%s", TRX_SHARED_DIR, corpus[i]);
        trx_trace t;
        trx_error err;
        if (trx_trace_open(&t, path, TRX_FORMAT_AUTO, &err) != 0)
            fail_msg("%s: %s", path, err.message);
        walk_all(corpus[i], &t);
        trx_trace_close(&t);
    }
    for (size_t i = 0; i < sizeof inherit / sizeof *inherit; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/tests/stats/inherit/%s", TRX_SOURCE_DIR, inherit[i]);
        trx_trace t;
        trx_error err;
        if (trx_trace_open(&t, path, TRX_FORMAT_AUTO, &err) != 0)
            fail_msg("%s: %s", path, err.message);
        walk_all(inherit[i], &t);
        trx_trace_close(&t);
    }
}

static void test_freertos(void **state)
{
    (void)state;
    trx_trace t;
    trx_error err;
    const char *path = TRX_SOURCE_DIR "/tests/latency/freertos_preemptive.trx";
    if (trx_trace_open(&t, path, TRX_FORMAT_AUTO, &err) != 0)
        fail_msg("%s: %s", path, err.message);
    assert_int_equal(t.rtos, TRX_RTOS_FREERTOS);
    walk_all("freertos_preemptive.trx", &t);
    trx_trace_close(&t);
}

/* A SYS/BIOS-shaped capture with TI's metadata beside it. */
static void walk_uia(const char *name)
{
    char path[512], meta[512];
    snprintf(path, sizeof path, "%s/%s.uia", TRX_LATENCY_WORK_DIR, name);
    snprintf(meta, sizeof meta, "%s/%s.uia.xml", TRX_LATENCY_WORK_DIR, name);
    trx_uia_names names;
    trx_error err;
    memset(&names, 0, sizeof names);
    if (trx_uia_names_load(&names, meta, &err) != 0)
        fail_msg("%s: %s", meta, err.message);
    trx_open_options o;
    memset(&o, 0, sizeof o);
    o.uia_names = &names;
    trx_trace t;
    if (trx_trace_open_with(&t, path, &o, &err) != 0)
        fail_msg("%s: %s", path, err.message);
    t.uia_names = &names;
    assert_int_equal(t.format, TRX_TRACE_UIA);
    walk_all(name, &t);
    trx_trace_close(&t);
    trx_uia_names_free(&names);
}

static void test_sysbios(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && '%s' '%s' >/dev/null", TRX_LATENCY_WORK_DIR,
             TRX_SYSBIOS_SHAPED, TRX_LATENCY_WORK_DIR);
    assert_int_equal(system(cmd), 0);
    walk_uia("one_core");
    walk_uia("four_cores");
}

/* Hand-worked paths on hand-built TXTB traces. */
enum { A = 0x1000, B = 0x2000, C = 0x3000, D = 0x4000, M1 = 0x5000, M2 = 0x6000 };
#define PRIO(p) (0x80000000u | (p) << 16 | (p))
#define ISR 0xFFFFFFFFu

typedef struct expected_segment {
    uint64_t start, end;
    uint8_t state;
    uint32_t context, object, holder;
    bool unbounded;
    uint32_t depth, child_count;
} expected_segment;

/* The path's segments, in its layout order, equal `want` field by field. */
static void expect_segments(const trx_path *p, const expected_segment *want, uint32_t n)
{
    assert_int_equal(p->segment_count, n);
    for (uint32_t i = 0; i < n; i++) {
        const trx_segment *s = &p->segments[i];
        const expected_segment *e = &want[i];
        if (s->start_ticks != e->start || s->end_ticks != e->end || s->state != e->state ||
            s->context != e->context || s->object != e->object || s->holder != e->holder ||
            s->unbounded != e->unbounded || s->depth != e->depth ||
            s->child_count != e->child_count)
            fail_msg("segment %u: %llu..%llu %s ctx 0x%x obj 0x%x holder 0x%x unbounded %d depth "
                     "%u children %u; expected %llu..%llu %s ctx 0x%x obj 0x%x holder 0x%x "
                     "unbounded %d depth %u children %u",
                     i, (unsigned long long)s->start_ticks, (unsigned long long)s->end_ticks,
                     trx_segment_state_name(s->state), s->context, s->object, s->holder,
                     s->unbounded, s->depth, s->child_count, (unsigned long long)e->start,
                     (unsigned long long)e->end, trx_segment_state_name(e->state), e->context,
                     e->object, e->holder, e->unbounded, e->depth, e->child_count);
    }
}

static test_trace built;

/* An ISR that enters and leaves at one tick while A runs (an empty
 * interrupted segment): A's running time on both sides is one segment. */
static void test_empty_interrupt_merged(void **state)
{
    (void)state;
    tb_init(&built, 2, 64, false);
    tb_object(&built, 0, TRX_OBJ_THREAD, A, "A", 0x10000, 1024, 10);
    tb_object(&built, 1, TRX_OBJ_THREAD, B, "B", 0x20000, 1024, 20);
    tb_event(&built, B, PRIO(20), 103, 100, 0, 0, 0, 0);
    tb_event(&built, B, PRIO(20), 1, 110, A, 4, 0, A); /* B resumes A, A runs */
    tb_event(&built, A, PRIO(10), 103, 120, 0, 0, 0, 0);
    tb_event(&built, ISR, A, 3, 130, 0, 5, 0, 0); /* ISR 5 in and out at one tick */
    tb_event(&built, ISR, A, 4, 130, 0, 5, 0, 0);
    tb_event(&built, ISR, A, 3, 140, 0, 7, 0, 0);
    tb_event(&built, ISR, A, 4, 150, 0, 7, 0, 0);
    tb_event(&built, A, PRIO(10), 2, 160, A, 4, 0, B); /* A sleeps */
    trx_trace t;
    tb_open(&built, &t);
    trx_path p;
    assert_int_equal(trx_path_compute(&t, NULL, A, 1, 0, 0, &p), 0);
    const expected_segment want[] = {
        {10, 40, TRX_SEG_RUNNING, A, 0, 0, false, 0, 0},
        {40, 50, TRX_SEG_INTERRUPTED, ISR, 0, 0, false, 0, 0},
        {50, 60, TRX_SEG_RUNNING, A, 0, 0, false, 0, 0},
    };
    expect_segments(&p, want, 3);
    assert_int_equal(p.segments[1].isr, 7);
    assert_int_equal(p.released_by, B);
    trx_path_free(&p);
    trx_trace_close(&t);
}

/* A lock chain two deep: A waits for M1 held by B, B for M2 held by C, and D
 * (priority 10, lower than A's 5) preempts C: unbounded, two levels down. */
static void test_lock_chain(void **state)
{
    (void)state;
    tb_init(&built, 6, 64, false);
    tb_object(&built, 0, TRX_OBJ_THREAD, A, "A", 0x10000, 1024, 5);
    tb_object(&built, 1, TRX_OBJ_THREAD, B, "B", 0x20000, 1024, 20);
    tb_object(&built, 2, TRX_OBJ_THREAD, C, "C", 0x30000, 1024, 30);
    tb_object(&built, 3, TRX_OBJ_THREAD, D, "D", 0x40000, 1024, 10);
    tb_object(&built, 4, TRX_OBJ_MUTEX, M1, "M1", 0, 0, 0);
    tb_object(&built, 5, TRX_OBJ_MUTEX, M2, "M2", 0, 0, 0);
    tb_event(&built, C, PRIO(30), 103, 100, 0, 0, 0, 0);
    tb_event(&built, C, PRIO(30), 1, 110, B, 4, 0, B);             /* B released, runs */
    tb_event(&built, B, PRIO(20), 52, 120, M2, 0xFFFFFFFFu, C, 1); /* B waits for M2 (C) */
    tb_event(&built, B, PRIO(20), 2, 121, B, 13, 0, C);
    tb_event(&built, C, PRIO(30), 1, 130, A, 4, 0, A);            /* A released, runs */
    tb_event(&built, A, PRIO(5), 52, 140, M1, 0xFFFFFFFFu, B, 1); /* A waits for M1 (B) */
    tb_event(&built, A, PRIO(5), 2, 141, A, 13, 0, C);
    tb_event(&built, C, PRIO(30), 1, 150, D, 4, 0, D); /* D preempts C */
    tb_event(&built, D, PRIO(10), 103, 160, 0, 0, 0, 0);
    tb_event(&built, D, PRIO(10), 2, 170, D, 4, 0, C);
    tb_event(&built, C, PRIO(30), 57, 180, M2, C, 1, 0); /* C gives M2 to B */
    tb_event(&built, C, PRIO(30), 1, 181, B, 13, 0, B);
    tb_event(&built, B, PRIO(20), 57, 190, M1, B, 1, 0); /* B gives M1 to A */
    tb_event(&built, B, PRIO(20), 1, 191, A, 13, 0, A);
    tb_event(&built, A, PRIO(5), 2, 200, A, 4, 0, B); /* A's instance ends */
    trx_trace t;
    tb_open(&built, &t);
    trx_path p;
    int rc = trx_path_compute(&t, NULL, A, 1, 0, 1, &p);
    assert_int_equal(rc, 0);
    const expected_segment want[] = {
        {30, 41, TRX_SEG_RUNNING, A, 0, 0, false, 0, 0},
        {41, 91, TRX_SEG_BLOCKED, A, M1, B, false, 0, 2},
        {91, 100, TRX_SEG_RUNNING, A, 0, 0, false, 0, 0},
        {41, 81, TRX_SEG_BLOCKED, B, M2, C, false, 1, 3},
        {81, 91, TRX_SEG_RUNNING, B, 0, 0, false, 1, 0},
        {41, 50, TRX_SEG_RUNNING, C, 0, 0, false, 2, 0},
        {50, 70, TRX_SEG_PREEMPTED, D, 0, 0, true, 2, 0},
        {70, 81, TRX_SEG_RUNNING, C, 0, 0, false, 2, 0},
    };
    expect_segments(&p, want, 8);
    assert_int_equal(p.top_count, 3);
    assert_int_equal(p.segments[1].first_child, 3);
    assert_int_equal(p.segments[3].first_child, 5);
    assert_int_equal(p.released_by, C);
    assert_int_equal(p.released_object, 0); /* C named no object before it */
    /* the waker: C's instance is not whole in the trace (it ran from the start) */
    assert_null(p.waker);
    trx_path_free(&p);
    /* B never waits for a trigger again: its instance does not end in the trace */
    assert_int_equal(trx_path_compute(&t, NULL, B, 1, 0, 0, &p), 2);
    trx_path_free(&p);
    trx_trace_close(&t);
}

static void test_something_walked(void **state)
{
    (void)state;
    printf("walked %llu instances, %llu segments, %llu lock waits split, %llu wakers\n",
           (unsigned long long)seen.instances, (unsigned long long)seen.segments,
           (unsigned long long)seen.blocked_with_children, (unsigned long long)seen.wakers);
    assert_true(seen.instances > 1000);
    assert_true(seen.blocked_with_children > 10);
    assert_true(seen.wakers > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threadx_corpus), cmocka_unit_test(test_freertos),
        cmocka_unit_test(test_sysbios),        cmocka_unit_test(test_empty_interrupt_merged),
        cmocka_unit_test(test_lock_chain),     cmocka_unit_test(test_something_walked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
