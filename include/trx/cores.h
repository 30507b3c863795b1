/*
 * cores.h - which core ran what, for multi-core (SMP) traces: the events and
 * threads each core logged (`trx info`), and, in the default (correct) mode,
 * the running thread tracked per core - execution profile, idle and load per
 * core, the cores and migrations of every thread and the time two or more
 * threads really ran at once (`trx stats`). Every event's core comes from
 * trx_event.core, whatever the trace format; single-core traces have core 0.
 */
#ifndef TRX_CORES_H
#define TRX_CORES_H

#include <stdbool.h>
#include <stdint.h>

#include "trx/trx.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TRX_MAX_CORES 256u /* core numbers are 8 bits (TXTB: id bits 24-31) */

/* What one thread did on one core. */
typedef struct trx_core_thread {
    uint32_t core;
    int32_t thread;   /* index into trace->threads */
    uint64_t events;  /* stored events the thread logged on the core */
    uint64_t ticks;   /* ticks the core ran the thread (trx_core_stats only) */
    uint32_t address; /* the context address (trx_core_summary only; thread -1:
                         an Un-named Thread, no registered thread there) */
} trx_core_thread;

/* The stored events of a trace, by core (synthetic RUNNING events left out). */
typedef struct trx_core_summary {
    uint32_t core_count;                  /* highest core seen + 1 (1: single-core) */
    uint64_t events[TRX_MAX_CORES];       /* stored events per core */
    uint64_t other_events[TRX_MAX_CORES]; /* of those, not logged by a thread (ISR, init) */
    trx_core_thread *threads;             /* sorted by core, then thread index */
    uint32_t thread_entries;
    uint64_t beyond; /* events whose core is TRX_MAX_CORES or more (UIA streams): not counted */
} trx_core_summary;

/* Counts the stored events of `t` per core and per (core, thread) in one
 * pass over the raw entries (TXTB; a UIA trace: its records per stream, no
 * threads); the trace is not prepared. 0, or -1 when out of memory. */
int trx_core_summary_compute(trx_trace *t, trx_core_summary *s);

/* As trx_core_summary_compute, and trx_trace_time_check into *tc (if not
 * NULL) in the same pass over the entries (what `trx info` needs). A TXTB
 * trace opened with trx_open_options.core_counts was counted by the open's
 * pass: then no pass here (the figures are the same). */
int trx_core_summary_compute_checked(trx_trace *t, trx_core_summary *s, trx_time_check *tc);

/* Releases a summary; safe on a zeroed one. */
void trx_core_summary_free(trx_core_summary *s);

/* How many distinct thread contexts of the summary no registry entry names
 * (Un-named Threads); -1 when out of memory. */
int64_t trx_core_summary_unregistered(const trx_core_summary *s);

/* Where a core's time went (ticks between its first and the trace's last event). */
typedef struct trx_core_profile {
    uint64_t events;          /* stored events logged on the core */
    uint64_t thread_ticks;    /* a thread ran */
    uint64_t interrupt_ticks; /* inside ISR_ENTER .. ISR_EXIT logged on the core */
    uint64_t idle_ticks;      /* nothing ran */
    uint64_t init_ticks;      /* initialization */
    uint64_t unknown_ticks;   /* before the core's first event, or after its thread moved away */
    uint64_t switches;        /* changes of the running thread on the core */
} trx_core_profile;

/* Per thread (indexed like trace->threads): where it ran. */
typedef struct trx_thread_cores {
    uint64_t run_ticks;       /* ticks it ran, all cores together */
    uint64_t migrations;      /* consecutive own events on different cores */
    uint64_t first_migration; /* TraceX event index of the first migration's later event */
    uint64_t core_mask;       /* cores 0-63 it logged events on or ran on (all cores:
                                 trx_core_stats_thread_has) */
} trx_thread_cores;

/* The per-core analysis of `trx stats` (default mode). */
typedef struct trx_core_stats {
    uint32_t core_count;
    trx_core_profile cores[TRX_MAX_CORES];
    trx_core_thread *profile; /* per (core, thread) ticks and events, by core then thread */
    uint32_t profile_count;
    trx_thread_cores *threads; /* trace->thread_count entries */
    uint32_t thread_count;
    uint64_t span_ticks;     /* first to last event */
    uint64_t parallel_ticks; /* two or more cores running a thread */
    uint64_t max_parallel;   /* most cores running threads at once */
    uint64_t beyond;         /* events whose core is TRX_MAX_CORES or more: left out */
    /* private: cores 64 and up per thread, for the threads that ran there */
    struct trx_address_map *high_cores_; /* thread index -> row of high_masks_ */
    uint64_t (*high_masks_)[(TRX_MAX_CORES - 64) / 64];
    uint32_t high_count_, high_cap_;
} trx_core_stats;

/* Tracks the running thread per core over every event of `t` (one pass;
 * prepares the trace). 0, or -1 when out of memory. */
int trx_core_stats_compute(trx_trace *t, trx_core_stats *s);

/* Releases the results; safe on a zeroed struct. */
void trx_core_stats_free(trx_core_stats *s);

/* True when thread `thread` (an index into s->threads) logged events on or
 * ran on core `core`. */
bool trx_core_stats_thread_has(const trx_core_stats *s, uint32_t thread, uint32_t core);

/* The first core at or after `from` that thread `thread` logged events on or
 * ran on, or TRX_MAX_CORES when none: its cores in order, in time linear in
 * how many there are (listing them by trx_core_stats_thread_has for every
 * core costs cores x threads). */
uint32_t trx_core_stats_thread_next_core(const trx_core_stats *s, uint32_t thread, uint32_t from);

#ifdef __cplusplus
}
#endif
#endif /* TRX_CORES_H */
