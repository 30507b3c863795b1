/* test_path_index.c - trx_path_compute_indexed (a path computed from the
 * walk's state saved every K events, lib/analyze/critical_path.c) equals
 * trx_path_compute (from the trace's start) on EVERY instance of EVERY
 * thread of the ThreadX corpus, the SMP corpus, the mutex traces of
 * tests/stats/inherit and a FreeRTOS trace: same result code, instance,
 * release facts and every segment field for field, wakers (depth 2)
 * included; for K = 7 and 64, and with the index thinned to 4 snapshots
 * (its interval doubling, its memory bounded by the snapshots kept). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "trx/latency.h"
#include "trx/trx.h"

static const char *const traces[] = {
    "corpus/a_sample_threadx.trx",
    "corpus/b_sample_wrap.trx",
    "corpus/c_prio_inversion_mutex_noinherit.trx",
    "corpus/d_interrupts_nested.trx",
    "corpus/demo_filex.trx",
    "corpus/demo_netx_tcp.trx",
    "corpus/demo_threadx.trx",
    "corpus/z_every_event_id.trx",
    "corpus/smp/smp2_pingpong.trx",
    "corpus/smp/smp4_mutex_contention.trx",
};

static const char *const local[] = {
    "tests/stats/inherit/inherit.trx", "tests/stats/inherit/noinherit.trx",
    "tests/stats/inherit/noinherit_correct.trx", "tests/latency/freertos_preemptive.trx"};

/* What was compared (so that a test that compares nothing fails). */
static struct {
    uint64_t instances, segments, wakers, later_start;
} seen;

/* Every field of two paths and their wakers; fails naming the first difference. */
static void expect_same(const char *what, const trx_path *a, const trx_path *b)
{
    for (uint32_t level = 0; a || b; level++, a = a->waker, b = b->waker) {
        if (!a || !b)
            fail_msg("%s: waker level %u only in the %s path", what, level,
                     a ? "from-start" : "indexed");
        const trx_instance *x = &a->instance, *y = &b->instance;
        if (a->thread != b->thread || x->number != y->number ||
            x->release_index != y->release_index || x->end_index != y->end_index ||
            x->release_ticks != y->release_ticks || x->end_ticks != y->end_ticks ||
            x->response_ticks != y->response_ticks || x->execution_ticks != y->execution_ticks)
            fail_msg("%s level %u: instance differs (thread %08x/%08x #%llu/%llu release %llu/%llu "
                     "end %llu/%llu execution %llu/%llu)",
                     what, level, a->thread, b->thread, (unsigned long long)x->number,
                     (unsigned long long)y->number, (unsigned long long)x->release_index,
                     (unsigned long long)y->release_index, (unsigned long long)x->end_index,
                     (unsigned long long)y->end_index, (unsigned long long)x->execution_ticks,
                     (unsigned long long)y->execution_ticks);
        if (a->released_by != b->released_by || a->released_isr != b->released_isr ||
            a->released_swi != b->released_swi || a->released_index != b->released_index ||
            a->released_object != b->released_object)
            fail_msg("%s level %u: release facts differ (by %08x/%08x isr %u/%u object %08x/%08x)",
                     what, level, a->released_by, b->released_by, a->released_isr, b->released_isr,
                     a->released_object, b->released_object);
        if (a->segment_count != b->segment_count || a->top_count != b->top_count)
            fail_msg("%s level %u: %u/%u segments, %u/%u top", what, level, a->segment_count,
                     b->segment_count, a->top_count, b->top_count);
        for (uint32_t i = 0; i < a->segment_count; i++) {
            const trx_segment *s = &a->segments[i], *t = &b->segments[i];
            if (s->start_ticks != t->start_ticks || s->end_ticks != t->end_ticks ||
                s->state != t->state || s->unbounded != t->unbounded || s->swi != t->swi ||
                s->context != t->context || s->isr != t->isr || s->object != t->object ||
                s->holder != t->holder || s->depth != t->depth ||
                s->first_child != t->first_child || s->child_count != t->child_count)
                fail_msg("%s level %u segment %u: [%llu,%llu) %s ctx %08x holder %08x vs "
                         "[%llu,%llu) %s ctx %08x holder %08x",
                         what, level, i, (unsigned long long)s->start_ticks,
                         (unsigned long long)s->end_ticks,
                         trx_segment_state_name((trx_segment_state)s->state), s->context, s->holder,
                         (unsigned long long)t->start_ticks, (unsigned long long)t->end_ticks,
                         trx_segment_state_name((trx_segment_state)t->state), t->context,
                         t->holder);
            seen.segments++;
        }
        if (level)
            seen.wakers++;
    }
}

/* Every instance of every thread of `t`, from the start and through an
 * index built every `interval` events holding at most `max` snapshots. */
