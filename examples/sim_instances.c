/*
 * sim_instances.c - the per-instance truth of sim_instances.h: each thread's
 * open instance, charged tick by tick to the state the simulated kernel
 * knows it is in, kept whole when it ends and written as JSON Lines.
 */
#include "sim_instances.h"

#include <stdlib.h>
#include <string.h>

#define MAX_BLOCKED 4 /* (mutex, holder) pairs one instance waits on */

enum { INST_UNKNOWN = 0, INST_WAITING, INST_OPEN, INST_BLOCKED };

/* What a holder did while an instance waited for its mutex. */
typedef struct holder_split {
    ULONG running, ready;
    ULONG preempted_by[SIM_MAX_THREADS];
    ULONG interrupted_by[SIM_MAX_ISRS];
} holder_split;

typedef struct blocked_on {
    const sim_mutex *mutex;
    int holder; /* thread index */
    ULONG ticks;
    holder_split split;
} blocked_on;

/* One instance of one thread. */
typedef struct instance {
    int thread; /* index in sim.threads */
    unsigned long number;
    int complete;
    ULONG release, end; /* trace timestamps */
    /* who released it: a thread (index), an ISR (index) or initialization */
    int by_thread, by_isr;
    const char *object, *service;
    ULONG running, ready;
    ULONG preempted_by[SIM_MAX_THREADS];
    ULONG interrupted_by[SIM_MAX_ISRS];
    blocked_on blocked[MAX_BLOCKED];
    int blocked_count;
} instance;

static struct {
    ULONG first_timestamp;
    int state[SIM_MAX_THREADS];
    const sim_mutex *waiting_for[SIM_MAX_THREADS];
    int holder[SIM_MAX_THREADS]; /* of the mutex it waits for */
    instance open[SIM_MAX_THREADS];
    unsigned long numbers[SIM_MAX_THREADS];
    instance *ended;
    size_t ended_count, ended_cap;
    sim_isr *isr_stack[SIM_MAX_ISRS + 1]; /* recorded ISRs, innermost last */
    int isr_depth;
    const char *posting_object, *posting_service;
} truth;

static int thread_index(const sim_thread *t)
{
    for (int i = 0; i < sim.thread_count; i++)
        if (sim.threads[i] == t)
            return i;
    return -1;
}

static int isr_index(const sim_isr *q)
{
    for (int i = 0; i < sim.isr_count; i++)
        if (sim.isrs[i] == q)
            return i;
    return -1;
}

void sim_instances_begin(ULONG first_timestamp)
{
    truth.first_timestamp = first_timestamp;
}

void sim_instances_posting(const char *object, const char *service)
{
    truth.posting_object = object;
    truth.posting_service = service;
}

void sim_instances_isr_enter(sim_isr *isr)
{
    if (truth.isr_depth < SIM_MAX_ISRS + 1)
        truth.isr_stack[truth.isr_depth++] = isr;
}

void sim_instances_isr_exit(void)
{
    if (truth.isr_depth > 0)
        truth.isr_depth--;
}

/* The innermost ISR the trace shows running (its index), -1: none. */
static int running_isr(void)
{
    return truth.isr_depth > 0 ? isr_index(truth.isr_stack[truth.isr_depth - 1]) : -1;
}

void sim_instances_resumed(sim_thread *t)
{
    int k = thread_index(t);
    if (k < 0)
        return;
    if (truth.state[k] == INST_BLOCKED) { /* the mutex is its now */
        truth.state[k] = INST_OPEN;
        truth.waiting_for[k] = NULL;
        return;
    }
    if (truth.state[k] == INST_OPEN)
        return;
    instance *in = &truth.open[k];
    memset(in, 0, sizeof *in);
    in->thread = k;
    in->number = ++truth.numbers[k];
    in->release = sim_now();
    in->by_isr = running_isr();
    in->by_thread = in->by_isr < 0 && sim.started ? thread_index(sim.current) : -1;
    in->object = truth.posting_object;
    in->service = truth.posting_service;
    truth.state[k] = INST_OPEN;
}

/* Keeps an ended instance. */
static void keep(const instance *in)
{
    if (truth.ended_count == truth.ended_cap) {
        size_t cap = truth.ended_cap ? truth.ended_cap * 2 : 256;
        instance *p = realloc(truth.ended, cap * sizeof *p);
        if (p == NULL) {
            fprintf(stderr, "trx_demo: out of memory\n");
            exit(1);
        }
        truth.ended = p;
        truth.ended_cap = cap;
    }
    truth.ended[truth.ended_count++] = *in;
}

