/*
 * sim_kernel.c - the simulated kernel's core: cycle clock, threads and the
 * priority scheduler, interrupt dispatch (with nesting), the thread services
 * (sleep, suspend, resume) and the ground-truth counters. Trace events are
 * recorded the way ThreadX records them: internal RESUME / SUSPEND carry the
 * thread that runs next in info 4, ISRs are bracketed by TRX_HOOK_ISR_ENTER /
 * TRX_HOOK_ISR_EXIT (rtos_hooks.h: TXTB's tx_trace_isr_*_insert, or UIA
 * records when built with TRX_RECORDER_FORMAT_UIA=1, see trx_demo_uia.c), and
 * the recorder is told about every context switch with trx_recorder_thread_set.
 */
#include "sim_kernel.h"
#include "sim_instances.h"
#include "trx/rtos_hooks.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

sim_kernel sim;

#define ISR_STACK_TOP 0x20007F00UL    /* simulated system (ISR) stack */
#define SYSTEM_STACK_TOP 0x20007FF0UL /* initialization runs on it too */
#define KERNEL_FRAME 0x40UL           /* stack a kernel service adds */
#define WORK_SLICE 50UL               /* cycles between interrupt checks */
#define ISR_SLICE 25UL

static VOID *as_pointer(ULONG address)
{
    return (VOID *)(uintptr_t)address;
}

/* ------------------------------------------------------------ the clock */

/* Cycles since reset: the trace time source (trx_trace_simulated_time). */
ULONG sim_now(void)
{
    return trx_trace_simulated_time;
}

/* Credits `cycles` of trace time to what the trace shows running: an ISR
 * between its ENTER and EXIT records, else the dispatched thread, else
 * initialization (ground truth of the execution profile). */
static void credit(ULONG cycles)
{
    sim_instances_charge(cycles);
    if (sim.isr_recorded > 0)
        sim.truth.interrupt_cycles += cycles;
    else if (sim.current != NULL)
        sim.current->run_cycles += cycles;
    else
        sim.truth.init_cycles += cycles;
}

/* Lets `cycles` pass without ISRs being checked (inside a kernel service). */
void sim_spend(ULONG cycles)
{
    credit(cycles);
    trx_trace_simulated_time += cycles;
}

/* ------------------------------------------------------------ tracing */

/* Records one kernel event through the recorder's hook macro, counted. */
void sim_trace(ULONG id, ULONG i1, ULONG i2, ULONG i3, ULONG i4, ULONG group)
{
    sim_spend(20); /* the kernel service's own work before its trace point */
    credit(1);     /* the time source's own step at the record */
    TRX_TRACE_EVENT(id, i1, i2, i3, i4, group);
    sim.truth.events++;
}

/* tx_trace_user_event_insert, counted. */
void sim_user_event(ULONG id, ULONG i1, ULONG i2, ULONG i3, ULONG i4)
{
    sim_spend(10);
    credit(1);
    if (TRX_HOOK_USER_EVENT(id, i1, i2, i3, i4) == TX_SUCCESS) {
        sim.truth.user_events++;
        sim.truth.events++;
    }
}

/* Stack pointer of the running context. */
static ULONG running_stack_pointer(void)
{
    const sim_thread *t = sim.current;
    if (sim.isr_nesting > 0)
        return ISR_STACK_TOP - 0x60UL * (ULONG)sim.isr_nesting;
    if (t == NULL || !sim.started)
        return SYSTEM_STACK_TOP - KERNEL_FRAME;
    /* the depth wobbles with the thread's progress, deterministically */
    return t->stack_start + t->stack_size - t->base_depth - KERNEL_FRAME -
           0x10UL * (ULONG)(t->pc % 4);
}

/* The stack pointer a trace field records; the thread's deepest is the truth
 * of its stack usage. */
ULONG sim_stack_pointer(void)
{
    ULONG sp = running_stack_pointer();
    sim_thread *t = sim.current;
    if (sim.isr_nesting == 0 && t != NULL && sim.started &&
        (t->min_stack_pointer == 0 || sp < t->min_stack_pointer))
        t->min_stack_pointer = sp;
    return sp;
}

/* An address inside the running stack (a message buffer), not recorded as
 * the stack pointer. */
ULONG sim_stack_address(ULONG offset)
{
    return running_stack_pointer() + offset;
}

