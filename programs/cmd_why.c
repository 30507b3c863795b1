/* cmd_why.c - `trx why`: the critical path of one instance of a thread
 * (the worst, number N, or the one at a tick): what it was doing, tick for
 * tick, from its release to its end, the lock holders' own split of each
 * lock wait, what released it and, with --depth, the waker's own path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "latency_args.h"
#include "output/path_output.h"

static const char usage[] =
    "usage: trx why [OPTIONS] FILE --thread NAME (--worst | --instance N | --at TICKS)\n"
    "\n"
    "Explains one instance (job) of a thread - from its release to its next\n"
    "wait, as trx latency counts them - by its critical path: every tick of\n"
    "its response in one segment: running; preempted (which thread ran on its\n"
    "core); interrupted (which ISR, Hwi or Swi); blocked on a lock (which, held\n"
    "by whom, and under it the holder's own split of that wait: a holder\n"
    "preempted by a thread of lower priority than the waiter is an unbounded\n"
    "priority inversion; a holder blocked on another lock goes one level\n"
    "deeper); ready (nothing else ran). Then what released it: the event, its\n"
    "context and the object that context named last. Text: one line of story,\n"
    "then the segments; --json: every segment (schema: docs/latency.md).\n"
    "\n"
    "  --thread NAME           the thread (required)\n"
    "  --worst                 its instance with the longest response\n"
    "  --instance N            its instance number N (1-based, as trx latency\n"
    "                          numbers them: in release order)\n"
    "  --at TICKS              its instance that holds this relative tick\n"
    "  --depth N               follow the waker N levels back: the releasing\n"
    "                          thread's own instance up to its post (0-16)\n"
    "  --lock NAME             a semaphore that is used as a lock (repeatable)\n"
    "  --json                  one JSON object\n"
    "  --ticks-per-us X        times in microseconds too (X ticks per us)\n"
    "  --ticks-per-second N    the same, N ticks per second\n" CLI_HELP_INPUT_OPTIONS;

static int write_why(cli_input *in, const cli_common *c, void *state, trx_out *w)
{
    latency_args *a = state;
    trx_trace *t = &in->trace;
    trx_latency_options o;
    if (latency_args_resolve(a, in, &o) != 0)
        return EXIT_USAGE;
    uint32_t address = latency_args_thread(a, t, a->threads[0]);
    if (!address)
        return EXIT_USAGE;
    /* the thread's median (and its worst instance) from trx latency's pass */
    o.worst = 1;
    trx_latency l;
    if (trx_latency_compute(t, &o, &l) != 0)
        return cli_out_of_memory(c->args[0]);
    const trx_latency_row *row = NULL;
    for (uint32_t i = 0; i < l.row_count; i++)
        if (l.rows[i].address == address)
            row = &l.rows[i];
    trx_path_view view = {cli_ticks_per_second(in, a->ticks_per_second),
                          row ? row->response.p50 : 0};
    uint64_t number = a->instance;
    if (a->pick_worst)
        number = row && row->worst_count ? row->worst[0].number : 0;
    trx_latency_free(&l);
    if (a->pick_worst && !number) {
        fprintf(stderr, "trx why: %s: thread '%s' has no complete instance in the trace\n",
                c->args[0], a->threads[0]);
        return EXIT_USAGE;
    }
    trx_path p;
    int rc = trx_path_compute(t, &o, address, number, a->at_ticks, a->depth, &p);
    if (rc < 0) {
        trx_path_free(&p);
        return cli_out_of_memory(c->args[0]);
    }
    if (rc > 0) {
        char which[64];
        if (number)
            snprintf(which, sizeof which, "instance #%llu", (unsigned long long)number);
        else
            snprintf(which, sizeof which, "the instance at tick %llu",
                     (unsigned long long)a->at_ticks);
        fprintf(stderr, "trx why: %s: %s of thread '%s' %s\n", c->args[0], which, a->threads[0],
                rc == 1 ? "does not exist (trx latency lists its instances)"
                        : "is incomplete: it begins or ends outside the trace, or crosses a "
                          "lost-event gap");
        trx_path_free(&p);
        return EXIT_USAGE;
    }
    if (c->json)
        trx_path_write_json(t, &p, &view, w);
    else
        trx_path_write_text(t, &p, &view, w);
    trx_path_free(&p);
    return EXIT_OK;
}

int cmd_why(int argc, char **argv)
{
    static latency_args args;
    cli_common c;
    int rc = latency_args_parse(&args, argc, argv, "why", usage, why_args_options, 0, &c);
    if (rc >= 0)
        return rc;
    if (args.thread_count != 1)
        return cli_usage_error("why", "--thread NAME: exactly one thread");
    if (args.pick_worst + args.have_instance + args.have_at != 1)
        return cli_usage_error("why", "one of --worst, --instance N, --at TICKS");
    c.time_counts = true; /* the segments' ticks and cores from the open's own pass */
    return cli_run_on_input(&c, write_why, &args);
}
