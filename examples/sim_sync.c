/*
 * sim_sync.c - the simulated kernel's synchronisation objects: mutexes (with
 * or without priority inheritance), counting semaphores and message queues.
 * Each service records the event ThreadX records for it, with the same info
 * fields (events.csv), before it blocks or wakes anyone; blocking and waking
 * go through the internal SUSPEND / RESUME of sim_kernel.c.
 */
#include "sim_instances.h"
#include "sim_kernel.h"

#include <stddef.h>

static VOID *as_pointer(ULONG address)
{
    return (VOID *)(uintptr_t)address;
}

/* The most urgent thread blocked on `object` in `state` (FIFO among equals). */
static sim_thread *best_waiter(const void *object, enum sim_state state)
{
    sim_thread *best = NULL;
    for (int i = 0; i < sim.thread_count; i++) {
        sim_thread *t = sim.threads[i];
        if (t->state != state || t->wait_object != object)
            continue;
        if (best == NULL || t->priority < best->priority ||
            (t->priority == best->priority && t->ready_seq < best->ready_seq))
            best = t;
    }
    return best;
}

static ULONG waiter_count(const void *object, enum sim_state state)
{
    ULONG n = 0;
    for (int i = 0; i < sim.thread_count; i++)
        if (sim.threads[i]->state == state && sim.threads[i]->wait_object == object)
            n++;
    return n;
}

/* ------------------------------------------------------------ mutex */

void sim_mutex_create(sim_mutex *m, const char *name, ULONG address, int inherit)
{
    m->name = name;
    m->address = address;
    m->inherit = inherit;
    m->owner = NULL;
    m->count = 0;
    trx_trace_object_register(TX_TRACE_OBJECT_TYPE_MUTEX, as_pointer(address), name, (ULONG)inherit,
                              0UL);
    sim_trace(TX_TRACE_MUTEX_CREATE, address, (ULONG)inherit, sim_stack_pointer(), 0UL,
              TX_TRACE_MUTEX_EVENTS);
}

/* tx_mutex_get; 0 = owned now, 1 = the caller blocked (owns it when it runs again). */
int sim_mutex_get(sim_thread *self, sim_mutex *m, ULONG wait)
{
    sim_thread *owner = m->owner;
    /* info: mutex, wait option, owning thread, its ownership count (before the call) */
    sim_trace(TX_TRACE_MUTEX_GET, m->address, wait, owner ? owner->address : 0UL, m->count,
              TX_TRACE_MUTEX_EVENTS);
    if (owner == NULL || owner == self) {
        m->owner = self;
        m->count++;
        return 0;
    }
    if (wait == SIM_NO_WAIT)
        return 1;
    if (owner->priority > self->priority) {
        sim_inversion_open(m, self, owner);
        if (m->inherit)
            sim_priority_set(owner, self->priority);
    }
    self->wait_object = m;
    sim_suspend_internal(self, SIM_MUTEX_SUSP);
    return 1;
}

/* tx_mutex_put; ownership passes to the best waiter. */
void sim_mutex_put(sim_thread *self, sim_mutex *m)
{
    sim_thread *waiter;
    /* info: mutex, owning thread, ownership count (before the call), stack pointer */
    sim_trace(TX_TRACE_MUTEX_PUT, m->address, m->owner ? m->owner->address : 0UL, m->count,
              sim_stack_pointer(), TX_TRACE_MUTEX_EVENTS);
    if (m->owner != self || m->count == 0)
        return;
    if (--m->count > 0)
        return;
    if (m->inherit && self->priority != self->base_priority)
        sim_priority_set(self, self->base_priority);
    sim_inversion_close(m);
    waiter = best_waiter(m, SIM_MUTEX_SUSP);
    m->owner = waiter;
    if (waiter != NULL) {
        m->count = 1;
        sim_resume_internal(waiter); /* may preempt the caller */
    }
}

/* ------------------------------------------------------------ semaphore */

void sim_semaphore_create(sim_semaphore *s, const char *name, ULONG address, ULONG initial)
{
    s->name = name;
    s->address = address;
    s->count = initial;
    s->puts_pending = 0;
    trx_trace_object_register(TX_TRACE_OBJECT_TYPE_SEMAPHORE, as_pointer(address), name, initial,
                              0UL);
    sim_trace(TX_TRACE_SEMAPHORE_CREATE, address, initial, sim_stack_pointer(), 0UL,
              TX_TRACE_SEMAPHORE_EVENTS);
}

