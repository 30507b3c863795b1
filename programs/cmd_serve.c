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
    "  --input-format FORMAT    bin, ihex, srec, ascii or auto (default)\n"
    "  --trace-format txtb|uia  the trace decoder (default: by content)\n"
    "  --endian little|big      byte order of UIA records (default: packet bit / detected)\n"
    "  --uia-meta FILE          UIA event names: a names file or TI's APP.uia.xml\n"
    "  --elf FIRMWARE           the firmware's ELF: addresses shown as its symbols\n"
    "  --max-input-size SIZE    refuse larger input (default 4G; K, M, G suffixes)\n"
    "\n"
    "The page is `trx report`'s; when served it draws by time only (no sequential\n"
    "mode) and lists the first 10,000 priority inversions (trx stats --json: all).\n"
    "trx capture --serve shows a capture while it grows.\n";

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
static int serve(const cli_common *c, const serve_options *o)
{
    (void)o;
    fprintf(stderr, "trx serve: %s: not available on Windows yet (trx report writes the page)\n",
            c->args[0]);
    return EXIT_USAGE;
}
#else

#include <pthread.h>

#include "serve_state.h"

static atomic_bool stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    atomic_store(&stop_requested, true);
}

/* The helper thread: the overview, then the statistics. */
static void *build(void *arg)
{
    serve_state_build(arg, &stop_requested, true);
    return NULL;
}

bool serve_make_token(char *out)
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

void serve_print_url(const char *bind, uint16_t port, const char *token)
{
    bool v6 = strchr(bind, ':') != NULL;
    bool any = strcmp(bind, "0.0.0.0") == 0 || strcmp(bind, "::") == 0;
    printf(v6 && !any ? "http://[%s]:%u/?token=%s\n" : "http://%s:%u/?token=%s\n",
           any ? "127.0.0.1" : bind, (unsigned)port, token);
    fflush(stdout);
}

typedef struct serve_ctx {
    serve_host host;
    const char *bind, *token, *path;
    uint64_t events;
} serve_ctx;

static int handle(void *ctx, const trx_http_request *req, trx_out *body, const char **type)
{
    return serve_host_handle(&((serve_ctx *)ctx)->host, req, body, type);
}

static void listening(void *ctx, uint16_t port)
{
    const serve_ctx *n = ctx;
    serve_print_url(n->bind, port, n->token);
    fprintf(stderr, "trx serve: %s: %" PRIu64 " events; open the URL above; Ctrl-C stops\n",
            n->path, n->events);
}

static int serve(const cli_common *c, const serve_options *o)
{
    char token[33];
    if (!serve_make_token(token)) {
        fprintf(stderr, "trx serve: no random source (/dev/urandom) for the token\n");
        return EXIT_INPUT;
    }
    serve_state *s = serve_state_open(c, c->args[0], o->rate, 1, false);
    if (!s)
        return EXIT_INPUT;
    cli_warn_damaged(s->in, c->args[0], CLI_DAMAGED_SKIPPED(c));
    atomic_store(&stop_requested, false);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGPIPE, SIG_IGN);
    serve_ctx ctx = {{s, NULL, NULL}, o->bind, token, c->args[0], s->in->trace.total_events};
    atomic_init(&ctx.host.pending, NULL);
    pthread_t helper;
    int rc = EXIT_OK;
    if (pthread_create(&helper, NULL, build, s) != 0) {
        rc = cli_out_of_memory(c->args[0]);
    } else {
        trx_http_config hc = {o->bind, (uint16_t)o->port, token,           handle,
                              &ctx,    listening,         &stop_requested, NULL};
        char err[256];
        if (trx_http_run(&hc, err, sizeof err) < 0) {
            fprintf(stderr, "trx serve: %s\n", err);
            rc = EXIT_USAGE;
        }
        atomic_store(&stop_requested, true);
        /* the overview stops at its next chunk; the statistics cannot be
         * interrupted: when they are still being computed, the process ends
         * without waiting for them (their memory goes with it) */
        if (!atomic_load(&s->stats_ready) && !atomic_load(&s->stats_failed) &&
            trx_overview_done(s->overview)) {
            pthread_detach(helper);
            return rc;
        }
        pthread_join(helper, NULL);
    }
    serve_host_free(&ctx.host);
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
    c.time_counts = true; /* the statistics' pre-passes from the open's own pass */
    return serve(&c, &opts);
}
