/* check_count.h - for test programs that check traces given on the command
 * line and go on after a failure: CHECK(cond, printf-args) counts it in
 * `failures` and prints the first ten; check_traces runs a check per trace;
 * open_prepared opens one. */
#ifndef TRX_TESTS_CHECK_COUNT_H
#define TRX_TESTS_CHECK_COUNT_H

#include <stdbool.h>
#include <stdio.h>

#include "trx/trx.h"

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond) && failures++ < 10) {                                                          \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

/* Opens and prepares trace `path` (auto-detected format); false, counted, when it fails. */
static inline bool open_prepared(trx_trace *t, const char *path)
{
    trx_error err = {0};
    if (trx_trace_open(t, path, TRX_FORMAT_AUTO, &err) < 0) {
        CHECK(false, "%s: %s", path, err.message);
        return false;
    }
    trx_trace_prepare(t);
    return true;
}

/* main's body: `check` on each trace argument; exit status 1 on any failure, 2 on none given. */
static inline int check_traces(int argc, char **argv, void (*check)(const char *path))
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s TRACE ...\n", argv[0]);
        return 2;
    }
    for (int k = 1; k < argc; k++)
        check(argv[k]);
    if (failures)
        fprintf(stderr, "%d check(s) failed\n", failures);
    return failures ? 1 : 0;
}

#endif
