/*
 * report.h - `trx report`: one self-contained interactive HTML file (time
 * line, event details, search, statistics). The page's sources are
 * lib/output/report/report.{html,css,js}, embedded into the library at build
 * time (cmake/embed_report.cmake -> report_assets.c).
 */
#ifndef TRX_REPORT_H
#define TRX_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "output/export_formats.h"
#include "output/out_buffer.h"
#include "output/timeline.h"
#include "trx/latency.h"
#include "trx/trx.h"

/* The page's sources, as embedded at build time (generated report_assets.c). */
extern const unsigned char trx_report_html[], trx_report_css[], trx_report_js[];
extern const size_t trx_report_html_size, trx_report_css_size, trx_report_js_size;

/* Writes the report of `t` (statistics computed here). `o->ticks_per_second`
 * (0: unknown) enables the µs ruler. 0, or -1 when out of memory. */
int trx_report_write(trx_trace *t, trx_out *w, const trx_export_options *o);

/* A window of a trace's events: from `from_ticks` to `to_ticks` (inclusive),
 * at most `max_events` of them (0: no limit). */
typedef struct trx_report_window {
    uint64_t from_ticks, to_ticks, max_events;
    /* set by trx_report_window_find: */
    bool found;
    uint64_t first; /* the number of its first event */
    uint64_t count; /* its events */
} trx_report_window;

/* Finds where window `win` starts and how many events it holds (one pass
 * over the events); sets win->found, first and count. */
void trx_report_window_find(trx_trace *t, trx_report_window *win);

/* trx_report_write with only the events of `win` in the page (NULL: all;
 * found here unless the caller found it already); the header says which
 * part it shows; the statistics stay the whole trace's. */
int trx_report_write_window(trx_trace *t, trx_out *w, const trx_export_options *o,
                            const trx_report_window *win);

/* `trx serve`'s page: the same template, style and script, #trx-meta with
 * the header facts, lanes and objects and "serve":{total, gap_count} (no
 * statistics, gaps or inversions: the page fetches what it shows), no
 * events, and a CSP that lets it fetch from its own origin. 0, or -1. */
int trx_report_write_shell(trx_trace *t, trx_out *w, const trx_export_options *o);

/* The #trx-meta JSON of trx_report_write_shell alone (a live trace's newer
 * generation: trx serve's /api/meta). 0, or -1. */
int trx_report_meta_json(trx_trace *t, trx_out *w, const trx_export_options *o);

/* #trx-types' JSON: names, categories, field captions and UIA messages of
 * the ids marked in `seen` (as trx_report_events marks them), the symbols of
 * `symbols` (NULL: none) and the target's load reports (NULL: none). */
struct trx_address_map;
struct trx_target_load;
void trx_report_types_json(trx_out *w, const trx_trace *t, uint64_t count, const uint32_t *seen,
                           const trx_custom_events *ce, const struct trx_address_map *symbols,
                           const struct trx_target_load *load);

/* One lost-event gap as the page reads it: [before event, lost, from ticks, to ticks]
 * (preceded by a comma unless `first`). */
void trx_report_gap_json(trx_out *w, const trx_gap *g, bool first);

/* A streaming base64 encoder writing into a trx_out (report_events.c). */
typedef struct trx_base64 {
    trx_out *w;
    uint8_t carry[3];
    int n;
} trx_base64;

struct trx_address_map;
struct trx_target_load;
struct trx_report_irqs;
struct trx_report_irq_walk;

/* The page's event records, one event at a time (trx_report_events for a
 * whole trace; trx serve for a window of one, starting from its first event:
 * fields, runs and flows are relative to the window). */
typedef struct trx_report_encoder {
    trx_trace *t;
    trx_base64 b;
    uint32_t *prev_info; /* 65536 x 4: the previous fields of each id */
    trx_flow_matcher *flows;
    trx_run_tracker runs;
    uint64_t prev; /* ticks of the previous event */
    uint32_t lane_cache_ctx, lane_cache, cores;
    bool cached;
    uint32_t *seen; /* as trx_report_events (NULL: not kept) */
    const trx_custom_events *ce;
    struct trx_address_map *symbols; /* NULL: none noted */
    struct trx_target_load *load;    /* NULL: none fed */
    uint64_t count;                  /* events encoded */
    /* the Hwi / Swi lanes (report_irqs.h; NULL: the timeline's lanes) and
     * which interrupt runs on each core (trx_report_encoder_irqs) */
    const struct trx_report_irqs *irqs;
    struct trx_report_irq_walk *irq_walk;
} trx_report_encoder;

