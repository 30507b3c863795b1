/*
 * sysbios_shaped.c DIR - SYS/BIOS-shaped UIA captures written with the UIA
 * recorder (recorder/trx_uia_*.c), each with the truth of the simulation that
 * made it, for check_sysbios.py:
 *   one_core: one core, three loggers sharing its clock (kernel: Task, Hwi,
 *     Swi, Semaphore; Load; application): tasks switching, blocking and
 *     readied, nested Hwis, Swis with a Hwi inside, a task that is readied
 *     but never runs, the target's Load reports, and three application
 *     records lost in the middle of a task's run (cut from the buffer, as a
 *     transport loses them);
 *   four_cores: four cores whose clocks are unrelated (cpu = offset + rate x
 *     global), each logging UIASync sync points at its start and end, so
 *     that all of them land on one axis of global-timer ticks, and its Load
 *     reports on its one logger;
 *   four_cores_logsync: the same shape, the sync points logged through
 *     LogSync's module id (UIASync's event id, another module: named by
 *     the event id alone) with each core's CpuCyclesPerCpuTimerTick and
 *     CpuFreq, and metadata giving the clocks as TI writes them (cpuClock,
 *     eventCorrelation: cpuTimestamp, globalTimestamp) and modIdMap; its
 *     truth also has every record's global tick ("records", per core, in
 *     the order written) and the global timer's frequency ("global_hz");
 *   benchmark_two_cores: two cores (one image: the same string addresses)
 *     logging UIABenchmark start / stop pairs named by three strings, nested
 *     and overlapping, among the scheduler's events; a stop without a start
 *     and a start never stopped; truth per (name, core): count, min, max,
 *     sum, the longest's start and end, incomplete and unmatched stops.
 * Each capture: DIR/NAME.uia (the loggers' buffers, one packet each),
 * DIR/NAME.uia.xml (TI's metadata naming the events: longName, URL-encoded
 * msg) and DIR/NAME.truth.json. Time is the simulation's global tick g; a
 * record of core c is stamped offset_c + rate_c x g. What ran between two
 * records of a core is what the simulation had running there, so the truth
 * is exact: task ticks, interrupt ticks, switches, Hwi / Swi durations.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trx/uia_recorder.h"

uint32_t sysbios_sim_clock;

#define MOD_BENCH 0x8041u /* ti.uia.events.UIABenchmark */

#define MOD_LOGSYNC 0x8040u            /* ti.uia.runtime.LogSync: logs UIASync's sync points */
#define GLOBAL_HZ 2000000u             /* four_cores_logsync: the global timer's frequency */
#define MAX_TRUTH_RECORDS (4u * 4096u) /* four_cores_logsync: records whose tick is noted */

enum { MOD_TASK = 0x8030, MOD_HWI, MOD_SWI, MOD_SEM, MOD_LOAD, MOD_APP, MOD_SYNC };

static const struct {
    const char *long_name;
    uint16_t module, id;
    const char *msg;
} events[] = {
    {"ti.sysbios.knl.Task.LM_switch", MOD_TASK, 1,
     "LM_switch: oldtsk: 0x%x, oldfunc: 0x%x, newtsk: 0x%x, newfunc: 0x%x"},
    {"ti.sysbios.knl.Task.LD_ready", MOD_TASK, 2, "LD_ready: tsk: 0x%x, func: 0x%x, pri: %d"},
    {"ti.sysbios.knl.Task.LD_block", MOD_TASK, 3, "LD_block: tsk: 0x%x, func: 0x%x"},
    {"ti.sysbios.family.arm.m3.Hwi.LM_begin", MOD_HWI, 4,
     "LM_begin: hwi: 0x%x, func: 0x%x, preThread: %d, intNum: %d, irp: 0x%x"},
    {"ti.sysbios.family.arm.m3.Hwi.LD_end", MOD_HWI, 5, "LD_end: hwi: 0x%x"},
    {"ti.sysbios.knl.Swi.LM_begin", MOD_SWI, 6, "LM_begin: swi: 0x%x, func: 0x%x, preThread: %d"},
    {"ti.sysbios.knl.Swi.LD_end", MOD_SWI, 7, "LD_end: swi: 0x%x"},
    {"ti.sysbios.knl.Swi.LM_post", MOD_SWI, 8, "LM_post: swi: 0x%x, func: 0x%x, pri: %d"},
    {"ti.sysbios.knl.Semaphore.LM_post", MOD_SEM, 9, "LM_post: sem: 0x%x, count: %d"},
    {"ti.sysbios.knl.Semaphore.LM_pend", MOD_SEM, 10, "LM_pend: sem: 0x%x, count: %d, timeout: %d"},
    {"ti.sysbios.utils.Load.LS_cpuLoad", MOD_LOAD, 11, "LS_cpuLoad: %d%%"},
    {"ti.sysbios.utils.Load.LS_taskLoad", MOD_LOAD, 12, "LS_taskLoad: 0x%x,%d,%d,0x%x"},
    {"app.App.mark", MOD_APP, 13, "mark %d"},
    {"ti.sysbios.knl.Task.LM_setPri", MOD_TASK, 15,
     "LM_setPri: tsk: 0x%x, func: 0x%x, oldPri: %d, newPri %d"},
    {"ti.uia.events.UIASync.syncPoint", MOD_SYNC, 14,
     "Sync Point:  SerialNumber=0x%x, CpuTStamp [LSW=0x%x, MSW=0x%x], GlobalTStamp [LSW=0x%x, "
     "MSW=0x%x], CpuCyclesPerCpuTimerTick=%d, CpuFreq [LSW=0x%x, MSW=0x%x]"},
    {"ti.uia.events.UIABenchmark.start", MOD_BENCH, 64, "Start: %s"},
    {"ti.uia.events.UIABenchmark.stop", MOD_BENCH, 65, "Stop: %s"},
};
enum {
    E_SWITCH,
    E_READY,
    E_BLOCK,
    E_HWI_BEGIN,
    E_HWI_END,
    E_SWI_BEGIN,
    E_SWI_END,
    E_SWI_POST,
    E_SEM_POST,
    E_SEM_PEND,
    E_CPU_LOAD,
    E_TASK_LOAD,
    E_MARK,
    E_SETPRI,
    E_SYNC,
    E_BENCH_START,
    E_BENCH_STOP,
    E_COUNT
};
#define WORD(e) ((ULONG)events[e].id << 16 | events[e].module)
#define ALL 0xFFFFFFFFUL

