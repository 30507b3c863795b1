/*
 * trx_freertos.h - the trx recorder in FreeRTOS: defines FreeRTOS's trace
 * macros so that the kernel records ThreadX-format (TXTB) events that trx
 * and TraceX analyse (context switches with the next thread, priorities,
 * stack pointers, queue / semaphore / mutex services with the mutex holder
 * for priority-inversion detection, ISRs, delays, suspend/resume, task
 * notifications and software timers), and registers tasks, queues,
 * semaphores, mutexes and timers under their names.
 *
 * Use: at the END of FreeRTOSConfig.h,
 *     #include "trx_freertos.h"
 * build trx_freertos.c and the recorder (all .c files of recorder/, a port header
 * for the critical section) with the kernel, and call
 * trx_freertos_enable(buffer, size) before vTaskStartScheduler (or
 * tx_trace_enable and, for objects created before it, nothing is lost: the
 * registrations happen at creation only while tracing is on).
 * Required settings: configUSE_TRACE_FACILITY 1 (queue types),
 * configRECORD_STACK_HIGH_ADDRESS 1 (stack sizes). The macros expand inside
 * tasks.c, queue.c and timers.c and read their private fields: that is
 * what FreeRTOS's trace macros are for. Objects are registered as "queue",
 * "semaphore" or "mutex" when created and renamed by vQueueAddToRegistry
 * (configQUEUE_REGISTRY_SIZE > 0); tasks and timers under their own names.
 *
 * Events (ThreadX ids, docs/integration.md section 4):
 *   task created 100, deleted 101 (I1 task), delay 112, suspend 114,
 *   resume 111, internal RESUME 1 / SUSPEND 2 with the next task in I4,
 *   between ready tasks TIME_SLICE 5 when the kernel sliced (the tick found
 *   another ready task of the running task's priority, configUSE_PREEMPTION
 *   and configUSE_TIME_SLICING on) and RELINQUISH 109 (a yield: taskYIELD,
 *   a cooperative switch) otherwise, queue create 60 / send 69
 *   / receive 68, semaphore create 81 / give 88 / take 83, mutex create 50 /
 *   give 57 / take 52 (I3/I4 = holder and its count before the call; a take
 *   that blocks records its GET when it blocks), ISR enter 3 / exit 4, and
 *   user events (names in trx_freertos_events.csv and, for TraceX,
 *   trx_freertos.trxc) 4200 task notify, 4201 notify
 *   take/wait, 4202 timer expired, 4203 timer command.
 * Priorities: TraceX's 0 is the most urgent, so a FreeRTOS priority p is
 * recorded as configMAX_PRIORITIES - 1 - p; the header's reserved3 says
 * "FreeRTOS, configMAX_PRIORITIES" (TRX_RECORDER_RTOS_FREERTOS) and trx shows
 * p again (TraceX, which ignores the word, shows the recorded values).
 */
#ifndef TRX_FREERTOS_H
#define TRX_FREERTOS_H

#if !defined(configUSE_TRACE_FACILITY) || configUSE_TRACE_FACILITY != 1
#error "trx_freertos.h: set configUSE_TRACE_FACILITY 1 in FreeRTOSConfig.h (queue types)"
#endif
#if !defined(configRECORD_STACK_HIGH_ADDRESS) || configRECORD_STACK_HIGH_ADDRESS != 1
#error "trx_freertos.h: set configRECORD_STACK_HIGH_ADDRESS 1 in FreeRTOSConfig.h (stack sizes)"
#endif

#ifndef __ASSEMBLER__
#include "trx/recorder.h"

/* Number of tasks the glue remembers a pending mutex take for. */
#ifndef TRX_FREERTOS_MAX_TASKS
#define TRX_FREERTOS_MAX_TASKS 32
#endif

/* ISR id recorded by traceISR_ENTER/EXIT (Cortex-M: the IPSR exception number). */
#ifndef TRX_FREERTOS_ISR_ID
#define TRX_FREERTOS_ISR_ID() 0UL
#endif

#define TRX_FREERTOS_EVENT_NOTIFY 4200UL
#define TRX_FREERTOS_EVENT_NOTIFY_WAIT 4201UL
#define TRX_FREERTOS_EVENT_TIMER_EXPIRED 4202UL
#define TRX_FREERTOS_EVENT_TIMER_COMMAND 4203UL

/* Enables tracing into `buffer` (`size` bytes, 4-byte aligned) with room for
 * `registry_entries` named objects: tx_trace_enable plus the glue's state. */
UINT trx_freertos_enable(VOID *buffer, ULONG size, ULONG registry_entries);

/* ---- called by the macros below (pointers to kernel objects as void *) */
void trx_freertos_task_create(void *tcb, const char *name, unsigned long priority, void *stack_low,
                              void *stack_high);
