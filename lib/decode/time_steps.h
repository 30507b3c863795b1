/* time_steps.h - the time-source check's per-entry step (trx_trace_time_check),
 * inline so that a pass over the raw entries for another purpose (trx info's
 * per-core counts) can make the check in the same pass. */
#ifndef TRX_TIME_STEPS_H
#define TRX_TIME_STEPS_H

#include "trx/trx.h"

/* The check while it runs over the entries in time order. */
typedef struct trx_time_steps {
    trx_time_check r;
    uint32_t mask, prev, first;
    bool counts_up, any, leading; /* leading: every stamp so far equals the first */
    bool pow2;                    /* mask + 1 is a power of two (or 2^32) */
} trx_time_steps;

static inline void trx_time_steps_begin(trx_time_steps *s, const trx_trace *t)
{
    s->r = (trx_time_check){0};
    s->mask = t->header.timer_mask;
    s->counts_up = t->counts_up;
    s->pow2 = (s->mask & (s->mask + 1u)) == 0;
    s->prev = s->first = 0;
    s->any = false;
    s->leading = true;
}

/* Adds the next entry's raw time stamp. */
static inline void trx_time_steps_add(trx_time_steps *s, uint32_t raw)
{
    uint32_t ts = raw & s->mask, m = s->mask, prev = s->prev;
    s->prev = ts;
    if (!s->any) {
        s->any = true;
        s->first = ts;
        s->r.first_stamp = ts;
        s->r.leading_same = 1;
        return;
    }
    uint64_t step;
    if (s->pow2) /* a mask 2^n - 1: the step is the difference modulo 2^n */
        step = (s->counts_up ? ts - prev : prev - ts) & m;
    else if (s->counts_up)
        step = ts >= prev ? (uint64_t)(ts - prev) : (uint64_t)(m - prev) + ts + 1;
    else
        step = ts <= prev ? (uint64_t)(prev - ts) : (uint64_t)(m - ts) + prev + 1;
    s->r.steps++;
    s->r.span += step;
    if (step != 0)
        s->r.changes++;
    if (s->leading) {
        if (ts == s->first)
            s->r.leading_same++;
        else
            s->leading = false;
    }
    if (step > (uint64_t)m / 2) {
        s->r.large_steps++;
        s->r.large_span += step;
    }
}

/* Begins the check of a later part of the entries: `first_raw` is the
 * oldest entry's stamp, `prev_raw` the stamp of the entry just before the
 * part. Its leading_same counts the part's own first entries equal to the
 * oldest stamp (trx_time_steps_join uses them when the earlier part is all
 * leading). */
static inline void trx_time_steps_continue(trx_time_steps *s, const trx_trace *t,
                                           uint32_t first_raw, uint32_t prev_raw)
{
    trx_time_steps_begin(s, t);
    s->any = true;
    s->first = first_raw & s->mask;
    s->r.first_stamp = s->first;
    s->prev = prev_raw & s->mask;
}

/* Adds the figures of `later` (begun with trx_time_steps_continue right
 * after the last entry `s` saw) to `s`: as if `s` had seen those entries. */
static inline void trx_time_steps_join(trx_time_steps *s, const trx_time_steps *later)
{
    const trx_time_check *b = &later->r;
    s->r.steps += b->steps;
    s->r.span += b->span;
    s->r.changes += b->changes;
    s->r.large_steps += b->large_steps;
    s->r.large_span += b->large_span;
    if (s->leading) {
        s->r.leading_same += b->leading_same;
        s->leading = later->leading;
    }
    s->prev = later->prev;
}

/* The verdict: CONSTANT when at least two steps and none changes;
 * IMPLAUSIBLE when at least two steps exceed half the timer range and make up
 * more than half the span. late_start: the first two or more entries carry
 * the same stamp 0 or all ones (what a timer register holds before it runs)
 * and later ones change. */
static inline void trx_time_steps_end(trx_time_steps *s, trx_time_check *out)
{
    trx_time_check r = s->r;
    if (r.steps >= 2 && r.changes == 0)
        r.verdict = TRX_TIME_CONSTANT;
    else if (r.large_steps >= 2 && r.large_span > r.span / 2)
        r.verdict = TRX_TIME_IMPLAUSIBLE;
    r.late_start =
        r.changes > 0 && r.leading_same >= 2 && (r.first_stamp == 0 || r.first_stamp == s->mask);
    *out = r;
}

#endif