#define TASKS 4 /* the last one is readied but never runs */
#define RUNNING_TASKS 3
#define HWIS 3 /* interrupt numbers 15 (SysTick), 16, 17 */
#define SWIS 2
#define NEST 8
#define BUFFER_BYTES (64u * 1024u)
#define MAX_REPORTS 4096

typedef struct duration {
    uint64_t count, min, max, sum;
} duration;

typedef struct sim_core {
    uint32_t core;
    uint64_t offset, rate; /* its clock: offset + rate x g */
    trx_uia_logger *kernel, *load, *app;
    uint64_t g, last_g, first_g;
    int running; /* task index, -1: initialization */
    int depth;
    struct {
        bool swi;
        uint32_t index;
        uint64_t start, nested;
    } open[NEST];
    bool blocked[TASKS];
    /* the truth */
    uint64_t task_ticks[TASKS], interrupt_ticks;
    uint32_t switches, task_switches;
    duration hwi[HWIS], swi[SWIS];
    /* idle_load, time_backwards */
    bool idle_running;             /* the Idle task runs (nothing else is ready) */
    uint64_t idle_ticks;           /* the truth: ticks the Idle task ran */
    uint64_t busy_mark, idle_mark; /* busy / idle ticks at the last Load report */
    int64_t clock_shift;           /* added to the clock: a broken time source steps back */
} sim_core;

typedef struct report {
    uint32_t core;
    uint64_t g;
    uint32_t a[4];
} report;

static report cpu_reports[MAX_REPORTS], task_reports[MAX_REPORTS];
static uint32_t cpu_report_count, task_report_count;
static uint32_t flows; /* cause -> effect: semaphore post -> pend, Swi post -> begin */
static uint64_t min_g = UINT64_MAX;
static uint32_t rng = 12345;
/* when noting: every record's core and global tick, in the order written */
static bool note_records;
static struct {
    uint32_t core;
    uint64_t g;
} noted[MAX_TRUTH_RECORDS];
static uint32_t noted_count;
static bool shared_handles;          /* AMP / SMP scenarios: every core has core 0's handles */
static const struct sim_core *other; /* SMP: the other core, whose task this one may not take */

static uint32_t rnd(uint32_t n)
{
    rng = rng * 1103515245u + 12345u;
    return (rng >> 8) % n;
}

/* The handle's core: its own, or with shared_handles core 0's (one image). */
static uint32_t handle_core(const sim_core *c)
{
    return shared_handles ? 0 : c->core;
}

static uint32_t task_handle(const sim_core *c, int k)
{
    return 0x20001000u + handle_core(c) * 0x1000u + (uint32_t)k * 0x100u;
}

static uint32_t task_function(int k)
{
    return 0x00001001u + (uint32_t)k * 0x40u; /* Thumb code addresses */
}

static uint32_t hwi_handle(const sim_core *c, uint32_t i)
{
    return 0x20008000u + handle_core(c) * 0x100u + i * 0x10u;
}

static uint32_t swi_handle(const sim_core *c, uint32_t i)
{
    return 0x2000A000u + handle_core(c) * 0x100u + i * 0x20u;
}

static void add_duration(duration *d, uint64_t v)
{
    if (d->count == 0 || v < d->min)
        d->min = v;
    if (v > d->max)
        d->max = v;
    d->count++;
    d->sum += v;
}

/* The next record of core c: time moves on by `step` (at least 1: no two
 * records of a core share a time stamp), and what ran until now is counted. */
static void stamp(sim_core *c, uint64_t step)
{
    c->g += step ? step : 1;
    if (c->depth > 0)
        c->interrupt_ticks += c->g - c->last_g;
    else if (c->idle_running)
        c->idle_ticks += c->g - c->last_g;
    else if (c->running >= 0)
        c->task_ticks[c->running] += c->g - c->last_g;
    c->last_g = c->g;
    if (c->g < min_g)
        min_g = c->g;
    sysbios_sim_clock = (uint32_t)(c->offset + c->rate * c->g + (uint64_t)c->clock_shift);
    if (note_records && noted_count < MAX_TRUTH_RECORDS) { /* every stamp: one record */
        noted[noted_count].core = c->core;
        noted[noted_count++].g = c->g;
    }
}

static void ready(sim_core *c, int k)
{
    stamp(c, 1 + rnd(5));
    trx_uia_write4(c->kernel, WORD(E_READY), task_handle(c, k), task_function(k), 1 + (uint32_t)k,
                   0, ALL); /* task k's priority: 1 + k */
    c->blocked[k] = false;
}

static void switch_to(sim_core *c, int k)
{
    if (c->blocked[k])
        ready(c, k);
    stamp(c, 1 + rnd(5));
    int old = c->running;
    trx_uia_write4(c->kernel, WORD(E_SWITCH), old >= 0 ? task_handle(c, old) : 0,
                   old >= 0 ? task_function(old) : 0, task_handle(c, k), task_function(k), ALL);
    c->switches++;
    c->task_switches += old >= 0;
    c->running = k;
}

static void begin(sim_core *c, bool swi, uint32_t i)
{
    if (swi) {
        flows++;
        stamp(c, 1 + rnd(4));
        trx_uia_write4(c->kernel, WORD(E_SWI_POST), swi_handle(c, i), 0x2001u + i * 0x20u, 3, 0,
                       ALL);
    }
    stamp(c, 1 + rnd(6));
    if (swi)
        trx_uia_write4(c->kernel, WORD(E_SWI_BEGIN), swi_handle(c, i), 0x2001u + i * 0x20u, 1, 0,
                       ALL);
    else
        trx_uia_write8(c->kernel, WORD(E_HWI_BEGIN), hwi_handle(c, i), 0x3001u + i * 0x20u, 2,
                       15 + i, 0x1234u, 0, 0, 0, ALL);
    c->open[c->depth].swi = swi;
    c->open[c->depth].index = i;
    c->open[c->depth].start = c->g;
    c->open[c->depth].nested = 0;
    c->depth++;
}

