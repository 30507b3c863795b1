/* cmd_stats.c - `trx stats`: the statistics of a trace as text or JSON. */
#include <inttypes.h>
#include <stdlib.h>

#include "cli.h"
#include "commands.h"
#include "output/stats_json.h"
#include "output/stats_text.h"
#include "output/registry_warning.h"
#include "output/time_warnings.h"
#include "output/uia_stats.h"

static const char usage[] =
    "usage: trx stats [OPTIONS] FILE\n"
    "\n"
    "Prints the statistics of FILE: performance statistics (context switches,\n"
    "preemptions, time slices, suspensions, resumptions, interrupts, priority\n"
    "inversions: total, bounded, unbounded), each priority inversion on a mutex\n"
    "or a semaphore used as a lock, execution profile, stack usage, popular\n"
    "services, ISR durations (count, min, mean, p99, max; exclusive of nested\n"
    "ISRs), interrupt-to-thread latency, response time, CPU load per window,\n"
    "FileX and NetX statistics, UIABenchmark start/stop durations per core and\n"
    "name (UIA with --uia-meta); --json adds each thread's ranges and\n"
    "popular services (schema: docs/analyses.md). The default mode counts what\n"
    "happened (docs/analyses.md); --compat tracex gives TraceX's numbers.\n"
    "\n"
    "  --json                  one JSON object instead of text (every row)\n"
    "  --rows N                tables of threads and inversions list the N most\n"
    "                          telling (busiest, fullest stack, longest,\n"
    "                          unbounded) and how many more (default 100)\n"
    "  --all                   every row (as --rows 0)\n"
    "  --window TICKS          CPU load windows (default: the span / 100)\n"
    "  --ticks-per-us X        print times in microseconds (X ticks per us; default:\n"
    "                          the rate TI's metadata / sync points give, if any)\n"
    "  --ticks-per-second N    the same, N ticks per second\n"
    "  --compat tracex         TraceX 6.2.1's numbers exactly, quirks "
    "included\n" CLI_HELP_INPUT_OPTIONS;

/* The command's own options. */
typedef struct stats_options {
    uint64_t window, ticks_per_second;
    uint32_t rows; /* text tables' rows, 0: all */
} stats_options;

enum { OPT_WINDOW = CLI_OPT_FIRST_OWN, OPT_TPS, OPT_TPUS, OPT_ROWS, OPT_ALL };

static int on_option(void *state, int opt, const char *arg)
{
    stats_options *o = state;
    switch (opt) {
    case OPT_WINDOW:
        if (!cli_parse_u64(arg, &o->window) || o->window == 0)
            return cli_usage_error("stats", "--window: expected a positive tick count, got '%s'",
                                   arg);
        return -1;
    case OPT_TPS:
        return cli_time_option("stats", "ticks-per-second", arg, &o->ticks_per_second);
    case OPT_TPUS:
        return cli_time_option("stats", "ticks-per-us", arg, &o->ticks_per_second);
    case OPT_ROWS: {
        uint64_t n;
        if (!cli_parse_u64(arg, &n) || n > UINT32_MAX)
            return cli_usage_error("stats", "--rows: expected a row count (0: all), got '%s'", arg);
        o->rows = (uint32_t)n;
        return -1;
    }
    case OPT_ALL:
        o->rows = 0;
        return -1;
    default:
        return cli_usage_error("stats", "unknown option");
    }
}

/* --window too small for the span: the error, and the smallest window that fits. */
static int too_many_windows(const trx_trace *t, uint64_t window)
{
    fprintf(stderr,
            "trx stats: --window %" PRIu64 ": cuts the span into %" PRIu64
            " windows or more; use a window of at least %" PRIu64 " ticks\n",
            window, TRX_LOAD_WINDOWS_MAX, trx_trace_span_ticks(t) / (TRX_LOAD_WINDOWS_MAX - 1) + 1);
    return EXIT_USAGE;
}

static int write_stats(cli_input *in, const cli_common *c, void *state, trx_out *w)
{
    const stats_options *o = state;
    if (in->trace.format == TRX_TRACE_UIA) {
        trx_uia_stats_options uo = {c->json, o->window,
                                    cli_ticks_per_second(in, o->ticks_per_second), o->rows};
        int rc = trx_uia_stats_write(&in->trace, &in->custom, &uo, w);
        if (rc == TRX_STATS_TOO_MANY_WINDOWS)
            return too_many_windows(&in->trace, o->window);
        return rc == 0 ? EXIT_OK : cli_out_of_memory(c->args[0]);
    }
    /* a time source that does not run, does not fit its mask or started
     * late makes every timing figure wrong: say so (stderr) */
    trx_time_check tc;
    trx_trace_time_check(&in->trace, &tc);
    trx_out *err = malloc(sizeof *err);
    if (err) {
        trx_out_init(err, stderr, false);
        trx_time_warnings_write(&in->trace, &tc, "trx stats: warning: ", err);
        trx_out_flush(err);
        free(err);
    }
    trx_stats st;
    int rc = trx_stats_compute_windowed(&in->trace, &st, o->window);
    if (rc == TRX_STATS_TOO_MANY_WINDOWS)
        return too_many_windows(&in->trace, o->window);
    if (rc != 0)
        return cli_out_of_memory(c->args[0]);
    if (trx_registry_full(&in->trace)) { /* the trace is prepared: Un-named Threads known */
        char text[400];
        trx_registry_warning_text(&in->trace, trx_trace_unnamed_threads(&in->trace), text,
                                  sizeof text);
        fprintf(stderr, "trx stats: warning: %s\n", text);
    }
    st.ticks_per_second = cli_ticks_per_second(in, o->ticks_per_second);
    if (c->json)
        trx_stats_write_json(&in->trace, &st, &in->custom, w);
    else
        trx_stats_write_text(&in->trace, &st, &in->custom, o->rows, w);
    trx_stats_free(&st);
    return EXIT_OK;
}

int cmd_stats(int argc, char **argv)
{
    static const struct option own[] = {
        {"window", required_argument, NULL, OPT_WINDOW},
        {"ticks-per-second", required_argument, NULL, OPT_TPS},
        {"ticks-per-us", required_argument, NULL, OPT_TPUS},
        {"rows", required_argument, NULL, OPT_ROWS},
        {"all", no_argument, NULL, OPT_ALL},
        {NULL, 0, NULL, 0},
    };
    static stats_options opts;
    opts = (stats_options){0, 0, TRX_STATS_TEXT_ROWS};
    const cli_spec spec = {.name = "stats",
                           .usage = usage,
                           .common = CLI_JSON | CLI_COMPAT,
                           .own = own,
                           .on_own = on_option,
                           .own_state = &opts,
                           .min_args = 1,
                           .max_args = 1};
    cli_common c;
    int rc = cli_parse(argc, argv, &spec, &c);
    if (rc >= 0)
        return rc;
    c.time_counts = true; /* the time check, ticks and cores from the open's own pass */
    return cli_run_on_input(&c, write_stats, &opts);
}
