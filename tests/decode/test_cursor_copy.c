/*
 * test_cursor_copy.c - a cursor copied anywhere goes on exactly as the
 * original: for each trace given (optionally a UIA trace with its names,
 * "FILE:NAMES.xml"), copies are taken at several positions (first event,
 * both sides of RUNNING events, every 997th event) and every event each copy
 * produces afterwards must equal, field by field, what the original produced
 * there. trx serve seeks with such copies (its checkpoints).
 *
 *   test_cursor_copy TRACE[:NAMES] ...
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trx/trx.h"
#include "trx/uia_names.h"
#include "event_truth.h"

static int check_trace(const char *arg)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", arg);
    char *names_path = strchr(path, ':');
    if (names_path)
        *names_path++ = '\0';
    trx_uia_names names = {0};
    trx_error err = {0};
    if (names_path && trx_uia_names_load(&names, names_path, &err) < 0) {
        fprintf(stderr, "%s: %s\n", names_path, err.message);
        return 1;
    }
    trx_open_options o = {0};
    o.uia_names = names_path ? &names : NULL;
    trx_trace t;
    if (trx_trace_open_with(&t, path, &o, &err) < 0) {
        fprintf(stderr, "%s: %s\n", path, err.message);
        return 1;
    }
    t.uia_names = o.uia_names;
    trx_trace_prepare(&t);
    uint64_t n = 0;
    trx_event *truth = all_events(&t, &n);
    if (!truth || n == 0) {
        fprintf(stderr, "%s: no events\n", path);
        return 1;
    }
    int failures = 0;
    uint64_t checked = 0, copies = 0, synthetic = 0;
    trx_cursor c;
    trx_cursor_init(&c, &t);
    trx_event ev;
    for (uint64_t i = 0; i <= n; i++) {
        /* a copy before event i: at the start, around RUNNING events, every 997th */
        bool take = i == 0 || i % 997 == 0 || (i < n && truth[i].synthetic) ||
                    (i > 0 && truth[i - 1].synthetic) || i == n;
        if (take) {
            trx_cursor k;
            if (trx_cursor_copy(&k, &c) < 0 || trx_cursor_state_size(&k) < sizeof k) {
                fprintf(stderr, "%s: copy failed at %llu\n", path, (unsigned long long)i);
                return 1;
            }
            copies++;
            uint64_t j = i, limit = i + 3000 < n ? i + 3000 : n;
            while (j < limit && trx_cursor_next(&k, &ev)) {
                if (!same_event(&ev, &truth[j]) && failures++ < 5)
                    fprintf(stderr, "%s: copy taken before event %llu differs at event %llu\n",
                            path, (unsigned long long)i, (unsigned long long)j);
                j++;
                checked++;
            }
            if (j != limit && failures++ < 5)
                fprintf(stderr, "%s: copy before %llu ended at %llu of %llu\n", path,
                        (unsigned long long)i, (unsigned long long)j, (unsigned long long)limit);
            if (limit == n && trx_cursor_next(&k, &ev) && failures++ < 5)
                fprintf(stderr, "%s: copy before %llu runs past the end\n", path,
                        (unsigned long long)i);
            trx_cursor_free(&k);
        }
        if (i < n) {
            synthetic += truth[i].synthetic;
            if (!trx_cursor_next(&c, &ev) || !same_event(&ev, &truth[i])) {
                fprintf(stderr, "%s: second walk differs at %llu\n", path, (unsigned long long)i);
                return 1;
            }
        }
    }
    trx_cursor_free(&c);
    printf("%s: %llu events (%llu RUNNING), %llu copies, %llu events compared, %d differ\n", path,
           (unsigned long long)n, (unsigned long long)synthetic, (unsigned long long)copies,
           (unsigned long long)checked, failures);
    free(truth);
    trx_trace_close(&t);
    trx_uia_names_free(&names);
    return failures != 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_cursor_copy TRACE[:NAMES] ...\n");
        return 2;
    }
    int rc = 0;
    for (int i = 1; i < argc; i++)
        rc |= check_trace(argv[i]);
    return rc;
}