static void end(sim_core *c)
{
    stamp(c, 2 + rnd(20));
    c->depth--;
    bool swi = c->open[c->depth].swi;
    uint32_t i = c->open[c->depth].index;
    uint64_t incl = c->g - c->open[c->depth].start;
    trx_uia_write1(c->kernel, WORD(swi ? E_SWI_END : E_HWI_END),
                   swi ? swi_handle(c, i) : hwi_handle(c, i), ALL);
    add_duration(swi ? &c->swi[i] : &c->hwi[i], incl);
    if (c->depth > 0)
        c->open[c->depth - 1].nested += incl;
}

static uint32_t mark_seq; /* the application logger's next record: its sequence number */

static void mark(sim_core *c, uint32_t value)
{
    stamp(c, 1 + rnd(8));
    trx_uia_write1(c->app, WORD(E_MARK), value, ALL);
    if (c->app != c->kernel)
        mark_seq++;
}

static void load_report(sim_core *c)
{
    stamp(c, 1 + rnd(5));
    uint32_t percent = 20 + rnd(70);
    trx_uia_write1(c->load, WORD(E_CPU_LOAD), percent, ALL);
    if (cpu_report_count < MAX_REPORTS)
        cpu_reports[cpu_report_count++] = (report){c->core, c->g, {percent, 0, 0, 0}};
    stamp(c, 1);
    uint32_t time = 100 + rnd(900), total = 1000 + rnd(1000);
    trx_uia_write4(c->load, WORD(E_TASK_LOAD), task_handle(c, 0), time, total, task_function(0),
                   ALL);
    if (task_report_count < MAX_REPORTS)
        task_reports[task_report_count++] =
            (report){c->core, c->g, {task_handle(c, 0), time, total, task_function(0)}};
}

static void sync_point(sim_core *c, uint32_t serial)
{
    stamp(c, 1);
    uint64_t cpu = c->offset + c->rate * c->g;
    trx_uia_write8(c->kernel, WORD(E_SYNC), serial, (uint32_t)cpu, (uint32_t)(cpu >> 32),
                   (uint32_t)c->g, (uint32_t)(c->g >> 32), (uint32_t)c->rate, 0, 0, ALL);
}

/* One random step of core c's scheduler. */
static void step(sim_core *c, uint32_t n)
{
    uint32_t r = rnd(10);
    if (r <= 2 || c->running < 0) { /* a switch, the running task blocking first or not */
        int to = (int)rnd(RUNNING_TASKS);
        if (to == c->running)
            to = (to + 1) % RUNNING_TASKS;
        if (other && to == other->running) /* SMP: one core at a time (tasks 0 + 1 + 2 = 3) */
            to = c->running >= 0 ? 3 - c->running - other->running : (to + 1) % RUNNING_TASKS;
        if (c->running >= 0 && rnd(2)) {
            stamp(c, 3 + rnd(30));
            trx_uia_write2(c->kernel, WORD(E_BLOCK), task_handle(c, c->running),
                           task_function(c->running), ALL);
            c->blocked[c->running] = true;
        }
        switch_to(c, to);
    } else if (r <= 4) { /* a Hwi, maybe another nested in it */
        begin(c, false, rnd(HWIS));
        if (rnd(3) == 0) {
            begin(c, false, rnd(HWIS));
            end(c);
        }
        end(c);
    } else if (r == 5) { /* a Swi, maybe with a Hwi inside */
        begin(c, true, rnd(SWIS));
        if (rnd(2)) {
            begin(c, false, rnd(HWIS));
            end(c);
        }
        end(c);
    } else if (r == 6) { /* a semaphore posted and pended on */
        flows++;
        stamp(c, 2 + rnd(10));
        trx_uia_write2(c->kernel, WORD(E_SEM_POST), 0x2000C000u + c->core * 0x10u, 1, ALL);
        stamp(c, 2 + rnd(10));
        trx_uia_write4(c->kernel, WORD(E_SEM_PEND), 0x2000C000u + c->core * 0x10u, 0, 100, 0, ALL);
    } else if (r <= 8 && c->app) {
        mark(c, c->core << 16 | n);
    } else if (c->load) {
        load_report(c);
    } else {
        stamp(c, 5 + rnd(40)); /* the same task goes on */
        trx_uia_write1(c->kernel, WORD(E_SEM_POST), 0x2000C100u + c->core * 0x10u, ALL);
    }
}

static void url_encode(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9'))
            fputc(ch, f);
        else
            fprintf(f, "%%%02X", ch);
    }
}

static FILE *open_out(const char *dir, const char *name, const char *ext)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s%s", dir, name, ext);
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(2);
    }
    return f;
}

/* The clocks metadata gives (write_metadata; NULL: none written, as before). */
typedef struct meta_clocks {
    uint64_t cpu_hz;          /* cpuClock and cpuTimestamp's maxTimerFreq */
    uint32_t cycles_per_tick; /* cpuTimestamp's cyclesPerTick */
    uint64_t global_hz;       /* globalTimestamp's maxTimerFreq */
} meta_clocks;

/* An element of TI's metadata giving a frequency as MSW / LSW children. */
static void write_frequency(FILE *f, const char *what, uint64_t hz)
{
    fprintf(f, "         <max%sFreqMSW>%u</max%sFreqMSW>\n", what, (uint32_t)(hz >> 32), what);
    fprintf(f, "         <max%sFreqLSW>%u</max%sFreqLSW>\n", what, (uint32_t)hz, what);
}

