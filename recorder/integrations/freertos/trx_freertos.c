/*
 * trx_freertos.c - the glue behind trx_freertos.h: turns FreeRTOS's trace
 * hooks into ThreadX-format events. FreeRTOS decides the next task after
 * the blocking call has traced, so the glue remembers what the outgoing task
 * did (blocked in which state, or was preempted) and records the internal
 * SUSPEND / RESUME / TIME_SLICE with the incoming task as "next" when the
 * switch happens. Runs inside the kernel's critical sections (or ISRs); no
 * kernel calls. Build it with the kernel, after FreeRTOSConfig.h includes
 * trx_freertos.h.
 */
#include "FreeRTOS.h"

#include "trx_freertos.h"

/* FreeRTOS queue types (queue.h): base queue, mutex, counting semaphore,
 * binary semaphore, recursive mutex. */
#define TRX_FR_QUEUE 0U
#define TRX_FR_MUTEX 1U
#define TRX_FR_COUNTING 2U
#define TRX_FR_BINARY 3U
#define TRX_FR_RECURSIVE 4U

#ifndef configIDLE_TASK_NAME
#define configIDLE_TASK_NAME "IDLE" /* tasks.c's default */
#endif

/* ThreadX thread states recorded as "new state" / "previous state". */
#define TRX_FR_READY 0UL
#define TRX_FR_SUSPENDED 3UL
#define TRX_FR_SLEEP 4UL
#define TRX_FR_QUEUE_WAIT 5UL
#define TRX_FR_SEMAPHORE_WAIT 6UL
#define TRX_FR_MUTEX_WAIT 13UL

static void *out_task;          /* the task switched out, until the switch in */
static unsigned long out_state; /* its new state: TRX_FR_READY = preempted */
static unsigned long pending_state;
static void *predicted_next; /* the task a RESUME named as next, or NULL */
static int slice_due;        /* the last tick decided a time slice */
static void *idle_task;      /* FreeRTOS's idle task once created, or NULL */

/* Tasks blocked inside a mutex take (their GET is already recorded). */
static void *blocked_take[TRX_FREERTOS_MAX_TASKS];

static ULONG sp_word(void)
{
    return (ULONG)TRX_PORT_STACK_POINTER();
}

static ULONG word(const void *p)
{
    return TRX_ADDRESS_WORD(p);
}

static int is_mutex(unsigned type)
{
    return type == TRX_FR_MUTEX || type == TRX_FR_RECURSIVE;
}

static int is_semaphore(unsigned type)
{
    return type == TRX_FR_COUNTING || type == TRX_FR_BINARY;
}

UINT trx_freertos_enable(VOID *buffer, ULONG size, ULONG registry_entries)
{
    out_task = NULL;
    out_state = pending_state = TRX_FR_READY;
    predicted_next = NULL;
    slice_due = 0;
    for (unsigned i = 0; i < TRX_FREERTOS_MAX_TASKS; i++)
        blocked_take[i] = NULL;
    UINT status = tx_trace_enable(buffer, size, registry_entries);
    if (status == TX_SUCCESS) { /* the trace says it is FreeRTOS's, with its priority count */
        trx_txtb_header *h = (trx_txtb_header *)buffer;
        h->reserved3 = TRX_RECORDER_RTOS_FREERTOS << 16 | ((ULONG)configMAX_PRIORITIES & 0xFFFFUL);
        if (idle_task != NULL)
            h->reserved4 = word(idle_task);
    }
    return status;
}

/* True for the kernel's idle task: configIDLE_TASK_NAME (as far as the TCB
 * keeps names) at the idle priority (recorded as configMAX_PRIORITIES - 1). */
static int is_idle_task(const char *name, unsigned long recorded_priority)
{
    static const char idle_name[] = configIDLE_TASK_NAME;
    if (recorded_priority != (unsigned long)(configMAX_PRIORITIES - 1))
        return 0;
    for (unsigned i = 0; i < sizeof idle_name && i + 1 < (unsigned)configMAX_TASK_NAME_LEN; i++) {
        if (name[i] != idle_name[i])
            return 0;
        if (name[i] == '\0')
            return 1;
    }
    return 1; /* the name as far as the TCB keeps it */
}

void trx_freertos_task_create(void *tcb, const char *name, unsigned long priority, void *stack_low,
                              void *stack_high)
{
    ULONG size = (ULONG)((const char *)stack_high - (const char *)stack_low) + sizeof(StackType_t);
    if (is_idle_task(name, priority)) {
        idle_task = tcb;
        if (trx_recorder_state_.header != NULL)
            trx_recorder_state_.header->reserved4 = word(tcb);
    }
    trx_trace_thread_register(tcb, name, stack_low, size, (UINT)priority);
    TRX_TRACE_EVENT(TX_TRACE_THREAD_CREATE, word(tcb), priority, word(stack_high), size,
                    TX_TRACE_THREAD_EVENTS);
}