static void compare_all(const char *name, trx_trace *t, uint64_t interval, uint32_t max)
{
    trx_latency_options o;
    memset(&o, 0, sizeof o);
    o.worst = 1;
    trx_latency l;
    assert_int_equal(trx_latency_compute(t, &o, &l), 0);
    trx_path_index *x;
    assert_int_equal(trx_path_index_build(t, &o, interval, max, &x), 0);
    uint64_t events = 0;
    trx_cursor c;
    assert_int_equal(trx_cursor_init(&c, t), 0);
    while (trx_cursor_next_ref(&c))
        events++;
    trx_cursor_free(&c);
    /* one snapshot every interval events from 0 to the end; at most max */
    uint64_t want_interval = interval;
    while ((events + want_interval) / want_interval > max)
        want_interval *= 2;
    assert_int_equal(trx_path_index_interval(x), want_interval);
    assert_int_equal(trx_path_index_snapshots(x), events / want_interval + 1);
    assert_true(trx_path_index_memory(x) > 0);
    for (uint32_t r = 0; r < l.row_count; r++) {
        uint32_t address = l.rows[r].address;
        for (uint64_t number = 1;; number++) {
            char what[256];
            snprintf(what, sizeof what, "%s (every %llu, max %u) thread 0x%08x #%llu", name,
                     (unsigned long long)interval, max, address, (unsigned long long)number);
            trx_path a, b;
            int ra = trx_path_compute(t, &o, address, number, 0, 2, &a);
            int rb = trx_path_compute_indexed(t, &o, x, address, number, 0, 2, &b);
            if (ra != rb)
                fail_msg("%s: from the start %d, indexed %d", what, ra, rb);
            if (ra == 0) {
                expect_same(what, &a, &b);
                seen.instances++;
                if (a.instance.release_index >= want_interval)
                    seen.later_start++;
            }
            trx_path_free(&a);
            trx_path_free(&b);
            if (ra == 1)
                break;
        }
    }
    trx_path_index_free(x);
    trx_latency_free(&l);
}

static void compare_file(const char *dir, const char *relative)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, relative);
    trx_trace t;
    trx_error err;
    if (trx_trace_open(&t, path, TRX_FORMAT_AUTO, &err) != 0)
        fail_msg("%s: %s", path, err.message);
    uint64_t before = seen.instances;
    compare_all(relative, &t, 7, 1u << 20);
    compare_all(relative, &t, 64, 1u << 20);
    compare_all(relative, &t, 7, 4);
    printf("%s: %llu instances compared\n", relative,
           (unsigned long long)(seen.instances - before));
    trx_trace_close(&t);
}

static void test_corpus(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof traces / sizeof *traces; i++)
        compare_file(TRX_SHARED_DIR, traces[i]);
}

static void test_local(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof local / sizeof *local; i++)
        compare_file(TRX_SOURCE_DIR, local[i]);
}

/* Other locks than the index was built with: from the start, still equal. */
static void test_other_locks(void **state)
{
    (void)state;
    trx_trace t;
    trx_error err;
    const char *path = TRX_SOURCE_DIR "/tests/stats/inherit/noinherit.trx";
    if (trx_trace_open(&t, path, TRX_FORMAT_AUTO, &err) != 0)
        fail_msg("%s: %s", path, err.message);
    trx_latency_options none, locks;
    memset(&none, 0, sizeof none);
    memset(&locks, 0, sizeof locks);
    locks.lock_count = 1;
    locks.locks[0] = 0x12345678u;
    trx_path_index *x;
    assert_int_equal(trx_path_index_build(&t, &none, 5, 1u << 20, &x), 0);
    trx_path a, b;
    int ra = trx_path_compute(&t, &locks, t.threads[0].address, 2, 0, 1, &a);
    int rb = trx_path_compute_indexed(&t, &locks, x, t.threads[0].address, 2, 0, 1, &b);
    assert_int_equal(ra, rb);
    if (ra == 0)
        expect_same("other locks", &a, &b);
    trx_path_free(&a);
    trx_path_free(&b);
    trx_path_index_free(x);
    trx_trace_close(&t);
}

static void test_something_compared(void **state)
{
    (void)state;
    printf("%llu instances, %llu segments, %llu wakers, %llu released after the first "
           "interval\n",
           (unsigned long long)seen.instances, (unsigned long long)seen.segments,
           (unsigned long long)seen.wakers, (unsigned long long)seen.later_start);
    assert_true(seen.instances > 1000);
    assert_true(seen.wakers > 100);
    assert_true(seen.later_start > 500);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus),
        cmocka_unit_test(test_local),
        cmocka_unit_test(test_other_locks),
        cmocka_unit_test(test_something_compared),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