void trx_freertos_task_delete(void *tcb);
void trx_freertos_switched_out(void *tcb);
void trx_freertos_switched_in(void *tcb, unsigned long priority);
void trx_freertos_ready(void *tcb, unsigned long priority, void *current,
                        unsigned long current_priority, long preempts);
void trx_freertos_blocking(unsigned long state);
void trx_freertos_delay(unsigned long ticks);
void trx_freertos_suspend(void *tcb, void *current);
void trx_freertos_resume(void *tcb);
void trx_freertos_queue_create(void *queue, unsigned type, unsigned long length,
                               unsigned long item_size);
void trx_freertos_queue_send(void *queue, unsigned type, unsigned long waiting, unsigned long wait,
                             void *holder, unsigned long recursion);
void trx_freertos_queue_receive(void *queue, unsigned type, unsigned long waiting,
                                unsigned long wait, void *holder, unsigned long recursion,
                                int blocking);
void trx_freertos_queue_delete(void *queue);
void trx_freertos_queue_name(void *queue, const char *name, unsigned type, unsigned long length,
                             unsigned long item_size);
void trx_freertos_timer_create(void *timer, const char *name, unsigned long period,
                               unsigned long auto_reload);
void trx_freertos_user(unsigned long id, unsigned long i1, unsigned long i2);
void trx_freertos_tick(int slice_due);

/* ---- the trace macros (FreeRTOS.h defines the rest empty) */

#define trxFR_PRIO(p) ((unsigned long)(configMAX_PRIORITIES - 1 - (p)))

#define traceTASK_CREATE(pxNewTCB)                                                                 \
    trx_freertos_task_create((pxNewTCB), (pxNewTCB)->pcTaskName,                                   \
                             trxFR_PRIO((pxNewTCB)->uxPriority), (pxNewTCB)->pxStack,              \
                             (pxNewTCB)->pxEndOfStack)
#define traceTASK_DELETE(pxTaskToDelete) trx_freertos_task_delete(pxTaskToDelete)
#define traceTASK_SWITCHED_OUT() trx_freertos_switched_out(pxCurrentTCB)
#define traceTASK_SWITCHED_IN()                                                                    \
    trx_freertos_switched_in(pxCurrentTCB, trxFR_PRIO(pxCurrentTCB->uxPriority))
#define traceMOVED_TASK_TO_READY_STATE(pxTCB)                                                      \
    trx_freertos_ready((pxTCB), trxFR_PRIO((pxTCB)->uxPriority), pxCurrentTCB,                     \
                       pxCurrentTCB ? trxFR_PRIO(pxCurrentTCB->uxPriority) : 0UL,                  \
                       (long)(xSchedulerRunning && configUSE_PREEMPTION))
#define traceTASK_DELAY() trx_freertos_delay((unsigned long)xTicksToDelay)
#define traceTASK_DELAY_UNTIL(xTimeToWake) trx_freertos_delay((unsigned long)(xTimeToWake))
#define traceTASK_SUSPEND(pxTaskToSuspend) trx_freertos_suspend((pxTaskToSuspend), pxCurrentTCB)
#define traceTASK_RESUME(pxTaskToResume) trx_freertos_resume(pxTaskToResume)
#define traceTASK_RESUME_FROM_ISR(pxTaskToResume) trx_freertos_resume(pxTaskToResume)
#define traceTASK_PRIORITY_INHERIT(pxTCBOfMutexHolder, uxInheritedPriority)
/* In xTaskIncrementTick: the kernel slices at this tick when another task of
 * the running task's priority is ready (its own test, tasks.c). */
#define traceTASK_INCREMENT_TICK(xTickCount)                                                       \
    trx_freertos_tick((configUSE_PREEMPTION == 1) && (configUSE_TIME_SLICING == 1) &&              \
                      uxSchedulerSuspended == (UBaseType_t)0U && pxCurrentTCB != NULL &&           \
                      listCURRENT_LIST_LENGTH(&(pxReadyTasksLists[pxCurrentTCB->uxPriority])) >    \
                          1U)

#define trxFR_QUEUE_ARGS(q) (q), (unsigned)(q)->ucQueueType, (unsigned long)(q)->uxMessagesWaiting
#define trxFR_HOLDER(q)                                                                            \
    (void *)(q)->u.xSemaphore.xMutexHolder, (unsigned long)(q)->u.xSemaphore.uxRecursiveCallCount
#define traceQUEUE_CREATE(pxNewQueue)                                                              \
    trx_freertos_queue_create((pxNewQueue), (unsigned)(pxNewQueue)->ucQueueType,                   \
                              (unsigned long)(pxNewQueue)->uxLength,                               \
                              (unsigned long)(pxNewQueue)->uxItemSize)