/* The modules and clocks as UIAMetaData.xs / LogSync.xs write them (child elements). */
static void write_clocks(FILE *f, const meta_clocks *k)
{
    static const struct {
        unsigned id;
        const char *name;
    } modules[] = {{MOD_TASK, "ti.sysbios.knl.Task"},   {MOD_HWI, "ti.sysbios.family.arm.m3.Hwi"},
                   {MOD_SWI, "ti.sysbios.knl.Swi"},     {MOD_SEM, "ti.sysbios.knl.Semaphore"},
                   {MOD_LOAD, "ti.sysbios.utils.Load"}, {MOD_APP, "app.App"},
                   {MOD_SYNC, "ti.uia.events.UIASync"}, {MOD_LOGSYNC, "ti.uia.runtime.LogSync"}};
    for (size_t m = 0; m < sizeof modules / sizeof modules[0]; m++)
        fprintf(f, "   <modIdMap id=\"%u\">\n      <moduleName>%s</moduleName>\n   </modIdMap>\n",
                modules[m].id, modules[m].name);
    fputs("   <cpuClock>\n", f);
    write_frequency(f, "Clock", k->cpu_hz);
    fputs("      <canFrequencyBeChanged>false</canFrequencyBeChanged>\n   </cpuClock>\n", f);
    fputs("   <eventCorrelation>\n      <isEnabled>true</isEnabled>\n      <cpuTimestamp>\n", f);
    write_frequency(f, "Timer", k->cpu_hz);
    fprintf(f, "         <cyclesPerTick>%u</cyclesPerTick>\n      </cpuTimestamp>\n",
            k->cycles_per_tick);
    fputs("      <globalTimestamp>\n", f);
    write_frequency(f, "Timer", k->global_hz);
    fputs("         <cyclesPerTick>1</cyclesPerTick>\n      </globalTimestamp>\n", f);
    fputs("   </eventCorrelation>\n", f);
}

static void write_metadata(const char *dir, const char *name, const meta_clocks *clocks)
{
    FILE *f = open_out(dir, name, ".uia.xml");
    fputs("<?xml version=\"1.0\"?>\n<uia>\n", f);
    for (int e = 0; e < E_COUNT; e++) {
        const char *ln = events[e].long_name, *dot = strrchr(ln, '.'), *mod = dot;
        while (mod > ln && mod[-1] != '.')
            mod--;
        fprintf(f,
                "  <evtMap id=\"%u\" moduleId=\"%u\" shortName=\"%.*s_%s\" longName=\"%s\" msg=\"",
                events[e].id, events[e].module, (int)(dot - mod), mod, dot + 1, ln);
        url_encode(f, events[e].msg);
        fputs("\"/>\n", f);
    }
    if (clocks)
        write_clocks(f, clocks);
    fputs("</uia>\n", f);
    fclose(f);
}

static void write_duration(FILE *f, const char *key, uint32_t id, const duration *d)
{
    fprintf(f, "{\"%s\": %u, \"count\": %llu, \"min\": %llu, \"max\": %llu, \"sum\": %llu}", key,
            id, (unsigned long long)d->count, (unsigned long long)d->min,
            (unsigned long long)d->max, (unsigned long long)d->sum);
}

static void write_reports(FILE *f, const report *r, uint32_t n, bool task)
{
    for (uint32_t i = 0; i < n; i++) {
        fprintf(f, "%s{\"core\": %u, \"g\": %llu, ", i ? ", " : "", r[i].core,
                (unsigned long long)r[i].g);
        if (task)
            fprintf(f, "\"task\": %u, \"time\": %u, \"total\": %u, \"function\": %u}", r[i].a[0],
                    r[i].a[1], r[i].a[2], r[i].a[3]);
        else
            fprintf(f, "\"percent\": %u}", r[i].a[0]);
    }
}

static const char *truth_extra; /* more truth keys ("\"amp\": true, "), or NULL */

static void write_truth(const char *dir, const char *name, const sim_core *cores, uint32_t n,
                        uint32_t lost)
{
    FILE *f = open_out(dir, name, ".truth.json");
    fprintf(f, "{%s\"origin_g\": %llu, \"lost\": %u, \"flows\": %u, \"cores\": [",
            truth_extra ? truth_extra : "", (unsigned long long)min_g, lost, flows);
    for (uint32_t k = 0; k < n; k++) {
        const sim_core *c = &cores[k];
        fprintf(f,
                "%s\n  {\"core\": %u, \"rate\": %llu, \"first_g\": %llu, \"last_g\": %llu, "
                "\"switches\": %u, \"task_switches\": %u, \"interrupt_ticks\": %llu, \"tasks\": [",
                k ? "," : "", c->core, (unsigned long long)c->rate, (unsigned long long)c->first_g,
                (unsigned long long)c->g, c->switches, c->task_switches,
                (unsigned long long)c->interrupt_ticks);
        for (int t = 0; t < TASKS; t++)
            fprintf(f, "%s{\"handle\": %u, \"ticks\": %llu}", t ? ", " : "", task_handle(c, t),
                    (unsigned long long)c->task_ticks[t]);
        fputs("], \"hwi\": [", f);
        for (uint32_t i = 0, m = 0; i < HWIS; i++)
            if (c->hwi[i].count) {
                fputs(m++ ? ", " : "", f);
                write_duration(f, "id", 15 + i, &c->hwi[i]);
            }
        fputs("], \"swi\": [", f);
        for (uint32_t i = 0, m = 0; i < SWIS; i++)
            if (c->swi[i].count) {
                fputs(m++ ? ", " : "", f);
                write_duration(f, "handle", swi_handle(c, i), &c->swi[i]);
            }
        fputs("]}", f);
    }
    fputs("],\n \"cpu_load\": [", f);
    write_reports(f, cpu_reports, cpu_report_count, false);
    fputs("],\n \"task_load\": [", f);
    write_reports(f, task_reports, task_report_count, true);
    fputs("]}\n", f);
    fclose(f);
}

/* Removes the records with sequence numbers [from, from + n) from a logger's
 * standard records (a transport that lost them): the decoder sees the gap. */
static void cut_records(uint32_t *buffer, uint32_t from, uint32_t n)
{
    uint32_t *w = buffer + 4, *end = buffer + BUFFER_BYTES / 4, *cut = NULL;
    size_t cut_words = 0;
    while (w < end) {
        uint32_t hdr = w[0], bytes = (hdr >> 16) & 0x7FFu, seq = hdr & 0xFFFFu;
        if (bytes == 0)
            break;
        if (seq == from)
            cut = w;
        if (seq >= from && seq < from + n)
            cut_words += bytes / 4;
        w += bytes / 4;
    }
    if (!cut || cut_words == 0) {
        fprintf(stderr, "sysbios_shaped: records %u.. not found\n", from);
        exit(2);
    }
    memmove(cut, cut + cut_words, (size_t)(end - cut - cut_words) * 4);
    memset(end - cut_words, 0, cut_words * 4);
}

