/*
 * durations.h - System Analyzer's duration analysis: UIABenchmark start /
 * stop pairs (ti.uia.events.UIABenchmark.start / .stop, logged as
 * Log_write1(UIABenchmark_start, (IArg)"name")) as intervals of the
 * interval engine (analyze/intervals.h). A start pairs with the next stop
 * of the same core carrying the same string argument (the target address
 * of the name: one string literal, one address), as System Analyzer pairs
 * them; named by the string at that address in the ELF (--elf), else by the
 * address ("0x0000a010"). A start of a name already open on its core: the
 * earlier one never completes (incomplete); a stop with none open is
 * unmatched; a lost-event gap on the core makes its open intervals
 * incomplete. Events are matched by name (--uia-meta) and by event id
 * alone: TI's event ids are unique within an application's metadata, and a
 * record carries the module that logged it, which may be another.
 */
#ifndef TRX_DURATIONS_H
#define TRX_DURATIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "analyze/intervals.h"
#include "trx/trx.h"

#define TRX_DURATION_NAME 96
#define TRX_DURATIONS_WORST 5 /* worst intervals kept per row */

/* One (name, core): its figures (r.complete intervals, r.duration min /
 * max / sum, r.worst: start_ticks = release_ticks, start index =
 * release_index), incomplete ones (r.incomplete) and unmatched stops. */
typedef struct trx_duration_row {
    uint32_t core, address;
    char name[TRX_DURATION_NAME];
    trx_interval_result r;
    uint64_t unmatched_stops;
} trx_duration_row;

typedef struct trx_durations {
    trx_duration_row *rows; /* by name, then core (after finish) */
    uint32_t row_count;
    /* private */
    uint32_t start_ids[8], stop_ids[8];
    uint32_t start_n, stop_n, row_cap, keep;
    trx_interval_matcher open;
    trx_key_map row_of; /* core << 32 | address -> row */
    bool failed;
} trx_durations;

/* Finds UIABenchmark's start / stop among t's UIA names; false when the
 * trace names none (*d is still ready to free). */
bool trx_durations_init(trx_durations *d, const trx_trace *t, uint32_t keep);

/* Feeds one event (every event of the trace, in order). */
void trx_durations_feed(trx_durations *d, const trx_event *ev);

/* Names the rows (t->elf strings), counts the intervals still open as
 * incomplete, sorts the rows. 0, or -1 when out of memory. */
int trx_durations_finish(trx_durations *d, const trx_trace *t);

/* Forgets everything fed so far (rows, open intervals): a part of the
 * trace fed from its start (a segment after its warm-up). */
void trx_durations_clear(trx_durations *d);

/* Joins `later` (fed the events right after those fed to `earlier`, both
 * not finished; its event numbers + `offset` are the trace's) to `earlier`, which then holds what
 * one feed of both would: the intervals the later part closes of the earlier's, each row's
 * intervals numbered on, unmatched stops, what is still open. `later` is left to free. 0, or -1
 * when out of memory (or either failed). */
int trx_durations_merge(trx_durations *earlier, trx_durations *later, uint64_t offset);

/* All of it in one pass of its own (trace prepared or not). 0 (row_count
 * 0 when the trace has no UIABenchmark events), or -1 when out of memory. */
int trx_durations_compute(trx_trace *t, uint32_t keep, trx_durations *out);

void trx_durations_free(trx_durations *d);

#endif
