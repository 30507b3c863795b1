/*
 * export_path_flows.h - the critical paths of the worst instances, as the
 * Perfetto export carries them: per path a slice over the instance (on a
 * "worst responses" track under its thread's track, the story as an
 * annotation), a flow from the releasing context's event to the released
 * thread's next running slice, and one per lock handoff of a blocked
 * segment (from the holder's first event at or after the wait's end to the
 * waiter's next running slice). The instances are those the report picks
 * (REPORT_WORST per thread, its REPORT_PATHS / REPORT_PATH_EVENTS budget),
 * so the cost is bounded as the report's is. Flow ids are
 * TRX_PATH_FLOW_BASE + k, apart from the cause -> effect flows.
 */
#ifndef TRX_EXPORT_PATH_FLOWS_H
#define TRX_EXPORT_PATH_FLOWS_H

#include <stdint.h>

#include "trx/latency.h"

#define TRX_PATH_FLOW_BASE (1ull << 62)
#define TRX_PATH_TEXT_MAX 512

/* One worst instance drawn as a slice. */
typedef struct trx_path_slice {
    uint32_t lane;
    uint64_t release_index, end_index, release_ticks, end_ticks;
    uint64_t number, response_ticks;
    char name[TRX_NAME_MAX + 96];  /* "high_prio #5 (205,661 ticks)" */
    char story[TRX_PATH_TEXT_MAX]; /* trx why's one-line story */
} trx_path_slice;

typedef struct trx_path_flows trx_path_flows;

/* Computes the worst instances and their paths (passes over `t`, prepared
 * here). NULL when out of memory. */
trx_path_flows *trx_path_flows_new(trx_trace *t, uint64_t ticks_per_second);
void trx_path_flows_free(trx_path_flows *f);

/* The lanes that get a "worst responses" track: lanes[0 .. n-1] (distinct). */
uint32_t trx_path_flows_lanes(const trx_path_flows *f, const uint32_t **lanes);

/* The instance slice beginning at event `index` (one per call; NULL: none left there). */
const trx_path_slice *trx_path_flows_begin_at(trx_path_flows *f, uint64_t index);
/* The instance slice ending at event `index` (one per call; NULL: none left there). */
const trx_path_slice *trx_path_flows_end_at(trx_path_flows *f, uint64_t index);

/* The flows starting at event `ev` (on `lane`): up to `max` ids into `ids`;
 * each then waits for its target lane's next running slice. */
int trx_path_flows_on_event(trx_path_flows *f, const trx_event *ev, uint32_t lane, uint64_t *ids,
                            int max);

/* The flows ending at a running slice beginning on `lane`: up to `max` ids. */
int trx_path_flows_on_run(trx_path_flows *f, uint32_t lane, uint64_t *ids, int max);

#endif