/* tx_semaphore_get; 0 = got it, 1 = blocked (has it when it runs again). */
int sim_semaphore_get(sim_thread *self, sim_semaphore *s, ULONG wait)
{
    /* info: semaphore, wait option, current count, stack pointer */
    sim_trace(TX_TRACE_SEMAPHORE_GET, s->address, wait, s->count, sim_stack_pointer(),
              TX_TRACE_SEMAPHORE_EVENTS);
    if (s->count > 0) {
        s->count--;
        if (s->puts_pending > 0) { /* takes the oldest put's instance: that flow ends */
            s->puts_pending--;
            sim.truth.flows_semaphore++;
        }
        return 0;
    }
    if (wait == SIM_NO_WAIT)
        return 1;
    self->wait_object = s;
    sim_suspend_internal(self, SIM_SEMAPHORE_SUSP);
    return 1;
}

/* tx_semaphore_put, from a thread or an ISR. */
void sim_semaphore_put(sim_semaphore *s)
{
    sim_thread *waiter = best_waiter(s, SIM_SEMAPHORE_SUSP);
    /* info: semaphore, current count, suspended count, stack pointer */
    sim_trace(TX_TRACE_SEMAPHORE_PUT, s->address, s->count, waiter_count(s, SIM_SEMAPHORE_SUSP),
              sim_stack_pointer(), TX_TRACE_SEMAPHORE_EVENTS);
    if (waiter != NULL) {
        waiter->handed_sem++; /* the flow ends where the waiter runs */
        sim_instances_posting(s->name, "semaphore_put");
        sim_resume_internal(waiter); /* the instance goes straight to it */
        sim_instances_posting(NULL, NULL);
    } else {
        s->count++;
        s->puts_pending++;
    }
}

/* ------------------------------------------------------------ queue */

void sim_queue_create(sim_queue *q, const char *name, ULONG address, ULONG storage, ULONG size)
{
    q->name = name;
    q->address = address;
    q->storage = storage;
    q->size = size < SIM_QUEUE_CAPACITY ? size : SIM_QUEUE_CAPACITY;
    q->head = q->used = 0;
    trx_trace_object_register(TX_TRACE_OBJECT_TYPE_QUEUE, as_pointer(address), name, q->size, 1UL);
    /* info: queue, message size (words), queue start, queue size (words) */
    sim_trace(TX_TRACE_QUEUE_CREATE, address, 1UL, storage, q->size, TX_TRACE_QUEUE_EVENTS);
}

/* tx_queue_send (no wait); 0 = queued or handed over, 1 = queue full (dropped). */
int sim_queue_send(sim_queue *q, ULONG message)
{
    sim_thread *waiter = best_waiter(q, SIM_QUEUE_SUSP);
    /* info: queue, source pointer, wait option, messages enqueued */
    sim_trace(TX_TRACE_QUEUE_SEND, q->address, sim_stack_address(8UL), SIM_NO_WAIT, q->used,
              TX_TRACE_QUEUE_EVENTS);
    if (waiter != NULL) {
        waiter->message = message;
        waiter->handed_queue++; /* the flow ends where the receiver runs */
        sim_instances_posting(q->name, "queue_send");
        sim_resume_internal(waiter);
        sim_instances_posting(NULL, NULL);
        return 0;
    }
    if (q->used == q->size)
        return 1;
    q->slots[(q->head + q->used) % q->size] = message;
    q->used++;
    return 0;
}

/* tx_queue_receive; 0 = got one in self->message, 1 = blocked (has it when it runs). */
int sim_queue_receive(sim_thread *self, sim_queue *q, ULONG wait)
{
    /* info: queue, destination pointer, wait option, messages enqueued */
    sim_trace(TX_TRACE_QUEUE_RECEIVE, q->address, sim_stack_address(8UL), wait, q->used,
              TX_TRACE_QUEUE_EVENTS);
    if (q->used > 0) {
        sim.truth.flows_queue++; /* takes the oldest message: its send's flow ends here */
        self->message = q->slots[q->head];
        q->head = (q->head + 1) % q->size;
        q->used--;
        return 0;
    }
    if (wait == SIM_NO_WAIT)
        return 1;
    self->wait_object = q;
    sim_suspend_internal(self, SIM_QUEUE_SUSP);
    return 1;
}
