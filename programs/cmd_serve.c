/*
 * cmd_serve.c - `trx serve FILE`: the report of a trace of any size in the
 * browser, over a local HTTP server (server/http_server.c). The trace stays
 * mapped; a helper thread builds its overview (chunk summaries and cursor
 * checkpoints, lib/overview) and then its statistics while the page is
 * already served; the page fetches summaries, exact events, statistics and
 * search results (programs/serve_api.c).
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "http_server.h"
#include "output/report.h"
#include "output/stats_json.h"
#include "serve_api.h"
#include "trx/stats.h"

static const char usage[] =
    "usage: trx serve [OPTIONS] FILE\n"
    "\n"
    "Shows FILE in the browser with the page of `trx report`, for a trace of any\n"
    "size: a local HTTP server sends the page, then what the view needs - a\n"
    "summary of each lane at screen resolution (what ran, how many events, lost\n"
    "events), the exact events once zoomed in, the statistics, search results.\n"
    "The first line on standard output is the URL to open; it carries a random\n"
    "token, and the server answers only requests with it and with its own\n"
    "address as Host. Ctrl-C stops it.\n"
    "\n"
    "  --port N                 listen on port N (default 0: any free port)\n"
    "  --bind ADDR              listen on ADDR (default 127.0.0.1: this machine\n"
    "                           only; another address lets the network in)\n"
    "  --ticks-per-second N     timer rate: the ruler and details can show µs\n"
    "  --ticks-per-us X         the same in ticks per microsecond\n"
    "  --compat tracex          TraceX 6.2.1's rules (Un-named Threads, RUNNING events)\n"
    "  --custom FILE            event names and fields: a description or a .trxc\n"
    "  --input-format FORMAT    bin, ihex, srec, ascii or auto (default)\n";

typedef struct serve_options {
    uint64_t rate;
    uint64_t port;
    const char *bind;
} serve_options;

enum { OPT_TPS = CLI_OPT_FIRST_OWN, OPT_TPUS, OPT_PORT, OPT_BIND };

static int on_option(void *state, int opt, const char *arg)
{
    serve_options *o = state;
    switch (opt) {
    case OPT_TPS:
        return cli_time_option("serve", "ticks-per-second", arg, &o->rate);
    case OPT_TPUS:
        return cli_time_option("serve", "ticks-per-us", arg, &o->rate);
    case OPT_PORT:
        if (!cli_parse_u64(arg, &o->port) || o->port > 65535)
            return cli_usage_error("serve", "--port: expected 0..65535, got '%s'", arg);
        return -1;
    case OPT_BIND:
        if (!*arg)
            return cli_usage_error("serve", "--bind: expected an address");
        o->bind = arg;
        return -1;
    default:
        return cli_usage_error("serve", "unknown option");
    }
}

#ifdef _WIN32
static int serve(cli_input *in, const cli_common *c, const serve_options *o)
{
    (void)in, (void)o;
    fprintf(stderr, "trx serve: %s: not available on Windows yet (trx report writes the page)\n",
            c->args[0]);
    return EXIT_USAGE;
}
#else

#include <pthread.h>

static atomic_bool stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    atomic_store(&stop_requested, true);
}

/* The helper thread: the overview, then the statistics. */
static void *build(void *arg)
{
    serve_state *s = arg;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = trx_overview_build(s->overview, &stop_requested);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (rc < 0)
        fprintf(stderr, "trx serve: out of memory: the overview stops at event %" PRIu64 "\n",
                trx_overview_ready(s->overview));
    else if (!atomic_load(&stop_requested))
        fprintf(stderr, "trx serve: overview of %" PRIu64 " events in %.2f s (%.1f MiB)\n",
                trx_overview_ready(s->overview),
                (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
                (double)trx_overview_memory(s->overview) / 1048576.0);
    trx_stats *st = &s->computed;
    if (atomic_load(&stop_requested) || trx_stats_compute(&s->in->trace, st) != 0) {
        atomic_store(&s->stats_failed, true);
        return NULL;
    }
    st->ticks_per_second = s->options.ticks_per_second;
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
    atomic_store(w ? &s->stats_ready : &s->stats_failed, true);
    return NULL;
}

/* 32 hex digits from the system's random source; false when there is none. */
static bool make_token(char *out)
{
    unsigned char r[16];
    FILE *f = fopen("/dev/urandom", "rb");
    bool ok = f && fread(r, 1, sizeof r, f) == sizeof r;
    if (f)
        fclose(f);
    for (int i = 0; ok && i < 16; i++)
        snprintf(out + 2 * i, 3, "%02x", r[i]);
    return ok;
}

typedef struct listen_note {
    const char *bind;
    const char *token;
    const char *path;
    uint64_t events;
} listen_note;

static void on_listening(void *ctx, uint16_t port)
{
    const listen_note *n = ctx;
    bool v6 = strchr(n->bind, ':') != NULL;
    const char *host =
        strcmp(n->bind, "0.0.0.0") == 0 || strcmp(n->bind, "::") == 0 ? "127.0.0.1" : n->bind;
    printf(v6 && host == n->bind ? "http://[%s]:%u/?token=%s\n" : "http://%s:%u/?token=%s\n", host,
           (unsigned)port, n->token);
    fflush(stdout);
    fprintf(stderr, "trx serve: %s: %" PRIu64 " events; open the URL above; Ctrl-C stops\n",
            n->path, n->events);
}

/* The handler runs on the server's thread; the context carries both. */
typedef struct serve_ctx {
    serve_state *state;
    listen_note note;
} serve_ctx;

static int handle(void *ctx, const trx_http_request *req, trx_out *body, const char **type)
{
    return serve_handle(((serve_ctx *)ctx)->state, req, body, type);
}

static void listening(void *ctx, uint16_t port)
{
    on_listening(&((serve_ctx *)ctx)->note, port);
}

static int serve(cli_input *in, const cli_common *c, const serve_options *o)
{
    serve_state *s = calloc(1, sizeof *s);
    if (!s)
        return cli_out_of_memory(c->args[0]);
    s->in = in;
    s->options = (trx_export_options){o->rate, &in->custom};
    atomic_init(&s->stats_ready, false);
    atomic_init(&s->stats_failed, false);
    char token[33];
    int rc = EXIT_OK;
    if (!make_token(token)) {
        fprintf(stderr, "trx serve: no random source (/dev/urandom) for the token\n");
        free(s);
        return EXIT_INPUT;
    }
    FILE *f = open_memstream(&s->page, &s->page_len);
    trx_out *w = f ? malloc(sizeof *w) : NULL;
    s->overview = trx_overview_new(&in->trace);
    if (!w || !s->overview) {
        if (f)
            fclose(f);
        free(w);
        free(s->page);
        trx_overview_free(s->overview);
        free(s);
        return cli_out_of_memory(c->args[0]);
    }
    trx_out_init(w, f, false);
    int page_rc = trx_report_write_shell(&in->trace, w, &s->options);
    trx_out_flush(w);
    free(w);
    fclose(f);
    cli_warn_damaged(in, c->args[0], CLI_DAMAGED_SKIPPED(c));
    atomic_store(&stop_requested, false);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGPIPE, SIG_IGN);
    pthread_t helper;
    bool helper_running = page_rc == 0 && pthread_create(&helper, NULL, build, s) == 0;
    if (!helper_running) {
        rc = cli_out_of_memory(c->args[0]);
    } else {
        serve_ctx ctx = {s, {o->bind, token, c->args[0], in->trace.total_events}};
        trx_http_config hc = {o->bind, (uint16_t)o->port, token,          handle,
                              &ctx,    listening,         &stop_requested};
        char err[256];
        if (trx_http_run(&hc, err, sizeof err) < 0) {
            fprintf(stderr, "trx serve: %s\n", err);
            rc = EXIT_USAGE;
        }
        atomic_store(&stop_requested, true);
        pthread_join(helper, NULL);
    }
    trx_overview_free(s->overview);
    if (atomic_load(&s->stats_ready))
        trx_stats_free(&s->computed);
    free(s->page);
    free(s->stats);
    free(s);
    return rc;
}
#endif

int cmd_serve(int argc, char **argv)
{
    static const struct option own[] = {
        {"ticks-per-second", required_argument, NULL, OPT_TPS},
        {"ticks-per-us", required_argument, NULL, OPT_TPUS},
        {"port", required_argument, NULL, OPT_PORT},
        {"bind", required_argument, NULL, OPT_BIND},
        {NULL, 0, NULL, 0},
    };
    static serve_options opts;
    opts = (serve_options){0, 0, "127.0.0.1"};
    const cli_spec spec = {.name = "serve",
                           .usage = usage,
                           .common = CLI_COMPAT,
                           .own = own,
                           .on_own = on_option,
                           .own_state = &opts,
                           .min_args = 1,
                           .max_args = 1};
    cli_common c;
    int rc = cli_parse(argc, argv, &spec, &c);
    if (rc >= 0)
        return rc;
    cli_input in;
    if (cli_input_open(&in, &c, c.args[0]) != 0)
        return EXIT_INPUT;
    rc = serve(&in, &c, &opts);
    cli_input_close(&in);
    return rc;
}
