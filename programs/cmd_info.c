/* cmd_info.c - `trx info`: what a dump holds (format, header, registry, wrap state, time span). */
#include "cli.h"
#include "commands.h"
#include "output/info_json.h"
#include "output/info_text.h"
#include "output/uia_info.h"

static const char usage[] =
    "usage: trx info [OPTIONS] FILE\n"
    "\n"
    "Prints what FILE holds: source format, byte order, header fields, registry\n"
    "entries used/total, buffer capacity, entries used, wrap state, oldest entry,\n"
    "first and last relative tick, timer mask and counting direction, damaged\n"
    "entries skipped (empty, half-written, stale, torn; --json lists them), a warning\n"
    "when the time stamps never change or their steps are implausible for the\n"
    "timer mask (most of the span in steps over half the timer range) or the time\n"
    "source started after tracing (the first entries stamped 0 or all ones); then the\n"
    "cores: how many (multi-core or not), events per core and the threads that\n"
    "logged events on each core (ThreadX SMP writes the core in id bits 24-31):\n"
    "the 10 busiest and how many more (--json lists them all).\n"
    "\n"
    "  --json                  one JSON object instead of text\n"
    "  --compat tracex         TraceX 6.2.1's rules (Un-named Threads, RUNNING "
    "events)\n" CLI_HELP_INPUT_OPTIONS;

static int write_info(cli_input *in, const cli_common *c, void *state, trx_out *w)
{
    (void)state;
    if (in->trace.format == TRX_TRACE_UIA) {
        if (c->json)
            trx_uia_info_write_json(&in->trace, w);
        else
            trx_uia_info_write_text(&in->trace, w);
        return EXIT_OK;
    }
    trx_time_check tc;
    trx_core_summary cores;
    if (trx_core_summary_compute_checked(&in->trace, &cores, &tc) != 0) {
        trx_core_summary_free(&cores);
        return cli_out_of_memory(c->args[0]);
    }
    if (c->json)
        trx_info_write_json(&in->trace, &tc, &cores, w);
    else
        trx_info_write_text(&in->trace, &tc, &cores, w);
    trx_core_summary_free(&cores);
    return EXIT_OK;
}

int cmd_info(int argc, char **argv)
{
    static const cli_spec spec = {.name = "info",
                                  .usage = usage,
                                  .common = CLI_JSON | CLI_COMPAT,
                                  .min_args = 1,
                                  .max_args = 1};
    cli_common c;
    int rc = cli_parse(argc, argv, &spec, &c);
    if (rc >= 0)
        return rc;
    c.core_counts = true; /* the per-core summary from the open's own pass: each entry read once */
    return cli_run_on_input(&c, write_info, NULL);
}
