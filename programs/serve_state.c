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

#include "output/report.h"
#include "output/stats_json.h"
#include "serve_state.h"

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
    s->options = (trx_export_options){ticks_per_second, &in->custom};
    atomic_init(&s->stats_ready, false);
    atomic_init(&s->stats_failed, false);
    FILE *f = open_memstream(&s->page, &s->page_len);
    trx_out *w = f ? malloc(sizeof *w) : NULL;
    s->overview = w ? trx_overview_new(&in->trace) : NULL;
    int rc = -1;
    if (s->overview) {
        trx_out_init(w, f, false);
        rc = trx_report_write_shell(&in->trace, w, &s->options);
        if (trx_out_flush(w) != 0)
            rc = -1;
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

/* Every inversion becomes a band of the time line (16 bytes, in start order),
 * the list itself is cut to its first SERVE_INVERSIONS_KEPT; the list is
 * shrunk while the bands are filled from its end, so that both are never
 * whole in memory at once (100 M events: ~2 M inversions, 188 MB of list). */
static void keep_inversions(serve_state *s, trx_stats *st)
{
    uint32_t n = st->inversion_count;
    s->inversion_total = n;
    s->bands = n ? malloc((size_t)n * sizeof *s->bands) : NULL;
    s->band_reach = n ? malloc(((size_t)n / SERVE_BAND_BLOCK + 1) * sizeof *s->band_reach) : NULL;
    if (!s->bands || !s->band_reach) {
        free(s->bands);
        free(s->band_reach);
        s->bands = NULL;
        s->band_reach = NULL;
    }
    for (uint32_t hi = n; s->bands && hi > 0;) {
        uint32_t lo = hi > 65536 ? hi - 65536 : 0;
        for (uint32_t i = lo; i < hi; i++) {
            const trx_inversion *v = &st->inversion_list[i];
            s->bands[i] = (serve_band){v->start_index, v->end_index, v->unbounded};
        }
        hi = lo;
        if (hi >= SERVE_INVERSIONS_KEPT) {
            trx_inversion *less = realloc(st->inversion_list, (size_t)hi * sizeof *less);
            if (less)
                st->inversion_list = less;
        }
    }
    uint64_t reach = 0;
    for (uint32_t i = 0; s->bands && i < n; i++) {
        if (s->bands[i].end > reach)
            reach = s->bands[i].end;
        if (i % SERVE_BAND_BLOCK == SERVE_BAND_BLOCK - 1 || i == n - 1)
            s->band_reach[i / SERVE_BAND_BLOCK] = reach;
    }
    if (n > SERVE_INVERSIONS_KEPT) { /* the rest: `trx stats --json` */
        trx_inversion *kept =
            realloc(st->inversion_list, SERVE_INVERSIONS_KEPT * sizeof *st->inversion_list);
        if (kept)
            st->inversion_list = kept;
        st->inversion_count = SERVE_INVERSIONS_KEPT;
    }
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
    if (atomic_load(stop) || trx_stats_compute(&s->in->trace, st) != 0) {
        atomic_store(&s->stats_failed, true);
        return;
    }
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
#ifdef __GLIBC__
    malloc_trim(0); /* what the analyses freed goes back to the system */
#endif
    atomic_store(w ? &s->stats_ready : &s->stats_failed, true);
}

void serve_state_free(serve_state *s)
{
    if (!s)
        return;
    trx_overview_free(s->overview);
    if (atomic_load(&s->stats_ready))
        trx_stats_free(&s->computed);
    free(s->page);
    free(s->stats);
    free(s->bands);
    free(s->band_reach);
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
