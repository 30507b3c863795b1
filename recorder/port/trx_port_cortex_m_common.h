/*
 * trx_port_cortex_m_common.h - pieces shared by the Cortex-M ports
 * (trx_port_cortex_m0.h, trx_port_cortex_m.h): the PRIMASK critical section,
 * the stack pointer, the system registers they use (no CMSIS needed) and the
 * composed SysTick time source. Not a port by itself: include one of those.
 */
#ifndef TRX_PORT_CORTEX_M_COMMON_H
#define TRX_PORT_CORTEX_M_COMMON_H

#include <stdint.h>

#if !defined(__arm__) && !defined(__thumb__)
#error "trx_port_cortex_m*.h: not an ARM target (build with arm-none-eabi-gcc -mcpu=cortex-m...)"
#endif

/* System control space registers (ARMv6-M / ARMv7-M / ARMv8-M). */
#define TRX_PORT_SYST_CSR (*(volatile uint32_t *)0xE000E010UL) /* SysTick control/status */
#define TRX_PORT_SYST_RVR (*(volatile uint32_t *)0xE000E014UL) /* SysTick reload value */
#define TRX_PORT_SYST_CVR (*(volatile uint32_t *)0xE000E018UL) /* SysTick current value */
#define TRX_PORT_SYST_CSR_COUNTFLAG (1UL << 16)

/* Masks interrupts (PRIMASK = 1) and returns the previous PRIMASK. */
static inline uint32_t trx_port_irq_save(void)
{
    uint32_t primask;
    __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask) : : "memory");
    return primask;
}

/* Puts PRIMASK back as trx_port_irq_save found it (so sections nest). */
static inline void trx_port_irq_restore(uint32_t primask)
{
    __asm__ volatile("msr primask, %0" : : "r"(primask) : "memory");
}

/* The current stack pointer (MSP in handlers, MSP or PSP in threads). */
static inline uint32_t trx_port_stack_pointer(void)
{
    uint32_t sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    return sp;
}

/* The active exception number (IPSR): 0 in thread mode, 15 SysTick, 16+n IRQ n. */
static inline uint32_t trx_port_ipsr(void)
{
    uint32_t ipsr;
    __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
    return ipsr;
}

/* Composed SysTick counter: a 32-bit up-counter made of SysTick's 24-bit
 * down-counter and a software count of its reloads, monotonic whatever the
 * reload value (a 1 kHz OS tick at 25 MHz reloads every 25000 counts, not a
 * power of two, so the raw SysTick value cannot be a TX_TRACE_TIME_SOURCE).
 * Reloads are seen through SysTick's COUNTFLAG (set at each reload, cleared
 * when SYST_CSR is read), so:
 *   - it must run at least once per SysTick period: inserts do, and the
 *     SysTick handler calls trx_port_systick_tick() (anywhere in it) to
 *     cover periods without events;
 *   - nothing else may read SYST_CSR while tracing (that clears COUNTFLAG;
 *     FreeRTOS's tickless idle does, so use it without tickless idle).
 * Safe from any context (masks interrupts around its few reads); one count
 * = one SysTick clock (the CPU clock with CLKSOURCE = 1). Defined in
 * recorder/trx_port_systick.c. */
uint32_t trx_port_systick_time(void);

/* Call from the SysTick handler: keeps the composed counter's reload count
 * exact across periods with no event. */
static inline void trx_port_systick_tick(void)
{
    (void)trx_port_systick_time();
}

#define TRX_INTERRUPT_SAVE_AREA uint32_t trx_primask_;
/* Stores before it reach memory before stores after it (a stream ring's data
 * before its write offset; a probe reads both over the debug port). */
#define TRX_PORT_MEMORY_BARRIER() __asm volatile("dmb" ::: "memory")
#define TRX_DISABLE trx_primask_ = trx_port_irq_save();
#define TRX_RESTORE trx_port_irq_restore(trx_primask_);
#define TRX_PORT_STACK_POINTER() trx_port_stack_pointer()

#endif /* TRX_PORT_CORTEX_M_COMMON_H */
