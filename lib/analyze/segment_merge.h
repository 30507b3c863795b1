/*
 * segment_merge.h - what an analysis of trx_stats provides to run on
 * segments of a trace on several threads and merge (stats_segments.c).
 *
 * The scheme: segment k (k >= 1) of the trace starts its analyses fresh a
 * few thousand events before its first event (the warm-up), so that their
 * state can settle to what a walk from the start would have there. When the
 * warm-up reaches the segment's first event, each analysis's state is
 * summed into a fingerprint, and the results the warm-up produced are
 * cleared (its events belong to the segment before). At the merge, in trace
 * order, the fingerprint of the state the part before ended in is compared
 * with the segment's: equal, and the segment's results follow the part
 * before's (merge); different, and the analysis of the part before is fed
 * the segment's events itself (the exact serial walk). Results are then the
 * one walk's, byte for byte, whatever the warm-up found.
 *
 * Event numbers: a segment's cursor numbers its events from 0 at its
 * warm-up start. `base` (fingerprint) is the number of the segment's first
 * event in the analysis's own numbering; a stored event number enters the
 * fingerprint as (number - base). `offset` (merge) turns the segment's
 * numbers into the trace's: add it to every event number the later part
 * holds, in its state and its results, before joining them.
 */
#ifndef TRX_SEGMENT_MERGE_H
#define TRX_SEGMENT_MERGE_H

#include <stddef.h>
#include <stdint.h>

/* What an analysis's merge returns when the results would not be the one
 * walk's after all (found only with the segment's results in hand, e.g. a
 * table the segment filled to its cap): nothing is changed, and the part
 * before walks the segment again. */
#define TRX_MERGE_REFUSED 1

/* A 128-bit summary of an analysis's state. Entries are summed, so the
 * order in which a table's entries are added does not matter; two states
 * that differ in any entry give different fingerprints (but for a chance
 * of about 2^-128). */
typedef struct trx_fingerprint {
    uint64_t a, b;
} trx_fingerprint;

/* Adds one entry of `n` words (a field, or a table row: its key and values)
 * under `tag` (which field or table: a constant of the analysis's own, so
 * that equal values in different fields do not cancel). */
void trx_fp_add(trx_fingerprint *f, uint64_t tag, const uint64_t *words, size_t n);

/* trx_fp_add of one word. */
static inline void trx_fp_word(trx_fingerprint *f, uint64_t tag, uint64_t v)
{
    trx_fp_add(f, tag, &v, 1);
}

/* Makes f equal to no other fingerprint: for an analysis that cannot
 * merge (yet), whose segments are then always walked again serially. */
void trx_fp_unmergeable(trx_fingerprint *f);

static inline int trx_fp_equal(const trx_fingerprint *x, const trx_fingerprint *y)
{
    return x->a == y->a && x->b == y->b;
}

#endif
