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
    "services, FileX and NetX statistics; --json adds each thread's ranges and\n"
    "popular services (schema: docs/analyses.md). The default mode counts what\n"
    "happened (docs/analyses.md); --compat tracex gives TraceX's numbers.\n"
    "\n"
    "  --json                  one JSON object instead of text\n"
    "  --compat tracex         TraceX 6.2.1's numbers exactly, quirks "
    "included\n" CLI_HELP_INPUT_OPTIONS;

static int write_stats(cli_input *in, const cli_common *c, void *state, trx_out *w)
{
    if (in->trace.format == TRX_TRACE_UIA) {
        if (trx_uia_stats_write(&in->trace, &in->custom, c->json, w) == 0)
            return EXIT_OK;
        return cli_out_of_memory(c->args[0]);
    }
    (void)state;
    trx_stats st;
    if (trx_stats_compute(&in->trace, &st) != 0)
        return cli_out_of_memory(c->args[0]);
    if (c->json)
        trx_stats_write_json(&in->trace, &st, w);
    else
        trx_stats_write_text(&in->trace, &st, w);
    trx_stats_free(&st);
    return EXIT_OK;
}

int cmd_stats(int argc, char **argv)
{
    static const cli_spec spec = {.name = "stats",
                                  .usage = usage,
                                  .common = CLI_JSON | CLI_COMPAT,
                                  .min_args = 1,
                                  .max_args = 1};
    return cli_main_on_input(argc, argv, &spec, write_stats, NULL);
}
