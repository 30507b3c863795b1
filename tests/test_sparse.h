/* test_sparse.h - TRX_TEST_SPARSE=N (the sanitizer and ThreadSanitizer runs
 * set 8): tests that compare at every cut of a trace compare at every N-th,
 * so that the instrumented runs stay within CI's time; 1 when unset. */
#ifndef TRX_TESTS_TEST_SPARSE_H
#define TRX_TESTS_TEST_SPARSE_H

#include <stdlib.h>

/* The stride factor: TRX_TEST_SPARSE when above 1, else 1. */
static inline unsigned test_sparse(void)
{
    const char *v = getenv("TRX_TEST_SPARSE");
    int n = v ? atoi(v) : 1;
    return n > 1 ? (unsigned)n : 1;
}

#endif