/* ---------------------------------------------------------- scheduling */

/* The highest-priority ready thread; the running one keeps the CPU against
 * equal priorities, otherwise first come first served. */
sim_thread *sim_pick_next(void)
{
    sim_thread *best = NULL;
    for (int i = 0; i < sim.thread_count; i++) {
        sim_thread *t = sim.threads[i];
        if (t->state != SIM_READY)
            continue;
        if (best == NULL || t->priority < best->priority)
            best = t;
        else if (t->priority == best->priority && best != sim.current &&
                 (t == sim.current || t->ready_seq < best->ready_seq))
            best = t;
    }
    return best;
}

/* Watches the open inversion windows when `t` gets the CPU: a thread of
 * lower priority than the blocked one, other than the owner, makes the
 * window unbounded (counted once) and is listed (once). */
static void inversion_watch(const sim_thread *t)
{
    for (int i = 0; i < 2; i++) {
        if (!sim.windows[i].open)
            continue;
        if (t == sim.windows[i].owner || t == sim.windows[i].blocked ||
            t->priority <= sim.windows[i].blocked->priority)
            continue;
        if (!sim.windows[i].counted) {
            sim.truth.inversions_unbounded++;
            sim.windows[i].counted = 1;
        }
        int r = sim.windows[i].record;
        if (r < 0)
            continue;
        int k = 0;
        while (sim.threads[k] != t)
            k++;
        int listed = 0;
        for (int j = 0; j < sim.inversion_ran[r].count; j++)
            listed |= sim.inversion_ran[r].thread[j] == k;
        if (!listed)
            sim.inversion_ran[r].thread[sim.inversion_ran[r].count++] = (unsigned char)k;
    }
}

/* Gives the CPU to `next` (no-op if it already runs). */
static void dispatch(sim_thread *next)
{
    if (next == NULL) {
        fprintf(stderr, "trx_demo: nothing ready to run (the workload keeps one thread ready)\n");
        exit(1);
    }
    if (next == sim.current)
        return;
    if (sim.current != NULL)
        sim.truth.context_switches++;
    sim.current = next;
    /* it has the CPU now: its wait since the resume (and since the ISR) ends */
    if (next->resume_pending)
        sim_durations_add(&next->response, sim_now() - next->resumed_at);
    if (next->irq_pending)
        sim_durations_add(&next->latency, sim_now() - next->irq_entered_at);
    next->resume_pending = next->irq_pending = 0;
    sim.truth.flows_isr_thread += next->irq_resumes; /* each such RESUME ends here */
    sim.truth.flows_queue += next->handed_queue;
    sim.truth.flows_semaphore += next->handed_sem;
    next->irq_resumes = next->handed_queue = next->handed_sem = 0;
    trx_recorder_thread_set(as_pointer(next->address), next->priority, next->priority);
    inversion_watch(next);
}

/* Sets the effective priority (inheritance); updates the trace context. */
void sim_priority_set(sim_thread *t, UINT priority)
{
    t->priority = priority;
    if (t == sim.current && sim.isr_nesting == 0)
        trx_recorder_thread_set(as_pointer(t->address), t->priority, t->priority);
}

/* Makes `t` ready and records RESUME; switches at once when in thread context. */
void sim_resume_internal(sim_thread *t)
{
    ULONG previous = (ULONG)t->state;
    sim_thread *next;
    t->state = SIM_READY;
    t->wait_object = NULL;
    t->ready_seq = ++sim.ready_counter;
    next = sim_pick_next();
    sim_trace(TX_TRACE_THREAD_RESUME, t->address, previous, sim_stack_pointer(),
              next ? next->address : 0UL, TX_TRACE_INTERNAL_EVENTS);
    sim_instances_resumed(t);
    sim.truth.resumptions++;
    /* its wait for the CPU starts at the first resume (an ISR's: at the outermost ENTER) */
    if (!t->resume_pending) {
        t->resume_pending = 1;
        t->resumed_at = sim_now();
    }
    if (sim.isr_nesting > 0)
        t->irq_resumes++;
    if (sim.isr_nesting > 0 && !t->irq_pending) {
        t->irq_pending = 1;
        t->irq_entered_at = sim.isr_outer_enter;
    }
    if (sim.started && sim.isr_nesting == 0)
        dispatch(next);
}

