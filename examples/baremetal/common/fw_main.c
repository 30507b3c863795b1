/*
 * fw_main.c - the bare-metal example shared by the QEMU boards: a main loop
 * and two interrupt sources record user events into a trace buffer until it
 * has wrapped twice; then tracing stops, the buffer is exported over the
 * UART as Intel HEX and as S-records (framed by marker lines, among other
 * console output) and the firmware stops in trace_done(), where a debugger
 * dumps the buffer (tools/gdb/trx.py) and reads the counters below.
 *
 * Events (each carries its own sequence number, so a decoder's listing can
 * be checked against the counters exactly):
 *   4096 main loop    info 1 = sequence, info 2 = reference time
 *   4097 tick ISR     info 1 = sequence, info 2 = reference time
 *   4098 timer ISR    info 1 = sequence, info 2 = 1 if it preempted the
 *                     tick ISR, info 3 = nested count so far
 *   4099 insert probe (one, measured instruction by instruction by the test)
 */
#include "fw_board.h"
#include "trx/export.h"
#include "trx/recorder.h"

#define FW_EVENT_MAIN 4096u
#define FW_EVENT_TICK 4097u
#define FW_EVENT_TIMER 4098u
#define FW_EVENT_PROBE 4099u
#define FW_EVENT_ADDRESSES                                                                         \
    4100u /* a function, another, a buffer, a counter: trx --elf names them */
#define FW_TRACE_BYTES 16384u
#define FW_WRAPS 2u

static TRX_TRACE_BUFFER(trace_buffer, FW_TRACE_BYTES);

/* The firmware's own counts, read by the test through GDB. */
volatile uint32_t main_events, tick_events, timer_events, nested_events, buffer_wraps;
volatile uint32_t fw_in_tick;
volatile uint32_t insert_probe_instructions; /* board_instructions() around insert_probe */

static char main_thread[] = "main";

static void on_buffer_full(VOID *buffer)
{
    (void)buffer;
    buffer_wraps++;
}

static void puts_uart(const char *s)
{
    while (*s != '\0')
        board_putc(*s++);
}

static void put_export(void *ctx, char c)
{
    (void)ctx;
    board_putc(c);
}

static void spin(uint32_t n)
{
    for (volatile uint32_t i = 0; i < n; i++) {
    }
}

void fw_on_tick(void)
{
    fw_in_tick = 1u;
    tx_trace_user_event_insert(FW_EVENT_TICK, tick_events, board_reference_time(), 0, 0);
    tick_events++;
    spin(400u); /* long enough for the second source to land inside */
    fw_in_tick = 0u;
}

void fw_on_timer(int nested)
{
    if (nested)
        nested_events++;
    tx_trace_user_event_insert(FW_EVENT_TIMER, timer_events, (ULONG)nested, nested_events, 0);
    timer_events++;
}

/* One inline insert, as an RTOS hook does it: the test counts its instructions. */
__attribute__((noinline)) void insert_probe(ULONG value);
__attribute__((noinline)) void insert_probe(ULONG value)
{
    TRX_TRACE_EVENT(FW_EVENT_PROBE, value, 0, 0, 0, TX_TRACE_USER_EVENTS);
}

/* Where the debugger stops: the buffer is complete and exported. */
__attribute__((noinline)) void trace_done(void);
__attribute__((noinline)) void trace_done(void)
{
    __asm__ volatile("" ::: "memory");
}

int main(void)
{
    board_init();
    puts_uart("FW: trx bare-metal example\r\nFW: boot ok, tracing starts\r\n");
    tx_trace_buffer_full_notify(on_buffer_full);
    tx_trace_enable(trace_buffer, sizeof trace_buffer, 4);
    trx_trace_thread_register(main_thread, "main", main_thread, sizeof main_thread, 0);
    trx_recorder_thread_set(main_thread, 0, 0);
    board_start_interrupts();
    while (buffer_wraps < FW_WRAPS) {
        tx_trace_user_event_insert(FW_EVENT_MAIN, main_events, board_reference_time(), 0, 0);
        main_events++;
        spin(150u);
    }
    board_stop_interrupts();
    insert_probe_instructions = board_instructions();
    insert_probe(main_events);
    insert_probe_instructions = board_instructions() - insert_probe_instructions;
    tx_trace_user_event_insert(FW_EVENT_ADDRESSES, (ULONG)(uintptr_t)&trace_done,
                               (ULONG)(uintptr_t)&insert_probe, (ULONG)(uintptr_t)trace_buffer,
                               (ULONG)(uintptr_t)&main_events);
    tx_trace_disable();

    puts_uart("FW: done, exporting the trace\r\n");
    trx_export_ihex(trace_buffer, sizeof trace_buffer, (ULONG)(uintptr_t)trace_buffer,
                    TRX_EXPORT_MARKERS | TRX_EXPORT_CRLF, put_export, 0);
    puts_uart("FW: and once more as S-records\r\n");
    trx_export_srec(trace_buffer, sizeof trace_buffer, (ULONG)(uintptr_t)trace_buffer,
                    TRX_EXPORT_MARKERS | TRX_EXPORT_CRLF, put_export, 0);
    puts_uart("FW: stopped\r\n");
    trace_done();
    for (;;) {
    }
}
