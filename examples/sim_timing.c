/* sim_timing.c - the simulation's durations for the demo's ground truth
 * (sim_timing.h): every value kept, the percentile read off a sorted copy. */
#include "sim_timing.h"

#include <stdlib.h>
#include <string.h>

void sim_durations_add(sim_durations *d, unsigned long cycles)
{
    if (d->count == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 64;
        unsigned long *p = realloc(d->all, cap * sizeof *p);
        if (p == NULL) {
            fprintf(stderr, "trx_demo: out of memory\n");
            exit(1);
        }
        d->all = p;
        d->cap = cap;
    }
    d->all[d->count] = cycles;
    if (d->count == 0 || cycles < d->min)
        d->min = cycles;
    if (cycles > d->max)
        d->max = cycles;
    d->sum += cycles;
    d->count++;
}

static int ascending(const void *a, const void *b)
{
    unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;
    return x < y ? -1 : x > y;
}

void sim_durations_write(FILE *f, const char *prefix, const sim_durations *d)
{
    if (d->count == 0)
        return;
    unsigned long *sorted = malloc(d->count * sizeof *sorted);
    if (sorted == NULL) {
        fprintf(stderr, "trx_demo: out of memory\n");
        exit(1);
    }
    memcpy(sorted, d->all, d->count * sizeof *sorted);
    qsort(sorted, d->count, sizeof *sorted, ascending);
    size_t rank = (d->count * 99 + 99) / 100; /* ceil(0.99 n), 1-based */
    fprintf(f, "%s_count=%lu\n%s_min=%lu\n%s_max=%lu\n%s_sum=%llu\n%s_p99=%lu\n", prefix, d->count,
            prefix, d->min, prefix, d->max, prefix, (unsigned long long)d->sum, prefix,
            sorted[rank - 1]);
    free(sorted);
}
