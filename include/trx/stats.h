/*
 * stats.h - TraceX's statistics over a trace, number for number: performance
 * statistics, execution profile, stack usage, popular services, priority
 * inversions, FileX and NetX statistics (docs/analyses.md defines each figure).
 */
#ifndef TRX_STATS_H
#define TRX_STATS_H

#include <stdint.h>

#include "trx/cores.h"
#include "trx/trx.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One popular service: an event id and how often it occurs. */
typedef struct trx_service_count {
    uint32_t id;
    uint64_t count;
} trx_service_count;

/* Per-thread results, indexed like trace->threads. */
typedef struct trx_thread_stats {
    uint64_t total_events;        /* events whose context is the thread (RUNNING included) */
    uint64_t suspensions;         /* internal SUSPEND events the thread performed */
    uint64_t resumptions;         /* internal RESUME events the thread performed */
    uint64_t execution_ticks;     /* ticks after events whose next context is the thread */
    uint32_t stack_min_available; /* smallest free stack bytes seen (stack size if none) */
    uint32_t service_count;       /* entries of services */
    uint64_t stack_min_event;     /* index of the event that showed it (0 if none) */
    trx_service_count *services;  /* the thread's events by id, most frequent first: in
                                     trx_stats' pool (threads at one address share a list) */
} trx_thread_stats;

/* Where a priority inversion window starts and the event that ends it. */
typedef struct trx_inversion_mark {
    uint64_t start; /* index of the MUTEX_GET that opened the window */
    uint64_t end;   /* index TraceX stores on the start event */
    uint64_t order; /* when TraceX wrote it (later writes win) */
    uint8_t bad;    /* 1: non-deterministic (a lower thread ran) */
} trx_inversion_mark;

/* At most this many threads are listed as having run inside one inversion. */
#define TRX_RAN_INSIDE_MAX 8

/* One priority inversion as the correct mode sees it (docs/analyses.md): a
 * thread blocked on a lock (mutex, or semaphore used as a lock) held by a
 * lower-priority thread, from its blocking GET until it runs again. */
typedef struct trx_inversion {
    uint32_t waiter, waiter_priority; /* blocked thread address and its priority */
    uint32_t lock;                    /* mutex or semaphore address */
    uint8_t lock_type;                /* TRX_LOCK_MUTEX or TRX_LOCK_SEMAPHORE */
    bool unbounded;                   /* a lower-priority non-holder ran inside */
    bool closed;                      /* false: still open at the end of the trace */
    uint32_t holder, holder_priority; /* holder address and its priority at the start */
    uint32_t ran_inside;              /* the first lower-priority thread that ran inside, or 0 */
    uint32_t ran_inside_list[TRX_RAN_INSIDE_MAX]; /* every such thread, in the order they ran */
    uint8_t ran_inside_count;                     /* entries of ran_inside_list */
    bool ran_inside_more;                         /* more than TRX_RAN_INSIDE_MAX ran inside */
    uint64_t start_index, end_index; /* blocking GET; first event of the waiter after it */
    uint64_t start_ticks, end_ticks;
} trx_inversion;

enum { TRX_LOCK_MUTEX = 0, TRX_LOCK_SEMAPHORE = 1 };

/* Durations in ticks: count, min, max, sum and the 99th percentile from a
 * fixed-size log-linear histogram (exact below 64 ticks, else within 1/32). */
#define TRX_DURATION_BUCKETS (64 + 58 * 32)
typedef struct trx_duration {
    uint64_t count, min, max, sum, p99;
    uint64_t *hist; /* while computing only */
} trx_duration;

/* Durations for one ISR number or thread address (`key`); min_excl and
 * max_excl: ISR durations without the nested ISRs inside (ISRs only).
 * `core`: the one core of an AMP capture's Hwi / Swi (keyed by (core, key):
 * trx_trace_per_core_instances), else TRX_UNKNOWN. */
typedef struct trx_keyed_duration {
    uint32_t key;
    uint32_t core;
    trx_duration d;
    uint64_t min_excl, max_excl;
    uint64_t max_index, max_ticks; /* the event that ended the longest one (EXIT / first event) */
} trx_keyed_duration;

typedef struct trx_filex_stats {
    uint64_t media_opens, media_closes, media_aborts, media_flushes;
    uint64_t directory_reads, directory_writes, directory_cache_misses;
    uint64_t file_opens, file_closes, file_bytes_read, file_bytes_written;
    uint64_t sector_reads, sector_writes, sector_cache_misses;
} trx_filex_stats;

typedef struct trx_netx_stats {
    uint64_t arp_requests_sent, arp_responses_sent, arp_requests_received, arp_responses_received;
    uint64_t packet_allocations, packet_releases, empty_allocations, invalid_releases;
    uint64_t pings_sent, ping_responses;
    uint64_t ip_packets_sent, ip_bytes_sent, ip_packets_received, ip_bytes_received;
    uint64_t tcp_client_connections, tcp_server_connections;
    uint64_t tcp_packets_sent, tcp_bytes_sent, tcp_packets_received, tcp_bytes_received;
    uint64_t udp_packets_sent, udp_bytes_sent, udp_packets_received, udp_bytes_received;
} trx_netx_stats;

