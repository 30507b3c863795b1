/* test_tracex_owner_ahead.c - TraceX's priority-inversion rule for a mutex
 * owner that has not logged anything yet (research/tracex.md 2.8): TraceX
 * reads the trace twice, so such an owner's priority is the first one it
 * will ever log. trx finds it with a look-ahead walk instead of a first pass;
 * these hand-built traces check that the rule still holds: the owner's later
 * first priority decides whether a window opens, and an owner that never
 * logs opens none. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../decode/trace_builder.h"
#include "trx/stats.h"

enum { USER = 4096, MUTEX_GET = 52, MUTEX_PUT = 57, FOREVER = 0xFFFFFFFFu };
enum { H = 0x1000, L = 0x3000, X = 0x4000, M = 0x5000 };

static uint32_t prio(uint32_t p)
{
    return 0x80000000u | p << 16 | p;
}

/* H (10) blocks on mutex M owned by L before L logs anything; other threads
 * (X, several events) run before L first logs with priority `owner_prio`
 * (0: L never logs); L then puts M. Returns TraceX's inversion count. */
static uint64_t inversions_with_owner(uint32_t owner_prio)
{
    static test_trace b;
    memset(&b, 0, sizeof b);
    tb_init(&b, 4, 64, false);
    tb_object(&b, 0, TRX_OBJ_THREAD, H, "high", 0x10000, 1024, 10);
    tb_object(&b, 1, TRX_OBJ_THREAD, L, "low", 0x30000, 1024, 20);
    tb_object(&b, 2, TRX_OBJ_THREAD, X, "other", 0x40000, 1024, 12);
    tb_object(&b, 3, TRX_OBJ_MUTEX, M, "lock", 0, 0, 0);
    uint32_t ts = 100;
    tb_event(&b, H, prio(10), USER, ts += 10, 0, 0, 0, 0);
    tb_event(&b, H, prio(10), MUTEX_GET, ts += 10, M, FOREVER, L, 1);
    for (uint32_t k = 0; k < 8; k++)
        tb_event(&b, X, prio(12), USER, ts += 10, k, 0, 0, 0);
    if (owner_prio) {
        tb_event(&b, L, prio(owner_prio), USER, ts += 10, 0, 0, 0, 0);
        tb_event(&b, L, prio(owner_prio), MUTEX_PUT, ts += 10, M, 0, 1, 0);
    }
    tb_event(&b, H, prio(10), USER, ts += 10, 0, 0, 0, 0);
    trx_trace t;
    trx_stats s;
    tb_open(&b, &t);
    t.mode = TRX_MODE_TRACEX;
    assert_int_equal(trx_stats_compute(&t, &s), 0);
    uint64_t n = s.inversions;
    trx_stats_free(&s);
    trx_trace_close(&t);
    return n;
}

/* L's first priority (20) is lower than H's (10): a window. */
static void test_owner_lower_later(void **state)
{
    (void)state;
    assert_int_equal(inversions_with_owner(20), 1);
}

/* L's first priority (5) is higher than H's: no window. */
static void test_owner_higher_later(void **state)
{
    (void)state;
    assert_int_equal(inversions_with_owner(5), 0);
}

/* L never logs: its priority stays unknown, no window. */
static void test_owner_never_logs(void **state)
{
    (void)state;
    assert_int_equal(inversions_with_owner(0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_owner_lower_later),
        cmocka_unit_test(test_owner_higher_later),
        cmocka_unit_test(test_owner_never_logs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