#define traceQUEUE_DELETE(pxQueue) trx_freertos_queue_delete(pxQueue)
#define traceQUEUE_REGISTRY_ADD(xQueue, pcQueueName)                                               \
    trx_freertos_queue_name((xQueue), (pcQueueName), (unsigned)(xQueue)->ucQueueType,              \
                            (unsigned long)(xQueue)->uxLength,                                     \
                            (unsigned long)(xQueue)->uxItemSize)
#define traceQUEUE_SEND(pxQueue)                                                                   \
    trx_freertos_queue_send(trxFR_QUEUE_ARGS(pxQueue), (unsigned long)xTicksToWait,                \
                            trxFR_HOLDER(pxQueue))
#define traceQUEUE_SEND_FAILED(pxQueue) traceQUEUE_SEND(pxQueue)
#define traceQUEUE_SEND_FROM_ISR(pxQueue)                                                          \
    trx_freertos_queue_send(trxFR_QUEUE_ARGS(pxQueue), 0UL, trxFR_HOLDER(pxQueue))
#define traceQUEUE_SEND_FROM_ISR_FAILED(pxQueue) traceQUEUE_SEND_FROM_ISR(pxQueue)
#define traceBLOCKING_ON_QUEUE_SEND(pxQueue) trx_freertos_blocking(5UL)
#define traceQUEUE_RECEIVE(pxQueue)                                                                \
    trx_freertos_queue_receive(trxFR_QUEUE_ARGS(pxQueue), (unsigned long)xTicksToWait,             \
                               trxFR_HOLDER(pxQueue), 0)
#define traceQUEUE_RECEIVE_FAILED(pxQueue) traceQUEUE_RECEIVE(pxQueue)
#define traceBLOCKING_ON_QUEUE_RECEIVE(pxQueue)                                                    \
    trx_freertos_queue_receive(trxFR_QUEUE_ARGS(pxQueue), (unsigned long)xTicksToWait,             \
                               trxFR_HOLDER(pxQueue), 1)
#define traceQUEUE_RECEIVE_FROM_ISR(pxQueue)                                                       \
    trx_freertos_queue_receive(trxFR_QUEUE_ARGS(pxQueue), 0UL, trxFR_HOLDER(pxQueue), 0)
#define traceQUEUE_RECEIVE_FROM_ISR_FAILED(pxQueue) traceQUEUE_RECEIVE_FROM_ISR(pxQueue)

#define traceISR_ENTER() tx_trace_isr_enter_insert(TRX_FREERTOS_ISR_ID())
#define traceISR_EXIT() tx_trace_isr_exit_insert(TRX_FREERTOS_ISR_ID())
#define traceISR_EXIT_TO_SCHEDULER() tx_trace_isr_exit_insert(TRX_FREERTOS_ISR_ID())

#define traceTASK_NOTIFY(uxIndexToNotify)                                                          \
    trx_freertos_user(TRX_FREERTOS_EVENT_NOTIFY, (unsigned long)(uintptr_t)pxTCB,                  \
                      (unsigned long)(uxIndexToNotify))
#define traceTASK_NOTIFY_FROM_ISR(uxIndexToNotify) traceTASK_NOTIFY(uxIndexToNotify)
#define traceTASK_NOTIFY_GIVE_FROM_ISR(uxIndexToNotify) traceTASK_NOTIFY(uxIndexToNotify)
#define traceTASK_NOTIFY_TAKE(uxIndexToWait)                                                       \
    trx_freertos_user(TRX_FREERTOS_EVENT_NOTIFY_WAIT, (unsigned long)(uxIndexToWait), 0UL)
#define traceTASK_NOTIFY_WAIT(uxIndexToWait) traceTASK_NOTIFY_TAKE(uxIndexToWait)

#define traceTIMER_CREATE(pxNewTimer)                                                              \
    trx_freertos_timer_create((pxNewTimer), (pxNewTimer)->pcTimerName,                             \
                              (unsigned long)(pxNewTimer)->xTimerPeriodInTicks,                    \
                              (unsigned long)(((pxNewTimer)->ucStatus & 0x04U) != 0U))
#define traceTIMER_EXPIRED(pxTimer)                                                                \
    trx_freertos_user(TRX_FREERTOS_EVENT_TIMER_EXPIRED, (unsigned long)(uintptr_t)(pxTimer), 0UL)
#define traceTIMER_COMMAND_SEND(xTimer, xCommandID, xOptionalValue, xReturn)                       \
    trx_freertos_user(TRX_FREERTOS_EVENT_TIMER_COMMAND, (unsigned long)(uintptr_t)(xTimer),        \
                      (unsigned long)(xCommandID))

#endif /* __ASSEMBLER__ */
#endif /* TRX_FREERTOS_H */
