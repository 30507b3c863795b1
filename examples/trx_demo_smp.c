/*
 * trx_demo_smp.c - the 2-core demo: a tiny deterministic SMP scheduler
 * simulated in one process and traced with the trx recorder, the core of
 * every event coming from the port's TRX_PORT_CORE_ID hook (demo_smp_port.h).
 *
 *   ping    priority 10, core 0 only: works, sends on queue "pp_queue",
 *           waits on semaphore "pp_ack"                 (ROUNDS rounds)
 *   pong    priority 10, core 1 only: receives, works, puts "pp_ack"
 *   roamer  priority 12, any core: user event 4300 (info 2 = its core), work
 *   drifter priority 14, any core: user event 4301, work
 *
 * ping and pong run on their cores at the same time; roamer and drifter run
 * wherever a core is free, so they migrate. Scheduling is global: a resumed
 * thread preempts the least urgent running thread on a core it may use at
 * once (the simulated IPI), a blocking thread hands its core to the most
 * urgent ready thread (info 4 of its SUSPEND, as ThreadX SMP logs it), and
 * free cores take ready threads. Writes, in OUT_DIR:
 *
 *   demo_smp.trx    the trace buffer (raw memory image, TXTB)
 *   demo_smp.truth  what the simulation did (key=value): events per core,
 *                   migrations per thread, ticks per (core, thread), idle per
 *                   core, ticks with both cores running a thread
 *   demo_smp.latency.truth  every instance of every thread (release by a
 *                   RESUME to its next wait, include/trx/latency.h): its
 *                   ticks, who released it with what, ticks it ran and ticks
 *                   it was ready while another thread held the only core it
 *                   may use (JSON Lines, like demo.latency.truth)
 *
 * usage: trx_demo_smp [OUT_DIR]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trx/rtos_hooks.h"

#define CORES 2
#define ROUNDS 40
#define BUFFER_BYTES (64UL * 1024UL)
#define REGISTRY_ENTRIES 8UL
#define QUEUE_ADDRESS 0x20002000UL
#define ACK_ADDRESS 0x20002100UL

enum { READY, RUNNING, BLOCKED, DONE };
enum { WAIT_QUEUE = 5, WAIT_SEMAPHORE = 6, FINISHED = 3 }; /* ThreadX states */

typedef struct thread {
    const char *name;
    uint32_t address, priority, affinity; /* affinity: bit per core */
    int state, pc, core;                  /* core: where it runs, -1 */
    uint32_t rounds, counter;
    uint64_t ready_seq;
    int last_core; /* core of its last own event (migrations) */
    uint32_t migrations;
    /* its instance (latency truth): open since `release`, ready (not
     * running) since `ready_since` */
    int open;
    uint32_t number, release, ready_since;
    uint64_t running, preempted_by[4];
    int by_thread; /* the thread whose post released it */
    const char *object, *service;
} thread;

static thread threads[] = {
    {.name = "ping",
     .address = 0x20001000UL,
     .priority = 10,
     .affinity = 1u << 0,
     .core = -1,
     .last_core = -1},
    {.name = "pong",
     .address = 0x20001100UL,
     .priority = 10,
     .affinity = 1u << 1,
     .core = -1,
     .last_core = -1},
    {.name = "roamer",
     .address = 0x20001200UL,
     .priority = 12,
     .affinity = 3u,
     .core = -1,
     .last_core = -1},
    {.name = "drifter",
     .address = 0x20001300UL,
     .priority = 14,
     .affinity = 3u,
     .core = -1,
     .last_core = -1},
};
#define THREADS ((int)(sizeof threads / sizeof threads[0]))
enum { PING, PONG, ROAMER, DRIFTER };

typedef struct core {
    thread *current;
    uint32_t time;        /* this core's clock */
    uint32_t switched_at; /* when `current` took the core */
} core;

static core cores[CORES];
static uint32_t queue_count, ack_count;
static uint64_t ready_seq;

/* The hooks of demo_smp_port.h. */
uint32_t demo_smp_core, demo_smp_time, demo_smp_initializing = 1;

uint32_t demo_smp_current(void)
{
    thread *t = cores[demo_smp_core].current;
    return t ? t->address : 0;
}

uint32_t demo_smp_priority(uint32_t address)
{
    for (int i = 0; i < THREADS; i++)
        if (threads[i].address == address)
            return threads[i].priority;
    return 0;
}