static uint32_t buffers[5][BUFFER_BYTES / 4];
static trx_uia_logger loggers[5];

static void enable(uint32_t i, ULONG sender)
{
    memset(&loggers[i], 0, sizeof loggers[i]);
    if (trx_uia_enable(&loggers[i], buffers[i], BUFFER_BYTES, TRX_UIA_POLICY_STOP, sender) !=
        TX_SUCCESS) {
        fprintf(stderr, "sysbios_shaped: enable failed\n");
        exit(2);
    }
}

static void write_buffers(const char *dir, const char *name, uint32_t n)
{
    FILE *f = open_out(dir, name, ".uia");
    for (uint32_t i = 0; i < n; i++) {
        if (trx_uia_dropped(&loggers[i]) != 0) {
            fprintf(stderr, "sysbios_shaped: logger %u dropped records\n", i);
            exit(2);
        }
        trx_uia_disable(&loggers[i]);
        fwrite(buffers[i], 1, BUFFER_BYTES, f);
    }
    fclose(f);
}

static void one_core(const char *dir)
{
    enable(0, TRX_UIA_SENDER(0, 0)); /* kernel */
    enable(1, TRX_UIA_SENDER(0, 1)); /* Load */
    enable(2, TRX_UIA_SENDER(0, 2)); /* application */
    sim_core c;
    memset(&c, 0, sizeof c);
    c.offset = 1000;
    c.rate = 1;
    c.kernel = &loggers[0];
    c.load = &loggers[1];
    c.app = &loggers[2];
    c.running = -1;
    c.g = c.last_g = c.first_g = 100;
    min_g = UINT64_MAX;
    mark_seq = 0;
    flows = 0;
    ready(&c, TASKS - 1); /* readied, never runs */
    c.first_g = c.g;
    stamp(&c, 1); /* task 1's priority raised from 2 to 7 (truth: its range 2..7) */
    trx_uia_write4(c.kernel, WORD(E_SETPRI), task_handle(&c, 1), task_function(1), 2, 7, ALL);
    uint32_t lost_from = 0;
    for (uint32_t n = 0; n < 400; n++) {
        step(&c, n);
        if (n == 200) { /* five records in a task's run; the middle three get lost */
            while (c.depth > 0)
                end(&c);
            lost_from = mark_seq + 1;
            for (uint32_t k = 0; k < 5; k++)
                mark(&c, 0xEE00u + k);
        }
    }
    cut_records(buffers[2], lost_from, 3);
    write_buffers(dir, "one_core", 3);
    write_metadata(dir, "one_core", NULL);
    write_truth(dir, "one_core", &c, 1, 3);
}

static void four_cores(const char *dir)
{
    static const uint64_t offset[4] = {1000, 7777777, 123, 3000000000u};
    static const uint64_t rate[4] = {1, 2, 3, 5};
    sim_core cores[4];
    min_g = UINT64_MAX;
    cpu_report_count = task_report_count = 0;
    flows = 0;
    for (uint32_t k = 0; k < 4; k++) {
        enable(k, k); /* one logger per core, its source address */
        sim_core *c = &cores[k];
        memset(c, 0, sizeof *c);
        c->core = k;
        c->offset = offset[k];
        c->rate = rate[k];
        c->kernel = c->load = &loggers[k]; /* the Load module logs with the kernel's logger */
        c->app = NULL;
        c->running = -1;
        c->g = c->last_g = 5000 + 7 * k;
        sync_point(c, 1);
        c->first_g = c->g;
        ready(c, TASKS - 1); /* readied, never runs */
        for (uint32_t n = 0; n < 150; n++)
            step(c, n);
        while (c->depth > 0)
            end(c);
        sync_point(c, 2);
    }
    write_buffers(dir, "four_cores", 4);
    write_metadata(dir, "four_cores", NULL);
    write_truth(dir, "four_cores", cores, 4, 0);
}

/* Two cores (clocks `offset` + `rate` x g) starting at global tick 5000,
 * each logging a sync point first (two_cores_finish: last): one axis. */
static void two_cores_setup(sim_core *cores, const uint64_t *offset, const uint64_t *rate)
{
    min_g = UINT64_MAX;
    cpu_report_count = task_report_count = 0;
    flows = 0;
    for (uint32_t k = 0; k < 2; k++) {
        enable(k, k); /* one logger per core, its source address */
        sim_core *c = &cores[k];
        memset(c, 0, sizeof *c);
        c->core = k;
        c->offset = offset[k];
        c->rate = rate[k];
        c->kernel = &loggers[k];
        c->load = c->app = NULL;
        c->running = -1;
        c->g = c->last_g = 5000;
        sync_point(c, 1);
        c->first_g = c->g;
    }
}

static void two_cores_finish(const char *dir, const char *name, sim_core *cores)
{
    for (uint32_t k = 0; k < 2; k++) {
        while (cores[k].depth > 0)
            end(&cores[k]);
        sync_point(&cores[k], 2);
    }
    write_buffers(dir, name, 2);
    write_metadata(dir, name, NULL);
    write_truth(dir, name, cores, 2, 0);
    truth_extra = NULL;
}

/* AMP: two SYS/BIOS instances of one image (the same task, Hwi and Swi
 * handles on both), own clocks, running at the same time: per (core, task)
 * its own ticks and switches. */
static void amp_two_cores(const char *dir)
{
    static const uint64_t offset[2] = {4000, 900000}, rate[2] = {1, 3};
    sim_core cores[2];
    shared_handles = true;
    two_cores_setup(cores, offset, rate);
    for (uint32_t k = 0; k < 2; k++) {
        ready(&cores[k], TASKS - 1); /* readied, never runs */
        for (uint32_t n = 0; n < 150; n++)
            step(&cores[k], n);
    }
    truth_extra = "\"amp\": true, ";
    two_cores_finish(dir, "amp_two_cores", cores);
    shared_handles = false;
}

/* SMP: one SYS/BIOS instance on two cores (one clock), its tasks migrating
 * between them, never on both at once: one task per handle, its ticks the
 * sum over the cores. */
