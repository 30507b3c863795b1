/* cmd_export.c - `trx export`: the trace for other tools (Perfetto, Chrome JSON, CSV, CTF). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "export_ctf_dir.h"
#include "output/export_formats.h"

static const char usage[] =
    "usage: trx export --to FORMAT [OPTIONS] FILE\n"
    "\n"
    "Converts the events of FILE for other tools. Every format is written in one\n"
    "pass with memory independent of the trace length.\n"
    "\n"
    "  --to perfetto            Perfetto protobuf trace (ui.perfetto.dev): a track per\n"
    "                           thread with its run slices, interrupt / initialization /\n"
    "                           idle tracks, instant events with decoded arguments,\n"
    "                           counters (CPU load, queue depth, semaphore count),\n"
    "                           flows (ISR -> resumed thread, queue send -> receive,\n"
    "                           semaphore put -> get)\n"
    "  --to chrome-json         Chrome Trace Event Format (JSON; X slices, i instants\n"
    "                           with args, C counters, s/f flows; µs timestamps)\n"
    "  --to csv                 one CSV row per event with time and decoded fields\n"
    "  --to ctf                 a CTF 1.8 trace directory (-o DIR required): DIR/metadata\n"
    "                           and a DIR/stream_N per core N (cpu_id N, as LTTng),\n"
    "                           for babeltrace2 and Trace Compass;\n"
    "                           synthetic RUNNING events are left out\n"

    "  --ticks-per-second N     timer rate, to convert ticks into time (default: the\n"
    "                           trace's or its UIA metadata's, else one tick is taken\n"
    "                           as one microsecond)\n"
    "  --ticks-per-us X         the same in ticks per microsecond (e.g. 80 or 12.5)\n"
    "  --compat tracex          TraceX 6.2.1's rules (Un-named Threads, RUNNING events)\n"
    "  --custom FILE            event names and fields: a description or a .trxc\n"
    "  --input-format FORMAT    bin, ihex, srec, ascii or auto (default)\n"
    "  -o, --output OUT         write to OUT (replaced only when complete); a directory\n"
    "                           for --to ctf\n"
    "\n"
    "Lost events (UIA sequence gaps) are marked in every format: a \"Lost events\"\n"
    "track (Perfetto, Chrome JSON), a lost_before column (CSV), the packets'\n"
    "events_discarded count (CTF). docs/visualize.md maps the model to each format.\n";

enum { OPT_TO = CLI_OPT_FIRST_OWN, OPT_TPS, OPT_TPUS };

typedef enum export_format { FMT_NONE, FMT_PERFETTO, FMT_CHROME, FMT_CSV, FMT_CTF } export_format;

typedef struct export_state {
    export_format format;
    uint64_t ticks_per_second;
} export_state;

static int on_option(void *state, int opt, const char *arg)
{
    export_state *s = state;
    switch (opt) {
    case OPT_TO:
        if (strcmp(arg, "perfetto") == 0)
            s->format = FMT_PERFETTO;
        else if (strcmp(arg, "chrome-json") == 0 || strcmp(arg, "json") == 0)
            s->format = FMT_CHROME;
        else if (strcmp(arg, "csv") == 0)
            s->format = FMT_CSV;
        else if (strcmp(arg, "ctf") == 0)
            s->format = FMT_CTF;
        else
            return cli_usage_error(
                "export", "--to: unknown format '%s' (perfetto, chrome-json, csv, ctf)", arg);
        return -1;
    case OPT_TPS:
        return cli_time_option("export", "ticks-per-second", arg, &s->ticks_per_second);
    case OPT_TPUS:
        return cli_time_option("export", "ticks-per-us", arg, &s->ticks_per_second);
    default:
        return cli_usage_error("export", "unknown option");
    }
}

static int write_export(cli_input *in, const cli_common *c, void *state, trx_out *w)
{
    const export_state *s = state;
    cli_warn_damaged(in, c->args[0], CLI_DAMAGED_SKIPPED(c));
    trx_export_options o = {cli_ticks_per_second(in, s->ticks_per_second), &in->custom};
    int r = s->format == FMT_PERFETTO ? trx_export_perfetto(&in->trace, w, &o)
            : s->format == FMT_CHROME ? trx_export_chrome_json(&in->trace, w, &o)
                                      : trx_export_csv(&in->trace, w, &o);
    if (r != 0) {
        fprintf(stderr, "trx: %s: out of memory\n", c->args[0]);
        return EXIT_INPUT;
    }
    return EXIT_OK;
}

int cmd_export(int argc, char **argv)
{
    static const struct option own[] = {
        {"to", required_argument, NULL, OPT_TO},
        {"ticks-per-second", required_argument, NULL, OPT_TPS},
        {"ticks-per-us", required_argument, NULL, OPT_TPUS},
        {NULL, 0, NULL, 0},
    };
    static export_state s;
    memset(&s, 0, sizeof s);
    const cli_spec spec = {.name = "export",
                           .usage = usage,
                           .common = CLI_COMPAT,
                           .own = own,
                           .on_own = on_option,
                           .own_state = &s,
                           .min_args = 1,
                           .max_args = 1};
    cli_common c;
    int rc = cli_parse(argc, argv, &spec, &c);
    if (rc >= 0)
        return rc;
    if (s.format == FMT_NONE)
        return cli_usage_error("export", "--to FORMAT is required (perfetto, chrome-json, csv, "
                                         "ctf)");
    if (s.format == FMT_CTF) {
        if (!c.output)
            return cli_usage_error("export", "--to ctf writes a directory: give it with -o DIR");
        return export_ctf_directory(&c, s.ticks_per_second);
    }
    return cli_run_on_input(&c, write_export, &s);
}
