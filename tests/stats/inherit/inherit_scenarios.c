/*
 * inherit_scenarios.c - records the real ThreadX kernel's trace of mutex
 * waits with and without priority inheritance, and writes what happened in
 * each wait (the truth the correct mode's inversions are checked against:
 * tests/stats/inherit_truth.py). Not built by the project: it links the
 * ThreadX Linux port (see README.md beside it).
 *
 * Threads: high (10), medium (15), low (20); one mutex, created with
 * TX_INHERIT or TX_NO_INHERIT (argv[2]: "inherit" / "noinherit"). low runs
 * every scenario ITERATIONS times:
 *   plain      low holds the mutex, resumes high (high blocks on it), does
 *              work, releases it: bounded (nothing lower than high ran);
 *   before     as plain, but low first resumes medium, which runs (low is not
 *              raised yet) and suspends itself before high waits: bounded;
 *   inside     medium runs while high waits: with inheritance low (raised to
 *              10) sleeps one tick holding the mutex, so medium runs; without,
 *              medium (15) preempts low (20) as soon as it is resumed: unbounded;
 *   ceiling    low raises its own priority to 12 (tx_thread_priority_change)
 *              before high waits and restores it to 20 after the put: bounded,
 *              holder priority 12 as the trace says;
 *   ready      medium is resumed while high waits: with inheritance low
 *              (raised to 10) goes on and medium stays ready until high has
 *              had the mutex: bounded. The put restores low's priority (20)
 *              by an internal SUSPEND / RESUME pair of low whose next-thread
 *              word names medium, the highest ready thread then, but the put
 *              goes on to resume high, which runs first: medium never runs
 *              inside the wait (TraceX's model guesses it does). Without
 *              inheritance medium (15) preempts low (20): unbounded.
 * With a third argument "correct" the program leaves out `inside` (the
 * holder sleeping with the mutex held: the program's own fault), so with
 * TX_INHERIT every wait is bounded, and without it `ready`'s are not.
 * The truth file: one line per wait: "wait N scenario S waiter high holder
 * low holder_priority P kind bounded|unbounded ran_inside NAME|-".
 *
 * usage: inherit_scenarios OUT.trx inherit|noinherit [correct]
 *        (writes OUT.trx and OUT.truth)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tx_api.h"

#define ITERATIONS 3
#define STACK 16384
#define TRACE_BYTES 65536

static TX_THREAD high, medium, low, writer;
static TX_MUTEX lock;
static UCHAR stacks[4][STACK];
static ULONG trace_area[TRACE_BYTES / sizeof(ULONG)];
static const char *out_path;
static int inherit;
static int correct_only; /* leave out `inside` */
static FILE *truth;
static unsigned waits;
static volatile ULONG sink;

static void work(unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        sink += i;
}

static void high_entry(ULONG arg)
{
    (void)arg;
    for (;;) {
        tx_mutex_get(&lock, TX_WAIT_FOREVER);
        work(100);
        tx_mutex_put(&lock);
        tx_thread_suspend(&high);
    }
}

static void medium_entry(ULONG arg)
{
    (void)arg;
    for (;;) {
        for (int i = 0; i < 3; i++) {
            tx_thread_identify();
            work(1000);
        }
        tx_thread_suspend(&medium);
    }
}

static void truth_line(const char *scenario, unsigned holder_priority, int unbounded)
{
    fprintf(truth,
            "wait %u scenario %s waiter high holder low holder_priority %u kind %s ran_inside %s\n",
            waits++, scenario, holder_priority, unbounded ? "unbounded" : "bounded",
            unbounded ? "medium" : "-");
}

