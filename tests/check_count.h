/* check_count.h - CHECK(cond, printf-args) for test programs that go on
 * after a failure: counts it in `failures` and prints the first ten. */
#ifndef TRX_TESTS_CHECK_COUNT_H
#define TRX_TESTS_CHECK_COUNT_H

#include <stdio.h>

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond) && failures++ < 10) {                                                          \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

#endif
