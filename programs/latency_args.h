/* latency_args.h - the options `trx latency` and `trx why` share (threads,
 * user intervals, locks, worst count, tick rate, an instance), and turning
 * names into what trx_latency_options wants once the trace is open. */
#ifndef TRX_LATENCY_ARGS_H
#define TRX_LATENCY_ARGS_H

#include <getopt.h>

#include "cli.h"
#include "trx/latency.h"

#define LATENCY_ARGS_MAX_THREADS 64

typedef struct latency_args {
    const char *command;
    const char *threads[LATENCY_ARGS_MAX_THREADS];
    uint32_t thread_count;
    const char *from, *to;
    const char *locks[TRX_LATENCY_MAX_LOCKS];
    uint32_t lock_count;
    uint32_t worst;
    uint64_t ticks_per_second;
    /* trx why */
    bool pick_worst;
    uint64_t instance, at_ticks;
    bool have_instance, have_at;
    uint32_t depth;
} latency_args;

/* The long options of `trx latency` and of `trx why`. */
extern const struct option latency_args_options[];
extern const struct option why_args_options[];

void latency_args_init(latency_args *a, const char *command, uint32_t worst);

/* Parses a command line of `trx latency` or `trx why` (own: their options,
 * worst: the default --worst) into `a` and `c`: cli_parse's result. */
int latency_args_parse(latency_args *a, int argc, char **argv, const char *command,
                       const char *usage, const struct option *own, uint32_t worst, cli_common *c);

/* cli_spec.on_own for both commands. */
int latency_args_option(void *state, int opt, const char *arg);

/* Fills `o` from the arguments for the opened trace (event and lock names
 * resolved); 0, or a usage error printed and non-zero. */
int latency_args_resolve(const latency_args *a, cli_input *in, trx_latency_options *o);

/* The address of thread NAME in the trace, or 0 (not found: an error printed). */
uint32_t latency_args_thread(const latency_args *a, const trx_trace *t, const char *name);

/* Keeps only the rows of the --thread threads (all when none given). */
void latency_args_keep_threads(const latency_args *a, const trx_trace *t, trx_latency *l);

#endif
