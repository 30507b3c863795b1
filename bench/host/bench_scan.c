/*
 * bench_scan.c - micro-benchmark of the host library's raw scan: times
 * trx_trace_open (load/map, header, registry, entry order and timer vote:
 * one full pass over the entries) and, separately, one full trx_cursor pass
 * over all events. Prints the best of N runs as entries per second.
 *
 *   bench_scan FILE [RUNS=3]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trx/trx.h"

/* Monotonic time in seconds. */
static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Prints this process's resident memory split into anonymous (heap,
 * stacks) and file-backed (the mapped trace) parts, from /proc (Linux). */
static void print_memory(const char *when)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (f == NULL)
        return;
    char line[256];
    long anon = -1, file = -1;
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, "RssAnon:", 8) == 0)
            anon = strtol(line + 8, NULL, 10);
        else if (strncmp(line, "RssFile:", 8) == 0)
            file = strtol(line + 8, NULL, 10);
    }
    fclose(f);
    if (anon >= 0 && file >= 0)
        printf("memory %-21s RssAnon %8.1f MiB  RssFile %8.1f MiB\n", when, anon / 1024.0,
               file / 1024.0);
}

/* Times one open (+ optional cursor pass, then optionally reports memory);
 * returns seconds or -1. */
static double time_once(const char *path, int iterate, int report, unsigned long long *count)
{
    trx_trace t;
    trx_error err;
    memset(&t, 0, sizeof t);
    memset(&err, 0, sizeof err);
    double start = now_seconds();
    if (trx_trace_open(&t, path, TRX_FORMAT_AUTO, &err) < 0) {
        fprintf(stderr, "bench_scan: %s: %s (offset %llu)\n", path, err.message,
                (unsigned long long)err.offset);
        return -1;
    }
    double opened = now_seconds();
    *count = t.used;
    if (!iterate) {
        trx_trace_close(&t);
        return opened - start;
    }
    trx_cursor c;
    trx_event ev;
    unsigned long long n = 0;
    double begin = now_seconds();
    if (trx_cursor_init(&c, &t) < 0) {
        trx_trace_close(&t);
        return -1;
    }
    while (trx_cursor_next(&c, &ev))
        n++;
    double end = now_seconds();
    if (report)
        print_memory("after a cursor pass");
    trx_cursor_free(&c);
    trx_trace_close(&t);
    *count = n;
    return end - begin;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: bench_scan FILE [RUNS=3]\n");
        return 2;
    }
    int runs = argc == 3 ? atoi(argv[2]) : 3;
    if (runs < 1)
        runs = 1;
    static const char *labels[2] = {"trx_trace_open (raw scan)", "trx_cursor pass (events)"};
    for (int iterate = 0; iterate < 2; iterate++) {
        double best = -1;
        unsigned long long count = 0;
        for (int r = 0; r < runs; r++) {
            double s = time_once(argv[1], iterate, iterate && r == runs - 1, &count);
            if (s < 0)
                return 1;
            if (best < 0 || s < best)
                best = s;
        }
        printf("%-28s %12llu %s in %8.3f s = %8.2f M/s\n", labels[iterate], count,
               iterate ? "events" : "entries", best, best > 0 ? (double)count / best / 1e6 : 0.0);
    }
    return 0;
}
