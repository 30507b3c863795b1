/* test_services_sort.c - the popular-services orders: TraceX's exchange sort
 * (done with a tree, only the swaps) must equal the plain O(n^2) exchange sort
 * on every input, ties included; the correct mode's order is count, then
 * first seen. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyze/analyses.h"

/* The sort exactly as TraceX writes it. */
static void naive_exchange_sort(trx_service_count *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++)
            if (v[i].count < v[j].count) {
                trx_service_count x = v[i];
                v[i] = v[j];
                v[j] = x;
            }
}

static uint32_t rng_state = 12345;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

static void test_exchange_sort_matches_tracex(void **state)
{
    (void)state;
    enum { MAX_N = 700 };
    trx_service_count a[MAX_N], b[MAX_N];
    for (int round = 0; round < 400; round++) {
        uint32_t n = 1 + rnd() % MAX_N;
        uint32_t distinct = 1 + rnd() % (round % 3 == 0 ? 4 : 60); /* many ties, or few */
        for (uint32_t i = 0; i < n; i++) {
            uint64_t count =
                round % 5 == 0 ? i / 3 + 1 : 1 + rnd() % distinct; /* ascending runs too */
            a[i] = b[i] = (trx_service_count){i, count};
        }
        naive_exchange_sort(a, n);
        assert_int_equal(trx_services_sort(b, n, true), 0);
        for (uint32_t i = 0; i < n; i++) {
            assert_int_equal(a[i].id, b[i].id);
            assert_int_equal(a[i].count, b[i].count);
        }
    }
}

static void test_stable_order(void **state)
{
    (void)state;
    trx_service_count v[] = {{10, 2}, {11, 5}, {12, 2}, {13, 5}, {14, 1}};
    assert_int_equal(trx_services_sort(v, 5, false), 0);
    const uint32_t ids[] = {11, 13, 10, 12, 14};
    for (int i = 0; i < 5; i++)
        assert_int_equal(v[i].id, ids[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exchange_sort_matches_tracex),
        cmocka_unit_test(test_stable_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
