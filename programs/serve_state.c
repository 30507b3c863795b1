/*
 * serve_state.c - a generation of `trx serve`'s data (open, build, free) and
 * the host that answers from the newest one (see serve_state.h).
 */
#ifndef _WIN32
#include <inttypes.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analyze/analyses.h"
#include "output/report.h"
#include "output/report_irqs.h"
#include "output/stats_json.h"
#include "serve_state.h"

/* /api/why's saved states: one every SERVE_WHY_INTERVAL events, at most
 * SERVE_WHY_SNAPSHOTS (the interval doubles beyond): 100 M events keep 382
 * every 262 Ki, each O(threads) bytes and a cursor copy. */
#define SERVE_WHY_INTERVAL 65536u
#define SERVE_WHY_SNAPSHOTS 512u

serve_state *serve_state_open(const cli_common *c, const char *path, uint64_t ticks_per_second,
                              uint64_t generation, bool quiet)
{
    serve_state *s = calloc(1, sizeof *s);
    cli_input *in = malloc(sizeof *in);
    char *own = strdup(path);
    if (!s || !in || !own) {
        free(s);
        free(in);
        free(own);
        if (!quiet)
            cli_out_of_memory(path);
        return NULL;
    }
    if (cli_input_open(in, c, own) != 0) {
        free(in);
        free(s);
        free(own);
        return NULL;
    }
    s->path = own;
    s->in = in;
    s->generation = generation;
    s->options = (trx_export_options){cli_ticks_per_second(in, ticks_per_second), &in->custom};
    atomic_init(&s->stats_ready, false);
    atomic_init(&s->stats_failed, false);
    atomic_init(&s->latency_ready, false);
    atomic_init(&s->latency_failed, false);
    FILE *f = open_memstream(&s->page, &s->page_len);
    trx_out *w = f ? malloc(sizeof *w) : NULL;
    s->overview = w ? trx_overview_new(&in->trace) : NULL;
    int rc = -1;
    if (s->overview) {
        trx_out_init(w, f, false);
        rc = trx_report_write_shell(&in->trace, w, &s->options);
        if (trx_out_flush(w) != 0)
            rc = -1;
        /* the window's events go on the same Hwi / Swi lanes as the page's */
        if (rc == 0 && (!(s->irqs = malloc(sizeof *s->irqs)) ||
                        trx_report_irqs_find(&in->trace, s->irqs, NULL) != 0)) {
            free(s->irqs);
            s->irqs = NULL;
            rc = -1;
        }
        if (rc == 0) /* the summaries' columns on those lanes too */
            trx_overview_set_irqs(s->overview, s->irqs);
    }
    free(w);
    if (f)
        fclose(f);
    if (rc != 0) {
        if (!quiet)
            cli_out_of_memory(path);
        serve_state_free(s);
        return NULL;
    }
    return s;
}

/* Room for band `number` (16 bytes a band, doubling); false when out of memory. */
static bool band_room(serve_state *s, uint64_t number)
{
    if (s->bands_failed || number >= UINT32_MAX)
        return false;
    if (number < s->band_cap)
        return true;
    uint64_t cap = s->band_cap ? s->band_cap : 1024;
    while (cap <= number)
        cap *= 2;
    if (cap > UINT32_MAX)
        cap = UINT32_MAX;
    serve_band *more = realloc(s->bands, (size_t)cap * sizeof *more);
    if (!more) {
        s->bands_failed = true;
        return false;
    }
    s->bands = more;
    s->band_cap = (uint32_t)cap;
    return true;
}

/* An inversion beyond those kept whole: only its band (as the statistics find them). */
static void band_done(void *ctx, const trx_inversion_band *b, uint32_t number)
{
    serve_state *s = ctx;
    if (band_room(s, number))
        s->bands[number] = (serve_band){b->start_index, b->end_index, b->unbounded};
}

/* Every inversion becomes a band of the time line (16 bytes, in start
 * order); the statistics keep the first SERVE_INVERSIONS_KEPT whole (the
 * default mode gives the others to band_done as it finds them, so the list
 * never holds them all: 100 M events have ~2 M inversions, 96 bytes each;
 * TraceX's mode lists all, cut here). */
