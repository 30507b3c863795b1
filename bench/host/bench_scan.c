/*
 * bench_scan.c - micro-benchmark of the host library's raw scan: times
 * trx_trace_open (load/map, header, registry, entry order and timer vote:
 * one full pass over the entries) and, separately, one full trx_cursor pass
 * over all events (with trx_cursor_next's copies, and with trx_cursor_next_ref
 * alone: the cursor's own cost). Prints the best of N runs as entries per second, beside
 * a bare C loop that maps the same file and reads every word of every
 * 32-byte entry (the floor any scan of the file pays), and `trx info`'s
 * full scan (the open, its pass counting the per-core summary with the time
 * check, as `trx info` opens), on the machine's threads and on one.
 *
 *   bench_scan FILE [RUNS=3]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trx/cores.h"
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

/* Times one open (`iterate` 0), or one cursor pass after it (1: with
 * trx_cursor_next, 2: trx_cursor_next_ref alone), then optionally reports
 * memory; returns seconds or -1. */
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
    if (iterate == 2)
        while (trx_cursor_next_ref(&c) != NULL)
            n++;
    else
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

static volatile uint32_t bare_sink; /* keeps the loop's result alive */

/* The bare loop: map FILE, XOR every 32-bit word of every whole 32 bytes
 * from its start (the header is noise at this size), unmap. Returns seconds
 * or -1. */
static double time_bare(const char *path, unsigned long long *count)
{
    double start = now_seconds();
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0 || st.st_size < 32) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    size_t size = (size_t)st.st_size;
    const uint32_t *w = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (w == MAP_FAILED)
        return -1;
    size_t entries = size / 32;
    uint32_t x = 0;
    for (size_t i = 0; i < entries; i++) {
        const uint32_t *e = w + i * 8;
        x ^= e[0] ^ e[1] ^ e[2] ^ e[3] ^ e[4] ^ e[5] ^ e[6] ^ e[7];
    }
    munmap((void *)w, size);
    double end = now_seconds();
    bare_sink = x;
    *count = entries;
    return end - start;
}

/* `trx info`'s scan: open (its pass also counting what the summary needs,
 * as `trx info` asks), then the per-core summary with the time check.
 * Returns seconds or -1. */
static double time_info_jobs(const char *path, unsigned long long *count, uint32_t jobs)
{
    trx_trace t;
    trx_error err;
    memset(&t, 0, sizeof t);
    memset(&err, 0, sizeof err);
    double start = now_seconds();
    trx_open_options o = {.jobs = jobs, .core_counts = true};
    if (trx_trace_open_with(&t, path, &o, &err) < 0)
        return -1;
    trx_core_summary s;
    trx_time_check tc;
    int rc = trx_core_summary_compute_checked(&t, &s, &tc);
    *count = t.used;
    trx_core_summary_free(&s);
    trx_trace_close(&t);
    double end = now_seconds();
    return rc == 0 ? end - start : -1;
}

/* `trx info`'s scan on as many threads as the machine has, and on one (--jobs 1). */
static double time_info(const char *path, unsigned long long *count)
{
    return time_info_jobs(path, count, 0);
}

static double time_info_one_thread(const char *path, unsigned long long *count)
{
    return time_info_jobs(path, count, 1);
}

/* Best of `runs` of one timing; prints it as a rate (and the share of the
 * bare loop's rate when `bare` > 0); returns the best seconds. */
static double report_best(const char *label, const char *unit, const char *path, int runs,
                          double (*timed)(const char *, unsigned long long *), double bare_rate)
{
    double best = -1;
    unsigned long long count = 0;
    for (int r = 0; r < runs; r++) {
        double s = timed(path, &count);
        if (s < 0)
            return -1;
        if (best < 0 || s < best)
            best = s;
    }
    double rate = best > 0 ? (double)count / best : 0.0;
    printf("%-28s %12llu %s in %8.3f s = %8.2f M/s", label, count, unit, best, rate / 1e6);
    if (bare_rate > 0)
        printf("  (%.2f of the bare loop)", rate / bare_rate);
    printf("\n");
    return best;
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
    unsigned long long entries = 0;
    double bare =
        report_best("bare loop (mmap, every word)", "entries", argv[1], runs, time_bare, 0);
    if (bare < 0 || time_bare(argv[1], &entries) < 0)
        return 1;
    if (report_best("trx info scan", "entries", argv[1], runs, time_info, (double)entries / bare) <
            0 ||
        report_best("trx info scan, --jobs 1", "entries", argv[1], runs, time_info_one_thread,
                    (double)entries / bare) < 0)
        return 1;
    static const char *labels[3] = {"trx_trace_open (raw scan)", "trx_cursor pass (events)",
                                    "trx_cursor_next_ref pass"};
    for (int iterate = 0; iterate < 3; iterate++) {
        double best = -1;
        unsigned long long count = 0;
        for (int r = 0; r < runs; r++) {
            double s = time_once(argv[1], iterate, iterate == 1 && r == runs - 1, &count);
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
