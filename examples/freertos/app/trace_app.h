/*
 * trace_app.h - the FreeRTOS example application shared by the POSIX and
 * Cortex-M builds: tasks of three priorities, a mutex with a priority
 * inversion, a queue, a semaphore given by a software timer. The platform
 * provides app_platform_done(), called once with tracing stopped.
 */
#ifndef TRACE_APP_H
#define TRACE_APP_H

#include <stdint.h>

/* The application's own counts of its kernel calls since the MARK event
 * (user event 4300), read by the tests (POSIX: written to a file by the
 * platform; QEMU: through GDB). */
typedef struct app_counters {
    volatile uint32_t queue_sends, queue_receives;
    volatile uint32_t semaphore_gives, semaphore_takes;
    volatile uint32_t mutex_takes, mutex_gives;
    volatile uint32_t buffer_wraps;
} app_counters;
extern app_counters app_counts;

#define APP_EVENT_MARK 4300u /* info 1: app_platform_reference() */
#define APP_EVENT_STOP 4301u /* info 1: app_platform_reference() */
#define APP_TRACE_BYTES 65536u

/* Creates the tasks, the queue, the semaphore, the mutex and the timer and
 * enables tracing; then the caller starts the scheduler. */
void app_create(void);

/* Platform: a free-running up-counter independent of the trace's time
 * source (0 when there is none), recorded in MARK and STOP. */
uint32_t app_platform_reference(void);

/* Platform: tracing has stopped; `buffer` holds the trace. */
void app_platform_done(const void *buffer, unsigned long size);

#endif /* TRACE_APP_H */
