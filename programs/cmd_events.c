/* cmd_events.c - `trx events`: one line per event (text, CSV or JSON Lines), with filters. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "output/event_filter.h"
#include "output/events_output.h"

static const char usage[] =
    "usage: trx events [OPTIONS] FILE\n"
    "\n"
    "Lists the events of FILE in TraceX's order, including the RUNNING events\n"
    "TraceX inserts where the running thread changes without an event (one\n"
    "the next event contradicts names that event's thread: docs/analyses.md).\n"
    "Every line carries the core that recorded the event (0 on single-core\n"
    "traces).\n"
    "\n"
    "  --format text|csv|jsonl  output format (default: text)\n"
    "  --thread NAME|0xADDR     only events of this thread (repeatable)\n"
    "  --event NAME|ID          only this event: catalogue name (\"TX QUEUE SEND\"),\n"
    "                           symbol, TraceX GUI name, custom-event name, or a\n"
    "                           decimal / 0x id (repeatable)\n"
    "  --core N                 only events recorded on core N (repeatable); a\n"
    "                           RUNNING event TraceX inserts has the core of the\n"
    "                           event before it\n"
    "  --from TICKS             only events at or after this relative tick\n"
    "  --to TICKS               only events at or before this relative tick\n"
    "  --no-synthetic           leave out the RUNNING events TraceX inserts\n"
    "  --compat tracex          TraceX 6.2.1's rules (Un-named Threads, RUNNING events,\n"
    "                           the dump's event labels in text)\n"
    "  --custom FILE            event names and fields: a description or a .trxc\n"
    "  --crlf                   end lines with CR LF\n"
    "  --input-format FORMAT    bin, ihex, srec, ascii or auto (default)\n"
    "  --trace-format txtb|uia  the trace decoder (default: by content)\n"
    "  --endian little|big      byte order of UIA records (default: packet bit / detected)\n"
    "  --uia-meta FILE          UIA event names: a names file or TI's APP.uia.xml (its\n"
    "                           clocks give jsonl's time_us)\n"
    "  --max-input-size SIZE    refuse larger input (default 4G; K, M, G suffixes)\n"
    "  -o, --output OUT         write to OUT (replaced only when complete)\n";

enum {
    OPT_FORMAT = CLI_OPT_FIRST_OWN,
    OPT_THREAD,
    OPT_EVENT,
    OPT_CORE,
    OPT_FROM,
    OPT_TO,
    OPT_NO_SYNTHETIC
};

/* What the events command's own options asked for. */
typedef struct events_options {
    trx_events_format format;
    const char *threads[64];
    int thread_count;
    const char *events[256];
    int event_count;
    const char *cores[256];
    int core_count;
    bool have_from, have_to, no_synthetic;
    uint64_t from, to;
} events_options;

static int on_option(void *state, int opt, const char *arg)
{
    events_options *o = state;
    switch (opt) {
    case OPT_FORMAT:
        if (strcmp(arg, "text") == 0)
            o->format = TRX_EVENTS_TEXT;
        else if (strcmp(arg, "csv") == 0)
            o->format = TRX_EVENTS_CSV;
        else if (strcmp(arg, "jsonl") == 0)
            o->format = TRX_EVENTS_JSONL;
        else
            return cli_usage_error("events", "--format: unknown format '%s' (text, csv, jsonl)",
                                   arg);
        return -1;
    case OPT_THREAD:
        if (o->thread_count == (int)(sizeof o->threads / sizeof o->threads[0]))
            return cli_usage_error("events", "too many --thread options");
        o->threads[o->thread_count++] = arg;
        return -1;
    case OPT_EVENT:
        if (o->event_count == (int)(sizeof o->events / sizeof o->events[0]))
            return cli_usage_error("events", "too many --event options");
        o->events[o->event_count++] = arg;
        return -1;
    case OPT_CORE:
        if (o->core_count == (int)(sizeof o->cores / sizeof o->cores[0]))
            return cli_usage_error("events", "too many --core options");
        o->cores[o->core_count++] = arg;
        return -1;
    case OPT_FROM:
        if (!cli_parse_u64(arg, &o->from))
            return cli_usage_error("events", "--from: '%s' is not a tick count", arg);
        o->have_from = true;
        return -1;
    case OPT_TO:
        if (!cli_parse_u64(arg, &o->to))
            return cli_usage_error("events", "--to: '%s' is not a tick count", arg);
        o->have_to = true;
        return -1;
    case OPT_NO_SYNTHETIC:
        o->no_synthetic = true;
        return -1;
    default:
        return cli_usage_error("events", "unknown option");
    }
}

/* Builds the filter, then writes one line per event. Bad filter arguments are
 * usage errors; nothing is kept of the output then. */
static int write_events(cli_input *in, const cli_common *c, void *state, trx_out *w)
{
    cli_warn_damaged(in, c->args[0], CLI_DAMAGED_SKIPPED(c));
    const events_options *o = state;
    trx_event_filter f;
    trx_event_filter_init(&f);
    trx_error err;
    memset(&err, 0, sizeof err);
    int rc = EXIT_OK;
    f.no_synthetic = o->no_synthetic;
    f.have_from = o->have_from;
    f.from = o->from;
    f.have_to = o->have_to;
    f.to = o->to;
    for (int i = 0; i < o->thread_count && rc == EXIT_OK; i++)
        if (trx_event_filter_add_thread(&f, &in->trace, o->threads[i], &err) != 0)
            rc = cli_usage_error("events", "%s", err.message);
    for (int i = 0; i < o->event_count && rc == EXIT_OK; i++)
        if (trx_event_filter_add_event(&f, o->events[i], &in->custom, &err) != 0)
            rc = cli_usage_error("events", "%s", err.message);
    for (int i = 0; i < o->core_count && rc == EXIT_OK; i++)
        if (trx_event_filter_add_core(&f, o->cores[i], &err) != 0)
            rc = cli_usage_error("events", "%s", err.message);
    if (rc == EXIT_OK && trx_events_write(&in->trace, w, o->format, &f, &in->custom) != 0) {
        fprintf(stderr, "trx: %s: out of memory\n", c->args[0]);
        rc = EXIT_INPUT;
    }
    trx_event_filter_free(&f);
    return rc;
}

int cmd_events(int argc, char **argv)
{
    static const struct option own[] = {
        {"format", required_argument, NULL, OPT_FORMAT},
        {"thread", required_argument, NULL, OPT_THREAD},
        {"event", required_argument, NULL, OPT_EVENT},
        {"core", required_argument, NULL, OPT_CORE},
        {"from", required_argument, NULL, OPT_FROM},
        {"to", required_argument, NULL, OPT_TO},
        {"no-synthetic", no_argument, NULL, OPT_NO_SYNTHETIC},
        {NULL, 0, NULL, 0},
    };
    static events_options o;
    memset(&o, 0, sizeof o);
    o.format = TRX_EVENTS_TEXT;
    const cli_spec spec = {.name = "events",
                           .usage = usage,
                           .common = CLI_CRLF | CLI_COMPAT,
                           .own = own,
                           .on_own = on_option,
                           .own_state = &o,
                           .min_args = 1,
                           .max_args = 1};
    cli_common c;
    int rc = cli_parse(argc, argv, &spec, &c);
    return rc >= 0 ? rc : cli_run_on_input(&c, write_events, &o);
}
