/*
 * trx_demo.c - runs the simulated RTOS workload with the trx recorder and
 * writes what a debugger would pull off the target, plus what really
 * happened:
 *
 *   OUT_DIR/demo.trx    the trace buffer (raw memory image, TXTB)
 *   OUT_DIR/demo.hex    the same memory as Intel HEX, streamed through the
 *                       recorder's export helper as a UART would carry it
 *   OUT_DIR/demo.truth  ground truth, key=value (see write_truth)
 *   OUT_DIR/demo.latency.truth  every instance of every thread, what it
 *                       waited on and who released it (JSON Lines,
 *                       sim_instances.h)
 *
 * usage: trx_demo [OUT_DIR] [--cycles N] [--extra-isr]
 *
 * --extra-isr: the variant with a fourth interrupt source, one more ISR per
 * timer tick (ISR number 4); the truth then counts its entries
 * (extra_isr_entries). Without it demo.trx is the same byte for byte.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "demo_workload.h"
#include "sim_instances.h"
#include "sim_kernel.h"
#include "trx/export.h"

#define BUFFER_BYTES (256UL * 1024UL)
#define REGISTRY_ENTRIES 16UL
#define DEFAULT_CYCLES 800000UL
/* Where the buffer is asked to live, so addresses in the trace look like a
 * target's and do not change from run to run (a hint; any address works). */
#define BUFFER_ADDRESS_HINT ((void *)(uintptr_t)0x30000000UL)

static int buffer_wrapped;
static int extra_isr;

static VOID on_buffer_full(VOID *buffer)
{
    (void)buffer;
    buffer_wrapped = 1;
}

static void put_to_file(void *ctx, char c)
{
    fputc(c, (FILE *)ctx);
}

static FILE *open_out(const char *dir, const char *name, char *path, size_t path_size)
{
    FILE *f;
    snprintf(path, path_size, "%s/%s", dir, name);
    f = fopen(path, "wb");
    if (f == NULL)
        fprintf(stderr, "trx_demo: cannot write %s: %s\n", path, strerror(errno));
    return f;
}

/* Ground truth, known from the simulation itself (not from the trace). */
/* Per ISR number: its runs (isr_N_*: ENTER to EXIT, nested ISRs included;
 * isr_N_min_exclusive / _max_exclusive without them); per thread: the least
 * free stack the trace recorded (stack_free_min_NAME, stack_used_NAME), the
 * interrupt-to-thread latency (latency_NAME_*: outermost ENTER of the ISR
 * that resumed it to the moment it got the CPU) and the response time
 * (response_NAME_*: first resume to getting the CPU). Cycles = trace ticks. */
static void write_timing_truth(FILE *f)
{
    char key[96];
    for (int i = 0; i < sim.isr_count; i++) {
        const sim_isr *q = sim.isrs[i];
        snprintf(key, sizeof key, "isr_%lu", (unsigned long)q->id);
        sim_durations_write(f, key, &q->runs);
        if (q->runs.count > 0)
            fprintf(f, "%s_min_exclusive=%lu\n%s_max_exclusive=%lu\n", key,
                    (unsigned long)q->min_exclusive, key, (unsigned long)q->max_exclusive);
    }
    for (int i = 0; i < sim.thread_count; i++) {
        const sim_thread *t = sim.threads[i];
        if (t->min_stack_pointer != 0) {
            ULONG free_bytes = t->min_stack_pointer - t->stack_start;
            fprintf(f, "stack_free_min_%s=%lu\nstack_used_%s=%lu\n", t->name,
                    (unsigned long)free_bytes, t->name,
                    (unsigned long)(t->stack_size - free_bytes));
        } else {
            fprintf(f, "stack_unseen_%s=1\n", t->name);
        }
        fprintf(f, "run_ticks_%s=%lu\n", t->name, (unsigned long)t->run_cycles);
        snprintf(key, sizeof key, "latency_%s", t->name);
        sim_durations_write(f, key, &t->latency);
        snprintf(key, sizeof key, "response_%s", t->name);
        sim_durations_write(f, key, &t->response);
    }
}

