/* cmd_report.c - `trx report`: one self-contained interactive HTML file of a trace. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "output/report.h"

static const char usage[] =
    "usage: trx report [OPTIONS] FILE -o REPORT.html\n"
    "\n"
    "Writes one HTML file that shows FILE the way TraceX does, in any browser and\n"
    "without network: a header (source, format, byte order, timer, capacity, wrap),\n"
    "a time line with a lane per thread plus interrupt, initialization and idle\n"
    "lanes (execution as bars, events as marks coloured by kind, priority\n"
    "inversions highlighted), zoom (wheel, Shift+drag or drag on the ruler), pan\n"
    "(drag), a sequential mode (one event per step), event details on click\n"
    "(names, field captions, object names), search with next / previous, and the\n"
    "statistics of `trx stats` as tables with the execution profile as a chart.\n"
    "Cause-and-effect arrows (ISR -> resumed thread, queue send -> receive,\n"
    "semaphore put -> get) and lost-event gaps are drawn too. See docs/visualize.md.\n"
    "A trace of millions of events makes a file too large for a browser: trx\n"
    "report warns above 100 MB; `trx serve FILE` shows any size.\n"
    "\n"
    "  --ticks-per-second N     timer rate: the ruler and details can show µs\n"
    "  --ticks-per-us X         the same in ticks per microsecond (e.g. 80 or 12.5)\n"
    "  --compat tracex          TraceX 6.2.1's rules (Un-named Threads, RUNNING events)\n"
    "  --custom FILE            event names and fields: a description or a .trxc\n"
    "  --input-format FORMAT    bin, ihex, srec, ascii or auto (default)\n"
    "  -o, --output OUT         write to OUT (replaced only when complete; default:\n"
    "                           standard output)\n";

enum { OPT_TPS = CLI_OPT_FIRST_OWN, OPT_TPUS };

/* A report holds every event, about this many bytes each (10.5 M events: 150 MB);
 * above REPORT_WARN_BYTES it says so and points to trx serve. */
#define REPORT_BYTES_PER_EVENT 15u
#define REPORT_WARN_BYTES ((uint64_t)100 << 20)

static int on_option(void *state, int opt, const char *arg)
{
    uint64_t *rate = state;
    switch (opt) {
    case OPT_TPS:
        return cli_time_option("report", "ticks-per-second", arg, rate);
    case OPT_TPUS:
        return cli_time_option("report", "ticks-per-us", arg, rate);
    default:
        return cli_usage_error("report", "unknown option");
    }
}

static int write_report(cli_input *in, const cli_common *c, void *state, trx_out *w)
{
    const uint64_t *rate = state;
    cli_warn_damaged(in, c->args[0], CLI_DAMAGED_SKIPPED(c));
    trx_trace_prepare(&in->trace);
    uint64_t estimate = REPORT_BYTES_PER_EVENT * in->trace.total_events;
    if (estimate > REPORT_WARN_BYTES) /* one file: every event in it */
        fprintf(stderr,
                "trx report: warning: %s has %llu events: the report will be about %llu MB, more "
                "than a browser opens comfortably; `trx serve %s` shows a trace of any size\n",
                c->args[0], (unsigned long long)in->trace.total_events,
                (unsigned long long)(estimate >> 20), c->args[0]);
    trx_export_options o = {*rate, &in->custom};
    if (trx_report_write(&in->trace, w, &o) != 0) {
        fprintf(stderr, "trx: %s: out of memory (or no temporary file)\n", c->args[0]);
        return EXIT_INPUT;
    }
    return EXIT_OK;
}

int cmd_report(int argc, char **argv)
{
    static const struct option own[] = {
        {"ticks-per-second", required_argument, NULL, OPT_TPS},
        {"ticks-per-us", required_argument, NULL, OPT_TPUS},
        {NULL, 0, NULL, 0},
    };
    static uint64_t rate;
    rate = 0;
    const cli_spec spec = {.name = "report",
                           .usage = usage,
                           .common = CLI_COMPAT,
                           .own = own,
                           .on_own = on_option,
                           .own_state = &rate,
                           .min_args = 1,
                           .max_args = 1};
    cli_common c;
    int rc = cli_parse(argc, argv, &spec, &c);
    return rc >= 0 ? rc : cli_run_on_input(&c, write_report, &rate);
}
