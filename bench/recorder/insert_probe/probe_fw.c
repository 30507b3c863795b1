/*
 * probe_fw.c - the smallest firmware that records through a recorder port:
 * starts SysTick (reload 24999), enables tracing and calls insert_probe()
 * (one inline TRX_TRACE_EVENT, as an RTOS hook records) twice, then stops in
 * probe_done(). bench/recorder/insert_instructions.sh counts the second
 * call's instructions with GDB stepi under QEMU.
 */
#include <stdint.h>

#include "trx/recorder.h"

static TRX_TRACE_BUFFER(probe_buffer, 2048);

__attribute__((noinline)) void insert_probe(ULONG value);
__attribute__((noinline)) void insert_probe(ULONG value)
{
    TRX_TRACE_EVENT(4099, value, 0, 0, 0, TX_TRACE_USER_EVENTS);
}

__attribute__((noinline)) void probe_done(void);
__attribute__((noinline)) void probe_done(void)
{
    __asm__ volatile("" ::: "memory");
}

extern uint32_t __data_load__, __data_start__, __data_end__, __bss_start__, __bss_end__,
    __stack_top__;
void Reset_Handler(void);
void Reset_Handler(void)
{
    const uint32_t *from = &__data_load__;
    for (uint32_t *p = &__data_start__; p < &__data_end__; p++)
        *p = *from++; /* the recorder's initial context (initialization) lives in .data */
    for (uint32_t *p = &__bss_start__; p < &__bss_end__; p++)
        *p = 0u;
    *(volatile uint32_t *)0xE000E014u = 24999u; /* SysTick reload */
    *(volatile uint32_t *)0xE000E018u = 0u;
    *(volatile uint32_t *)0xE000E010u = 5u; /* processor clock, enabled, no interrupt */
    tx_trace_enable(probe_buffer, sizeof probe_buffer, 1);
    insert_probe(1);
    insert_probe(2);
    probe_done();
    for (;;) {
    }
}

typedef void (*vector_fn)(void);
__attribute__((section(".vectors"), used)) static const vector_fn vectors[2] = {
    (vector_fn)(uintptr_t)&__stack_top__, Reset_Handler};