/* Ground truth. */
static uint64_t events_per_core[CORES], run_ticks[CORES][THREADS], idle_ticks[CORES];
static uint64_t parallel_ticks, busy_since;
static int busy;
static uint32_t first_time, last_time, scheduler_start;

static int index_of(const thread *t)
{
    return (int)(t - threads);
}

/* Latency truth: every instance that ended, in that order. */
typedef struct instance {
    int thread, by_thread;
    uint32_t number, release, end;
    uint64_t running, preempted_by[THREADS];
    const char *object, *service;
} instance;
static instance ended[4 * ROUNDS + 8];
static int ended_count;

/* Core `c` ran thread `r` over [from, now): charged to r's open instance
 * (from its release on), and to the open instances of the threads that
 * were ready then and may run on `c` only (preempted by r). */
static void charge_instances(int c, const thread *r, uint32_t from, uint32_t now)
{
    if (!r)
        return;
    for (int i = 0; i < THREADS; i++) {
        thread *w = &threads[i];
        uint32_t since = w == r ? w->release : w->ready_since;
        if (!w->open || (w != r && (w->state != READY || w->affinity != (1u << c))))
            continue;
        uint32_t start = from > since ? from : since;
        if (now <= start)
            continue;
        if (w == r)
            w->running += now - start;
        else
            w->preempted_by[index_of(r)] += now - start;
    }
}

/* Core `c` goes to thread `t` (NULL: idle) at `now`: closes its interval. */
static void switch_core(int c, thread *t, uint32_t now)
{
    core *k = &cores[c];
    uint32_t d = now - k->switched_at;
    charge_instances(c, k->current, k->switched_at, now);
    if (k->current)
        run_ticks[c][index_of(k->current)] += d;
    else
        idle_ticks[c] += d;
    int was = k->current != NULL, is = t != NULL;
    if (was != is) {
        if (busy >= 2)
            parallel_ticks += now - busy_since;
        busy_since = now;
        busy += is - was;
    }
    if (k->current && k->current->state == RUNNING) {
        k->current->state = READY; /* preempted */
        k->current->ready_since = now;
        k->current->ready_seq = ++ready_seq;
        k->current->core = -1;
    }
    k->current = t;
    k->switched_at = now;
    if (t) {
        t->state = RUNNING;
        t->core = c;
        if (k->time < now)
            k->time = now;
    }
}

/* The most urgent ready thread allowed on core `c` (FIFO among equals). */
static thread *most_urgent_ready(int c)
{
    thread *best = NULL;
    for (int i = 0; i < THREADS; i++) {
        thread *t = &threads[i];
        if (t->state != READY || !(t->affinity & (1u << c)))
            continue;
        if (!best || t->priority < best->priority ||
            (t->priority == best->priority && t->ready_seq < best->ready_seq))
            best = t;
    }
    return best;
}

/* Free cores take ready threads. */
static void fill_free_cores(uint32_t now)
{
    for (int c = 0; c < CORES; c++)
        if (!cores[c].current) {
            thread *t = most_urgent_ready(c);
            if (t)
                switch_core(c, t, now);
        }
}

/* Logs one event on core `c` at its clock, from the thread it runs. */
static void log_event(int c, ULONG id, ULONG i1, ULONG i2, ULONG i3, ULONG i4, ULONG group)
{
    demo_smp_core = (uint32_t)c;
    demo_smp_time = cores[c].time;
    TRX_TRACE_EVENT(id, i1, i2, i3, i4, group);
    events_per_core[c]++;
    last_time = cores[c].time;
    thread *self = cores[c].current;
    if (self) {
        if (self->last_core >= 0 && self->last_core != c)
            self->migrations++;
        self->last_core = c;
    }
}

/* Thread `t` becomes ready through an action of core `c`'s thread: it takes
 * a free core, or preempts the least urgent thread it outranks; logged as
 * ThreadX does (RESUME, info 4 = the thread core `c` runs next). */