static void smp_two_cores(const char *dir)
{
    static const uint64_t offset[2] = {1000, 1000}, rate[2] = {1, 1};
    sim_core cores[2];
    shared_handles = true;
    two_cores_setup(cores, offset, rate);
    ready(&cores[0], TASKS - 1); /* readied, never runs */
    for (uint32_t n = 0; n < 300; n++) {
        uint32_t k = rnd(2);
        sim_core *c = &cores[k], *o = &cores[1 - k];
        if (c->g < o->g) /* on in time past the other core's last record */
            c->g = o->g;
        other = o;
        step(c, n);
        memcpy(o->blocked, c->blocked, sizeof o->blocked); /* one scheduler */
    }
    other = NULL;
    truth_extra = "\"amp\": false, ";
    two_cores_finish(dir, "smp_two_cores", cores);
    shared_handles = false;
}

#define BENCH_NAMES 3

/* The truth of one (name, core) of benchmark_two_cores. */
typedef struct bench_truth {
    duration d;
    uint64_t worst_start, worst_end;
    uint32_t incomplete, unmatched;
} bench_truth;

static const char *const bench_names[BENCH_NAMES] = {"frame", "filter", "io"};

static uint32_t bench_address(uint32_t k)
{
    return 0x0000A000u + k * 0x10u; /* the strings in the image's .rodata */
}

static void bench(sim_core *c, bool start, uint32_t k)
{
    stamp(c, 1 + rnd(6));
    trx_uia_write1(c->kernel, WORD(start ? E_BENCH_START : E_BENCH_STOP), bench_address(k), ALL);
}

static void benchmark_two_cores(const char *dir)
{
    static const uint64_t offset[2] = {1000, 400000};
    sim_core cores[2];
    bench_truth truth[2][BENCH_NAMES];
    memset(truth, 0, sizeof truth);
    min_g = UINT64_MAX;
    cpu_report_count = task_report_count = 0;
    flows = 0;
    for (uint32_t k = 0; k < 2; k++) {
        enable(k, k);
        sim_core *c = &cores[k];
        memset(c, 0, sizeof *c);
        c->core = k;
        c->offset = offset[k];
        c->rate = 1;
        c->kernel = c->load = &loggers[k];
        c->running = -1;
        c->g = c->last_g = 9000 + 11 * k;
        sync_point(c, 1);
        c->first_g = c->g;
        uint64_t open[BENCH_NAMES] = {0, 0, 0}; /* start g, 0: not open */
        if (k == 1) {                           /* a stop whose start is not in the capture */
            bench(c, false, 2);
            truth[k][2].unmatched++;
        }
        for (uint32_t n = 0; n < 300; n++) {
            step(c, n);
            while (c->depth > 0)
                end(c);
            if (rnd(2))
                continue;
            uint32_t b = rnd(BENCH_NAMES);
            bench(c, !open[b], b);
            if (!open[b]) {
                open[b] = c->g;
                continue;
            }
            uint64_t ticks = c->g - open[b];
            bench_truth *t = &truth[k][b];
            if (!t->d.count || ticks > t->d.max) {
                t->worst_start = open[b];
                t->worst_end = c->g;
            }
            add_duration(&t->d, ticks);
            open[b] = 0;
        }
        for (uint32_t b = 0; b < BENCH_NAMES; b++)
            if (open[b] && (k != 0 || b != 0)) { /* stopped, but core 0's "frame" never is */
                bench(c, false, b);
                uint64_t ticks = c->g - open[b];
                bench_truth *t = &truth[k][b];
                if (!t->d.count || ticks > t->d.max) {
                    t->worst_start = open[b];
                    t->worst_end = c->g;
                }
                add_duration(&t->d, ticks);
                open[b] = 0;
            }
        if (k == 0) { /* a start never stopped (the one open now, if any) */
            if (!open[0])
                bench(c, true, 0);
            truth[k][0].incomplete++;
        }
        sync_point(c, 2);
    }
    write_buffers(dir, "benchmark_two_cores", 2);
    write_metadata(dir, "benchmark_two_cores", NULL);
    write_truth(dir, "benchmark_two_cores", cores, 2, 0);
    FILE *f = open_out(dir, "benchmark_two_cores", ".durations.json");
    fprintf(f, "{\"origin_g\": %llu, \"strings\": [", (unsigned long long)min_g);
    for (uint32_t b = 0; b < BENCH_NAMES; b++)
        fprintf(f, "%s{\"name\": \"%s\", \"address\": %u}", b ? ", " : "", bench_names[b],
                bench_address(b));
    fputs("],\n \"durations\": [", f);
    for (uint32_t k = 0, m = 0; k < 2; k++)
        for (uint32_t b = 0; b < BENCH_NAMES; b++) {
            const bench_truth *t = &truth[k][b];
            fprintf(f,
                    "%s\n  {\"name\": \"%s\", \"core\": %u, \"count\": %llu, \"min\": %llu, "
                    "\"max\": %llu, \"sum\": %llu, \"worst_start_g\": %llu, \"worst_end_g\": %llu, "
                    "\"incomplete\": %u, \"unmatched_stops\": %u}",
                    m++ ? "," : "", bench_names[b], k, (unsigned long long)t->d.count,
                    (unsigned long long)t->d.min, (unsigned long long)t->d.max,
                    (unsigned long long)t->d.sum, (unsigned long long)t->worst_start,
                    (unsigned long long)t->worst_end, t->incomplete, t->unmatched);
        }
    fputs("]}\n", f);
    fclose(f);
}

/* idle_load: the Idle task (its function SYS/BIOS's Idle loop, IDLE_FUNCTION)
 * runs whenever no task is ready; Hwis ready the blocked tasks. Each core
 * starts with a long initialization (records, no task switch: unknown time,
 * not busy) and logs LS_cpuLoad reports computed from the truth (busy /
 * (busy + idle) since its last report, rounded down as Load does). The truth
 * adds per core "idle_ticks" and "load_percent" (busy / (busy + idle) after
 * the first switch; Hwis of the initialization count as busy). */
#define IDLE_FUNCTION 0x00001201u

static uint32_t idle_handle(const sim_core *c)
{
    return 0x20001F00u + c->core * 0x1000u;
}