static int write_truth(const char *dir, ULONG entries, ULONG cycles)
{
    char path[4096];
    const sim_truth *t = &sim.truth;
    FILE *f = open_out(dir, "demo.truth", path, sizeof path);
    if (f == NULL)
        return -1;
    fprintf(f, "# trx_demo ground truth: what the simulated kernel did (key=value)\n");
    fprintf(f, "trace_entries=%lu\n", (unsigned long)entries);
    fprintf(f, "buffer_wrapped=%d\n", buffer_wrapped);
    fprintf(f, "cycles=%lu\n", (unsigned long)cycles);
    fprintf(f, "threads=%d\n", sim.thread_count);
    fprintf(f, "context_switches=%lu\n", (unsigned long)t->context_switches);
    fprintf(f, "interrupts=%lu\n", (unsigned long)t->interrupts);
    fprintf(f, "nested_interrupts=%lu\n", (unsigned long)t->nested_interrupts);
    fprintf(f, "user_events=%lu\n", (unsigned long)t->user_events);
    fprintf(f, "thread_suspensions=%lu\n", (unsigned long)t->suspensions);
    fprintf(f, "thread_resumptions=%lu\n", (unsigned long)t->resumptions);
    fprintf(f, "priority_inversions=%lu\n", (unsigned long)t->inversions);
    fprintf(f, "priority_inversions_unbounded=%lu\n", (unsigned long)t->inversions_unbounded);
    fprintf(f, "interrupt_ticks=%lu\ninit_ticks=%lu\n", (unsigned long)t->interrupt_cycles,
            (unsigned long)t->init_cycles);
    fprintf(f, "flows_isr_thread=%lu\nflows_queue=%lu\nflows_semaphore=%lu\n",
            (unsigned long)t->flows_isr_thread, (unsigned long)t->flows_queue,
            (unsigned long)t->flows_semaphore);
    fprintf(f, "priority_inversions_no_inheritance=%lu\n",
            (unsigned long)t->inversions_per_mutex[0]);
    fprintf(f, "priority_inversions_inheritance=%lu\n", (unsigned long)t->inversions_per_mutex[1]);
    fprintf(f, "inversion_rounds=%u\n", demo_workload_rounds());
    /* who ran inside each inversion (lower priority than the blocked thread, not the owner) */
    for (ULONG k = 0; k < t->inversions && k < SIM_MAX_INVERSIONS; k++) {
        fprintf(f, "inversion_%lu_ran_inside=", (unsigned long)k);
        for (int j = 0; j < sim.inversion_ran[k].count; j++)
            fprintf(f, "%s%s", j ? "," : "", sim.threads[sim.inversion_ran[k].thread[j]]->name);
        fputc('\n', f);
    }
    if (extra_isr)
        fprintf(f, "extra_isr_entries=%lu\n", demo_workload_extra_isr_entries());
    write_timing_truth(f);
    return fclose(f) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    const char *dir = ".";
    ULONG cycles = DEFAULT_CYCLES;
    char path[4096];
    unsigned char *buffer;
    const trx_txtb_header *header;
    ULONG entries;
    FILE *f;
    UINT status;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--cycles") == 0 && i + 1 < argc) {
            cycles = strtoul(argv[++i], NULL, 0);
        } else if (strcmp(argv[i], "--extra-isr") == 0) {
            extra_isr = 1;
        } else if (strcmp(argv[i], "--help") == 0 || argv[i][0] == '-') {
            fprintf(stderr, "usage: trx_demo [OUT_DIR] [--cycles N] [--extra-isr]\n");
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        } else {
            dir = argv[i];
        }
    }

    buffer = mmap(BUFFER_ADDRESS_HINT, BUFFER_BYTES, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (buffer == MAP_FAILED) {
        fprintf(stderr, "trx_demo: cannot map the trace buffer\n");
        return 1;
    }

    tx_trace_buffer_full_notify(on_buffer_full);
    sim_instances_begin(sim_now() + 1UL); /* the time of enable's first RUNNING event */
    status = tx_trace_enable(buffer, BUFFER_BYTES, REGISTRY_ENTRIES);
    if (status != TX_SUCCESS) {
        fprintf(stderr, "trx_demo: tx_trace_enable failed (0x%02X)\n", status);
        return 1;
    }
    demo_workload_create(); /* initialization context */
    if (extra_isr)
        demo_workload_add_extra_isr();
    sim_run(sim_now() + cycles);
    tx_trace_disable();

    header = (const trx_txtb_header *)(const void *)buffer;
    entries = (header->buffer_current - header->buffer_start) / 32UL;
    if (buffer_wrapped) {
        fprintf(stderr, "trx_demo: the buffer wrapped; the truth would not match (fewer cycles)\n");
        return 1;
    }
    if (entries != sim.truth.events + 2UL) { /* + the two RUNNING events of enable */
        fprintf(stderr, "trx_demo: %lu entries recorded, %lu expected\n", (unsigned long)entries,
                (unsigned long)(sim.truth.events + 2UL));
        return 1;
    }

    f = open_out(dir, "demo.trx", path, sizeof path);
    if (f == NULL)
        return 1;
    if (fwrite(buffer, 1, BUFFER_BYTES, f) != BUFFER_BYTES || fclose(f) != 0) {
        fprintf(stderr, "trx_demo: write error on %s\n", path);
        return 1;
    }
    f = open_out(dir, "demo.hex", path, sizeof path);
    if (f == NULL)
        return 1;
    trx_export_ihex(buffer, BUFFER_BYTES, TRX_ADDRESS_WORD(buffer), TRX_EXPORT_CRLF, put_to_file,
                    f);
    if (fclose(f) != 0)
        return 1;
    if (write_truth(dir, entries, cycles) != 0)
        return 1;
    f = open_out(dir, "demo.latency.truth", path, sizeof path);
    if (f == NULL)
        return 1;
    if (sim_instances_write(f, "demo.trx") != 0 || fclose(f) != 0) {
        fprintf(stderr, "trx_demo: cannot write %s\n", path);
        return 1;
    }

    printf("trx_demo: %lu events, %lu context switches, %lu interrupts (%lu nested), "
           "%lu user events, %lu priority inversions (%lu unbounded)\n",
           (unsigned long)entries, (unsigned long)sim.truth.context_switches,
           (unsigned long)sim.truth.interrupts, (unsigned long)sim.truth.nested_interrupts,
           (unsigned long)sim.truth.user_events, (unsigned long)sim.truth.inversions,
           (unsigned long)sim.truth.inversions_unbounded);
    printf("trx_demo: wrote %s/demo.trx, %s/demo.hex, %s/demo.truth, %s/demo.latency.truth\n", dir,
           dir, dir, dir);
    munmap(buffer, BUFFER_BYTES);
    return 0;
}