void trx_freertos_task_delete(void *tcb)
{
    TRX_TRACE_EVENT(TX_TRACE_THREAD_DELETE, word(tcb), sp_word(), 0, 0, TX_TRACE_THREAD_EVENTS);
    trx_trace_object_unregister(tcb);
}

void trx_freertos_switched_out(void *tcb)
{
    out_task = tcb;
    out_state = pending_state;
    pending_state = TRX_FR_READY;
}

void trx_freertos_switched_in(void *tcb, unsigned long priority)
{
    if (out_task != NULL && out_task != tcb) {
        ULONG ctx = word(out_task);
        ULONG prio = trx_recorder_state_.priority_word;
        if (out_state != TRX_FR_READY) {
            trx_trace_insert_with_context(ctx, prio, TX_TRACE_THREAD_SUSPEND, ctx, out_state,
                                          sp_word(), word(tcb), TX_TRACE_INTERNAL_EVENTS);
        } else if (tcb != predicted_next && slice_due) {
            /* between ready tasks, the tick's time slice */
            trx_trace_insert_with_context(ctx, prio, TX_TRACE_TIME_SLICE, word(tcb), 0, 0,
                                          sp_word(), TX_TRACE_INTERNAL_EVENTS);
        } else if (tcb != predicted_next) {
            /* between ready tasks, not sliced: the task yielded */
            trx_trace_insert_with_context(ctx, prio, TX_TRACE_THREAD_RELINQUISH, sp_word(),
                                          word(tcb), 0, 0, TX_TRACE_THREAD_EVENTS);
        }
    }
    out_task = NULL;
    predicted_next = NULL;
    slice_due = 0;
    trx_recorder_thread_set(tcb, (UINT)priority, (UINT)priority);
}

void trx_freertos_ready(void *tcb, unsigned long priority, void *current,
                        unsigned long current_priority, long preempts)
{
    /* TraceX order: a smaller number is more urgent. Without preemption
     * (or before the scheduler runs) the current task keeps running. */
    void *next = current;
    if (preempts && current != NULL && priority < current_priority)
        next = tcb;
    if (next == tcb)
        predicted_next = tcb;
    TRX_TRACE_EVENT(TX_TRACE_THREAD_RESUME, word(tcb), TRX_FR_READY, sp_word(), word(next),
                    TX_TRACE_INTERNAL_EVENTS);
}

void trx_freertos_tick(int slice)
{
    slice_due = slice;
}

void trx_freertos_blocking(unsigned long state)
{
    pending_state = state;
}

void trx_freertos_delay(unsigned long ticks)
{
    pending_state = TRX_FR_SLEEP;
    TRX_TRACE_EVENT(TX_TRACE_THREAD_SLEEP, ticks, TRX_FR_READY, sp_word(), 0,
                    TX_TRACE_THREAD_EVENTS);
}

void trx_freertos_suspend(void *tcb, void *current)
{
    if (tcb == NULL || tcb == current) {
        tcb = current;
        pending_state = TRX_FR_SUSPENDED;
    }
    TRX_TRACE_EVENT(TX_TRACE_THREAD_SUSPEND_API, word(tcb), TRX_FR_READY, sp_word(), 0,
                    TX_TRACE_THREAD_EVENTS);
}

void trx_freertos_resume(void *tcb)
{
    TRX_TRACE_EVENT(TX_TRACE_THREAD_RESUME_API, word(tcb), TRX_FR_SUSPENDED, sp_word(), 0,
                    TX_TRACE_THREAD_EVENTS);
}

/* Registers a queue, semaphore or mutex (registry parameters as TraceX
 * shows them: queue size and message size; initial count; inheritance). */
static void register_queue(void *queue, unsigned type, unsigned long length,
                           unsigned long item_size, const char *name)
{
    if (is_mutex(type))
        trx_trace_object_register(TX_TRACE_OBJECT_TYPE_MUTEX, queue, name ? name : "mutex", 1, 0);
    else if (is_semaphore(type))
        trx_trace_object_register(TX_TRACE_OBJECT_TYPE_SEMAPHORE, queue, name ? name : "semaphore",
                                  0, 0);
    else
        trx_trace_object_register(TX_TRACE_OBJECT_TYPE_QUEUE, queue, name ? name : "queue", length,
                                  item_size);
}

void trx_freertos_queue_name(void *queue, const char *name, unsigned type, unsigned long length,
                             unsigned long item_size)
{
    register_queue(queue, type, length, item_size, name);
}