static uint64_t busy_ticks(const sim_core *c)
{
    uint64_t busy = c->interrupt_ticks;
    for (int k = 0; k < TASKS; k++)
        busy += c->task_ticks[k];
    return busy;
}

/* Switches core c to task k, or to the Idle task for k < 0. */
static void idle_switch(sim_core *c, int k)
{
    stamp(c, 1 + rnd(5));
    uint32_t old_handle = c->idle_running   ? idle_handle(c)
                          : c->running >= 0 ? task_handle(c, c->running)
                                            : 0;
    uint32_t old_function = c->idle_running   ? IDLE_FUNCTION
                            : c->running >= 0 ? task_function(c->running)
                                              : 0;
    trx_uia_write4(c->kernel, WORD(E_SWITCH), old_handle, old_function,
                   k >= 0 ? task_handle(c, k) : idle_handle(c),
                   k >= 0 ? task_function(k) : IDLE_FUNCTION, ALL);
    c->switches++;
    c->task_switches += old_handle != 0;
    c->idle_running = k < 0;
    c->running = k;
}

/* The Load module's report: the truth's load since the last one. */
static void idle_load_report(sim_core *c)
{
    stamp(c, 1 + rnd(3));
    uint64_t busy = busy_ticks(c) - c->busy_mark, idle = c->idle_ticks - c->idle_mark;
    uint32_t percent = busy + idle ? (uint32_t)(100 * busy / (busy + idle)) : 0;
    c->busy_mark = busy_ticks(c);
    c->idle_mark = c->idle_ticks;
    trx_uia_write1(c->load, WORD(E_CPU_LOAD), percent, ALL);
    if (cpu_report_count < MAX_REPORTS)
        cpu_reports[cpu_report_count++] = (report){c->core, c->g, {percent, 0, 0, 0}};
}

/* One step of core c: the running task works, blocks (the next ready task or
 * the Idle task runs), or a Hwi readies a blocked task. */
static void idle_step(sim_core *c, uint32_t n)
{
    if (c->idle_running) {
        stamp(c, 20 + rnd(200)); /* idle until an interrupt */
        if (n % 4 == 0) {
            idle_load_report(c);
            stamp(c, 5 + rnd(50));
        }
        begin(c, false, rnd(HWIS));
        end(c);
        int k = (int)rnd(RUNNING_TASKS);
        if (rnd(3)) {
            ready(c, k);
            idle_switch(c, k);
        }
        return;
    }
    uint32_t r = rnd(6);
    if (r <= 1) { /* the task blocks: another ready one, else the Idle task */
        stamp(c, 3 + rnd(30));
        trx_uia_write2(c->kernel, WORD(E_BLOCK), task_handle(c, c->running),
                       task_function(c->running), ALL);
        c->blocked[c->running] = true;
        int next = -1;
        for (int k = 0; k < RUNNING_TASKS; k++)
            if (!c->blocked[k] && k != c->running)
                next = k;
        idle_switch(c, next);
    } else if (r == 2) {
        begin(c, false, rnd(HWIS));
        end(c);
    } else if (r == 3) {
        begin(c, true, rnd(SWIS));
        end(c);
    } else {
        stamp(c, 5 + rnd(40)); /* the task works on */
        trx_uia_write1(c->kernel, WORD(E_SEM_POST), 0x2000C100u + c->core * 0x10u, ALL);
    }
}

/* Adds "idle": per core its Idle task, idle and busy ticks and load to the
 * truth write_truth wrote (its closing "}\n" replaced). */
static void write_idle_truth(const char *dir, const char *name, const sim_core *cores, uint32_t n)
{
    char file[600];
    snprintf(file, sizeof file, "%s/%s.truth.json", dir, name);
    FILE *f = fopen(file, "r+b");
    if (!f || fseek(f, -2, SEEK_END) != 0) {
        perror(file);
        exit(2);
    }
    fputs(",\n \"idle\": [", f);
    for (uint32_t k = 0; k < n; k++) {
        uint64_t busy = busy_ticks(&cores[k]), idle = cores[k].idle_ticks;
        fprintf(f,
                "%s{\"core\": %u, \"idle_handle\": %u, \"idle_ticks\": %llu, "
                "\"busy_ticks\": %llu, \"load_percent\": %.4f}",
                k ? ", " : "", cores[k].core, idle_handle(&cores[k]), (unsigned long long)idle,
                (unsigned long long)busy,
                busy + idle ? 100.0 * (double)busy / (double)(busy + idle) : 0.0);
    }
    fputs("]}\n", f);
    fclose(f);
}

/* Two cores (unrelated clocks, sync points) as idle_step runs them. */
static void idle_load(const char *dir)
{
    static const uint64_t offset[2] = {4000, 900000};
    static const uint64_t rate[2] = {1, 3};
    sim_core cores[2];
    min_g = UINT64_MAX;
    cpu_report_count = task_report_count = 0;
    flows = 0;
    for (uint32_t k = 0; k < 2; k++) {
        enable(k, k);
        sim_core *c = &cores[k];
        memset(c, 0, sizeof *c);
        c->core = k;
        c->offset = offset[k];
        c->rate = rate[k];
        c->kernel = c->load = &loggers[k];
        c->running = -1;
        c->g = c->last_g = 8000 + 11 * k;
        sync_point(c, 1);
        c->first_g = c->g;
        for (int t = 0; t < RUNNING_TASKS; t++) { /* initialization: long, no task runs yet */
            stamp(c, 400 + rnd(200));
            trx_uia_write4(c->kernel, WORD(E_READY), task_handle(c, t), task_function(t),
                           1 + (uint32_t)t, 0, ALL);
        }
        begin(c, false, 0); /* a Hwi during initialization: busy, and known */
        end(c);
        stamp(c, 300);
        idle_switch(c, 0);
        for (uint32_t n = 0; n < 300; n++)
            idle_step(c, n);
        while (c->depth > 0)
            end(c);
        sync_point(c, 2);
    }
    write_buffers(dir, "idle_load", 2);
    write_metadata(dir, "idle_load", NULL);
    write_truth(dir, "idle_load", cores, 2, 0);
    write_idle_truth(dir, "idle_load", cores, 2);
}

