/*
 * chain_scenarios.c - records the real ThreadX kernel's trace of a lock
 * chain two deep and of a waker chain three deep, and writes what the
 * program knows of each (the truth tests/latency/why_chains.py compares
 * `trx why --json` with). Not built by the project: it links the ThreadX
 * Linux port (see README.md beside it).
 *
 * usage: chain_scenarios OUT.trx lock|waker   (writes OUT.trx and OUT.truth)
 *
 * Time stamps: the port stamps every trace entry with CLOCK_REALTIME's
 * nanoseconds (tv_nsec), so the program's own clock_gettime readings are in
 * the trace's ticks: a truth line's `t_*` figures bound when things happened
 * (taken just before or just after the call named). The program starts
 * early in a second and gives up (exit 3: run it again) if the second
 * changed before the trace was written, so the ticks never wrap.
 *
 * lock: threads high (10), link (12), medium (15), low (20); two pairs of
 * mutexes, lock_outer / lock_inner without priority inheritance and
 * plock_outer / plock_inner with it. For each pair, ITERATIONS times:
 *   low takes the inner lock and resumes link; link takes the outer lock
 *   and resumes high; high waits for the outer lock (held by link); link
 *   waits for the inner one (held by low); low resumes medium: without
 *   inheritance medium (15) preempts low (20) at once (an unbounded
 *   inversion two locks deep); with inheritance low runs at 10 and medium
 *   stays ready until high and link are done. low works and releases the
 *   inner lock; link gets it, releases both; high gets the outer lock,
 *   releases it and suspends itself (the end of its instance; link's
 *   resume was its release); link suspends itself.
 *
 * waker: the application timer chain_timer (2 ticks, periodic) puts the
 * semaphore tick_sem ITERATIONS times; stage_a (20) waits for it and sends
 * to the queue q_ab; stage_b (18) receives and puts the semaphore sem_bc
 * (in iteration 1 after resuming intruder (17), which preempts it first);
 * stage_c (16) gets it and sets the event flags flags_cd; stage_d (14)
 * waits for them. Every post releases the next stage, which preempts the
 * poster at once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tx_api.h"

#define ITERATIONS 3
#define STACK 16384
#define TRACE_BYTES 131072

static TX_THREAD high, link_thread, medium, low;
static TX_THREAD stage_a, stage_b, stage_c, stage_d, intruder;
static TX_THREAD writer;
static TX_MUTEX lock_outer, lock_inner, plock_outer, plock_inner;
static TX_QUEUE q_ab;
static ULONG q_ab_area[16];
static TX_SEMAPHORE tick_sem, sem_bc;
static TX_EVENT_FLAGS_GROUP flags_cd;
static TX_TIMER chain_timer;
static UCHAR stacks[10][STACK];
static ULONG trace_area[TRACE_BYTES / sizeof(ULONG)];
static const char *out_path;
static int waker_mode;
static FILE *truth;
static time_t start_second;
static volatile ULONG sink;

/* The trace's clock: CLOCK_REALTIME's nanoseconds, as the port stamps. */
static unsigned long now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (unsigned long)ts.tv_nsec;
}

static void work(unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        sink += i;
}

/* ---- the lock chain ---- */

/* What one round of the lock chain knows (stamps in trace ticks). */
typedef struct chain_round {
    unsigned long high_get, high_got, link_get, link_got, link_put_outer;
    unsigned long low_resume_medium, low_resumed_back, low_put_inner;
    unsigned long medium_start, medium_end;
    int medium_ran_inside;
} chain_round;

static chain_round round_now;
static TX_MUTEX *outer_now, *inner_now;

static void high_entry(ULONG arg)
{
    (void)arg;
    for (;;) {
        round_now.high_get = now();
        tx_mutex_get(outer_now, TX_WAIT_FOREVER);
        round_now.high_got = now();
        work(500);
        tx_mutex_put(outer_now);
        tx_thread_suspend(&high);
    }
}

static void link_entry(ULONG arg)
{
    (void)arg;
    for (;;) {
        tx_mutex_get(outer_now, TX_WAIT_FOREVER);
        tx_thread_resume(&high); /* high runs and waits for the outer lock */
        round_now.link_get = now();
        tx_mutex_get(inner_now, TX_WAIT_FOREVER);
        round_now.link_got = now();
        work(500);
        tx_mutex_put(inner_now);
        round_now.link_put_outer = now();
        tx_mutex_put(outer_now); /* high runs, then suspends */
        tx_thread_suspend(&link_thread);
    }
}

