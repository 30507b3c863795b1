/* event_filter.h - which events `trx events` lists: threads, event ids, cores, a tick range,
 * synthetic or not. */
#ifndef TRX_EVENT_FILTER_H
#define TRX_EVENT_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "trx/catalog.h"
#include "trx/trx.h"

typedef struct trx_event_filter {
    uint32_t *threads; /* context values to keep (when thread_count > 0) */
    uint32_t thread_count;
    uint8_t *ids; /* bitmap of the 65536 event ids to keep, NULL = all */
    bool have_from, have_to;
    uint64_t from, to; /* inclusive relative-tick range */
    bool no_synthetic; /* drop the RUNNING events TraceX inserts */
    bool have_cores;
    uint8_t cores[32]; /* bitmap of the 256 core numbers to keep (when have_cores) */
} trx_event_filter;

/* Starts with a filter that keeps everything. */
void trx_event_filter_init(trx_event_filter *f);

/* Also keeps events of thread `spec`: an exact thread name (registry or
 * "Un-named Thread") or a 0x-prefixed hex address. -1 with `err` when no
 * thread has that name or the address is malformed. May prepare `t`. */
int trx_event_filter_add_thread(trx_event_filter *f, trx_trace *t, const char *spec,
                                trx_error *err);

/* Also keeps event `spec`: a decimal or 0x id (0..65535), or a name matched
 * case-insensitively against catalogue display names, symbols (with or
 * without the TML_ prefix), TraceX GUI names and custom-event names. */
int trx_event_filter_add_event(trx_event_filter *f, const char *spec, const trx_custom_events *ce,
                               trx_error *err);

/* Also keeps events recorded on core `spec` (decimal 0..255). -1 with `err`
 * when it is not such a number. */
int trx_event_filter_add_core(trx_event_filter *f, const char *spec, trx_error *err);

/* True when `ev` passes every condition. */
bool trx_event_filter_match(const trx_event_filter *f, const trx_event *ev);

/* True when no later event can match (its ticks are past the range). */
bool trx_event_filter_done(const trx_event_filter *f, const trx_event *ev);

/* Releases the filter's memory. */
void trx_event_filter_free(trx_event_filter *f);

#endif