void trx_freertos_queue_create(void *queue, unsigned type, unsigned long length,
                               unsigned long item_size)
{
    register_queue(queue, type, length, item_size, NULL);
    if (is_mutex(type)) {
        TRX_TRACE_EVENT(TX_TRACE_MUTEX_CREATE, word(queue), 1, sp_word(), 0, TX_TRACE_MUTEX_EVENTS);
    } else if (is_semaphore(type)) {
        /* the initial count of a counting semaphore is set after creation */
        TRX_TRACE_EVENT(TX_TRACE_SEMAPHORE_CREATE, word(queue), 0, sp_word(), 0,
                        TX_TRACE_SEMAPHORE_EVENTS);
    } else {
        TRX_TRACE_EVENT(TX_TRACE_QUEUE_CREATE, word(queue), item_size, 0, length,
                        TX_TRACE_QUEUE_EVENTS);
    }
}

void trx_freertos_queue_delete(void *queue)
{
    trx_trace_object_unregister(queue);
}

void trx_freertos_queue_send(void *queue, unsigned type, unsigned long waiting, unsigned long wait,
                             void *holder, unsigned long recursion)
{
    if (is_mutex(type)) {
        ULONG count = type == TRX_FR_RECURSIVE ? recursion : (holder != NULL ? 1UL : 0UL);
        TRX_TRACE_EVENT(TX_TRACE_MUTEX_PUT, word(queue), word(holder), count, sp_word(),
                        TX_TRACE_MUTEX_EVENTS);
    } else if (is_semaphore(type)) {
        TRX_TRACE_EVENT(TX_TRACE_SEMAPHORE_PUT, word(queue), waiting, 0, sp_word(),
                        TX_TRACE_SEMAPHORE_EVENTS);
    } else {
        TRX_TRACE_EVENT(TX_TRACE_QUEUE_SEND, word(queue), 0, wait, waiting, TX_TRACE_QUEUE_EVENTS);
    }
}

/* The slot remembering that the running task blocked inside a mutex take. */
static void **take_slot(void *task, int claim)
{
    void **free_slot = NULL;
    for (unsigned i = 0; i < TRX_FREERTOS_MAX_TASKS; i++) {
        if (blocked_take[i] == task)
            return &blocked_take[i];
        if (blocked_take[i] == NULL && free_slot == NULL)
            free_slot = &blocked_take[i];
    }
    return claim ? free_slot : NULL;
}

void trx_freertos_queue_receive(void *queue, unsigned type, unsigned long waiting,
                                unsigned long wait, void *holder, unsigned long recursion,
                                int blocking)
{
    if (is_mutex(type)) {
        /* one GET per take: when it blocks (with the holder: an inversion
         * starts there), else when it completes */
        void *me = (void *)(uintptr_t)trx_recorder_state_.thread_word;
        void **slot = take_slot(me, blocking);
        if (blocking) {
            pending_state = TRX_FR_MUTEX_WAIT;
            if (slot != NULL && *slot == me)
                return; /* blocked again in the same take */
            if (slot != NULL)
                *slot = me;
        } else if (slot != NULL) {
            *slot = NULL;
            return;
        }
        ULONG count = type == TRX_FR_RECURSIVE ? recursion : (holder != NULL ? 1UL : 0UL);
        TRX_TRACE_EVENT(TX_TRACE_MUTEX_GET, word(queue), wait, word(holder), count,
                        TX_TRACE_MUTEX_EVENTS);
        return;
    }
    if (blocking) {
        pending_state = is_semaphore(type) ? TRX_FR_SEMAPHORE_WAIT : TRX_FR_QUEUE_WAIT;
        return; /* the receive is recorded when it completes or fails */
    }
    if (is_semaphore(type)) {
        TRX_TRACE_EVENT(TX_TRACE_SEMAPHORE_GET, word(queue), wait, waiting, sp_word(),
                        TX_TRACE_SEMAPHORE_EVENTS);
    } else {
        TRX_TRACE_EVENT(TX_TRACE_QUEUE_RECEIVE, word(queue), 0, wait, waiting,
                        TX_TRACE_QUEUE_EVENTS);
    }
}

void trx_freertos_timer_create(void *timer, const char *name, unsigned long period,
                               unsigned long auto_reload)
{
    trx_trace_object_register(TX_TRACE_OBJECT_TYPE_TIMER, timer, name, period,
                              auto_reload ? period : 0UL);
    TRX_TRACE_EVENT(TX_TRACE_TIMER_CREATE, word(timer), period, auto_reload ? period : 0UL,
                    auto_reload, TX_TRACE_TIMER_EVENTS);
}

void trx_freertos_user(unsigned long id, unsigned long i1, unsigned long i2)
{
    TRX_TRACE_EVENT(id, i1, i2, 0, 0, TX_TRACE_USER_EVENTS);
}