static void resume(int c, thread *t, ULONG previous_state, const char *object, const char *service)
{
    uint32_t now = cores[c].time;
    if (!t->open) { /* a release (latency truth) */
        t->open = 1;
        t->number++;
        t->release = t->ready_since = now;
        t->running = 0;
        memset(t->preempted_by, 0, sizeof t->preempted_by);
        t->by_thread = index_of(cores[c].current);
        t->object = object;
        t->service = service;
    }
    t->state = READY;
    t->ready_seq = ++ready_seq;
    int target = -1;
    for (int d = 0; d < CORES && target < 0; d++)
        if ((t->affinity & (1u << d)) && !cores[d].current)
            target = d;
    for (int d = 0; d < CORES && target < 0; d++) {
        thread *r = cores[d].current;
        if ((t->affinity & (1u << d)) && r && r->priority > t->priority &&
            (target < 0 || r->priority > cores[target].current->priority))
            target = d;
    }
    thread *next_here = target == c ? t : cores[c].current;
    log_event(c, TX_TRACE_THREAD_RESUME, t->address, previous_state, 0x20007E00UL,
              next_here ? next_here->address : 0, TX_TRACE_INTERNAL_EVENTS);
    if (target >= 0) {
        if (cores[target].time > now)
            cores[target].time = now; /* preempted at once */
        switch_core(target, t, now);
        fill_free_cores(now); /* a preempted thread may take a free core */
    }
}

/* Core `c`'s thread blocks in `state`; the core goes to the next ready thread. */
static void block(int c, ULONG state)
{
    thread *self = cores[c].current;
    uint32_t now = cores[c].time;
    self->state = state == FINISHED ? DONE : BLOCKED;
    thread *next = most_urgent_ready(c);
    log_event(c, TX_TRACE_THREAD_SUSPEND, self->address, state, 0x20007E00UL,
              next ? next->address : 0, TX_TRACE_INTERNAL_EVENTS);
    self->core = -1;
    switch_core(c, next, now);
    if (!self->open && self->number == 0) {   /* it ran from the start, unreleased: its */
        instance *in = &ended[ended_count++]; /* instance began before the trace */
        memset(in, 0, sizeof *in);
        in->thread = index_of(self);
        in->by_thread = -1;
        in->end = now;
    } else if (self->open) { /* its instance ends (latency truth) */
        instance *in = &ended[ended_count++];
        in->thread = index_of(self);
        in->by_thread = self->by_thread;
        in->number = self->number;
        in->release = self->release;
        in->end = now;
        in->running = self->running;
        memcpy(in->preempted_by, self->preempted_by, sizeof in->preempted_by);
        in->object = self->object;
        in->service = self->service;
        self->open = 0;
    }
}

/* One step of core `c`'s thread: one kernel call or user event; returns its cycles. */
static uint32_t step(int c)
{
    thread *t = cores[c].current;
    switch (index_of(t) * 10 + t->pc) {
    case PING * 10 + 0: /* work */
        if (t->rounds == ROUNDS) {
            block(c, FINISHED);
            return 200;
        }
        log_event(c, 4200, t->rounds, (ULONG)c, 0, 0, TX_TRACE_USER_EVENTS);
        t->pc = 1;
        return 1500;
    case PING * 10 + 1: /* send */
        log_event(c, TX_TRACE_QUEUE_SEND, QUEUE_ADDRESS, 0x20003000UL, 0xFFFFFFFFUL, queue_count,
                  TX_TRACE_QUEUE_EVENTS);
        t->pc = 2;
        if (threads[PONG].state == BLOCKED) {
            resume(c, &threads[PONG], WAIT_QUEUE, "pp_queue",
                   "queue_send"); /* the message goes straight to pong */
        } else {
            queue_count++;
        }
        return 400;
    case PING * 10 + 2: /* wait for the acknowledgement */
        log_event(c, TX_TRACE_SEMAPHORE_GET, ACK_ADDRESS, 0xFFFFFFFFUL, ack_count, 0x20007E80UL,
                  TX_TRACE_SEMAPHORE_EVENTS);
        t->pc = 0;
        t->rounds++;
        if (ack_count > 0)
            ack_count--;
        else
            block(c, WAIT_SEMAPHORE);
        return 300;
    case PONG * 10 + 0: /* receive */
        log_event(c, TX_TRACE_QUEUE_RECEIVE, QUEUE_ADDRESS, 0x20003100UL, 0xFFFFFFFFUL, queue_count,
                  TX_TRACE_QUEUE_EVENTS);
        t->pc = 1;
        if (queue_count > 0)
            queue_count--;
        else
            block(c, WAIT_QUEUE);
        return 300;
    case PONG * 10 + 1: /* work */
        log_event(c, 4201, t->counter++, (ULONG)c, 0, 0, TX_TRACE_USER_EVENTS);
        t->pc = 2;
        return 4000;
    case PONG * 10 + 2: /* acknowledge */
        log_event(c, TX_TRACE_SEMAPHORE_PUT, ACK_ADDRESS, ack_count, 0, 0x20007D80UL,
                  TX_TRACE_SEMAPHORE_EVENTS);
        t->pc = 0;
        if (threads[PING].state == BLOCKED)
            resume(c, &threads[PING], WAIT_SEMAPHORE, "pp_ack", "semaphore_put");
        else
            ack_count++;
        return 300;
    case ROAMER * 10 + 0:
        log_event(c, 4300, t->counter++, (ULONG)c, 0, 0, TX_TRACE_USER_EVENTS);
        return 2500;
    default: /* drifter */
        log_event(c, 4301, t->counter++, (ULONG)c, 0, 0, TX_TRACE_USER_EVENTS);
        return 1800;
    }
}

