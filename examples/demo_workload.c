/*
 * demo_workload.c - the application the demo simulates: six threads, three
 * interrupt sources and four kernel objects, chosen so the trace shows every
 * analysis at work:
 *
 *   sensor     prio  2  waits on the "adc ready" semaphore (given by the ADC
 *                       ISR), logs a sample, sends it to the "samples" queue
 *   high       prio 10  resumed by low: takes the round's lock, works, gives
 *                       it back, suspends itself
 *   consumer   prio 12  receives samples from the queue and logs them
 *   medium     prio 15  resumed by low: computes a while, suspends itself
 *   low        prio 20  every 3 ticks: takes the lock, resumes high (which
 *                       blocks on the lock: a priority inversion), resumes
 *                       medium, releases the lock
 *   background prio 30  always ready (the system is never idle), heartbeat
 *
 * Rounds alternate between a mutex WITHOUT priority inheritance (medium
 * preempts low while high waits: an unbounded inversion) and one WITH it
 * (low runs at high's priority, medium waits: a bounded inversion).
 * Interrupts: timer (10000 cycles), ADC (6100) and UART (2300, the most
 * urgent, so it nests inside the other two when it comes due there).
 */
#include "demo_workload.h"

#include "sim_kernel.h"

#define STACK_BASE 0x20010000UL
#define STACK_SIZE 0x800UL

static sim_thread sensor, high, consumer, medium, low, background;
static sim_mutex lock_plain, lock_inherit;
static sim_semaphore adc_ready;
static sim_queue samples;
static sim_isr timer_isr, adc_isr, uart_isr, extra_isr;
static unsigned long extra_isr_entries;
static unsigned round_number;
static ULONG uart_bytes;

/* The lock of the current round: even rounds without inheritance. */
static sim_mutex *round_lock(void)
{
    return (round_number % 2 == 0) ? &lock_plain : &lock_inherit;
}

static void sensor_body(sim_thread *self)
{
    switch (self->pc) {
    case 0:
        self->pc = 1;
        sim_semaphore_get(self, &adc_ready, SIM_WAIT_FOREVER);
        return;
    case 1:
        self->pc = 2;
        sim_work(self, 150);
        return;
    case 2:
        self->pc = 3;
        self->counter++;
        sim_user_event(DEMO_EV_SAMPLE, self->counter, (self->counter * 37UL) % 1024UL, 0, 0);
        return;
    default:
        self->pc = 0;
        sim_queue_send(&samples, self->counter);
        return;
    }
}

static void consumer_body(sim_thread *self)
{
    switch (self->pc) {
    case 0:
        self->pc = 1;
        sim_queue_receive(self, &samples, SIM_WAIT_FOREVER);
        return;
    case 1:
        self->pc = 2;
        sim_work(self, 400);
        return;
    default:
        self->pc = 0;
        self->counter += self->message;
        sim_user_event(DEMO_EV_CONSUMED, self->message, self->counter, 0, 0);
        return;
    }
}

static void high_body(sim_thread *self)
{
    switch (self->pc) {
    case 0:
        self->pc = 1;
        sim_mutex_get(self, round_lock(), SIM_WAIT_FOREVER);
        return;
    case 1:
        self->pc = 2;
        sim_work(self, 250);
        return;
    case 2:
        self->pc = 3;
        sim_mutex_put(self, round_lock());
        return;
    case 3:
        self->pc = 4;
        sim_user_event(DEMO_EV_HIGH_DONE, round_number, (ULONG)round_lock()->inherit, 0, 0);
        return;
    default:
        self->pc = 0;
        sim_thread_suspend_self(self);
        return;
    }
}

static void medium_body(sim_thread *self)
{
    switch (self->pc) {
    case 0:
        self->pc = 1;
        sim_work(self, 1800);
        return;
    case 1:
        self->pc = 2;
        self->counter++;
        sim_user_event(DEMO_EV_MEDIUM_WORK, self->counter, 0, 0, 0);
        return;
    default:
        self->pc = 0;
        sim_thread_suspend_self(self);
        return;
    }
}