static void keep_inversions(serve_state *s, trx_stats *st)
{
    /* the default mode: every inversion (kept whole or given to band_done);
     * TraceX's mode lists none (its figures and marks only) */
    uint64_t n = st->mode == TRX_MODE_CORRECT ? st->inversions : st->inversion_count;
    s->inversion_total = (uint32_t)(n < UINT32_MAX ? n : UINT32_MAX);
    if (n && !band_room(s, n - 1))
        n = 0;
    for (uint32_t i = 0; i < st->inversion_count && i < n; i++) {
        const trx_inversion *v = &st->inversion_list[i];
        s->bands[i] = (serve_band){v->start_index, v->end_index, v->unbounded};
    }
    s->band_reach = n ? malloc(((size_t)n / SERVE_BAND_BLOCK + 1) * sizeof *s->band_reach) : NULL;
    if (!s->band_reach) {
        free(s->bands);
        s->bands = NULL;
        n = 0;
    }
    uint64_t reach = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (s->bands[i].end > reach)
            reach = s->bands[i].end;
        if (i % SERVE_BAND_BLOCK == SERVE_BAND_BLOCK - 1 || i == n - 1)
            s->band_reach[i / SERVE_BAND_BLOCK] = reach;
    }
    if (st->inversion_count >
        SERVE_INVERSIONS_KEPT) { /* TraceX's mode: the rest is in `trx stats --json` */
        trx_inversion *kept =
            realloc(st->inversion_list, SERVE_INVERSIONS_KEPT * sizeof *st->inversion_list);
        if (kept)
            st->inversion_list = kept;
        st->inversion_count = SERVE_INVERSIONS_KEPT;
    }
}

/* Each thread's median response (what /api/why's text compares with). */
static bool keep_medians(serve_state *s, const trx_latency *lat)
{
    uint32_t n = lat->row_count;
    s->median_address = malloc((n ? n : 1) * sizeof *s->median_address);
    s->median_ticks = malloc((n ? n : 1) * sizeof *s->median_ticks);
    if (!s->median_address || !s->median_ticks)
        return false;
    for (uint32_t i = 0; i < n; i++) {
        s->median_address[i] = lat->rows[i].address;
        s->median_ticks[i] = lat->rows[i].response.p50;
    }
    s->median_count = n;
    return true;
}

/* The saved states /api/why starts from: one pass; with `report`, its size
 * on stderr. */
