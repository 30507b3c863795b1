/* latency_args.c - the shared options of `trx latency` and `trx why`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latency_args.h"
#include "output/events_names.h"
#include "output/latency_output.h"

enum {
    OPT_THREAD = CLI_OPT_FIRST_OWN,
    OPT_FROM,
    OPT_TO,
    OPT_LOCK,
    OPT_WORST,
    OPT_TPS,
    OPT_TPUS,
    OPT_INSTANCE,
    OPT_AT,
    OPT_DEPTH
};

const struct option latency_args_options[] = {
    {"thread", required_argument, NULL, OPT_THREAD},
    {"from", required_argument, NULL, OPT_FROM},
    {"to", required_argument, NULL, OPT_TO},
    {"lock", required_argument, NULL, OPT_LOCK},
    {"worst", required_argument, NULL, OPT_WORST},
    {"ticks-per-second", required_argument, NULL, OPT_TPS},
    {"ticks-per-us", required_argument, NULL, OPT_TPUS},
    {NULL, 0, NULL, 0},
};

const struct option why_args_options[] = {
    {"thread", required_argument, NULL, OPT_THREAD},
    {"lock", required_argument, NULL, OPT_LOCK},
    {"worst", no_argument, NULL, OPT_WORST},
    {"instance", required_argument, NULL, OPT_INSTANCE},
    {"at", required_argument, NULL, OPT_AT},
    {"depth", required_argument, NULL, OPT_DEPTH},
    {"ticks-per-second", required_argument, NULL, OPT_TPS},
    {"ticks-per-us", required_argument, NULL, OPT_TPUS},
    {NULL, 0, NULL, 0},
};

void latency_args_init(latency_args *a, const char *command, uint32_t worst)
{
    memset(a, 0, sizeof *a);
    a->command = command;
    a->worst = worst;
}

static int number(const latency_args *a, const char *opt, const char *arg, uint64_t max,
                  uint64_t *out)
{
    if (!cli_parse_u64(arg, out) || *out > max)
        return cli_usage_error(a->command, "--%s: expected a number up to %llu, got '%s'", opt,
                               (unsigned long long)max, arg);
    return -1;
}

int latency_args_option(void *state, int opt, const char *arg)
{
    latency_args *a = state;
    uint64_t v;
    int rc;
    switch (opt) {
    case OPT_THREAD:
        if (a->thread_count == LATENCY_ARGS_MAX_THREADS)
            return cli_usage_error(a->command, "--thread: at most %d", LATENCY_ARGS_MAX_THREADS);
        a->threads[a->thread_count++] = arg;
        return -1;
    case OPT_FROM:
        a->from = arg;
        return -1;
    case OPT_TO:
        a->to = arg;
        return -1;
    case OPT_LOCK:
        if (a->lock_count == TRX_LATENCY_MAX_LOCKS)
            return cli_usage_error(a->command, "--lock: at most %d", TRX_LATENCY_MAX_LOCKS);
        a->locks[a->lock_count++] = arg;
        return -1;
    case OPT_WORST:
        if (!arg) { /* trx why --worst */
            a->pick_worst = true;
            return -1;
        }
        if ((rc = number(a, "worst", arg, TRX_LATENCY_MAX_WORST, &v)) != -1)
            return rc;
        a->worst = (uint32_t)v;
        return -1;
    case OPT_TPS:
        return cli_time_option(a->command, "ticks-per-second", arg, &a->ticks_per_second);
    case OPT_TPUS:
        return cli_time_option(a->command, "ticks-per-us", arg, &a->ticks_per_second);
    case OPT_INSTANCE:
        if ((rc = number(a, "instance", arg, UINT64_MAX, &a->instance)) != -1)
            return rc;
        if (a->instance == 0)
            return cli_usage_error(a->command, "--instance: instances count from 1");
        a->have_instance = true;
        return -1;
    case OPT_AT:
        if ((rc = number(a, "at", arg, UINT64_MAX, &a->at_ticks)) != -1)
            return rc;
        a->have_at = true;
        return -1;
    case OPT_DEPTH:
        if ((rc = number(a, "depth", arg, 16, &v)) != -1)
            return rc;
        a->depth = (uint32_t)v;
        return -1;
    default:
        return cli_usage_error(a->command, "unknown option");
    }
}

/* An event given as an id (decimal or 0x hex) or a name. */
static bool event_id(const char *s, size_t n, const trx_custom_events *ce, uint32_t *id)
{
    char buf[256];
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, s, n);
    buf[n] = '\0';
    char *end;
    unsigned long v = strtoul(buf, &end, 0);
    if (*end == '\0' && v <= 0xFFFF) {
        *id = (uint32_t)v;
        return true;
    }
    for (uint32_t k = 0; k <= 0xFFFF; k++)
        if (strcmp(trx_event_name(k, ce), buf) == 0) {
            *id = k;
            return true;
        }
    return false;
}