/* Blocks the caller in `state` and records SUSPEND; switches to the next thread. */
void sim_suspend_internal(sim_thread *self, enum sim_state state)
{
    sim_thread *next;
    ULONG sp = sim_stack_pointer();
    self->state = state;
    next = sim_pick_next();
    sim_trace(TX_TRACE_THREAD_SUSPEND, self->address, (ULONG)state, sp, next ? next->address : 0UL,
              TX_TRACE_INTERNAL_EVENTS);
    sim_instances_suspended(self, state, self->wait_object);
    sim.truth.suspensions++;
    dispatch(next);
}

/* ------------------------------------------------------------ inversions */

static int window_of(const sim_mutex *m)
{
    return m->inherit ? 1 : 0;
}

/* Inversion bookkeeping: a thread blocked on `m` held by a lower-priority owner. */
void sim_inversion_open(sim_mutex *m, sim_thread *blocked, sim_thread *owner)
{
    int w = window_of(m);
    sim.windows[w].mutex = m;
    sim.windows[w].blocked = blocked;
    sim.windows[w].owner = owner;
    sim.windows[w].open = 1;
    sim.windows[w].counted = 0;
    sim.windows[w].record =
        sim.truth.inversions < SIM_MAX_INVERSIONS ? (int)sim.truth.inversions : -1;
    sim.truth.inversions++;
    sim.truth.inversions_per_mutex[w]++;
}

/* The owner released `m`: the window (if still open) ends. */
void sim_inversion_close(sim_mutex *m)
{
    sim.windows[window_of(m)].open = 0;
}

/* ------------------------------------------------------------ interrupts */

static void run_isr(sim_isr *isr);

/* Runs every ISR that is due and more urgent than what runs now. */
static void poll_interrupts(void)
{
    for (;;) {
        sim_isr *best = NULL;
        UINT running = sim.isr_nesting > 0 ? sim.isr_running_priority : UINT_MAX;
        for (int i = 0; i < sim.isr_count; i++) {
            sim_isr *q = sim.isrs[i];
            if (q->active || q->next_due > sim_now() || q->priority >= running)
                continue;
            if (best == NULL || q->priority < best->priority)
                best = q;
        }
        if (best == NULL)
            return;
        run_isr(best);
    }
}

/* ISR body time, interruptible by more urgent ISRs. */
static void spend_in_isr(ULONG cycles)
{
    while (cycles > 0) {
        ULONG slice = cycles < ISR_SLICE ? cycles : ISR_SLICE;
        sim_spend(slice);
        cycles -= slice;
        poll_interrupts();
    }
}

static void run_isr(sim_isr *isr)
{
    UINT saved_priority = sim.isr_running_priority;
    isr->active = 1;
    isr->next_due += isr->period;
    sim.truth.interrupts++;
    if (sim.isr_nesting > 0)
        sim.truth.nested_interrupts++;
    sim.isr_nesting++;
    sim.isr_running_priority = isr->priority;

    sim_spend(12); /* hardware entry */
    credit(1);
    TRX_HOOK_ISR_ENTER(isr->id);
    sim_instances_isr_enter(isr);
    sim.isr_recorded++;
    sim.truth.events++;
    ULONG entered = sim_now();
    int level = sim.isr_nesting;
    if (level == 1)
        sim.isr_outer_enter = entered;
    sim.isr_nested_cycles[level] = 0;
    spend_in_isr(isr->cost / 2);
    isr->handler();
    spend_in_isr(isr->cost - isr->cost / 2);
    sim_spend(8);
    credit(1);
    TRX_HOOK_ISR_EXIT(isr->id);
    sim_instances_isr_exit();
    sim.isr_recorded--;
    sim.truth.events++;
    ULONG run = sim_now() - entered, alone = run - sim.isr_nested_cycles[level];
    if (isr->runs.count == 0 || alone < isr->min_exclusive)
        isr->min_exclusive = alone;
    if (alone > isr->max_exclusive)
        isr->max_exclusive = alone;
    sim_durations_add(&isr->runs, run);
    sim.isr_nested_cycles[level - 1] += run;

    sim.isr_nesting--;
    sim.isr_running_priority = saved_priority;
    isr->active = 0;
}