/* 0, or -1 when out of memory (nothing to finish then). */
int trx_report_encoder_init(trx_report_encoder *e, trx_trace *t, trx_out *w, uint32_t *seen,
                            const trx_custom_events *ce, struct trx_address_map *symbols,
                            struct trx_target_load *load);
/* Puts interrupt-context events on the Hwi / Swi lanes of `irqs` (found by
 * trx_report_irqs_find; NULL or none: no change). 0, or -1 when out of memory. */
int trx_report_encoder_irqs(trx_report_encoder *e, const struct trx_report_irqs *irqs);
/* Appends the record of `ev` (base64, no line break). */
void trx_report_encode(trx_report_encoder *e, const trx_event *ev);
/* Ends the base64 text and releases the encoder. */
void trx_report_encoder_finish(trx_report_encoder *e);

/* Encodes the events of `t` as the page reads them: one varint record per
 * event (tick delta, id, lane*4 + flows*2 + synthetic, next lane, its core when
 * several cores carry their own contexts, priority for thread
 * contexts, info1..4 as zigzag differences from the previous event with the
 * same id, the flows ending at the event), base64, into `w`. Sets seen[id] (65536 entries) to 1 +
 * the module of the first event with that id, its kind in bits 17-21 (REPORT_SEEN_KIND); with
 * --elf (t->elf) adds to `symbols` the information words that are addresses (as `trx events` shows
 * them: UIA by the message format, TXTB by the field's role), at most REPORT_SYMBOLS; feeds
 * `load` (the target's own Load reports; NULL: none named); interrupt-context events on the lanes
 * of `irqs` (NULL: the timeline's); returns the number of events written,
 * UINT64_MAX when out of memory. */
uint64_t trx_report_events(trx_trace *t, trx_out *w, uint32_t *seen, const trx_custom_events *ce,
                           struct trx_address_map *symbols, struct trx_target_load *load,
                           const trx_report_window *win, const struct trx_report_irqs *irqs);
#define REPORT_SEEN_KIND 17
#define REPORT_SYMBOLS 65536u /* addresses the page names at most */

/* report_cores.c: the member ,"cores":[[core, first event, last event, lane], ...]
 * - which thread or interrupt each core runs. 0, or -1 when out of memory. */
int trx_report_core_runs(trx_trace *t, trx_out *w);

/* The same member for a window of events [first, last] (trx serve): the
 * cores followed from cursor `c` (freed here; some events before `first`,
 * so that each core's state is known when the window begins), runs cut to
 * the window. 0, or -1 when out of memory. */
int trx_report_core_runs_window(trx_trace *t, trx_cursor *c, uint64_t first, uint64_t last,
                                trx_out *w);

/* ------------------------------------------ the Responses view (report_latency.c) */

#define REPORT_WORST 5  /* worst instances listed per thread */
#define REPORT_PATHS 64 /* critical paths computed in all (a pass over the trace each) */
/* ... and at most this many events walked for them in all: a trace of N
 * events gets min(REPORT_PATHS, REPORT_PATH_EVENTS / N) paths (10 M events:
 * 5; 100 M: none - the page then says the path is not in it) */
#define REPORT_PATH_EVENTS 50000000u

/* How many critical paths a trace of t->total_events events gets:
 * min(REPORT_PATHS, REPORT_PATH_EVENTS / events) (the Perfetto export's too). */
uint32_t trx_report_path_budget(const trx_trace *t);

/* trx latency's figures as the page shows them (REPORT_WORST worst per
 * thread; prepares the trace). 0, or -1 when out of memory. */
int trx_report_latency_compute(trx_trace *t, trx_latency *l);

/* The options of those figures (a report computes them with its
 * statistics: trx_stats_latency_compute). */
void trx_report_latency_options(trx_latency_options *o);

/* The Responses view's data: {"threads": [{"name", "address", "lane",
 * "instances", "incomplete", "response": {"min", "p50", "p90", "p99", "max",
 * "bin_width", "bins": [TRX_LATENCY_BINS counts]}, "worst": [{"number",
 * "release_index", "release_ticks", "end_ticks", "response_ticks", "draw":
 * [[start, end, state, lane, depth(, holder lane when
 * blocked)] ...], "wake": [lane, event index],
 * "path": `trx why --json`}]}]} (the first REPORT_PATHS worst instances have
 * a path, fewer on large traces: REPORT_PATH_EVENTS). 0, or -1 when out of
 * memory. */
int trx_report_latency_json(trx_trace *t, const trx_latency *l, uint64_t ticks_per_second,
                            trx_out *w);

/* The late marks of the time line: per thread lane its worst instances at or
 * above its p99, [[lane, [[release ticks, release event number] ...]] ...]. */
void trx_report_late_json(const trx_trace *t, const trx_latency *l, trx_out *w);

#endif