static void medium_entry(ULONG arg)
{
    (void)arg;
    for (;;) {
        round_now.medium_start = now();
        /* high and link wait (a lock each) while medium runs: it ran inside */
        round_now.medium_ran_inside = high.tx_thread_state == TX_MUTEX_SUSP;
        work(3000);
        round_now.medium_end = now();
        tx_thread_suspend(&medium);
    }
}

static void lock_round(unsigned number, TX_MUTEX *outer, TX_MUTEX *inner, int inherit)
{
    memset(&round_now, 0, sizeof round_now);
    outer_now = outer;
    inner_now = inner;
    tx_mutex_get(inner, TX_WAIT_FOREVER);
    tx_thread_resume(&link_thread); /* link takes outer, high waits, link waits */
    round_now.low_resume_medium = now();
    tx_thread_resume(&medium); /* without inheritance medium runs here */
    round_now.low_resumed_back = now();
    work(2000);
    round_now.low_put_inner = now();
    tx_mutex_put(inner); /* link, then high run; with inheritance medium next */
    const chain_round *r = &round_now;
    fprintf(truth,
            "chain %u inherit %d waiter high_prio outer %s outer_holder link inner %s "
            "inner_holder low_prio ran_inside %s t_high_get %lu t_high_got %lu t_link_get %lu "
            "t_link_got %lu t_link_put_outer %lu t_low_resume_medium %lu t_low_resumed_back %lu "
            "t_low_put_inner %lu t_medium_start %lu t_medium_end %lu\n",
            number, inherit, outer->tx_mutex_name, inner->tx_mutex_name,
            r->medium_ran_inside ? "medium_prio" : "-", r->high_get, r->high_got, r->link_get,
            r->link_got, r->link_put_outer, r->low_resume_medium, r->low_resumed_back,
            r->low_put_inner, r->medium_start, r->medium_end);
}

static void low_entry(ULONG arg)
{
    (void)arg;
    unsigned number = 0;
    for (int i = 0; i < ITERATIONS; i++) {
        lock_round(number++, &lock_outer, &lock_inner, 0);
        lock_round(number++, &plock_outer, &plock_inner, 1);
        tx_thread_sleep(1);
    }
    fprintf(truth, "chains %u\n", number);
    tx_thread_resume(&writer);
    tx_thread_suspend(&low);
}

/* ---- the waker chain ---- */

static unsigned fired, stage_d_rounds;

/* One post of the chain: who posted what to whom, when (trace ticks). */
static void post_line(unsigned round, const char *waker, const char *object, const char *woken,
                      unsigned long before)
{
    fprintf(truth, "post round %u waker %s object %s woken %s t_post %lu\n", round, waker, object,
            woken, before);
}

static void timer_expired(ULONG arg)
{
    (void)arg;
    if (fired < ITERATIONS) {
        post_line(fired, "System_Timer_Thread", "tick_sem", "stage_a", now());
        fired++;
        tx_semaphore_put(&tick_sem);
    }
}

static void stage_a_entry(ULONG arg)
{
    (void)arg;
    for (unsigned round = 0;; round++) {
        tx_semaphore_get(&tick_sem, TX_WAIT_FOREVER);
        fprintf(truth, "woken round %u thread stage_a t_got %lu\n", round, now());
        work(1000);
        ULONG message = round;
        post_line(round, "stage_a", "q_ab", "stage_b", now());
        tx_queue_send(&q_ab, &message, TX_WAIT_FOREVER);
    }
}

static void stage_b_entry(ULONG arg)
{
    (void)arg;
    for (;;) {
        ULONG round;
        tx_queue_receive(&q_ab, &round, TX_WAIT_FOREVER);
        fprintf(truth, "woken round %lu thread stage_b t_got %lu\n", round, now());
        work(1000);
        if (round == 1) {
            unsigned long before = now();
            tx_thread_resume(&intruder); /* preempts stage_b until it suspends */
            fprintf(truth,
                    "preempted round %lu thread stage_b by intruder t_before %lu t_after %lu\n",
                    round, before, now());
        }
        post_line(round, "stage_b", "sem_bc", "stage_c", now());
        tx_semaphore_put(&sem_bc);
    }
}

static void stage_c_entry(ULONG arg)
{
    (void)arg;
    for (unsigned round = 0;; round++) {
        tx_semaphore_get(&sem_bc, TX_WAIT_FOREVER);
        fprintf(truth, "woken round %u thread stage_c t_got %lu\n", round, now());
        work(1000);
        post_line(round, "stage_c", "flags_cd", "stage_d", now());
        tx_event_flags_set(&flags_cd, 1, TX_OR);
    }
}