static bool build_why_index(serve_state *s, const atomic_bool *stop, bool report)
{
    if (atomic_load(stop))
        return false;
    trx_latency_options o = {0};
    o.worst = 1;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (trx_path_index_build(&s->in->trace, &o, SERVE_WHY_INTERVAL, SERVE_WHY_SNAPSHOTS,
                             &s->why_index) < 0)
        return false;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (report)
        fprintf(stderr,
                "trx serve: why index: %u states every %" PRIu64 " events in %.2f s (%.1f MiB)\n",
                trx_path_index_snapshots(s->why_index), trx_path_index_interval(s->why_index),
                (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
                (double)trx_path_index_memory(s->why_index) / 1048576.0);
    return true;
}

void serve_state_build(serve_state *s, const atomic_bool *stop, bool report)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = trx_overview_build(s->overview, stop);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (rc < 0)
        fprintf(stderr, "trx serve: out of memory: the overview stops at event %" PRIu64 "\n",
                trx_overview_ready(s->overview));
    else if (report && !atomic_load(stop))
        fprintf(stderr, "trx serve: overview of %" PRIu64 " events in %.2f s (%.1f MiB)\n",
                trx_overview_ready(s->overview),
                (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
                (double)trx_overview_memory(s->overview) / 1048576.0);
    trx_stats *st = &s->computed;
    if (atomic_load(stop) ||
        trx_stats_compute_kept(&s->in->trace, st, SERVE_INVERSIONS_KEPT, band_done, s) != 0) {
        atomic_store(&s->stats_failed, true);
        return;
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (report)
        fprintf(stderr, "trx serve: statistics in %.2f s\n",
                (double)(t0.tv_sec - t1.tv_sec) + (double)(t0.tv_nsec - t1.tv_nsec) / 1e9);
    st->ticks_per_second = s->options.ticks_per_second;
    keep_inversions(s, st);
    /* the list of inversions is paged (/api/inversions): one JSON of all of
     * them would be the largest thing in memory (~50 bytes an event) */
    trx_stats brief = *st;
    brief.inversion_count = 0;
    FILE *f = open_memstream(&s->stats, &s->stats_len);
    trx_out *w = f ? malloc(sizeof *w) : NULL;
    if (w) {
        trx_out_init(w, f, false);
        trx_stats_write_json(&s->in->trace, &brief, s->options.custom, w);
        trx_out_flush(w);
        free(w);
    }
    if (f)
        fclose(f);
    if (!w)
        trx_stats_free(st);
    /* the statistics are ready: the page shows them while the Responses
     * view's data is computed */
    atomic_store(w ? &s->stats_ready : &s->stats_failed, true);
    /* the Responses view's data, once (its paths read the trace: before the
     * server's /api/why may, which waits for latency_ready) */
    trx_latency lat;
    if (w && !atomic_load(stop) && trx_report_latency_compute(&s->in->trace, &lat) == 0) {
        FILE *lf = open_memstream(&s->latency, &s->latency_len);
        FILE *mf = open_memstream(&s->late, &s->late_len);
        trx_out *lw = lf && mf ? malloc(2 * sizeof *lw) : NULL;
        bool ok = lw != NULL;
        if (lw) {
            trx_out_init(&lw[0], lf, false);
            trx_out_init(&lw[1], mf, false);
            trx_report_late_json(&s->in->trace, &lat, &lw[1]);
            trx_out_flush(&lw[1]);
            trx_out_str(&lw[0], "{\"latency\":");
            ok = trx_report_latency_json(&s->in->trace, &lat, s->options.ticks_per_second,
                                         &lw[0]) == 0;
            trx_out_str(&lw[0], ",\"late\":");
            trx_report_late_json(&s->in->trace, &lat, &lw[0]);
            trx_out_str(&lw[0], "}\n");
            trx_out_flush(&lw[0]);
            free(lw);
        }
        if (lf)
            fclose(lf);
        if (mf)
            fclose(mf);
        ok = ok && keep_medians(s, &lat);
        if (ok && !build_why_index(s, stop, report) && !atomic_load(stop))
            fprintf(stderr, "trx serve: out of memory for the why index: /api/why walks from "
                            "the start\n");
        trx_latency_free(&lat);
        if (ok && s->latency && s->late)
            atomic_store(&s->latency_ready, true);
    }
#ifdef __GLIBC__
    malloc_trim(0); /* what the analyses freed goes back to the system */
#endif
    if (!atomic_load(&s->latency_ready))
        atomic_store(&s->latency_failed, true);
}

void serve_state_free(serve_state *s)
{
    if (!s)
        return;
    trx_overview_free(s->overview);
    if (atomic_load(&s->stats_ready))
        trx_stats_free(&s->computed);
    free(s->page);
    if (s->irqs)
        trx_report_irqs_free(s->irqs);
    free(s->irqs);
    free(s->stats);
    free(s->latency);
    free(s->late);
    free(s->bands);
    free(s->band_reach);
    trx_path_index_free(s->why_index);
    free(s->median_address);
    free(s->median_ticks);
    if (s->in) {
        cli_input_close(s->in);
        free(s->in);
    }
    free(s->path);
    free(s);
}

/* A page that reloads itself (no script: the CSP allows none but inline) until
 * the capture has a first whole packet. */
static const char waiting_page[] =
    "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
    "<meta http-equiv=\"refresh\" content=\"1\"><title>trx serve: waiting</title></head>"
    "<body style=\"font-family:system-ui,sans-serif\"><p id=\"waiting\">trx serve: waiting for "
    "the first events of the capture&hellip;</p></body></html>\n";

int serve_host_handle(void *host, const trx_http_request *req, trx_out *body, const char **type)
{
    serve_host *h = host;
    if (h->current)
        return serve_handle(h->current, req, body, type);
    if (strcmp(req->path, "/") == 0) {
        *type = "text/html; charset=utf-8";
        trx_out_str(body, waiting_page);
        return 200;
    }
    *type = "application/json";
    trx_out_str(body, "{\"waiting\":true}\n");
    return strncmp(req->path, "/api/", 5) == 0 ? 200 : 404;
}

void serve_host_idle(void *host)
{
    serve_host *h = host;
    serve_state *next = atomic_exchange(&h->pending, NULL);
    if (next) {
        serve_state_free(h->current);
        h->current = next;
    }
}

void serve_host_offer(serve_host *h, serve_state *s)
{
    serve_state_free(atomic_exchange(&h->pending, s));
}

void serve_host_free(serve_host *h)
{
    serve_state_free(atomic_exchange(&h->pending, NULL));
    serve_state_free(h->current);
    h->current = NULL;
}
#endif
