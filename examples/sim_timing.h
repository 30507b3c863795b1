/*
 * sim_timing.h - the simulation's own record of how long things took: ISR
 * runs, interrupt-to-thread latencies and response times, kept as every
 * duration (the demo is small), so the ground truth has exact minimum,
 * maximum, sum and 99th percentile to hold `trx stats` against.
 */
#ifndef SIM_TIMING_H
#define SIM_TIMING_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Every duration (in cycles = trace ticks) of one kind. */
typedef struct sim_durations {
    unsigned long count, min, max;
    uint64_t sum;
    unsigned long *all; /* every duration, in the order they happened */
    size_t cap;
} sim_durations;

/* Adds one duration (exits the demo when out of memory). */
void sim_durations_add(sim_durations *d, unsigned long cycles);

/* Writes PREFIX_count, _min, _max, _sum and _p99 (the ceil(0.99 n)-th
 * smallest duration, exact) as key=value lines; nothing when empty. */
void sim_durations_write(FILE *f, const char *prefix, const sim_durations *d);

#endif