/* Registers the objects and logs their creation (initialization, core 0). */
static void create_objects(void)
{
    for (int i = 0; i < THREADS; i++) {
        thread *t = &threads[i];
        trx_trace_thread_register((VOID *)(uintptr_t)t->address, t->name,
                                  (VOID *)(uintptr_t)(t->address + 0x10000UL), 1024UL, t->priority);
        TRX_HOOK_THREAD_CREATE(t->address, t->priority, t->address + 0x10000UL, 1024UL);
        events_per_core[0]++;
        cores[0].time += 500;
        demo_smp_time = cores[0].time;
    }
    trx_trace_object_register(TX_TRACE_OBJECT_TYPE_QUEUE, (VOID *)(uintptr_t)QUEUE_ADDRESS,
                              "pp_queue", 8UL, 1UL);
    trx_trace_object_register(TX_TRACE_OBJECT_TYPE_SEMAPHORE, (VOID *)(uintptr_t)ACK_ADDRESS,
                              "pp_ack", 0UL, 0UL);
}

static int write_truth(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/demo_smp.truth", dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "trx_demo_smp: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(f, "# trx_demo_smp ground truth: what the simulated 2-core kernel did\n");
    fprintf(f, "cores=%d\nrounds=%d\nspan_ticks=%lu\ninit_ticks=%lu\nparallel_ticks=%llu\n", CORES,
            ROUNDS, (unsigned long)(last_time - first_time),
            (unsigned long)(scheduler_start - first_time), (unsigned long long)parallel_ticks);
    for (int c = 0; c < CORES; c++) {
        fprintf(f, "events_core%d=%llu\n", c, (unsigned long long)events_per_core[c]);
        fprintf(f, "idle_ticks_core%d=%llu\n", c, (unsigned long long)idle_ticks[c]);
        for (int i = 0; i < THREADS; i++)
            if (run_ticks[c][i])
                fprintf(f, "run_ticks_core%d_%s=%llu\n", c, threads[i].name,
                        (unsigned long long)run_ticks[c][i]);
    }
    for (int i = 0; i < THREADS; i++)
        fprintf(f, "migrations_%s=%u\n", threads[i].name, threads[i].migrations);
    return fclose(f) == 0 ? 0 : -1;
}

/* One instance as a JSON line (the fields of demo.latency.truth). */
static void write_instance(FILE *f, int th, uint32_t number, int complete, uint32_t release,
                           uint32_t end, uint64_t running, const uint64_t *preempted_by,
                           int by_thread, const char *object, const char *service)
{
    fprintf(f, "{\"thread\": \"%s\", \"number\": %u, \"complete\": %s, \"release_ticks\": %lu",
            threads[th].name, number, complete ? "true" : "false",
            (unsigned long)(release - first_time));
    if (complete)
        fprintf(f, ", \"end_ticks\": %lu, \"response_ticks\": %lu, \"execution_ticks\": %llu",
                (unsigned long)(end - first_time), (unsigned long)(end - release),
                (unsigned long long)running);
    fprintf(f,
            ", \"released_by\": {\"kind\": \"thread\", \"context\": \"%s\", \"object\": \"%s\", "
            "\"service\": \"%s\"}",
            threads[by_thread].name, object, service);
    if (complete) {
        fprintf(f, ", \"running\": %llu, \"ready\": 0, \"preempted_by\": {",
                (unsigned long long)running);
        for (int i = 0, n = 0; i < THREADS; i++)
            if (preempted_by[i])
                fprintf(f, "%s\"%s\": %llu", n++ ? ", " : "", threads[i].name,
                        (unsigned long long)preempted_by[i]);
        fputs("}, \"interrupted_by\": [], \"blocked\": []", f);
    }
    fputs("}\n", f);
}