static void stage_d_entry(ULONG arg)
{
    (void)arg;
    for (;;) {
        ULONG got;
        tx_event_flags_get(&flags_cd, 1, TX_OR_CLEAR, &got, TX_WAIT_FOREVER);
        fprintf(truth, "woken round %u thread stage_d t_got %lu\n", stage_d_rounds, now());
        work(1000);
        if (++stage_d_rounds == ITERATIONS) {
            fprintf(truth, "rounds %u\n", stage_d_rounds);
            tx_thread_resume(&writer);
        }
    }
}

static void intruder_entry(ULONG arg)
{
    (void)arg;
    for (;;) {
        work(2000);
        tx_thread_suspend(&intruder);
    }
}

/* Lowest priority: halts tracing and writes the buffer once done. */
static void writer_entry(ULONG arg)
{
    (void)arg;
    tx_trace_disable();
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    if (ts.tv_sec != start_second) {
        fprintf(stderr, "the ticks wrapped (a second boundary): run again\n");
        exit(3);
    }
    FILE *f = fopen(out_path, "wb");
    if (!f || fwrite(trace_area, 1, sizeof trace_area, f) != sizeof trace_area || fclose(f) != 0) {
        perror(out_path);
        exit(1);
    }
    fclose(truth);
    exit(0);
}

static void create_thread(TX_THREAD *t, const char *name, void (*entry)(ULONG), unsigned slot,
                          UINT priority, UINT start)
{
    tx_thread_create(t, (CHAR *)name, entry, 0, stacks[slot], STACK, priority, priority,
                     TX_NO_TIME_SLICE, start);
}

void tx_application_define(void *first_unused_memory)
{
    (void)first_unused_memory;
    tx_trace_enable(trace_area, sizeof trace_area, 24);
    create_thread(&writer, "writer", writer_entry, 9, 30, TX_DONT_START);
    if (!waker_mode) {
        tx_mutex_create(&lock_outer, "lock_outer", TX_NO_INHERIT);
        tx_mutex_create(&lock_inner, "lock_inner", TX_NO_INHERIT);
        tx_mutex_create(&plock_outer, "plock_outer", TX_INHERIT);
        tx_mutex_create(&plock_inner, "plock_inner", TX_INHERIT);
        create_thread(&high, "high_prio", high_entry, 0, 10, TX_DONT_START);
        create_thread(&link_thread, "link", link_entry, 1, 12, TX_DONT_START);
        create_thread(&medium, "medium_prio", medium_entry, 2, 15, TX_DONT_START);
        create_thread(&low, "low_prio", low_entry, 3, 20, TX_AUTO_START);
        return;
    }
    tx_semaphore_create(&tick_sem, "tick_sem", 0);
    tx_semaphore_create(&sem_bc, "sem_bc", 0);
    tx_queue_create(&q_ab, "q_ab", TX_1_ULONG, q_ab_area, sizeof q_ab_area);
    tx_event_flags_create(&flags_cd, "flags_cd");
    create_thread(&stage_a, "stage_a", stage_a_entry, 4, 20, TX_AUTO_START);
    create_thread(&stage_b, "stage_b", stage_b_entry, 5, 18, TX_AUTO_START);
    create_thread(&stage_c, "stage_c", stage_c_entry, 6, 16, TX_AUTO_START);
    create_thread(&stage_d, "stage_d", stage_d_entry, 7, 14, TX_AUTO_START);
    create_thread(&intruder, "intruder", intruder_entry, 8, 17, TX_DONT_START);
    tx_timer_create(&chain_timer, "chain_timer", timer_expired, 0, 2, 2, TX_AUTO_ACTIVATE);
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[2], "lock") && strcmp(argv[2], "waker"))) {
        fprintf(stderr, "usage: chain_scenarios OUT.trx lock|waker\n");
        return 2;
    }
    out_path = argv[1];
    waker_mode = strcmp(argv[2], "waker") == 0;
    char name[4096];
    snprintf(name, sizeof name, "%.*s.truth", (int)(strlen(out_path) - 4), out_path);
    truth = fopen(name, "w");
    if (!truth) {
        perror(name);
        return 1;
    }
    setvbuf(truth, NULL, _IOFBF, 1 << 16); /* no write(2) inside the scenarios */
    struct timespec ts;
    do /* start early in a second: the trace's ticks (tv_nsec) must not wrap */
        clock_gettime(CLOCK_REALTIME, &ts);
    while (ts.tv_nsec > 100000000L);
    start_second = ts.tv_sec;
    tx_kernel_enter();
    return 0;
}