static void low_body(sim_thread *self)
{
    switch (self->pc) {
    case 0:
        self->pc = 1;
        sim_thread_sleep(self, 3);
        return;
    case 1:
        self->pc = 2;
        sim_mutex_get(self, round_lock(), SIM_WAIT_FOREVER);
        return;
    case 2:
        self->pc = 3;
        sim_work(self, 300);
        return;
    case 3:
        self->pc = 4;
        sim_thread_resume(self, &high); /* high preempts and blocks on the lock */
        return;
    case 4:
        self->pc = 5;
        sim_work(self, 200);
        return;
    case 5:
        self->pc = 6;
        sim_thread_resume(self, &medium); /* preempts unless low inherited high's priority */
        return;
    case 6:
        self->pc = 7;
        sim_work(self, 300);
        return;
    case 7:
        self->pc = 8;
        sim_mutex_put(self, round_lock()); /* high gets the lock and preempts */
        return;
    default:
        self->pc = 0;
        sim_user_event(DEMO_EV_ROUND_DONE, round_number, (ULONG)round_lock()->inherit, 0, 0);
        round_number++;
        return;
    }
}

static void background_body(sim_thread *self)
{
    if (self->pc == 0) {
        self->pc = 1;
        sim_work(self, 4000);
    } else {
        self->pc = 0;
        self->counter++;
        sim_user_event(DEMO_EV_HEARTBEAT, self->counter, 0, 0, 0);
    }
}

static void timer_handler(void)
{
    sim_timer_tick();
}

static void adc_handler(void)
{
    sim_semaphore_put(&adc_ready);
}

static void uart_handler(void)
{
    uart_bytes++;
    sim_user_event(DEMO_EV_UART_RX, 0x41UL + uart_bytes % 26UL, (ULONG)sim.isr_nesting, 0, 0);
}

/* Creates every object, thread and interrupt source. */
void demo_workload_create(void)
{
    ULONG t0;
    sim_mutex_create(&lock_plain, "lock (no inheritance)", 0x20001000UL, 0);
    sim_mutex_create(&lock_inherit, "lock (inheritance)", 0x20001040UL, 1);
    sim_semaphore_create(&adc_ready, "adc ready", 0x20001080UL, 0);
    sim_queue_create(&samples, "samples", 0x200010C0UL, 0x20001100UL, 8);

    sim_thread_create(&sensor, "sensor", 0x20000100UL, STACK_BASE + 0x0000UL, STACK_SIZE, 2,
                      0x180UL, sensor_body, 1);
    sim_thread_create(&high, "high", 0x20000200UL, STACK_BASE + 0x1000UL, STACK_SIZE, 10, 0x220UL,
                      high_body, 0);
    sim_thread_create(&consumer, "consumer", 0x20000300UL, STACK_BASE + 0x2000UL, STACK_SIZE, 12,
                      0x200UL, consumer_body, 1);
    sim_thread_create(&medium, "medium", 0x20000400UL, STACK_BASE + 0x3000UL, STACK_SIZE, 15,
                      0x1C0UL, medium_body, 0);
    sim_thread_create(&low, "low", 0x20000500UL, STACK_BASE + 0x4000UL, STACK_SIZE, 20, 0x260UL,
                      low_body, 1);
    sim_thread_create(&background, "background", 0x20000600UL, STACK_BASE + 0x5000UL, STACK_SIZE,
                      30, 0x100UL, background_body, 1);

    t0 = sim_now();
    sim_isr_add(&timer_isr, "timer", 1, 3, t0 + 10000UL, 10000UL, 300UL, timer_handler);
    sim_isr_add(&adc_isr, "adc", 2, 2, t0 + 3000UL, 6100UL, 200UL, adc_handler);
    sim_isr_add(&uart_isr, "uart", 3, 1, t0 + 1100UL, 2300UL, 120UL, uart_handler);
}

static void extra_handler(void)
{
    extra_isr_entries++;
}

/* The variant's fourth interrupt source (trx_demo --extra-isr): ISR number 4,
 * the least urgent, once per timer period (10000 cycles), half a period
 * after the timer, 150 cycles of work, nothing else. */
void demo_workload_add_extra_isr(void)
{
    sim_isr_add(&extra_isr, "extra", 4, 4, sim_now() + 15000UL, 10000UL, 150UL, extra_handler);
}

/* Entries of the extra ISR so far. */
unsigned long demo_workload_extra_isr_entries(void)
{
    return extra_isr_entries;
}

/* Inversion rounds completed so far. */
unsigned demo_workload_rounds(void)
{
    return round_number;
}
