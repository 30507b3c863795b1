/*
 * bench_common.h - shared by the recorder benchmarks: a monotonic clock, a
 * start barrier for N threads, best-of-N timing and the table row format.
 */
#ifndef TRX_BENCH_COMMON_H
#define TRX_BENCH_COMMON_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define BENCH_EVENTS_PER_THREAD 20000000u
#define BENCH_REPEATS 3
#define BENCH_CAPACITY 65536u /* entries: the buffer wraps many times */

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef void (*bench_body)(uint32_t thread, uint32_t events);

typedef struct bench_run {
    bench_body body;
    uint32_t thread, events;
    pthread_barrier_t *start;
} bench_run;

static void *bench_thread(void *arg)
{
    bench_run *r = (bench_run *)arg;
    pthread_barrier_wait(r->start);
    r->body(r->thread, r->events);
    return NULL;
}

/* Seconds for `threads` threads to run `body` (each `events` times), best of
 * BENCH_REPEATS; `before` (may be NULL) resets the buffer before each run. */
static inline double bench_time(bench_body body, uint32_t threads, uint32_t events,
                                void (*before)(void))
{
    double best = 1e30;
    for (int rep = 0; rep < BENCH_REPEATS; rep++) {
        pthread_t th[8];
        bench_run runs[8];
        pthread_barrier_t start;
        if (before != NULL) {
            before();
        }
        pthread_barrier_init(&start, NULL, threads + 1);
        for (uint32_t t = 0; t < threads; t++) {
            runs[t] = (bench_run){body, t, events, &start};
            pthread_create(&th[t], NULL, bench_thread, &runs[t]);
        }
        pthread_barrier_wait(&start);
        double t0 = bench_now();
        for (uint32_t t = 0; t < threads; t++) {
            pthread_join(th[t], NULL);
        }
        double dt = bench_now() - t0;
        pthread_barrier_destroy(&start);
        if (dt < best) {
            best = dt;
        }
    }
    return best;
}

static inline void bench_header(void)
{
    printf("%-60s %7s %12s %10s\n", "recorder insert benchmark", "threads", "ns/event",
           "Mevents/s");
}

/* One row: ns per event = wall time / all events of all threads. */
static inline void bench_row(const char *name, uint32_t threads, uint32_t events, double seconds)
{
    double total = (double)threads * events;
    printf("%-60s %7u %12.2f %10.1f\n", name, threads, seconds * 1e9 / total,
           total / seconds / 1e6);
}

#endif
