/* core_thread_map.h - a hash map from (core, thread index) to event and tick
 * counts: linear in the pairs seen, whatever the numbers of cores and threads. */
#ifndef TRX_CORE_THREAD_MAP_H
#define TRX_CORE_THREAD_MAP_H

#include "trx/cores.h"

typedef struct trx_core_thread_map {
    trx_core_thread *slots; /* thread == -1: empty */
    uint32_t cap, used;
    bool oom;
} trx_core_thread_map;

/* The entry of (core, thread), added at zero when new; NULL when out of
 * memory (then `oom` stays set). `thread` must be >= 0. */
trx_core_thread *trx_core_thread_map_get(trx_core_thread_map *m, uint32_t core, int32_t thread);

/* Moves the entries into a new array sorted by core, then thread, and frees
 * the map. 0, or -1 when out of memory (or the map ran out before). */
int trx_core_thread_map_finish(trx_core_thread_map *m, trx_core_thread **out, uint32_t *count);

#endif
