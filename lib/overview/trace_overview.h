/*
 * trace_overview.h - what `trx serve` keeps of a trace instead of its events:
 * one pass (two threads, a half each, on large traces) cuts the events into
 * chunks of up to TRX_OVERVIEW_CHUNK and notes per
 * chunk its time span, how many events each lane has, how long it ran and
 * its worst response time, and the events lost there; every `interval` events it keeps a cursor
 * copy (a checkpoint). A view of any width is then summed from the chunks, and the exact events of
 * a narrow view are read from the nearest checkpoint on. Memory: O(events / chunk x lanes a chunk
 * touches) within a fixed budget, plus the checkpoints (at most TRX_OVERVIEW_CHECKPOINT_BUDGET
 * bytes); the events stay in the mapped trace.
 *
 * One thread may build while others query: queries see the chunks and
 * checkpoints published so far (trx_overview_ready).
 */
#ifndef TRX_TRACE_OVERVIEW_H
#define TRX_TRACE_OVERVIEW_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "output/out_buffer.h"
#include "trx/trx.h"

#define TRX_OVERVIEW_CHUNK 2048u                      /* events per chunk */
#define TRX_OVERVIEW_LANE_BUDGET ((uint64_t)96 << 20) /* bytes of per-lane chunk notes */
#define TRX_OVERVIEW_CHECKPOINT_BUDGET ((uint64_t)64 << 20)

typedef struct trx_overview trx_overview;

/* An overview of prepared trace `t` (nothing built yet); NULL when out of memory. */
trx_overview *trx_overview_new(trx_trace *t);

/* Traces of at least `entries` entries are summarised by two threads (each
 * walking one half; TXTB on one core); the default is 1 Mi entries. The
 * second half starts at the first thread event from raw entry `split_from`
 * on (0: the middle; tests move it). */
void trx_overview_set_parallel_min(trx_overview *o, uint64_t entries, uint32_t split_from);

struct trx_report_irqs;
struct trx_report_irq_walk;

/* Before the pass: the Hwi / Swi lanes of a SYS/BIOS trace (report_irqs.h;
 * `irqs` must outlive the overview). The summaries then give an interrupt's
 * events and run time to the lane of the Hwi / Swi running on its core, as
 * the report's page draws them, and every checkpoint keeps which interrupt
 * runs on each core (trx_overview_seek_index_irqs). NULL or none: the
 * timeline's lanes only. */
void trx_overview_set_irqs(trx_overview *o, const struct trx_report_irqs *irqs);

/* The pass: fills the chunks and checkpoints, publishing them as it goes.
 * Stops early when *stop becomes true. 0, or -1 when out of memory. */
int trx_overview_build(trx_overview *o, const atomic_bool *stop);

/* Events summarised so far / in all; true once the pass has ended. */
uint64_t trx_overview_ready(const trx_overview *o);
/* Events walked so far (the second half's too, shown once the first is done). */
uint64_t trx_overview_walked(const trx_overview *o);
uint64_t trx_overview_total(const trx_overview *o);
bool trx_overview_done(const trx_overview *o);

/* Ticks of the last event summarised so far. */
uint64_t trx_overview_ready_ticks(const trx_overview *o);

/* Bytes the overview holds (chunks, lane notes, checkpoints). */
uint64_t trx_overview_memory(const trx_overview *o);

/* How many events lie in [from, to] ticks, as far as the chunks tell: the
 * events of the chunks that overlap it (an upper bound, exact to a chunk). */
uint64_t trx_overview_events_between(const trx_overview *o, uint64_t from, uint64_t to);

/* The most columns a summary has (a page asks for its width in CSS pixels;
 * 4096 covers a 4K screen). Its memory: 24 bytes a column for each of up to
 * 512 lanes shown (48 MiB at most, while it is written). */
#define TRX_OVERVIEW_MAX_COLS 4096u

/* Writes the summary of [from, to] ticks in `cols` columns (at most
 * TRX_OVERVIEW_MAX_COLS) as JSON:
 * {"from":..,"to":..,"cols":..,"lanes":[[lane,[busy per column],[events per column],
 * [worst response time per column]],...], "lost":[per column]} where busy is
 * per mille of the column's time (summed over cores, so up to 1000 x cores)
 * and the worst response time (a RESUME until the thread has the CPU, ticks,
 * as trx stats' latency.response) is that of the chunks the column covers.
 * Lanes without events, run time or response times are left out. */
void trx_overview_summary_json(const trx_overview *o, uint64_t from, uint64_t to, uint32_t cols,
                               trx_out *w);

/* The same summary over events [from, to] by number (TraceX's sequential
 * view: a column is a run of events): "axis":"index" (the other says
 * "ticks"), busy per mille of the time its events take. */
void trx_overview_summary_index_json(const trx_overview *o, uint64_t from, uint64_t to,
                                     uint32_t cols, trx_out *w);

/* A cursor at event `index` (of those summarised; clamped), from the
 * nearest checkpoint: 0, or -1 when out of memory or nothing is ready yet.
 * Free it with trx_cursor_free. */
int trx_overview_seek_index(const trx_overview *o, uint64_t index, trx_cursor *out);

/* The same, and *walk (when not NULL) becomes which Hwi / Swi runs on each
 * core before event `index` (as trx_report_irqs_step leaves it after the
 * events before it), so that a window starting inside an interrupt puts its
 * first events on that interrupt's lane. Zeroed without irqs. */
int trx_overview_seek_index_irqs(const trx_overview *o, uint64_t index, trx_cursor *out,
                                 struct trx_report_irq_walk *walk);

/* The index of the first event at or after `ticks` (to a chunk: the first
 * event of the first chunk that ends at or after it). */
uint64_t trx_overview_index_near(const trx_overview *o, uint64_t ticks);

/* The ticks where event `index` is, to a chunk: where the chunk holding it
 * begins, or (end) ends; 0 when nothing is summarised yet. */
uint64_t trx_overview_ticks_near(const trx_overview *o, uint64_t index, bool end);

void trx_overview_free(trx_overview *o);

#endif