/* time_backwards: one core whose time source steps back by 700 ticks inside
 * a Hwi while a readied task waits for the CPU (a broken timer; the
 * recorder extends the 32-bit counter as if it had wrapped). The truth adds
 * "backward": the Hwi spanning the step (its interrupt number and true
 * duration) and the task whose response time spans it: figures trx must
 * leave out rather than report as ~2^32 ticks. */
static void time_backwards(const char *dir)
{
    enable(0, TRX_UIA_SENDER(0, 0));
    sim_core c;
    memset(&c, 0, sizeof c);
    c.offset = 50000;
    c.rate = 1;
    c.kernel = c.load = &loggers[0];
    c.running = -1;
    c.g = c.last_g = c.first_g = 100;
    min_g = UINT64_MAX;
    cpu_report_count = task_report_count = 0;
    flows = 0;
    switch_to(&c, 0);
    for (uint32_t n = 0; n < 100; n++)
        step(&c, n);
    while (c.depth > 0)
        end(&c);
    int waiter = (c.running + 1) % RUNNING_TASKS;
    ready(&c, waiter); /* its response time starts before the step */
    begin(&c, false, 1);
    uint64_t start = c.g;
    c.clock_shift = -700; /* the time source steps back */
    end(&c);
    uint64_t spanning = c.g - start;
    switch_to(&c, waiter);
    for (uint32_t n = 0; n < 100; n++)
        step(&c, n);
    while (c.depth > 0)
        end(&c);
    write_buffers(dir, "time_backwards", 1);
    write_metadata(dir, "time_backwards", NULL);
    write_truth(dir, "time_backwards", &c, 1, 0);
    char file[600];
    snprintf(file, sizeof file, "%s/time_backwards.truth.json", dir);
    FILE *f = fopen(file, "r+b");
    if (!f || fseek(f, -2, SEEK_END) != 0) {
        perror(file);
        exit(2);
    }
    fprintf(f, ",\n \"backward\": {\"hwi\": 16, \"ticks\": %llu, \"task\": %u, \"by\": 700}}\n",
            (unsigned long long)spanning, task_handle(&c, waiter));
    fclose(f);
}

/* A sync point logged through LogSync's module id (UIASync's event id), with
 * the core's CPU clock: `cycles` CPU cycles a timestamp tick. */
static void logsync_point(sim_core *c, uint32_t serial, uint32_t cycles)
{
    stamp(c, 1);
    uint64_t cpu = c->offset + c->rate * c->g, cpu_hz = (uint64_t)GLOBAL_HZ * c->rate * cycles;
    trx_uia_write8(c->kernel, (ULONG)events[E_SYNC].id << 16 | MOD_LOGSYNC, serial, (uint32_t)cpu,
                   (uint32_t)(cpu >> 32), (uint32_t)c->g, (uint32_t)(c->g >> 32), cycles,
                   (uint32_t)cpu_hz, (uint32_t)(cpu_hz >> 32), ALL);
}

/* Adds to NAME.truth.json (written by write_truth) every noted record's
 * global tick, per core in the order written ("records"), and the global
 * timer's frequency ("global_hz"). */
static void add_record_truth(const char *dir, const char *name, uint32_t cores)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.truth.json", dir, name);
    FILE *f = fopen(path, "r+b");
    if (!f || fseek(f, -2, SEEK_END) != 0 || fgetc(f) != '}' || fseek(f, -2, SEEK_END) != 0) {
        fprintf(stderr, "sysbios_shaped: %s: not the truth written\n", path);
        exit(2);
    }
    fprintf(f, ",\n \"global_hz\": %u, \"records\": [", GLOBAL_HZ);
    for (uint32_t k = 0; k < cores; k++) {
        fprintf(f, "%s\n  [", k ? "," : "");
        for (uint32_t i = 0, m = 0; i < noted_count; i++)
            if (noted[i].core == k)
                fprintf(f, "%s%llu", m++ ? ", " : "", (unsigned long long)noted[i].g);
        fputc(']', f);
    }
    fputs("]}\n", f);
    fclose(f);
}

static void four_cores_logsync(const char *dir)
{
    static const uint64_t offset[4] = {5000, 900000, 77, 2000000000u};
    static const uint64_t rate[4] = {3, 1, 4, 2};
    sim_core cores[4];
    min_g = UINT64_MAX;
    cpu_report_count = task_report_count = 0;
    flows = 0;
    note_records = true;
    noted_count = 0;
    for (uint32_t k = 0; k < 4; k++) {
        enable(k, k);
        sim_core *c = &cores[k];
        memset(c, 0, sizeof *c);
        c->core = k;
        c->offset = offset[k];
        c->rate = rate[k];
        c->kernel = c->load = &loggers[k];
        c->app = NULL;
        c->running = -1;
        c->g = c->last_g = 9000 + 13 * k;
        logsync_point(c, 1, k + 1);
        c->first_g = c->g;
        ready(c, TASKS - 1);
        for (uint32_t n = 0; n < 120; n++)
            step(c, n);
        while (c->depth > 0)
            end(c);
        logsync_point(c, 2, k + 1);
    }
    note_records = false;
    if (noted_count >= MAX_TRUTH_RECORDS) {
        fprintf(stderr, "sysbios_shaped: more records than the truth notes\n");
        exit(2);
    }
    write_buffers(dir, "four_cores_logsync", 4);
    /* core 0's CPU: GLOBAL_HZ x 3 cycles a tick, 1 cycle per timestamp tick */
    meta_clocks clocks = {(uint64_t)GLOBAL_HZ * rate[0], 1, GLOBAL_HZ};
    write_metadata(dir, "four_cores_logsync", &clocks);
    write_truth(dir, "four_cores_logsync", cores, 4, 0);
    add_record_truth(dir, "four_cores_logsync", 4);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: sysbios_shaped DIR\n");
        return 2;
    }
    one_core(argv[1]);
    four_cores(argv[1]);
    amp_two_cores(argv[1]);
    smp_two_cores(argv[1]);
    benchmark_two_cores(argv[1]);
    idle_load(argv[1]);
    time_backwards(argv[1]);
    four_cores_logsync(argv[1]);
    return 0;
}
