/* test_latency.c - trx latency's instances (include/trx/latency.h) on a
 * hand-built trace whose every instance is known: thread A released by
 * thread B, blocked on a mutex inside its instance (part of it), sleeping
 * (its end), released again by an ISR, interrupted by it, waiting on a
 * queue; a semaphore used as a lock (--lock) keeps the instance open, the
 * same semaphore as a trigger ends it; user intervals paired within a
 * thread and by a field across threads. Every figure of every row. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../decode/trace_builder.h"
#include "trx/latency.h"

enum { ISR = 0xFFFFFFFFu };
enum { RESUME = 1, SUSPEND = 2, ISR_ENTER = 3, ISR_EXIT = 4, SEM_GET = 83, SEM_PUT = 88 };
enum { MUTEX_GET = 52, MUTEX_PUT = 57, START = 4096, STOP = 4097, FOREVER = 0xFFFFFFFFu };
enum { SUSPENDED = 3, SLEEP = 4, QUEUE_SUSP = 5, SEM_SUSP = 6, MUTEX_SUSP = 13 };
enum { A = 0x1000, B = 0x2000, X = 0x3000, S = 0x4000 };

static uint32_t prio(uint32_t p)
{
    return 0x80000000u | p << 16 | p;
}

/* A (10) and B (20); mutex X; semaphore S.
 *   A #1: released by B at 110, blocked on X (held by B) 140..210, sleeps at 250:
 *         response 140, ran 110..140 and 210..250 = 70.
 *   A #2: released by the ISR at 310 (ISR 7 runs 300..320), waits on its queue
 *         at 400: response 90, ran 320..400 = 80.
 *   A #3: released by B at 510, waits for S at 540 (a lock with --lock: the
 *         instance goes on; else it ends there: response 30, ran 30), gets S
 *         at 600, sleeps at 650: with --lock response 140, ran 510..540 and
 *         600..650 = 80.
 *   A #4: released at 700, still ready at the end: incomplete.
 * User events: START/STOP with a key in info 1: key 5 A 120 -> A 230 (110),
 * key 7 A 330 -> B 500 (170). */
static void build(test_trace *b)
{
    memset(b, 0, sizeof *b);
    tb_init(b, 4, 64, false);
    tb_object(b, 0, TRX_OBJ_THREAD, A, "A", 0x10000, 1024, 10);
    tb_object(b, 1, TRX_OBJ_THREAD, B, "B", 0x20000, 1024, 20);
    tb_object(b, 2, TRX_OBJ_MUTEX, X, "X", 1, 0, 0);
    tb_object(b, 3, TRX_OBJ_SEMAPHORE, S, "S", 0, 0, 0);
    tb_event(b, B, prio(20), MUTEX_GET, 100, X, FOREVER, 0, 0);
    tb_event(b, B, prio(20), RESUME, 110, A, SUSPENDED, 0x20200, A);
    tb_event(b, A, prio(10), START, 120, 5, 0, 0, 0);
    tb_event(b, A, prio(10), MUTEX_GET, 130, X, FOREVER, B, 1);
    tb_event(b, A, prio(10), SUSPEND, 140, A, MUTEX_SUSP, 0x10200, B);
    tb_event(b, B, prio(20), MUTEX_PUT, 200, X, B, 1, 0);
    tb_event(b, B, prio(20), RESUME, 210, A, MUTEX_SUSP, 0x20200, A);
    tb_event(b, A, prio(10), STOP, 230, 5, 0, 0, 0);
    tb_event(b, A, prio(10), SUSPEND, 250, A, SLEEP, 0x10200, B);
    tb_event(b, ISR, B, ISR_ENTER, 300, 0x200, 7, 1, 0);
    tb_event(b, ISR, B, RESUME, 310, A, SLEEP, 0x200, 0);
    tb_event(b, ISR, B, ISR_EXIT, 320, 0x200, 7, 1, 0);
    tb_event(b, A, prio(10), START, 330, 7, 0, 0, 0);
    tb_event(b, A, prio(10), SUSPEND, 400, A, QUEUE_SUSP, 0x10200, B);
    tb_event(b, B, prio(20), STOP, 500, 7, 0, 0, 0);
    tb_event(b, B, prio(20), RESUME, 510, A, QUEUE_SUSP, 0x20200, A);
    tb_event(b, A, prio(10), SEM_GET, 530, S, FOREVER, 0, 0);
    tb_event(b, A, prio(10), SUSPEND, 540, A, SEM_SUSP, 0x10200, B);
    tb_event(b, B, prio(20), SEM_PUT, 590, S, 0, 1, 0);
    tb_event(b, B, prio(20), RESUME, 600, A, SEM_SUSP, 0x20200, A);
    tb_event(b, A, prio(10), SUSPEND, 650, A, SLEEP, 0x10200, B);
    tb_event(b, B, prio(20), RESUME, 700, A, SLEEP, 0x20200, B);
    tb_event(b, B, prio(20), 4098, 800, 0, 0, 0, 0);
}

