/* log_histogram.h - the log-linear histogram of durations the timing and
 * latency analyses share: a bucket per tick below 64, then 32 buckets per
 * power of two (a value's bucket top is within 1/32 of it); a percentile
 * is the top of the bucket that holds it, clamped to [min, max]. Fixed
 * size, so memory does not grow with the trace, and two histograms merge
 * by adding counters. */
#ifndef TRX_LOG_HISTOGRAM_H
#define TRX_LOG_HISTOGRAM_H

#include <stdint.h>
#include <stdlib.h>

#define TRX_LOG_HIST_BUCKETS (64u + 58u * 32u)

/* Bucket of v: exact below 64, then 32 buckets per power of two. */
static inline uint32_t trx_log_hist_bucket(uint64_t v)
{
    if (v < 64)
        return (uint32_t)v;
    uint32_t e = 63u - (uint32_t)__builtin_clzll(v); /* 6 .. 63 */
    uint32_t sub = (uint32_t)(v >> (e - 5)) & 31u;
    return 64u + (e - 6u) * 32u + sub;
}

/* The largest value of bucket b. */
static inline uint64_t trx_log_hist_top(uint32_t b)
{
    if (b < 64)
        return b;
    uint32_t e = (b - 64u) / 32u + 6u, sub = (b - 64u) % 32u;
    uint64_t low = ((uint64_t)(32u + sub)) << (e - 5u);
    return low + (((uint64_t)1 << (e - 5u)) - 1u);
}

/* Adds `v` to a distribution kept as count, sum, min, max and a histogram
 * allocated on first use (*hist NULL: it is allocated; stays NULL when out
 * of memory, and the percentiles then fall back to max). */
static inline void trx_log_hist_add(uint64_t **hist, uint64_t *count, uint64_t *sum, uint64_t *min,
                                    uint64_t *max, uint64_t v)
{
    if (*count == 0 || v < *min)
        *min = v;
    if (v > *max)
        *max = v;
    (*count)++;
    *sum += v;
    if (!*hist)
        *hist = (uint64_t *)calloc(TRX_LOG_HIST_BUCKETS, sizeof **hist);
    if (*hist)
        (*hist)[trx_log_hist_bucket(v)]++;
}

/* The `percent` percentile (1..100) of `count` values in `hist`: the top of
 * the bucket holding the value of rank ceil(count * percent / 100), clamped
 * to [min, max]; max when there is no histogram. */
static inline uint64_t trx_log_hist_percentile(const uint64_t *hist, uint64_t count,
                                               uint32_t percent, uint64_t min, uint64_t max)
{
    if (!hist || !count)
        return max;
    uint64_t rank = (count * percent + 99) / 100, seen = 0;
    if (rank == 0)
        rank = 1;
    for (uint32_t b = 0; b < TRX_LOG_HIST_BUCKETS; b++) {
        seen += hist[b];
        if (seen >= rank) {
            uint64_t top = trx_log_hist_top(b);
            return top > max ? max : top < min ? min : top;
        }
    }
    return max;
}

#endif
