/*
 * main_mps2.c - runs the FreeRTOS example (app/trace_app.c) on QEMU's
 * mps2-an385 (Cortex-M3): vector table and reset code (no CMSIS), the
 * CMSDK UART0 console, FreeRTOS's SysTick/PendSV/SVC handlers (the SysTick
 * wrapper also keeps the recorder's composed SysTick counter). When tracing
 * has stopped, the buffer goes out on the UART as Intel HEX and S-records
 * among console lines, and the firmware stops in trace_done(), where the
 * test dumps it with GDB and reads app_counts.
 */
#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"
#include "trace_app.h"
#include "trx/export.h"

#define REG(addr) (*(volatile uint32_t *)(addr))
#define UART0_DATA REG(0x40004000u)
#define UART0_STATE REG(0x40004004u)
#define UART0_CTRL REG(0x40004008u)
#define UART0_BAUDDIV REG(0x40004010u)

/* CMSDK dual timer, timer 1: free-running 32-bit down-counter at 25 MHz,
 * the clock SysTick counts too. */
#define DUALTIMER1_LOAD REG(0x40002000u)
#define DUALTIMER1_VALUE REG(0x40002004u)
#define DUALTIMER1_CONTROL REG(0x40002008u)

uint32_t app_platform_reference(void)
{
    return 0xFFFFFFFFu - DUALTIMER1_VALUE;
}

static void uart_putc(char c)
{
    while (UART0_STATE & 1u) {
    }
    UART0_DATA = (uint32_t)(uint8_t)c;
}

static void uart_puts(const char *s)
{
    while (*s != '\0')
        uart_putc(*s++);
}

static void put_export(void *ctx, char c)
{
    (void)ctx;
    uart_putc(c);
}

/* Where the debugger stops: the trace is complete and exported. */
__attribute__((noinline)) void trace_done(void);
__attribute__((noinline)) void trace_done(void)
{
    __asm__ volatile("" ::: "memory");
}

void app_platform_done(const void *buffer, unsigned long size)
{
    uart_puts("FreeRTOS example: tracing stopped, exporting\r\n");
    trx_export_ihex(buffer, (uint32_t)size, (uint32_t)(uintptr_t)buffer,
                    TRX_EXPORT_MARKERS | TRX_EXPORT_CRLF, put_export, 0);
    uart_puts("FreeRTOS example: the same as S-records\r\n");
    trx_export_srec(buffer, (uint32_t)size, (uint32_t)(uintptr_t)buffer,
                    TRX_EXPORT_MARKERS | TRX_EXPORT_CRLF, put_export, 0);
    uart_puts("FreeRTOS example: done\r\n");
    taskDISABLE_INTERRUPTS();
    trace_done();
    for (;;) {
    }
}

int main(void)
{
    UART0_BAUDDIV = 16u;
    UART0_CTRL = 1u;
    DUALTIMER1_LOAD = 0xFFFFFFFFu;
    DUALTIMER1_CONTROL = 0x82u; /* enabled, 32-bit, free-running */
    uart_puts("FreeRTOS example on mps2-an385 with trx\r\n");
    app_create();
    vTaskStartScheduler();
    for (;;) {
    }
}

/* ------------------------------------------------------------ startup */

void vPortSVCHandler(void);
void xPortPendSVHandler(void);
void xPortSysTickHandler(void);
void SysTick_Handler(void);
void Reset_Handler(void);
void Default_Handler(void);
extern uint32_t __bss_start__, __bss_end__, __stack_top__;

/* FreeRTOS's tick, plus one look at SysTick for the recorder's time source. */
void SysTick_Handler(void)
{
    trx_port_systick_tick();
    xPortSysTickHandler();
}

void Reset_Handler(void)
{
    for (uint32_t *p = &__bss_start__; p < &__bss_end__; p++)
        *p = 0u;
    main();
    for (;;) {
    }
}

void Default_Handler(void)
{
    for (;;) {
    }
}

typedef void (*vector_fn)(void);
__attribute__((section(".vectors"), used)) static const vector_fn vectors[16 + 32] = {
    [0] = (vector_fn)(uintptr_t)&__stack_top__,
    [1] = Reset_Handler,
    [2] = Default_Handler,
    [3] = Default_Handler,
    [4] = Default_Handler,
    [5] = Default_Handler,
    [6] = Default_Handler,
    [11] = vPortSVCHandler,
    [14] = xPortPendSVHandler,
    [15] = SysTick_Handler,
};
