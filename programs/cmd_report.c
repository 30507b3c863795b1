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
    "lanes (SYS/BIOS: a lane per Hwi by number and per Swi, a CPU lane per core\n"
    "and the target's Load reports; only lanes something lies on; execution as\n"
    "bars, events as marks coloured by kind, priority inversions highlighted),\n"
    "zoom (wheel, Shift+drag or drag on the ruler), pan\n"
    "(drag), a sequential mode (one event per step), event details on click\n"
    "(names, field captions, object names), search with next / previous, and the\n"
    "statistics of `trx stats` as tables with the execution profile as a chart\n"
    "(Hwi / Swi durations with a link to the longest, load, UIABenchmark\n"
    "durations); legend and tabs show only what the trace has.\n"
    "Cause-and-effect arrows (ISR -> resumed thread, queue send -> receive,\n"
    "semaphore put -> get) and lost-event gaps are drawn too. See docs/visualize.md.\n"
    "A trace of millions of events makes a file too large for a browser: trx\n"
    "report warns above 100 MB; `trx serve FILE` shows any size, and --from,\n"
    "--to and --max-events write a part (the statistics stay the whole trace's).\n"
    "\n"
    "  --ticks-per-second N     timer rate: the ruler and details can show µs\n"
    "  --ticks-per-us X         the same in ticks per microsecond (e.g. 80 or 12.5)\n"
    "  --compat tracex          TraceX 6.2.1's rules (Un-named Threads, RUNNING events)\n"
    "  --from TICKS             only the events at or after this relative tick\n"
    "  --to TICKS               only the events at or before this relative tick\n"
    "  --max-events N           at most N events (from --from on)\n"
    "  --custom FILE            event names and fields: a description or a .trxc\n"
    "  --input-format FORMAT    bin, ihex, srec, ascii or auto (default)\n"
    "  -o, --output OUT         write to OUT (replaced only when complete; default:\n"
    "                           standard output)\n";

enum { OPT_TPS = CLI_OPT_FIRST_OWN, OPT_TPUS, OPT_FROM, OPT_TO, OPT_MAX_EVENTS };

typedef struct report_options {
    uint64_t rate;
    bool windowed;
    trx_report_window win;
} report_options;

/* A report holds every event, about this many bytes each (10.5 M events: 150 MB);
 * above REPORT_WARN_BYTES it says so and points to trx serve. */
#define REPORT_BYTES_PER_EVENT 15u
#define REPORT_WARN_BYTES ((uint64_t)100 << 20)

static int on_option(void *state, int opt, const char *arg)
{
    report_options *r = state;
    switch (opt) {
    case OPT_TPS:
        return cli_time_option("report", "ticks-per-second", arg, &r->rate);
    case OPT_TPUS:
        return cli_time_option("report", "ticks-per-us", arg, &r->rate);
    case OPT_FROM:
    case OPT_TO:
    case OPT_MAX_EVENTS: {
        uint64_t v;
        if (!cli_parse_u64(arg, &v) || (opt == OPT_MAX_EVENTS && v == 0))
            return cli_usage_error("report", "--%s: expected %s, got '%s'",
                                   opt == OPT_FROM ? "from"
                                   : opt == OPT_TO ? "to"
                                                   : "max-events",
                                   opt == OPT_MAX_EVENTS ? "a count > 0" : "relative ticks", arg);
        if (opt == OPT_FROM)
            r->win.from_ticks = v;
        else if (opt == OPT_TO)
            r->win.to_ticks = v;
        else
            r->win.max_events = v;
        r->windowed = true;
        return -1;
    }
    default:
        return cli_usage_error("report", "unknown option");
    }
}

static int write_report(cli_input *in, const cli_common *c, void *state, trx_out *w)
{
    const report_options *r = state;
    if (r->windowed && r->win.from_ticks > r->win.to_ticks)
        return cli_usage_error("report", "--from is after --to");
    cli_warn_damaged(in, c->args[0], CLI_DAMAGED_SKIPPED(c));
    trx_trace_prepare(&in->trace);
    trx_report_window win = r->win; /* found once: for the warning and the page */
    uint64_t events = in->trace.total_events;
    if (r->windowed) {
        trx_report_window_find(&in->trace, &win);
        events = win.count;
    }
    uint64_t estimate = REPORT_BYTES_PER_EVENT * events;
    if (estimate > REPORT_WARN_BYTES) /* one file: every event in it */
        fprintf(stderr,
                "trx report: warning: %s: %llu events: the report will be about %llu MB, more "
                "than a browser opens comfortably; `trx serve %s` shows a trace of any size "
                "(or --from / --to / --max-events: a part)\n",
                c->args[0], (unsigned long long)events, (unsigned long long)(estimate >> 20),
                c->args[0]);
    trx_export_options o = {cli_ticks_per_second(in, r->rate), &in->custom};
    if (trx_report_write_window(&in->trace, w, &o, r->windowed ? &win : NULL) != 0) {
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
        {"from", required_argument, NULL, OPT_FROM},
        {"to", required_argument, NULL, OPT_TO},
        {"max-events", required_argument, NULL, OPT_MAX_EVENTS},
        {NULL, 0, NULL, 0},
    };
    static report_options opts;
    opts = (report_options){0, false, {.from_ticks = 0, .to_ticks = UINT64_MAX, .max_events = 0}};
    const cli_spec spec = {.name = "report",
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
    return cli_run_on_input(&c, write_report, &opts);
}
