/*
 * rtos_hooks.h - named recorder hooks for an RTOS integration: one macro per
 * kernel event that TraceX's analyses rely on, with the event id, the order
 * of the four information fields and the filter group ThreadX uses, so a
 * port cannot get them wrong. Each expands to TRX_TRACE_EVENT: no code at
 * all unless TX_ENABLE_EVENT_TRACE is defined. Where each goes in a kernel:
 * docs/integration.md. Pointers are passed as addresses (TRX_ADDRESS_WORD).
 */
#ifndef TRX_RTOS_HOOKS_H
#define TRX_RTOS_HOOKS_H

#include "trx/recorder.h"

#define TRX_W_(x) ((ULONG)(uintptr_t)(x))

/* Scheduler: a thread became ready (previous_state = its tx_thread_state
 * before; next_thread = the thread that will run, 0 if unchanged). */
#define TRX_HOOK_THREAD_RESUME(thread, previous_state, stack_ptr, next_thread)                     \
    TRX_TRACE_EVENT(TX_TRACE_THREAD_RESUME, TRX_W_(thread), (ULONG)(previous_state),               \
                    TRX_W_(stack_ptr), TRX_W_(next_thread), TX_TRACE_INTERNAL_EVENTS)

/* Scheduler: a thread blocked in new_state; next_thread runs next (0: idle). */
#define TRX_HOOK_THREAD_SUSPEND(thread, new_state, stack_ptr, next_thread)                         \
    TRX_TRACE_EVENT(TX_TRACE_THREAD_SUSPEND, TRX_W_(thread), (ULONG)(new_state),                   \
                    TRX_W_(stack_ptr), TRX_W_(next_thread), TX_TRACE_INTERNAL_EVENTS)

/* Timer tick: the running thread's time slice expired; next_thread runs. */
#define TRX_HOOK_TIME_SLICE(next_thread, system_state, preempt_disable, stack_ptr)                 \
    TRX_TRACE_EVENT(TX_TRACE_TIME_SLICE, TRX_W_(next_thread), (ULONG)(system_state),               \
                    (ULONG)(preempt_disable), TRX_W_(stack_ptr), TX_TRACE_INTERNAL_EVENTS)

/* Thread services. */
#define TRX_HOOK_THREAD_CREATE(thread, priority, stack_ptr, stack_size)                            \
    TRX_TRACE_EVENT(TX_TRACE_THREAD_CREATE, TRX_W_(thread), (ULONG)(priority), TRX_W_(stack_ptr),  \
                    (ULONG)(stack_size), TX_TRACE_THREAD_EVENTS)
#define TRX_HOOK_THREAD_RELINQUISH(stack_ptr, next_thread)                                         \
    TRX_TRACE_EVENT(TX_TRACE_THREAD_RELINQUISH, TRX_W_(stack_ptr), TRX_W_(next_thread), 0UL, 0UL,  \
                    TX_TRACE_THREAD_EVENTS)
#define TRX_HOOK_THREAD_SLEEP(ticks, thread_state, stack_ptr)                                      \
    TRX_TRACE_EVENT(TX_TRACE_THREAD_SLEEP, (ULONG)(ticks), (ULONG)(thread_state),                  \
                    TRX_W_(stack_ptr), 0UL, TX_TRACE_THREAD_EVENTS)

/* Mutex: owner and own_count as they are when the call is made (TraceX's
 * priority-inversion finder reads them). */
#define TRX_HOOK_MUTEX_GET(mutex, wait_option, owner, own_count)                                   \
    TRX_TRACE_EVENT(TX_TRACE_MUTEX_GET, TRX_W_(mutex), (ULONG)(wait_option), TRX_W_(owner),        \
                    (ULONG)(own_count), TX_TRACE_MUTEX_EVENTS)
#define TRX_HOOK_MUTEX_PUT(mutex, owner, own_count, stack_ptr)                                     \
    TRX_TRACE_EVENT(TX_TRACE_MUTEX_PUT, TRX_W_(mutex), TRX_W_(owner), (ULONG)(own_count),          \
                    TRX_W_(stack_ptr), TX_TRACE_MUTEX_EVENTS)

/* Semaphore. */
#define TRX_HOOK_SEMAPHORE_GET(semaphore, wait_option, current_count, stack_ptr)                   \
    TRX_TRACE_EVENT(TX_TRACE_SEMAPHORE_GET, TRX_W_(semaphore), (ULONG)(wait_option),               \
                    (ULONG)(current_count), TRX_W_(stack_ptr), TX_TRACE_SEMAPHORE_EVENTS)
#define TRX_HOOK_SEMAPHORE_PUT(semaphore, current_count, suspended_count, stack_ptr)               \
    TRX_TRACE_EVENT(TX_TRACE_SEMAPHORE_PUT, TRX_W_(semaphore), (ULONG)(current_count),             \
                    (ULONG)(suspended_count), TRX_W_(stack_ptr), TX_TRACE_SEMAPHORE_EVENTS)

/* Queue: enqueued = messages in the queue when the call is made. */
#define TRX_HOOK_QUEUE_SEND(queue, source_ptr, wait_option, enqueued)                              \
    TRX_TRACE_EVENT(TX_TRACE_QUEUE_SEND, TRX_W_(queue), TRX_W_(source_ptr), (ULONG)(wait_option),  \
                    (ULONG)(enqueued), TX_TRACE_QUEUE_EVENTS)
#define TRX_HOOK_QUEUE_RECEIVE(queue, destination_ptr, wait_option, enqueued)                      \
    TRX_TRACE_EVENT(TX_TRACE_QUEUE_RECEIVE, TRX_W_(queue), TRX_W_(destination_ptr),                \
                    (ULONG)(wait_option), (ULONG)(enqueued), TX_TRACE_QUEUE_EVENTS)

/* Interrupts: call these first and last in an ISR (they count the nesting).
 * User events: TRX_HOOK_USER_EVENT returns TX_SUCCESS, or TX_NOT_DONE when
 * tracing is off. UIA builds (TRX_RECORDER_FORMAT_UIA=1) write UIA records. */
#if defined(TRX_RECORDER_FORMAT_UIA) && TRX_RECORDER_FORMAT_UIA
#define TRX_HOOK_ISR_ENTER(isr_id) trx_uia_isr_enter_insert((ULONG)(isr_id))
#define TRX_HOOK_ISR_EXIT(isr_id) trx_uia_isr_exit_insert((ULONG)(isr_id))
#define TRX_HOOK_USER_EVENT(id, i1, i2, i3, i4)                                                    \
    trx_uia_user_event_insert((ULONG)(id), (ULONG)(i1), (ULONG)(i2), (ULONG)(i3), (ULONG)(i4))
#else
#define TRX_HOOK_ISR_ENTER(isr_id) tx_trace_isr_enter_insert((ULONG)(isr_id))
#define TRX_HOOK_ISR_EXIT(isr_id) tx_trace_isr_exit_insert((ULONG)(isr_id))
#define TRX_HOOK_USER_EVENT(id, i1, i2, i3, i4)                                                    \
    tx_trace_user_event_insert((ULONG)(id), (ULONG)(i1), (ULONG)(i2), (ULONG)(i3), (ULONG)(i4))
#endif

#endif /* TRX_RTOS_HOOKS_H */
