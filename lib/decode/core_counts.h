/* core_counts.h - stored entries counted per core and per (core, context),
 * with where each context first appears, fed one raw entry at a time: the
 * counting behind `trx info`'s per-core summary (analyze/core_summary.c),
 * made either by the summary's own pass or by the open's pass
 * (txtb_scan.c). Each (core, context) is counted in a small direct-mapped
 * table of recent keys (no hashing into the map per entry); a key pushed
 * out adds its count to the map. */
#ifndef TRX_CORE_COUNTS_H
#define TRX_CORE_COUNTS_H

#include <stdbool.h>
#include <stdint.h>

#include "trx/cores.h"

/* (core, context) -> events, and where that context first appears. */
typedef struct trx_context_slot {
    uint64_t key; /* core << 32 | context, + 1 (0: empty) */
    uint64_t events;
    uint32_t first; /* order key (chronological index) of the context's first entry on this core */
} trx_context_slot;

typedef struct trx_context_map {
    trx_context_slot *slots;
    uint32_t cap, used;
} trx_context_map;

/* The slot of `key`, added with first `index` when new; NULL when out of memory. */
trx_context_slot *trx_context_get(trx_context_map *m, uint64_t key, uint32_t index);

enum { TRX_COUNT_CACHE_SLOTS = 64 }; /* a power of two */

typedef struct trx_cached_key {
    uint64_t key; /* core << 32 | context, + 1; 0: empty */
    uint64_t events;
    uint32_t first; /* order key of its first entry since cached */
} trx_cached_key;

/* The counts of a run of entries. Zero-initialize before the first feed. */
typedef struct trx_core_counts {
    uint64_t events[TRX_MAX_CORES];       /* per core */
    uint64_t other_events[TRX_MAX_CORES]; /* of those, ISR or initialization */
    trx_context_map pairs;                /* thread contexts only */
    uint32_t max_core;
    int rc; /* -1: out of memory */
    trx_cached_key cache[TRX_COUNT_CACHE_SLOTS];
} trx_core_counts;

/* Moves a cached key's count into the map (out of line: the rare case). */
void trx_core_counts_spill(trx_core_counts *c, trx_cached_key *k, uint64_t key, uint32_t index);

/* Counts one entry of context `ctx` on `core`; `index` orders first appearances. */
static inline __attribute__((always_inline)) void
trx_core_counts_feed(trx_core_counts *c, uint32_t ctx, uint32_t core, uint32_t index)
{
    uint64_t key = ((uint64_t)core << 32 | ctx) + 1;
    trx_cached_key *k =
        &c->cache[(ctx ^ ctx >> 7 ^ ctx >> 13 ^ core * 7u) & (TRX_COUNT_CACHE_SLOTS - 1)];
    if (k->key == key)
        k->events++;
    else
        trx_core_counts_spill(c, k, key, index);
}

/* Empties the cache into the map (after the last feed). */
void trx_core_counts_flush(trx_core_counts *c);

/* Adds `b`'s flushed counts to `a`'s flushed counts (first appearances: the earlier). */
void trx_core_counts_merge(trx_core_counts *a, const trx_core_counts *b);

/* Frees the map. */
void trx_core_counts_free(trx_core_counts *c);

#endif