/* EVENT[:FIELD] into a pattern; FIELD: 1-4, info1-info4 or a caption. */
static int pattern(const latency_args *a, const char *opt, const char *arg,
                   const trx_custom_events *ce, trx_event_pattern *p)
{
    const char *colon = strrchr(arg, ':');
    size_t n = colon ? (size_t)(colon - arg) : strlen(arg);
    if (!event_id(arg, n, ce, &p->id)) {
        fprintf(stderr, "trx %s: --%s: no event '%.*s' (an id, or a name as trx events shows it)\n",
                a->command, opt, (int)n, arg);
        return -1;
    }
    p->field = -1;
    if (!colon)
        return 0;
    const char *f = colon + 1;
    if (f[0] >= '1' && f[0] <= '4' && !f[1])
        p->field = f[0] - '1';
    else if (strncmp(f, "info", 4) == 0 && f[4] >= '1' && f[4] <= '4' && !f[5])
        p->field = f[4] - '1';
    else {
        const char *labels[4];
        trx_event_labels(p->id, ce, labels);
        for (int k = 0; k < 4; k++)
            if (labels[k][0] && strcmp(labels[k], f) == 0)
                p->field = k;
    }
    if (p->field < 0) {
        fprintf(stderr,
                "trx %s: --%s: event %u has no field '%s' (1-4, info1-info4 or a "
                "caption)\n",
                a->command, opt, p->id, f);
        return -1;
    }
    return 0;
}

/* The address of the first object named `name` of type `type` (0: any), or 0. */
static uint32_t object_named(const trx_trace *t, const char *name, uint8_t type)
{
    for (uint32_t i = 0; i < t->object_count; i++)
        if (t->objects[i].name && strcmp(t->objects[i].name, name) == 0 &&
            (!type || t->objects[i].type == type))
            return t->objects[i].address;
    return 0;
}

uint32_t latency_args_thread(const latency_args *a, const trx_trace *t, const char *name)
{
    for (uint32_t i = 0; i < t->thread_count; i++) {
        const char *n = t->objects[t->threads[i].object_index].name;
        if (n && strcmp(n, name) == 0)
            return t->threads[i].address;
    }
    fprintf(stderr, "trx %s: no thread '%s' in %s\n", a->command, name,
            t->path ? t->path : "the trace");
    return 0;
}

int latency_args_resolve(const latency_args *a, cli_input *in, trx_latency_options *o)
{
    const trx_trace *t = &in->trace;
    memset(o, 0, sizeof *o);
    o->worst = a->worst;
    if (a->from) {
        o->intervals = true;
        if (pattern(a, "from", a->from, &in->custom, &o->from) ||
            pattern(a, "to", a->to, &in->custom, &o->to))
            return 1;
        if ((o->from.field < 0) != (o->to.field < 0)) {
            fprintf(stderr, "trx %s: --from and --to pair by a field both, or neither\n",
                    a->command);
            return 1;
        }
    }
    for (uint32_t k = 0; k < a->lock_count; k++) {
        uint32_t addr = object_named(t, a->locks[k], TRX_OBJ_SEMAPHORE);
        if (!addr) {
            char *end;
            unsigned long v = strtoul(a->locks[k], &end, 0);
            addr = *end == '\0' ? (uint32_t)v : 0;
        }
        if (!addr) {
            fprintf(stderr, "trx %s: --lock: no semaphore '%s' in %s\n", a->command, a->locks[k],
                    t->path ? t->path : "the trace");
            return 1;
        }
        o->locks[o->lock_count++] = addr;
    }
    for (uint32_t k = 0; k < a->thread_count; k++)
        if (!latency_args_thread(a, t, a->threads[k]))
            return 1;
    return 0;
}

void latency_args_keep_threads(const latency_args *a, const trx_trace *t, trx_latency *l)
{
    if (!a->thread_count)
        return;
    uint32_t n = 0;
    char name[TRX_NAME_MAX + 32];
    for (uint32_t i = 0; i < l->row_count; i++) {
        bool keep = false;
        for (uint32_t k = 0; k < a->thread_count; k++)
            keep |=
                strcmp(trx_latency_row_name(t, &l->rows[i], name, sizeof name), a->threads[k]) == 0;
        if (keep)
            l->rows[n++] = l->rows[i];
        else
            free(l->rows[i].worst);
    }
    l->row_count = n;
}

int latency_args_parse(latency_args *a, int argc, char **argv, const char *command,
                       const char *usage, const struct option *own, uint32_t worst, cli_common *c)
{
    latency_args_init(a, command, worst);
    const cli_spec spec = {.name = command,
                           .usage = usage,
                           .common = CLI_JSON | CLI_COMPAT,
                           .own = own,
                           .on_own = latency_args_option,
                           .own_state = a,
                           .min_args = 1,
                           .max_args = 1};
    return cli_parse(argc, argv, &spec, c);
}