typedef struct trx_stats {
    trx_mode mode; /* the trace's mode when computed */
    /* false when the events are not laid out as the catalogue describes
     * (UIA): no stack pointers, lock owners, services, FileX / NetX figures,
     * so no stack usage, no priority inversions, no services (unavailable,
     * not zero) */
    bool catalogue_figures;
    /* relative ticks of the last event as the statistics report them: the
     * trace's max_ticks, but at least 1 in TRX_MODE_TRACEX (TraceX's
     * tml_initialize floors it; its dump prints the raw 0) */
    uint64_t max_relative_ticks;
    /* performance statistics */
    uint64_t context_switches, preemptions, time_slices, suspensions, resumptions;
    uint64_t interrupts, nested_interrupts;
    /* priority inversions: TRX_MODE_TRACEX: TraceX's a (all windows) and b
     * (the unbounded ones); TRX_MODE_CORRECT: the windows listed in
     * `inversion_list` and how many of them are unbounded */
    uint64_t inversions, bad_inversions;
    trx_inversion *inversion_list; /* TRX_MODE_CORRECT only, by start index */
    uint32_t inversion_count;
    /* execution profile */
    uint64_t interrupt_ticks, idle_ticks;
    /* per thread (trace->thread_count entries) */
    trx_thread_stats *threads;
    uint32_t thread_count;
    /* popular services, most frequent first, TX_TRACE_RUNNING excluded */
    trx_service_count *services;
    uint32_t service_count;
    /* inversion windows, sorted by start */
    trx_inversion_mark *marks;
    uint32_t mark_count;
    trx_filex_stats filex;
    trx_netx_stats netx;
    /* timing (docs/analyses.md): ISR durations by ISR number (ascending;
     * AMP: by core, then number),
     * interrupt-to-thread latency and response time by thread (first seen) */
    trx_keyed_duration *isr, *latency, *response;
    uint32_t isr_count, latency_count, response_count;
    /* software interrupts (SYS/BIOS Swis) by handle (AMP: core, handle): durations as isr */
    trx_keyed_duration *swi;
    uint32_t swi_count;
    /* the cores load_busy sums (each window holds load_cores x load_window
     * ticks of CPU time); 1 for one stream of contexts */
    uint32_t load_cores;
    /* CPU load: busy ticks per window of load_window ticks (the last one
     * may be partial: load_span is the last event's ticks) */
    uint64_t load_window, load_count, load_span;
    uint64_t *load_busy;
    /* per window: CPU ticks whose state is unknown (SYS/BIOS: before a core's
     * first event or task switch, after its last event), left out of the
     * load; NULL: none */
    uint64_t *load_unknown;
    /* several cores (load_cores > 1): each core's busy and unknown ticks per
     * window, [window x load_cores + core]; else NULL */
    uint64_t *load_core_busy, *load_core_unknown;
    /* why there is no load (no windows), or NULL (trx_trace_load_missing) */
    const char *load_unavailable;
    /* durations and response times spanning a step where time went
     * backwards (a broken time source), left out of the figures */
    uint64_t time_dropped;
    /* set by the caller for output: ticks per second (0: print ticks) */
    uint64_t ticks_per_second;
    /* which core ran what (trx/cores.h): default mode only, NULL with --compat tracex */
    trx_core_stats *cores;
    trx_service_count *thread_services_; /* private: every thread's list, one allocation */
} trx_stats;

/* Most CPU-load windows one computation keeps (8 bytes each): the windows
 * are bounded by this cap, never by a tick value from the trace alone. */
#define TRX_LOAD_WINDOWS_MAX ((uint64_t)1 << 20)
#define TRX_STATS_TOO_MANY_WINDOWS (-2)

/* Computes every statistic (prepares the trace first). 0, or -1 when out of memory. */
int trx_stats_compute(trx_trace *t, trx_stats *s);

/* As trx_stats_compute, with CPU load windows of `window` ticks (0: the
 * span / 100, at least 1 tick). TRX_STATS_TOO_MANY_WINDOWS when the span
 * holds TRX_LOAD_WINDOWS_MAX windows of `window` ticks or more (nothing is
 * computed; a larger window works). */
int trx_stats_compute_windowed(trx_trace *t, trx_stats *s, uint64_t window);

/* Releases what trx_stats_compute allocated. */
void trx_stats_free(trx_stats *s);

/* True when t's events are laid out as the event catalogue describes (TXTB):
 * stack pointers, lock owners, services; else those figures are unavailable
 * (trx_stats.catalogue_figures). */
bool trx_stats_has_catalogue_figures(const trx_trace *t);

/* The ticks the execution profile shares out: the trace's span times the
 * cores whose contexts it follows (one for TXTB; each SYS/BIOS core). */
uint64_t trx_stats_profile_span(const trx_trace *t, const trx_stats *s);

/* The known CPU ticks load window `i` holds: its length (the last one may
 * be partial) times the cores it sums, less its unknown ticks. */
uint64_t trx_stats_load_capacity(const trx_stats *s, uint64_t i);

/* Load window `i`'s busy share of its known CPU time in percent; -1 when
 * none of its time is known (an empty window, or unknown state only). */
double trx_stats_load_percent(const trx_stats *s, uint64_t i);

/* As trx_stats_load_percent, for core `core` alone (-1: unknown, or no such core). */
double trx_stats_core_load_percent(const trx_stats *s, uint64_t i, uint32_t core);

#ifdef __cplusplus
}
#endif
#endif /* TRX_STATS_H */
