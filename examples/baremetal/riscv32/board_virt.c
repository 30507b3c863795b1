/*
 * board_virt.c - QEMU's RISC-V virt board (RV32, machine mode) for the
 * bare-metal example: the NS16550 UART console, the CLINT machine timer as
 * the periodic tick, a machine software interrupt (raised by the tick
 * handler, taken when it returns) as the second source, and mtime as the
 * reference clock (10 MHz). The trace is timed by mcycle through
 * trx_port_riscv32.h (run with -icount shift=0, mcycle counts instructions:
 * 100 per mtime count). start.S sets up the stack and mtvec.
 */
#include <stdint.h>

#include "fw_board.h"
#include "trx/recorder.h"

#define REG32(addr) (*(volatile uint32_t *)(addr))
#define REG8(addr) (*(volatile uint8_t *)(addr))

#define UART_THR REG8(0x10000000u)
#define UART_LSR REG8(0x10000005u) /* bit 5: transmitter holding register empty */
#define CLINT_MSIP REG32(0x02000000u)
#define CLINT_MTIMECMP_LO REG32(0x02004000u)
#define CLINT_MTIMECMP_HI REG32(0x02004004u)
#define CLINT_MTIME_LO REG32(0x0200BFF8u)
#define CLINT_MTIME_HI REG32(0x0200BFFCu)

#define TICK_PERIOD 131u /* mtime counts (10 MHz): 13.1 us, not a power of two */
#define MIE_MSIE (1u << 3)
#define MIE_MTIE (1u << 7)
#define MCAUSE_MSI 0x80000003u
#define MCAUSE_MTI 0x80000007u

const uint32_t board_reference_hz = 10000000u;
static uint64_t next_tick;
static uint32_t ticks_seen;

static uint64_t mtime(void)
{
    uint32_t hi, lo;
    do {
        hi = CLINT_MTIME_HI;
        lo = CLINT_MTIME_LO;
    } while (hi != CLINT_MTIME_HI);
    return (uint64_t)hi << 32 | lo;
}

static void set_mtimecmp(uint64_t when)
{
    CLINT_MTIMECMP_HI = 0xFFFFFFFFu; /* no spurious interrupt while the halves differ */
    CLINT_MTIMECMP_LO = (uint32_t)when;
    CLINT_MTIMECMP_HI = (uint32_t)(when >> 32);
}

void board_init(void) {}

int board_uart_try_putc(char c)
{
    if (!(UART_LSR & 0x20u))
        return 0;
    UART_THR = (uint8_t)c;
    return 1;
}

void board_putc(char c)
{
    while (!(UART_LSR & 0x20u)) {
    }
    UART_THR = (uint8_t)c;
}

uint32_t board_reference_time(void)
{
    return CLINT_MTIME_LO;
}

/* mcycle: under QEMU -icount shift=0 it counts one per instruction. */
uint32_t board_instructions(void)
{
    return trx_port_mcycle();
}

void board_start_interrupts(void)
{
    next_tick = mtime() + TICK_PERIOD;
    set_mtimecmp(next_tick);
    __asm__ volatile("csrs mie, %0" : : "r"(MIE_MTIE | MIE_MSIE));
    __asm__ volatile("csrsi mstatus, 8");
}

void board_stop_interrupts(void)
{
    __asm__ volatile("csrc mie, %0" : : "r"(MIE_MTIE | MIE_MSIE));
    set_mtimecmp(~(uint64_t)0);
    CLINT_MSIP = 0u;
}

/* Called from start.S's trap entry with mcause. */
void board_trap(uint32_t mcause);
void board_trap(uint32_t mcause)
{
    if (mcause == MCAUSE_MTI) {
        tx_trace_isr_enter_insert(7);
        next_tick += TICK_PERIOD;
        set_mtimecmp(next_tick);
        fw_on_tick();
        if ((++ticks_seen % 3u) == 0u)
            CLINT_MSIP = 1u; /* the second source: taken after this handler */
        tx_trace_isr_exit_insert(7);
    } else if (mcause == MCAUSE_MSI) {
        CLINT_MSIP = 0u;
        tx_trace_isr_enter_insert(3);
        fw_on_timer(0);
        tx_trace_isr_exit_insert(3);
    } else {
        for (;;) {
        }
    }
}
