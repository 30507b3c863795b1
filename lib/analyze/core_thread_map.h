/* core_thread_map.h - a hash map from (core, thread index) to event and tick
 * counts: linear in the pairs seen, whatever the numbers of cores and threads.
 * Core 0's pairs (every pair of a single-core trace) are an array indexed by
 * thread; the other pairs live in one dense array (first seen first) with a
 * hash of indices into it. */
#ifndef TRX_CORE_THREAD_MAP_H
#define TRX_CORE_THREAD_MAP_H

#include "trx/cores.h"
#include "util/entry_index.h"

typedef struct trx_core_thread_map {
    trx_core_thread *core0; /* by thread index; thread -1: not seen */
    uint32_t core0_cap;
    trx_core_thread *entries; /* the pairs of other cores, first seen first */
    uint32_t count, cap;
    trx_entry_index index; /* over entries */
    uint32_t generation;   /* changes whenever entries move */
    bool oom;
} trx_core_thread_map;

/* Makes room for core 0's pairs of threads 0 .. threads-1 at once. 0, or -1
 * when out of memory. */
int trx_core_thread_map_reserve(trx_core_thread_map *m, uint32_t threads);

/* The entry of (core, thread), added at zero when new; NULL when out of
 * memory (then `oom` stays set). `thread` must be >= 0. The pointer is valid
 * while `generation` does not change. */
trx_core_thread *trx_core_thread_map_get(trx_core_thread_map *m, uint32_t core, int32_t thread);

/* Forgets every pair (the memory stays); pointers from before are invalid
 * (`generation` changes). */
void trx_core_thread_map_clear(trx_core_thread_map *m);

/* Adds the events and ticks of every pair of `src` to the same pair of `dst`
 * (added when new). 0, or -1 when out of memory. */
int trx_core_thread_map_add_all(trx_core_thread_map *dst, const trx_core_thread_map *src);

/* Hands the entries over sorted by core, then thread, and frees the rest of
 * the map. 0, or -1 when out of memory (or the map ran out before). */
int trx_core_thread_map_finish(trx_core_thread_map *m, trx_core_thread **out, uint32_t *count);

#endif
