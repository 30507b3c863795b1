/* cmd_stats.c - `trx stats`: the statistics of a trace as text or JSON. */
#include <stdio.h>

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
    "  --compat tracex         TraceX 6.2.1's numbers exactly, quirks included\n"
    "  --input-format FORMAT   bin, ihex, srec, ascii or auto (default)\n"
    "  --trace-format txtb|uia the trace decoder (default: by content)\n"
    "  --endian little|big     byte order of UIA records (default: packet bit / detected)\n"
    "  --uia-meta FILE         UIA event names: a names file or TI's APP.uia.xml\n"
    "  --max-input-size SIZE   refuse larger input (default 4G; K, M, G suffixes)\n"
    "  --custom FILE.trxc      TraceX custom-event definitions (checked)\n"
    "  -o, --output OUT        write to OUT (replaced only when complete)\n";

static int write_stats(cli_input *in, const cli_common *c, void *state, trx_out *w)
{
    if (in->trace.format == TRX_TRACE_UIA) {
        if (trx_uia_stats_write(&in->trace, &in->custom, c->json, w) == 0)
            return EXIT_OK;
        fprintf(stderr, "trx: %s: out of memory\n", c->args[0]);
        return EXIT_INPUT;
    }
    (void)state;
    trx_stats st;
    if (trx_stats_compute(&in->trace, &st) != 0) {
        fprintf(stderr, "trx: %s: out of memory\n", c->args[0]);
        return EXIT_INPUT;
    }
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
    cli_common c;
    int rc = cli_parse(argc, argv, &spec, &c);
    return rc >= 0 ? rc : cli_run_on_input(&c, write_stats, NULL);
}
