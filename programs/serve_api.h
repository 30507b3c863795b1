/* serve_api.h - what `trx serve` answers (serve_api.c): the page and its
 * data endpoints over one opened trace, its overview (built on another
 * thread) and its statistics (likewise). */
#ifndef TRX_SERVE_API_H
#define TRX_SERVE_API_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "http_request.h"
#include "output/export_formats.h"
#include "overview/trace_overview.h"
#include "trx/stats.h"

/* Most events one view answer carries exactly; wider views get summaries. */
#define SERVE_EVENTS_MAX 100000u
/* Inversions kept for /api/inversions (the page lists the first 2,000;
 * `trx stats --json` has every one): a trace of 100 M events can have
 * millions, 96 bytes each. */
#define SERVE_INVERSIONS_KEPT 10000u
/* Events before a window from which its CPU lanes' cores are followed (each
 * core's running thread known when the window begins). */
#define SERVE_CORE_LEAD 8192u
/* Events a search request reads at most before it answers "go on from". */
#define SERVE_SEARCH_BUDGET 4000000u

/* An inversion as the time line shows it: from event to event. */
typedef struct serve_band {
    uint64_t start;
    uint64_t end : 63, unbounded : 1;
} serve_band;
#define SERVE_BAND_BLOCK 64u /* bands per entry of band_reach */

typedef struct serve_state {
    cli_input *in;       /* owned */
    char *path;          /* owned: the trace's name (the caller's buffer may change) */
    uint64_t generation; /* 1, 2 ...: a live capture's view grows by generations */
    bool live;
    trx_export_options options;
    trx_overview *overview;
    char *page;                   /* the page (trx_report_write_shell), made once */
    struct trx_report_irqs *irqs; /* its Hwi / Swi lanes (output/report_irqs.h), NULL: none */
    size_t page_len;
    char *stats; /* `trx stats --json` of the trace without the inversion list */
    size_t stats_len;
    trx_stats computed;       /* the statistics, for /api/inversions (pages of the list) */
    uint32_t inversion_total; /* inversions found (computed keeps the first KEPT) */
    serve_band *bands;        /* every inversion as a band: where, and whether unbounded */
    uint32_t band_cap;        /* bands allocated (while the statistics are computed) */
    bool bands_failed;        /* out of memory for them: none shown */
    uint64_t *band_reach;     /* per block of SERVE_BAND_BLOCK bands: the latest end up to it */
    atomic_bool stats_ready;
    atomic_bool stats_failed;
    char *latency; /* /api/latency: the Responses view's data and the late marks */
    size_t latency_len;
    char *late; /* the late marks alone ("late" of /api/view answers) */
    size_t late_len;
    atomic_bool latency_ready;  /* set after the statistics (the helper thread is done) */
    atomic_bool latency_failed; /* the helper thread ended without it */
    /* /api/why: the walk's saved states (from the statistics' thread, before
     * latency_ready) and each thread's median response, by address */
    struct trx_path_index *why_index;
    uint32_t *median_address;
    uint64_t *median_ticks;
    uint32_t median_count;
} serve_state;

/* 32 hex digits from the system's random source (the URL's token); false when none. */
bool serve_make_token(char *out);

/* Prints the URL of a server bound to `bind` on `port` (stdout, flushed). */
void serve_print_url(const char *bind, uint16_t port, const char *token);

/* The HTTP handler (trx_http_handler) over a serve_state. */
int serve_handle(void *state, const trx_http_request *req, trx_out *body, const char **type);

#endif