/* Adds an interrupt source firing every `period` cycles from `first_due`. */
void sim_isr_add(sim_isr *isr, const char *name, ULONG id, UINT priority, ULONG first_due,
                 ULONG period, ULONG cost, void (*handler)(void))
{
    isr->name = name;
    isr->id = id;
    isr->priority = priority;
    isr->next_due = first_due;
    isr->period = period;
    isr->cost = cost;
    isr->handler = handler;
    isr->active = 0;
    if (sim.isr_count < SIM_MAX_ISRS)
        sim.isrs[sim.isr_count++] = isr;
}

/* ------------------------------------------------------------ threads */

/* Creates a thread (records THREAD_CREATE, registers it); start = 1 resumes it. */
void sim_thread_create(sim_thread *t, const char *name, ULONG address, ULONG stack_start,
                       ULONG stack_size, UINT priority, ULONG base_depth, sim_body_fn body,
                       int start)
{
    t->name = name;
    t->address = address;
    t->stack_start = stack_start;
    t->stack_size = stack_size;
    t->base_priority = t->priority = priority;
    t->state = SIM_SUSPENDED;
    t->body = body;
    t->pc = 0;
    t->work_left = 0;
    t->base_depth = base_depth;
    t->wait_object = NULL;
    if (sim.thread_count < SIM_MAX_THREADS)
        sim.threads[sim.thread_count++] = t;
    trx_trace_thread_register(as_pointer(address), name, as_pointer(stack_start), stack_size,
                              priority);
    sim_trace(TX_TRACE_THREAD_CREATE, address, priority, sim_stack_pointer(), stack_size,
              TX_TRACE_THREAD_EVENTS);
    if (start) {
        sim_instances_posting(NULL, "thread_create");
        sim_resume_internal(t);
        sim_instances_posting(NULL, NULL);
    }
}

/* The timer interrupt's kernel part: counts the tick, wakes sleepers. */
void sim_timer_tick(void)
{
    sim.tick++;
    for (int i = 0; i < sim.thread_count; i++) {
        sim_thread *t = sim.threads[i];
        if (t->state == SIM_SLEEP && t->wake_tick <= sim.tick) {
            sim_instances_posting(NULL, "sleep_timeout");
            sim_resume_internal(t);
            sim_instances_posting(NULL, NULL);
        }
    }
}

/* Computes for `cycles`, in slices an ISR may interrupt (then returns). */
void sim_work(sim_thread *self, ULONG cycles)
{
    self->work_left += cycles;
}

/* tx_thread_sleep: suspends the caller for `ticks` timer ticks. */
void sim_thread_sleep(sim_thread *self, ULONG ticks)
{
    sim_trace(TX_TRACE_THREAD_SLEEP, ticks, (ULONG)self->state, sim_stack_pointer(), 0UL,
              TX_TRACE_THREAD_EVENTS);
    self->wake_tick = sim.tick + ticks;
    sim_suspend_internal(self, SIM_SLEEP);
}

/* tx_thread_suspend on the caller itself. */
void sim_thread_suspend_self(sim_thread *self)
{
    sim_trace(TX_TRACE_THREAD_SUSPEND_API, self->address, (ULONG)self->state, sim_stack_pointer(),
              0UL, TX_TRACE_THREAD_EVENTS);
    sim_suspend_internal(self, SIM_SUSPENDED);
}

/* tx_thread_resume of a suspended thread (may preempt the caller). */
void sim_thread_resume(sim_thread *self, sim_thread *t)
{
    (void)self;
    sim_trace(TX_TRACE_THREAD_RESUME_API, t->address, (ULONG)t->state, sim_stack_pointer(), 0UL,
              TX_TRACE_THREAD_EVENTS);
    if (t->state == SIM_SUSPENDED) {
        sim_instances_posting(NULL, "thread_resume");
        sim_resume_internal(t);
        sim_instances_posting(NULL, NULL);
    }
}

/* Runs the scheduler until the clock passes `end_cycle`. */
void sim_run(ULONG end_cycle)
{
    sim.started = 1;
    dispatch(sim_pick_next()); /* the first dispatch is not a context switch */
    while (sim_now() < end_cycle) {
        sim_thread *t;
        poll_interrupts();
        dispatch(sim_pick_next()); /* preemption by a thread an ISR made ready */
        t = sim.current;
        if (t->work_left > 0) {
            ULONG slice = t->work_left < WORK_SLICE ? t->work_left : WORK_SLICE;
            sim_spend(slice);
            t->work_left -= slice;
            continue;
        }
        t->body(t);
    }
}