void sim_instances_suspended(sim_thread *t, enum sim_state state, const void *object)
{
    int k = thread_index(t);
    if (k < 0)
        return;
    if (state == SIM_MUTEX_SUSP && truth.state[k] == INST_OPEN) {
        truth.state[k] = INST_BLOCKED;
        truth.waiting_for[k] = object;
        truth.holder[k] = -1;
        return;
    }
    if (truth.state[k] == INST_OPEN || truth.state[k] == INST_BLOCKED) {
        instance *in = &truth.open[k];
        in->end = sim_now();
        in->complete = 1;
        keep(in);
    }
    truth.state[k] = INST_WAITING;
}

/* What ran in the coming cycles, charged to `running` / `ready` /
 * `preempted_by` / `interrupted_by` from the point of view of thread `k`. */
static void charge_state(int k, ULONG cycles, ULONG *running, ULONG *ready, ULONG *preempted_by,
                         ULONG *interrupted_by)
{
    int isr = running_isr();
    if (isr >= 0)
        interrupted_by[isr] += cycles;
    else if (sim.started && sim.current == sim.threads[k])
        *running += cycles;
    else if (sim.started && sim.current != NULL)
        preempted_by[thread_index(sim.current)] += cycles;
    else
        *ready += cycles;
}

/* The blocked record of (mutex, holder) in `in`, added when new. */
static blocked_on *blocked_record(instance *in, const sim_mutex *m, int holder)
{
    for (int i = 0; i < in->blocked_count; i++)
        if (in->blocked[i].mutex == m && in->blocked[i].holder == holder)
            return &in->blocked[i];
    if (in->blocked_count == MAX_BLOCKED) {
        fprintf(stderr, "trx_demo: an instance waited on more than %d locks\n", MAX_BLOCKED);
        exit(1);
    }
    blocked_on *b = &in->blocked[in->blocked_count++];
    memset(b, 0, sizeof *b);
    b->mutex = m;
    b->holder = holder;
    return b;
}

void sim_instances_charge(ULONG cycles)
{
    for (int k = 0; k < sim.thread_count; k++) {
        instance *in = &truth.open[k];
        if (truth.state[k] == INST_OPEN) {
            charge_state(k, cycles, &in->running, &in->ready, in->preempted_by, in->interrupted_by);
        } else if (truth.state[k] == INST_BLOCKED) {
            const sim_mutex *m = truth.waiting_for[k];
            /* put hands the mutex over before its RESUME record: until that
             * record the waiter still waits, on the thread doing the put */
            if (m->owner != NULL && m->owner != sim.threads[k])
                truth.holder[k] = thread_index(m->owner);
            int holder = truth.holder[k];
            if (holder < 0) {
                fprintf(stderr, "trx_demo: %s waits on a free mutex\n", sim.threads[k]->name);
                exit(1);
            }
            blocked_on *b = blocked_record(in, m, holder);
            b->ticks += cycles;
            charge_state(holder, cycles, &b->split.running, &b->split.ready, b->split.preempted_by,
                         b->split.interrupted_by);
        }
    }
}

/* ------------------------------------------------------------ writing */

static void write_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* {"name": ticks, ...} of the threads with ticks. */
static void write_by_thread(FILE *f, const ULONG *ticks)
{
    int first = 1;
    fputc('{', f);
    for (int i = 0; i < sim.thread_count; i++) {
        if (!ticks[i])
            continue;
        fputs(first ? "" : ", ", f);
        write_string(f, sim.threads[i]->name);
        fprintf(f, ": %lu", (unsigned long)ticks[i]);
        first = 0;
    }
    fputc('}', f);
}

/* [{"isr": N, "name": ..., "ticks": T}, ...] of the ISRs with ticks. */
static void write_by_isr(FILE *f, const ULONG *ticks)
{
    int first = 1;
    fputc('[', f);
    for (int i = 0; i < sim.isr_count; i++) {
        if (!ticks[i])
            continue;
        fprintf(f, "%s{\"isr\": %lu, \"name\": ", first ? "" : ", ",
                (unsigned long)sim.isrs[i]->id);
        write_string(f, sim.isrs[i]->name);
        fprintf(f, ", \"ticks\": %lu}", (unsigned long)ticks[i]);
        first = 0;
    }
    fputc(']', f);
}

