/* FreeRTOSConfig.h - the FreeRTOS example on QEMU's mps2-an385 (Cortex-M3,
 * FreeRTOS's ARM_CM3 port), traced by trx through trx_freertos.h (included
 * last) with the recorder port trx_port_cortex_m.h and its composed SysTick
 * time source (QEMU has no DWT; FreeRTOS's 1 kHz tick reloads SysTick every
 * 25000 counts). */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#define configUSE_PREEMPTION 0 /* cooperative: see app/trace_app.c */
#define configUSE_IDLE_HOOK 0
#define configUSE_TICK_HOOK 0
#define configCPU_CLOCK_HZ 25000000UL
#define configTICK_RATE_HZ 1000
#define configMAX_PRIORITIES 8
#define configMINIMAL_STACK_SIZE ((unsigned short)256)
#define configTOTAL_HEAP_SIZE ((size_t)(96 * 1024))
#define configMAX_TASK_NAME_LEN 16
#define configUSE_TRACE_FACILITY 1
#define configRECORD_STACK_HIGH_ADDRESS 1
#define configQUEUE_REGISTRY_SIZE 8
#define configUSE_16_BIT_TICKS 0
#define configUSE_MUTEXES 1
#define configUSE_RECURSIVE_MUTEXES 1
#define configUSE_COUNTING_SEMAPHORES 1
#define configUSE_TIMERS 1
#define configTIMER_TASK_PRIORITY 5
#define configTIMER_QUEUE_LENGTH 16
#define configTIMER_TASK_STACK_DEPTH 512
#define configSUPPORT_DYNAMIC_ALLOCATION 1
#define configSUPPORT_STATIC_ALLOCATION 0
#define configCHECK_FOR_STACK_OVERFLOW 0
#define configUSE_MALLOC_FAILED_HOOK 0
#define configUSE_TIME_SLICING 0
#define configKERNEL_INTERRUPT_PRIORITY 255
#define configMAX_SYSCALL_INTERRUPT_PRIORITY 191
#define INCLUDE_vTaskDelay 1
#define INCLUDE_vTaskSuspend 1
#define INCLUDE_vTaskDelete 1

/* ISR events carry the exception number (IPSR). */
#define TRX_FREERTOS_ISR_ID() trx_port_ipsr()
#include "trx_freertos.h"

#endif /* FREERTOS_CONFIG_H */
