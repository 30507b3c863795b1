/*
 * board_mps2.c - QEMU's mps2-an386 (Cortex-M4) for the bare-metal example:
 * vector table and reset code, the CMSDK UART0 console, SysTick as the
 * periodic tick (reload 2999: 120 us at 25 MHz, not a power of two, timing
 * the trace through the port's composed SysTick counter), CMSDK TIMER0 as a
 * second interrupt at a higher priority (it preempts the SysTick handler),
 * and the dual timer as the free-running reference clock. No CMSIS: the
 * registers are written out below.
 */
#include <stdint.h>

#include "fw_board.h"
#include "trx/recorder.h"

#define REG(addr) (*(volatile uint32_t *)(addr))

/* CMSDK APB UART0 */
#define UART0_DATA REG(0x40004000u)
#define UART0_STATE REG(0x40004004u) /* bit 0: TX buffer full */
#define UART0_CTRL REG(0x40004008u)  /* bit 0: TX enable */
#define UART0_BAUDDIV REG(0x40004010u)
/* CMSDK APB TIMER0 (IRQ 8) */
#define TIMER0_CTRL REG(0x40000000u) /* bit 0 enable, bit 3 interrupt enable */
#define TIMER0_RELOAD REG(0x40000008u)
#define TIMER0_INTCLEAR REG(0x4000000Cu)
#define TIMER0_IRQ 8u
/* CMSDK dual timer, timer 1: free-running 32-bit down-counter */
#define DUALTIMER1_LOAD REG(0x40002000u)
#define DUALTIMER1_VALUE REG(0x40002004u)
#define DUALTIMER1_CONTROL REG(0x40002008u) /* bit 7 enable, bit 1 32-bit */
/* System control space */
#define SYST_CSR REG(0xE000E010u)
#define SYST_RVR REG(0xE000E014u)
#define SYST_CVR REG(0xE000E018u)
#define NVIC_ISER0 REG(0xE000E100u)
#define NVIC_ICER0 REG(0xE000E180u)
#define NVIC_IPR_BYTE(n) (*(volatile uint8_t *)(0xE000E400u + (n)))
#define SHPR3 REG(0xE000ED20u) /* bits 31:24 SysTick priority */

#define SYSTICK_RELOAD 2999u /* 3000 counts = 120 us at 25 MHz */
#define TIMER0_RELOAD_VALUE 7919u

const uint32_t board_reference_hz = 25000000u;

void board_init(void)
{
    UART0_BAUDDIV = 16u;
    UART0_CTRL = 1u;
    DUALTIMER1_LOAD = 0xFFFFFFFFu;
    DUALTIMER1_CONTROL = 0x82u;
}

void board_putc(char c)
{
    while (UART0_STATE & 1u) {
    }
    UART0_DATA = (uint32_t)(uint8_t)c;
}

int board_uart_try_putc(char c)
{
    if (UART0_STATE & 1u)
        return 0;
    UART0_DATA = (uint32_t)(uint8_t)c;
    return 1;
}

uint32_t board_reference_time(void)
{
    return 0xFFFFFFFFu - DUALTIMER1_VALUE;
}

uint32_t board_instructions(void)
{
    return 0u; /* QEMU has no DWT: the test counts with GDB stepi */
}

void board_start_interrupts(void)
{
    SHPR3 = (SHPR3 & 0x00FFFFFFu) | (0xC0u << 24); /* SysTick: low priority */
    NVIC_IPR_BYTE(TIMER0_IRQ) = 0x40u;             /* TIMER0: higher, preempts SysTick */
    SYST_RVR = SYSTICK_RELOAD;
    SYST_CVR = 0u;
    SYST_CSR = 7u; /* processor clock, interrupt, enable */
    TIMER0_RELOAD = TIMER0_RELOAD_VALUE;
    TIMER0_CTRL = 9u;
    NVIC_ISER0 = 1u << TIMER0_IRQ;
}

void board_stop_interrupts(void)
{
    NVIC_ICER0 = 1u << TIMER0_IRQ;
    TIMER0_CTRL = 0u;
    SYST_CSR = 5u; /* keeps counting (the time source), no interrupt */
}

void SysTick_Handler(void);
void SysTick_Handler(void)
{
    tx_trace_isr_enter_insert(15);
    trx_port_systick_tick();
    fw_on_tick();
    tx_trace_isr_exit_insert(15);
}

void TIMER0_Handler(void);
void TIMER0_Handler(void)
{
    int nested = fw_in_tick != 0u;
    TIMER0_INTCLEAR = 1u;
    tx_trace_isr_enter_insert(16 + TIMER0_IRQ);
    fw_on_timer(nested);
    tx_trace_isr_exit_insert(16 + TIMER0_IRQ);
}

/* ------------------------------------------------------------ startup */

extern uint32_t __bss_start__, __bss_end__, __stack_top__;
int main(void);
void Reset_Handler(void);
void Default_Handler(void);

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
    [2] = Default_Handler, /* NMI */
    [3] = Default_Handler, /* HardFault */
    [4] = Default_Handler,
    [5] = Default_Handler,
    [6] = Default_Handler,
    [11] = Default_Handler, /* SVCall */
    [14] = Default_Handler, /* PendSV */
    [15] = SysTick_Handler,
    [16 + TIMER0_IRQ] = TIMER0_Handler,
};
