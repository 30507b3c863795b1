/* sysbios_tasks.h - SYS/BIOS's tasks as the trace's threads. The open pass
 * notes every task a scheduler record names, per stream (its function and
 * priorities); once the streams are on their cores' axes the tasks become
 * threads: one per handle when the cores run one SYS/BIOS instance (SMP,
 * or a handle only ever on one core), one per (core, handle) when they are
 * separate instances (AMP: the same handle running on two cores at once).
 * The rule (docs/uia-decoding.md, "AMP and SMP") costs one hash probe per
 * scheduler record, and the time-order check runs only when some handle
 * was seen on two cores. */
#ifndef TRX_SYSBIOS_TASKS_H
#define TRX_SYSBIOS_TASKS_H

#include <stdbool.h>
#include <stdint.h>

#include "trx/trx.h"

/* A hash from (a, b) (two 32-bit words) to a 32-bit value. */
typedef struct trx_pair_map {
    uint64_t *key; /* a << 32 | b; UINT64_MAX: empty */
    uint32_t *value;
    uint32_t size, used; /* size: a power of two, or 0 */
} trx_pair_map;

/* The value of (a, b) in *value; false when absent. */
bool trx_pair_map_get(const trx_pair_map *m, uint32_t a, uint32_t b, uint32_t *value);

/* The value slot of (a, b), inserted with `initial` when new; NULL when out
 * of memory (or for (UINT32_MAX, UINT32_MAX), the key that marks empty slots). */
uint32_t *trx_pair_map_put(trx_pair_map *m, uint32_t a, uint32_t b, uint32_t initial);

void trx_pair_map_free(trx_pair_map *m);

/* One task as the open pass saw it in one stream. */
typedef struct sysbios_seen_task {
    uint32_t stream, handle, function;  /* function: 0 unknown */
    uint32_t prio_lowest, prio_highest; /* TRX_UNKNOWN: none logged */
    bool ran;                           /* some LM_switch of the stream switched to it */
} sysbios_seen_task;

#define TRX_SYSBIOS_RECENT 16 /* tasks noted lately, looked up before the map */

/* The tasks seen, in the order first seen (all zero: none yet). */
typedef struct trx_sysbios_tasks {
    sysbios_seen_task *seen;
    uint32_t count, cap;
    trx_pair_map at; /* (stream, handle) -> its index in seen */
    /* a cache of `at` by a hash of the key: (stream, handle) + 1 (0: empty)
     * and its index in seen; a scheduler cycles through few tasks, so most
     * notes find theirs here without probing the map */
    uint64_t recent_key[TRX_SYSBIOS_RECENT];
    uint32_t recent_at[TRX_SYSBIOS_RECENT];
} trx_sysbios_tasks;

/* Task (stream, handle)'s entry in k->seen, added (function `function`,
 * no priorities) when new, looked up in the map (trx_sysbios_tasks_note
 * looks in the cache first); NULL when out of memory. */
sysbios_seen_task *trx_sysbios_tasks_entry(trx_sysbios_tasks *k, uint32_t stream, uint32_t handle,
                                           uint32_t function);

/* The cache slot of (stream, handle): a hash of its key. */
static inline uint32_t trx_sysbios_recent_slot(uint64_t key)
{
    return (uint32_t)((key * 0x9E3779B97F4A7C15u) >> 60); /* 16 slots */
}

/* Widens the range [*lowest, *highest] (SYS/BIOS's numbers as logged: a
 * larger number is the more urgent; "lowest" the largest) by `p`. */
static inline void trx_sysbios_widen(uint32_t *lowest, uint32_t *highest, uint32_t p)
{
    if (*lowest == TRX_UNKNOWN || p > *lowest)
        *lowest = p;
    if (*highest == TRX_UNKNOWN || p < *highest)
        *highest = p;
}

/* Notes task `handle` (function `function`, 0 unknown) seen in `stream`,
 * its priority range widened by the `n` priorities `prio`. Handle 0 and the
 * context markers are no task. 0, or -1 when out of memory. Inline: the
 * open notes the tasks of every scheduler record; most are in the cache. */
static inline int trx_sysbios_tasks_note(trx_sysbios_tasks *k, uint32_t stream, uint32_t handle,
                                         uint32_t function, const uint32_t *prio, uint32_t n)
{
    if (handle == 0 || handle == TRX_CONTEXT_ISR || handle == TRX_CONTEXT_INIT ||
        handle == TRX_CONTEXT_IDLE)
        return 0;
    uint64_t key = (uint64_t)stream << 32 | handle;
    uint32_t r = trx_sysbios_recent_slot(key);
    sysbios_seen_task *s = k->recent_key[r] == key + 1
                               ? &k->seen[k->recent_at[r]]
                               : trx_sysbios_tasks_entry(k, stream, handle, function);
    if (!s)
        return -1;
    if (function && !s->function)
        s->function = function;
    for (uint32_t i = 0; i < n; i++)
        trx_sysbios_widen(&s->prio_lowest, &s->prio_highest, prio[i]);
    return 0;
}

/* Notes that stream `stream` switched to task `handle` (noted before). */
void trx_sysbios_tasks_ran(trx_sysbios_tasks *k, uint32_t stream, uint32_t handle);

/* True when some handle was seen on two cores (`stream_core`: each stream's
 * core; NULL: every stream is core 0). */
bool trx_sysbios_tasks_on_several_cores(const trx_sysbios_tasks *k, const uint32_t *stream_core);

/* The AMP check, fed the LM_switch records in time order across the cores:
 * a handle switched in on one core while another core, since an earlier
 * tick, runs it, means separate SYS/BIOS instances. */
typedef struct trx_sysbios_overlap {
    trx_pair_map running; /* (0, handle) -> the core that switched to it last + 1 */
    uint32_t *current;    /* per core: the task it runs */
    uint64_t *since;      /* per core: the ticks it switched to it */
    uint32_t cores;
    bool amp; /* seen: a handle on two cores at once */
    bool oom; /* out of memory: the check stopped (one instance assumed) */
} trx_sysbios_overlap;

/* 0, or -1 when out of memory. */
int trx_sysbios_overlap_init(trx_sysbios_overlap *o, uint32_t cores);

/* Core `core` switched to task `next` at `ticks` (on the one axis). */
void trx_sysbios_overlap_switch(trx_sysbios_overlap *o, uint32_t core, uint32_t next,
                                uint64_t ticks);

void trx_sysbios_overlap_free(trx_sysbios_overlap *o);

/* Makes the tasks threads of t: per handle (each with the one core it ran
 * on, trx_thread.ran_core, where there is one), or with `amp` per (core,
 * handle), named "N/Task 0x..." then (trx_core_task_name), whose (core,
 * handle) -> thread map is kept in *amp_threads. 0, or -1 when out of memory. */
int trx_sysbios_tasks_make_threads(const trx_sysbios_tasks *k, trx_trace *t,
                                   const uint32_t *stream_core, bool amp,
                                   trx_pair_map *amp_threads);

void trx_sysbios_tasks_free(trx_sysbios_tasks *k);

#endif