static void low_entry(ULONG arg)
{
    (void)arg;
    UINT old;
    for (int i = 0; i < ITERATIONS; i++) {
        /* plain */
        tx_mutex_get(&lock, TX_WAIT_FOREVER);
        tx_thread_resume(&high);
        work(2000);
        tx_mutex_put(&lock);
        truth_line("plain", 20, 0);

        /* before: medium runs before the wait */
        tx_mutex_get(&lock, TX_WAIT_FOREVER);
        tx_thread_resume(&medium);
        tx_thread_resume(&high);
        work(2000);
        tx_mutex_put(&lock);
        truth_line("before", 20, 0);

        /* inside: medium runs while high waits */
        if (!correct_only) {
            tx_mutex_get(&lock, TX_WAIT_FOREVER);
            tx_thread_resume(&high);
            tx_thread_resume(&medium);
            if (inherit)
                tx_thread_sleep(1); /* raised to 10: nothing below 10 runs unless low blocks */
            work(2000);
            tx_mutex_put(&lock);
            truth_line("inside", 20, 1);
        }

        /* ceiling: low's own priority change, read from the trace */
        tx_mutex_get(&lock, TX_WAIT_FOREVER);
        tx_thread_priority_change(&low, 12, &old);
        tx_thread_resume(&high);
        tx_thread_resume(&medium); /* 15: cannot run while low is at 12 or raised to 10 */
        work(2000);
        tx_mutex_put(&lock);
        tx_thread_priority_change(&low, 20, &old);
        truth_line("ceiling", 12, 0);
        tx_thread_sleep(1); /* medium (and the timer) run here, outside any wait */

        /* ready: medium ready (not running) when the raised holder releases */
        tx_mutex_get(&lock, TX_WAIT_FOREVER);
        tx_thread_resume(&high);
        tx_thread_resume(&medium); /* inherit: low is at 10, medium waits; else it runs */
        work(2000);
        tx_mutex_put(&lock); /* high runs, then medium, then low */
        truth_line("ready", 20, !inherit);
    }
    tx_thread_resume(&writer);
    tx_thread_suspend(&low);
}

/* Lowest priority: halts tracing and writes the buffer once low is done. */
static void writer_entry(ULONG arg)
{
    (void)arg;
    tx_trace_disable();
    FILE *f = fopen(out_path, "wb");
    if (!f || fwrite(trace_area, 1, sizeof trace_area, f) != sizeof trace_area || fclose(f) != 0) {
        perror(out_path);
        exit(1);
    }
    fprintf(truth, "waits %u mutex %s iterations %d scenarios %s\n", waits,
            inherit ? "TX_INHERIT" : "TX_NO_INHERIT", ITERATIONS, correct_only ? "correct" : "all");
    fclose(truth);
    exit(0);
}

void tx_application_define(void *first_unused_memory)
{
    (void)first_unused_memory;
    tx_trace_enable(trace_area, sizeof trace_area, 16);
    tx_mutex_create(&lock, "inv_lock", inherit ? TX_INHERIT : TX_NO_INHERIT);
    tx_thread_create(&high, "high_prio", high_entry, 0, stacks[0], STACK, 10, 10, TX_NO_TIME_SLICE,
                     TX_DONT_START);
    tx_thread_create(&medium, "medium_prio", medium_entry, 0, stacks[1], STACK, 15, 15,
                     TX_NO_TIME_SLICE, TX_DONT_START);
    tx_thread_create(&low, "low_prio", low_entry, 0, stacks[2], STACK, 20, 20, TX_NO_TIME_SLICE,
                     TX_AUTO_START);
    tx_thread_create(&writer, "writer", writer_entry, 0, stacks[3], STACK, 30, 30, TX_NO_TIME_SLICE,
                     TX_DONT_START);
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4 || (strcmp(argv[2], "inherit") && strcmp(argv[2], "noinherit")) ||
        (argc == 4 && strcmp(argv[3], "correct"))) {
        fprintf(stderr, "usage: inherit_scenarios OUT.trx inherit|noinherit [correct]\n");
        return 2;
    }
    out_path = argv[1];
    inherit = strcmp(argv[2], "inherit") == 0;
    correct_only = argc == 4;
    char name[4096];
    snprintf(name, sizeof name, "%.*s.truth", (int)(strlen(out_path) - 4), out_path);
    truth = fopen(name, "w");
    if (!truth) {
        perror(name);
        return 1;
    }
    tx_kernel_enter();
    return 0;
}
