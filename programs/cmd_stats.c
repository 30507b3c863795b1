/* cmd_stats.c - `trx stats`: the statistics of a trace as text or JSON. */
#include "cli.h"
#include "commands.h"
#include "output/stats_json.h"
#include "output/stats_text.h"
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
    "FileX and NetX statistics; --json adds each thread's ranges and\n"
    "popular services (schema: docs/analyses.md). The default mode counts what\n"
    "happened (docs/analyses.md); --compat tracex gives TraceX's numbers.\n"
    "\n"
    "  --json                  one JSON object instead of text\n"
    "  --window TICKS          CPU load windows (default: the span / 100)\n"
    "  --ticks-per-us X        print times in microseconds (X ticks per us)\n"
    "  --ticks-per-second N    the same, N ticks per second\n"
    "  --compat tracex         TraceX 6.2.1's numbers exactly, quirks "
    "included\n" CLI_HELP_INPUT_OPTIONS;

/* The command's own options. */
typedef struct stats_options {
    uint64_t window, ticks_per_second;
} stats_options;

enum { OPT_WINDOW = CLI_OPT_FIRST_OWN, OPT_TPS, OPT_TPUS };

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
    default:
        return cli_usage_error("stats", "unknown option");
    }
}

static int write_stats(cli_input *in, const cli_common *c, void *state, trx_out *w)
{
    const stats_options *o = state;
    if (in->trace.format == TRX_TRACE_UIA) {
        if (trx_uia_stats_write(&in->trace, &in->custom, c->json, w) == 0)
            return EXIT_OK;
        return cli_out_of_memory(c->args[0]);
    }
    trx_stats st;
    if (trx_stats_compute_windowed(&in->trace, &st, o->window) != 0)
        return cli_out_of_memory(c->args[0]);
    st.ticks_per_second = o->ticks_per_second;
    if (c->json)
        trx_stats_write_json(&in->trace, &st, w);
    else
        trx_stats_write_text(&in->trace, &st, w);
    trx_stats_free(&st);
    return EXIT_OK;
}

int cmd_stats(int argc, char **argv)
{
    static const struct option own[] = {
        {"window", required_argument, NULL, OPT_WINDOW},
        {"ticks-per-second", required_argument, NULL, OPT_TPS},
        {"ticks-per-us", required_argument, NULL, OPT_TPUS},
        {NULL, 0, NULL, 0},
    };
    static stats_options opts;
    opts = (stats_options){0, 0};
    const cli_spec spec = {.name = "stats",
                           .usage = usage,
                           .common = CLI_JSON | CLI_COMPAT,
                           .own = own,
                           .on_own = on_option,
                           .own_state = &opts,
                           .min_args = 1,
                           .max_args = 1};
    return cli_main_on_input(argc, argv, &spec, write_stats, &opts);
}