static const trx_latency_row *row_of(const trx_latency *l, uint32_t address)
{
    for (uint32_t i = 0; i < l->row_count; i++)
        if (l->rows[i].address == address)
            return &l->rows[i];
    return NULL;
}

/* Time stamps as written above; ticks count from the first event (100). */
#define T0 100u

static void same_instance(const trx_instance *in, uint64_t number, uint64_t release, uint64_t end,
                          uint64_t execution)
{
    assert_int_equal(in->number, number);
    assert_int_equal(in->release_ticks, release - T0);
    assert_int_equal(in->end_ticks, end - T0);
    assert_int_equal(in->response_ticks, end - release);
    assert_int_equal(in->execution_ticks, execution);
}

static void compute(test_trace *b, trx_trace *t, trx_latency *l, const trx_latency_options *o)
{
    build(b);
    tb_open(b, t);
    assert_int_equal(trx_latency_compute(t, o, l), 0);
}

static void test_instances(void **state)
{
    (void)state;
    static test_trace b;
    trx_trace t;
    trx_latency l;
    trx_latency_options o;
    memset(&o, 0, sizeof o);
    o.worst = 8;
    compute(&b, &t, &l, &o);
    assert_int_equal(l.row_count, 1); /* B is never released: no row */
    const trx_latency_row *a = row_of(&l, A);
    assert_non_null(a);
    /* S is no lock: A #3 ends at its wait (540), and the grant at 600
     * releases #4, which ends at 650; #5 (from 700) is still open */
    assert_int_equal(a->instances, 4);
    assert_int_equal(a->incomplete, 1);
    assert_int_equal(a->worst_count, 4);
    same_instance(&a->worst[0], 1, 110, 250, 70);
    same_instance(&a->worst[1], 2, 310, 400, 80);
    same_instance(&a->worst[2], 4, 600, 650, 50);
    same_instance(&a->worst[3], 3, 510, 540, 30);
    assert_int_equal(a->response.count, 4);
    assert_int_equal(a->response.min, 30);
    assert_int_equal(a->response.max, 140);
    assert_int_equal(a->response.sum, 140 + 90 + 30 + 50);
    assert_int_equal(a->response.p50, 50);
    assert_int_equal(a->response.p99, 140);
    assert_int_equal(a->execution.sum, 70 + 80 + 30 + 50);
    assert_int_equal(a->execution.min, 30);
    assert_int_equal(a->execution.max, 80);
    trx_latency_free(&l);
    trx_trace_close(&t);
}

static void test_semaphore_as_lock(void **state)
{
    (void)state;
    static test_trace b;
    trx_trace t;
    trx_latency l;
    trx_latency_options o;
    memset(&o, 0, sizeof o);
    o.worst = 8;
    o.locks[0] = S;
    o.lock_count = 1;
    compute(&b, &t, &l, &o);
    const trx_latency_row *a = row_of(&l, A);
    assert_non_null(a);
    assert_int_equal(a->instances, 3);
    assert_int_equal(a->incomplete, 1);
    same_instance(&a->worst[0], 1, 110, 250, 70);
    same_instance(&a->worst[1], 3, 510, 650, 80);
    same_instance(&a->worst[2], 2, 310, 400, 80);
    trx_latency_free(&l);
    trx_trace_close(&t);
}

static void test_intervals(void **state)
{
    (void)state;
    static test_trace b;
    trx_trace t;
    trx_latency l;
    trx_latency_options o;
    memset(&o, 0, sizeof o);
    o.worst = 8;
    o.intervals = true;
    o.from = (trx_event_pattern){START, 0};
    o.to = (trx_event_pattern){STOP, 0};
    compute(&b, &t, &l, &o); /* paired by info 1, across threads */
    const trx_latency_row *a = row_of(&l, A);
    assert_non_null(a);
    assert_int_equal(a->instances, 2);
    assert_int_equal(a->incomplete, 0);
    assert_int_equal(a->worst[0].response_ticks, 170);
    assert_int_equal(a->worst[0].release_ticks, 330 - T0);
    assert_int_equal(a->worst[0].end_ticks, 500 - T0);
    assert_int_equal(a->worst[1].response_ticks, 110);
    assert_null(row_of(&l, B)); /* B began none */
    trx_latency_free(&l);
    trx_trace_close(&t);

    o.from.field = o.to.field = -1; /* within a thread: A's second START never stops in A */
    compute(&b, &t, &l, &o);
    a = row_of(&l, A);
    assert_non_null(a);
    assert_int_equal(a->instances, 1);
    assert_int_equal(a->incomplete, 1);
    same_instance(&a->worst[0], 1, 120, 230, 40); /* A ran 120..140 and 210..230 */
    trx_latency_free(&l);
    trx_trace_close(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_instances),
        cmocka_unit_test(test_semaphore_as_lock),
        cmocka_unit_test(test_intervals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