static void write_released_by(FILE *f, const instance *in)
{
    fputs("\"released_by\": {\"kind\": ", f);
    if (in->by_isr >= 0) {
        fprintf(f, "\"isr\", \"isr\": %lu, \"context\": ", (unsigned long)sim.isrs[in->by_isr]->id);
        write_string(f, sim.isrs[in->by_isr]->name);
    } else if (in->by_thread >= 0) {
        fputs("\"thread\", \"context\": ", f);
        write_string(f, sim.threads[in->by_thread]->name);
    } else {
        fputs("\"init\", \"context\": \"init\"", f);
    }
    fputs(", \"object\": ", f);
    if (in->object)
        write_string(f, in->object);
    else
        fputs("null", f);
    fputs(", \"service\": ", f);
    write_string(f, in->service ? in->service : "timeout");
    fputc('}', f);
}

static void write_instance(FILE *f, const instance *in)
{
    ULONG response = in->end - in->release;
    fputs("{\"thread\": ", f);
    write_string(f, sim.threads[in->thread]->name);
    fprintf(f, ", \"number\": %lu, \"complete\": %s, \"release_ticks\": %lu", in->number,
            in->complete ? "true" : "false", (unsigned long)(in->release - truth.first_timestamp));
    if (in->complete)
        fprintf(f, ", \"end_ticks\": %lu, \"response_ticks\": %lu, \"execution_ticks\": %lu",
                (unsigned long)(in->end - truth.first_timestamp), (unsigned long)response,
                (unsigned long)in->running);
    fputs(", ", f);
    write_released_by(f, in);
    if (in->complete) {
        fprintf(f, ", \"running\": %lu, \"ready\": %lu, \"preempted_by\": ",
                (unsigned long)in->running, (unsigned long)in->ready);
        write_by_thread(f, in->preempted_by);
        fputs(", \"interrupted_by\": ", f);
        write_by_isr(f, in->interrupted_by);
        fputs(", \"blocked\": [", f);
        for (int i = 0; i < in->blocked_count; i++) {
            const blocked_on *b = &in->blocked[i];
            fputs(i ? ", {\"object\": " : "{\"object\": ", f);
            write_string(f, b->mutex->name);
            fputs(", \"holder\": ", f);
            write_string(f, sim.threads[b->holder]->name);
            fprintf(f, ", \"ticks\": %lu, \"holder_split\": {\"running\": %lu, \"ready\": %lu, ",
                    (unsigned long)b->ticks, (unsigned long)b->split.running,
                    (unsigned long)b->split.ready);
            fputs("\"preempted_by\": ", f);
            write_by_thread(f, b->split.preempted_by);
            fputs(", \"interrupted_by\": ", f);
            write_by_isr(f, b->split.interrupted_by);
            fputs("}}", f);
        }
        fputc(']', f);
    }
    fputs("}\n", f);
}

/* The sum of an instance's ticks over every cause (must be its response). */
static ULONG accounted(const instance *in)
{
    ULONG sum = in->running + in->ready;
    for (int i = 0; i < SIM_MAX_THREADS; i++)
        sum += in->preempted_by[i];
    for (int i = 0; i < SIM_MAX_ISRS; i++)
        sum += in->interrupted_by[i];
    for (int i = 0; i < in->blocked_count; i++)
        sum += in->blocked[i].ticks;
    return sum;
}

int sim_instances_write(FILE *f, const char *trace_name)
{
    fputs("{\"truth\": \"instances\", \"trace\": ", f);
    write_string(f, trace_name);
    fprintf(f, ", \"first_timestamp\": %lu, \"threads\": %d}\n",
            (unsigned long)truth.first_timestamp, sim.thread_count);
    for (size_t i = 0; i < truth.ended_count; i++) {
        const instance *in = &truth.ended[i];
        if (accounted(in) != in->end - in->release) {
            fprintf(stderr, "trx_demo: %s #%lu: %lu ticks accounted of %lu\n",
                    sim.threads[in->thread]->name, in->number, (unsigned long)accounted(in),
                    (unsigned long)(in->end - in->release));
            return -1;
        }
        write_instance(f, in);
    }
    for (int k = 0; k < sim.thread_count; k++)
        if (truth.state[k] == INST_OPEN || truth.state[k] == INST_BLOCKED)
            write_instance(f, &truth.open[k]);
    return ferror(f) ? -1 : 0;
}