/* demo_smp.latency.truth: every instance that ended, then the open ones
 * (incomplete); each one's ticks must add up to its response. */
static int write_latency_truth(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/demo_smp.latency.truth", dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "trx_demo_smp: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(f,
            "{\"truth\": \"instances\", \"trace\": \"demo_smp.trx\", \"first_timestamp\": %lu, "
            "\"threads\": %d}\n",
            (unsigned long)first_time, THREADS);
    for (int k = 0; k < ended_count; k++) {
        const instance *in = &ended[k];
        if (in->by_thread < 0) { /* no release in the trace: incomplete, unnumbered */
            fprintf(f,
                    "{\"thread\": \"%s\", \"number\": null, \"complete\": false, "
                    "\"release_ticks\": null, \"end_ticks\": %lu}\n",
                    threads[in->thread].name, (unsigned long)(in->end - first_time));
            continue;
        }
        uint64_t sum = in->running;
        for (int i = 0; i < THREADS; i++)
            sum += in->preempted_by[i];
        if (sum != in->end - in->release) {
            fprintf(stderr, "trx_demo_smp: %s #%u: %llu ticks accounted of %lu\n",
                    threads[in->thread].name, in->number, (unsigned long long)sum,
                    (unsigned long)(in->end - in->release));
            fclose(f);
            return -1;
        }
        write_instance(f, in->thread, in->number, 1, in->release, in->end, in->running,
                       in->preempted_by, in->by_thread, in->object, in->service);
    }
    for (int i = 0; i < THREADS; i++)
        if (threads[i].open)
            write_instance(f, i, threads[i].number, 0, threads[i].release, 0, 0, NULL,
                           threads[i].by_thread, threads[i].object, threads[i].service);
    return fclose(f) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    static uint32_t buffer_words[BUFFER_BYTES / 4];
    if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
        fprintf(stderr, "usage: trx_demo_smp [OUT_DIR]\n");
        return 2;
    }
    demo_smp_time = cores[0].time = 1000;
    if (tx_trace_enable(buffer_words, BUFFER_BYTES, REGISTRY_ENTRIES) != TX_SUCCESS) {
        fprintf(stderr, "trx_demo_smp: tx_trace_enable failed\n");
        return 1;
    }
    events_per_core[0] += 2; /* the two RUNNING events of tx_trace_enable */
    first_time = cores[0].time;
    create_objects();
    demo_smp_initializing = 0;
    uint32_t start = scheduler_start = cores[0].time;
    for (int c = 0; c < CORES; c++) {
        cores[c].time = cores[c].switched_at = start;
    }
    busy_since = start;
    fill_free_cores(start);
    while (threads[PING].state != DONE) {
        int c = -1; /* the busy core with the earliest clock goes next */
        for (int d = 0; d < CORES; d++)
            if (cores[d].current && (c < 0 || cores[d].time < cores[c].time))
                c = d;
        if (c < 0) {
            fprintf(stderr, "trx_demo_smp: every core idle (a scheduling bug)\n");
            return 1;
        }
        uint32_t cycles = step(c);
        cores[c].time += cycles;
    }
    tx_trace_disable();
    for (int c = 0; c < CORES; c++) /* close every core's last interval at the last event */
        if (cores[c].switched_at < last_time)
            switch_core(c, cores[c].current, last_time);
    if (busy >= 2)
        parallel_ticks += last_time - busy_since;

    char path[4096];
    snprintf(path, sizeof path, "%s/demo_smp.trx", dir);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(buffer_words, 1, BUFFER_BYTES, f) != BUFFER_BYTES || fclose(f) != 0) {
        fprintf(stderr, "trx_demo_smp: cannot write %s\n", path);
        return 1;
    }
    if (write_truth(dir) != 0 || write_latency_truth(dir) != 0)
        return 1;
    printf("trx_demo_smp: 2 cores, %llu + %llu events, roamer migrated %u times, drifter %u; "
           "wrote %s/demo_smp.trx, demo_smp.truth and demo_smp.latency.truth\n",
           (unsigned long long)events_per_core[0], (unsigned long long)events_per_core[1],
           threads[ROAMER].migrations, threads[DRIFTER].migrations, dir);
    return 0;
}
