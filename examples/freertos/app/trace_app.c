/*
 * trace_app.c - the FreeRTOS example (see trace_app.h). Phase 1 runs until
 * the trace buffer has wrapped once. Then, in one critical section, the
 * counters are zeroed and a MARK user event is recorded; phase 2 runs a
 * fixed number of rounds (well under one buffer of events) and, again in a
 * critical section, tracing stops. The scheduler is cooperative
 * (configUSE_PREEMPTION 0): a task is switched out only inside a blocking
 * call, so each counter below moves together with its event (incremented
 * after calls whose event is recorded when they complete, before a mutex
 * take whose GET may be recorded when it blocks) and the events after MARK
 * equal the counters exactly.
 *
 * The inversion: "low" takes the mutex and sleeps holding it; "high" wakes,
 * blocks on the mutex (GET with low as owner); "mid" runs meanwhile; low
 * wakes and gives the mutex.
 */
#include "trace_app.h"

#include "FreeRTOS.h"
#include "queue.h"
#include "semphr.h"
#include "task.h"
#include "timers.h"

app_counters app_counts;

#define PHASE2_ROUNDS 20u

static TRX_TRACE_BUFFER(trace_buffer, APP_TRACE_BYTES);
static QueueHandle_t queue;
static SemaphoreHandle_t semaphore, mutex;
static volatile int phase2, stopped;
static volatile uint32_t low_rounds;

static void on_buffer_full(VOID *buffer)
{
    (void)buffer;
    app_counts.buffer_wraps++;
}

static void spin(uint32_t n)
{
    for (volatile uint32_t i = 0; i < n; i++) {
    }
}

static void high_task(void *arg)
{
    (void)arg;
    for (;;) {
        vTaskDelay(2);
        app_counts.mutex_takes++;
        xSemaphoreTake(mutex, portMAX_DELAY);
        xSemaphoreGive(mutex);
        app_counts.mutex_gives++;
    }
}

static void mid_task(void *arg)
{
    (void)arg;
    for (;;) {
        vTaskDelay(3);
        spin(20000);
    }
}

static void low_task(void *arg)
{
    (void)arg;
    uint32_t value = 0;
    for (;;) {
        app_counts.mutex_takes++;
        xSemaphoreTake(mutex, portMAX_DELAY);
        vTaskDelay(3); /* holding the mutex: high blocks on it meanwhile */
        xSemaphoreGive(mutex);
        app_counts.mutex_gives++;
        xQueueSend(queue, &value, 0);
        app_counts.queue_sends++;
        value++;
        if (phase2)
            low_rounds++;
        taskYIELD();
    }
}

static void consumer_task(void *arg)
{
    (void)arg;
    uint32_t value;
    for (;;) {
        xQueueReceive(queue, &value, portMAX_DELAY);
        app_counts.queue_receives++;
        xSemaphoreTake(semaphore, portMAX_DELAY);
        app_counts.semaphore_takes++;
    }
}

static void on_timer(TimerHandle_t timer)
{
    (void)timer;
    xSemaphoreGive(semaphore);
    app_counts.semaphore_gives++;
}

/* Phase control: the lowest priority above IDLE, runs when everything else waits. */
static void control_task(void *arg)
{
    (void)arg;
    uint32_t rounds = 0;
    for (;;) {
        if (!phase2 && app_counts.buffer_wraps >= 1u) {
            taskENTER_CRITICAL();
            app_counts.queue_sends = app_counts.queue_receives = 0;
            app_counts.semaphore_gives = app_counts.semaphore_takes = 0;
            app_counts.mutex_takes = app_counts.mutex_gives = 0;
            tx_trace_user_event_insert(APP_EVENT_MARK, app_platform_reference(), 0, 0, 0);
            phase2 = 1;
            taskEXIT_CRITICAL();
        } else if (phase2 && low_rounds >= PHASE2_ROUNDS && !stopped) {
            taskENTER_CRITICAL();
            tx_trace_user_event_insert(APP_EVENT_STOP, app_platform_reference(), 0, 0, 0);
            tx_trace_disable();
            stopped = 1;
            taskEXIT_CRITICAL();
            vTaskSuspendAll(); /* the counters stay as they are from here on */
            app_platform_done(trace_buffer, sizeof trace_buffer);
        }
        /* every other round it sleeps a tick, so that FreeRTOS's IDLE task
         * runs (idle time) when all tasks wait; otherwise it yields */
        if (++rounds & 1u)
            vTaskDelay(1);
        else
            taskYIELD();
    }
}

void app_create(void)
{
    tx_trace_buffer_full_notify(on_buffer_full);
    trx_freertos_enable(trace_buffer, sizeof trace_buffer, 16);
    queue = xQueueCreate(8, sizeof(uint32_t));
    semaphore = xSemaphoreCreateCounting(100, 0);
    mutex = xSemaphoreCreateMutex();
    vQueueAddToRegistry(queue, "app queue");
    vQueueAddToRegistry(semaphore, "app semaphore");
    vQueueAddToRegistry(mutex, "app mutex");
    xTaskCreate(high_task, "high", configMINIMAL_STACK_SIZE * 2, NULL, 4, NULL);
    xTaskCreate(mid_task, "mid", configMINIMAL_STACK_SIZE * 2, NULL, 3, NULL);
    xTaskCreate(low_task, "low", configMINIMAL_STACK_SIZE * 2, NULL, 2, NULL);
    xTaskCreate(consumer_task, "consumer", configMINIMAL_STACK_SIZE * 2, NULL, 3, NULL);
    xTaskCreate(control_task, "control", configMINIMAL_STACK_SIZE * 2, NULL, 1, NULL);
    xTimerStart(xTimerCreate("tick2", 2, pdTRUE, NULL, on_timer), 0);
}
