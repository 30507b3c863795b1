/* cmd_latency.c - `trx latency`: every response of every thread (its
 * instances from release to its next wait), or user intervals --from/--to,
 * as distributions and worst instances (text or JSON). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "latency_args.h"
#include "output/latency_output.h"

static const char usage[] =
    "usage: trx latency [OPTIONS] FILE\n"
    "\n"
    "Prints, per thread, its instances (jobs): from its release (made ready\n"
    "after waiting for a trigger: a sleep, a queue, semaphore, event flags or\n"
    "message, a suspension) to its next such wait; a mutex wait inside counts\n"
    "as part of it. For each thread: how many, the response (release to end)\n"
    "and the execution (ticks it ran) as min, mean, p50, p90, p99, max, and\n"
    "the worst instances. Instances that begin or end outside the trace or\n"
    "cross a lost-event gap are counted as incomplete, never measured.\n"
    "Percentiles: exact below 64 ticks, else within 1/32 (docs/latency.md).\n"
    "\n"
    "  --thread NAME           only this thread (repeatable)\n"
    "  --from EVENT --to EVENT user intervals instead: from an event to the\n"
    "                          next (ids or names; EVENT:FIELD pairs a start\n"
    "                          and its end by a field's value, FIELD 1-4 or a\n"
    "                          caption, across threads)\n"
    "  --lock NAME             a semaphore that is used as a lock (repeatable)\n"
    "  --worst N               the N worst instances per thread (default 5)\n"
    "  --json                  one JSON object (schema: docs/latency.md)\n"
    "  --ticks-per-us X        times in microseconds too (X ticks per us)\n"
    "  --ticks-per-second N    the same, N ticks per second\n" CLI_HELP_INPUT_OPTIONS;

static int write_latency(cli_input *in, const cli_common *c, void *state, trx_out *w)
{
    latency_args *a = state;
    trx_latency_options o;
    if (latency_args_resolve(a, in, &o) != 0)
        return EXIT_USAGE;
    trx_latency l;
    if (trx_latency_compute(&in->trace, &o, &l) != 0)
        return cli_out_of_memory(c->args[0]);
    l.ticks_per_second = cli_ticks_per_second(in, a->ticks_per_second);
    latency_args_keep_threads(a, &in->trace, &l);
    if (c->json)
        trx_latency_write_json(&in->trace, &l, o.intervals, w);
    else
        trx_latency_write_text(&in->trace, &l, o.intervals, w);
    trx_latency_free(&l);
    return EXIT_OK;
}

int cmd_latency(int argc, char **argv)
{
    static latency_args args;
    cli_common c;
    int rc = latency_args_parse(&args, argc, argv, "latency", usage, latency_args_options, 5, &c);
    if (rc >= 0)
        return rc;
    if ((args.from != NULL) != (args.to != NULL))
        return cli_usage_error("latency", "--from and --to go together");
    c.time_counts = true; /* the segments' ticks and cores from the open's own pass */
    return cli_run_on_input(&c, write_latency, &args);
}
