/* FreeRTOSConfig.h - the FreeRTOS example on the POSIX (Linux) port, traced
 * by trx: the recorder's critical section blocks signals (the port's
 * interrupts), and trx_freertos.h (included last) maps the trace macros. */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

/* cooperative: see trace_app.c; the preemptive build
 * (freertos_posix_preemptive_example) defines APP_PREEMPTIVE=1 */
#if (defined(APP_PREEMPTIVE) && APP_PREEMPTIVE) || (defined(APP_STREAM) && APP_STREAM)
#define configUSE_PREEMPTION 1
#else
#define configUSE_PREEMPTION 0
#endif
#define configUSE_IDLE_HOOK 0
#define configUSE_TICK_HOOK 0
#define configTICK_RATE_HZ 1000
#define configMAX_PRIORITIES 8
#define configMINIMAL_STACK_SIZE ((unsigned short)4096)
/* heap_4: one static array, so every object address is unique in its low 32
 * bits (the trace format keeps 32-bit addresses; malloc on a 64-bit host,
 * e.g. under AddressSanitizer, could give two objects the same low word) */
#define configTOTAL_HEAP_SIZE ((size_t)(2 * 1024 * 1024))
#define configMAX_TASK_NAME_LEN 16
#define configUSE_TRACE_FACILITY 1
#define configQUEUE_REGISTRY_SIZE 8
#define configRECORD_STACK_HIGH_ADDRESS 1
#define configUSE_16_BIT_TICKS 0
#define configUSE_MUTEXES 1
#define configUSE_RECURSIVE_MUTEXES 1
#define configUSE_COUNTING_SEMAPHORES 1
#define configUSE_TIMERS 1
#define configTIMER_TASK_PRIORITY 5
#define configTIMER_QUEUE_LENGTH 16
#define configTIMER_TASK_STACK_DEPTH 4096
#define configSUPPORT_DYNAMIC_ALLOCATION 1
#define configSUPPORT_STATIC_ALLOCATION 0
#define configCHECK_FOR_STACK_OVERFLOW 0
#define configUSE_MALLOC_FAILED_HOOK 0
#if defined(APP_STREAM) && APP_STREAM /* the drain task shares the CPU with the busy ones */
#define configUSE_TIME_SLICING 1
#else
#define configUSE_TIME_SLICING 0
#endif
#define INCLUDE_vTaskDelay 1
#define INCLUDE_vTaskSuspend 1
#define INCLUDE_vTaskDelete 1
#define INCLUDE_xTaskGetSchedulerState 1

/* the recorder port (TRX_RECORDER_PORT_HEADER="trx_port_posix.h") is given to every
 * file on the command line: the recorder sources do not include this file */
#include "trx_freertos.h"

#endif /* FREERTOS_CONFIG_H */
