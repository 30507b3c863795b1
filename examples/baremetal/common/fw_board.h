/*
 * fw_board.h - what the shared bare-metal example (fw_main.c) needs from a
 * board: a UART, an independent reference timer, and two interrupt sources
 * (cortex-m/board_mps2.c, riscv32/board_virt.c). The board's interrupt
 * handlers call fw_on_tick() / fw_on_timer() between the recorder's ISR
 * enter/exit calls.
 */
#ifndef FW_BOARD_H
#define FW_BOARD_H

#include <stdint.h>

/* Sets up the UART (and anything the board needs before main's work). */
void board_init(void);

/* Writes one character to the console UART (waits while it is busy). */
void board_putc(char c);

/* Writes one character if the UART has room for it: 1, else 0 (never waits). */
int board_uart_try_putc(char c);

/* A free-running counter independent of the trace time source, counting
 * up, in board_reference_hz ticks per second. */
uint32_t board_reference_time(void);
extern const uint32_t board_reference_hz;

/* An instruction counter for measuring an insert, or 0 when the board has
 * none (then the test counts with GDB stepi). */
uint32_t board_instructions(void);

/* Starts / stops the periodic tick and the second interrupt source. */
void board_start_interrupts(void);
void board_stop_interrupts(void);

/* Called by the board's handlers (inside their ISR enter/exit events). */
void fw_on_tick(void);
void fw_on_timer(int nested);

/* Set while the tick handler runs (the second source can preempt it). */
extern volatile uint32_t fw_in_tick;

#endif /* FW_BOARD_H */
