/*
 * fw_stream.c - the bare-metal streaming example (build.sh ARCH OUT stream):
 * the main loop and two interrupt sources record events into a stream
 * logger while the firmware runs; its packets leave through a ring that is
 * either drained into the UART by the main loop (fw_transport 0, the
 * default) or read by a debugger playing an RTT probe (fw_transport 1, set
 * by the debugger before the firmware runs; it reads the ring at each stop
 * in rtt_poll_point). The ring is small and the main loop records bursts,
 * so the recorder drops events; it counts them (trx_uia_dropped), and the
 * host must count exactly as many lost.
 *
 * Events (module 0x4657 "FW"; each carries its own sequence number, so
 * every event that arrives can be checked against the firmware's counts):
 *   1 main loop   args: sequence, sequence * 2654435761, reference time
 *   2 tick ISR    args: sequence, sequence * 2654435761
 *   3 timer ISR   args: sequence, sequence * 2654435761, nested (0/1)
 * The firmware stops in stream_done() after FW_MAIN_EVENTS main events,
 * with every packet sent; the test reads the counters there.
 *
 * FW_TXTB=1 (build.sh cortex-m OUT stream-txtb): the events go into a TXTB
 * trace buffer of 64 entries instead (tx_trace_user_event_insert, ids 4096
 * + 1..3, the same info words), as a kernel writes its own, and a drain
 * (trx_txtb_drain) forwards them into the stream at each drain; the entries
 * the interrupts and bursts overwrite before the drain reads them are
 * counted (dropped_events = the drain's count + the stream's own drops).
 */
#include "fw_board.h"
#include "trx/recorder.h"
#include "trx/stream_recorder.h"

#define FW_MODULE 0x4657u
#define FW_MAIN_EVENTS 60000u
#define FW_BURST 240u /* events recorded without draining, every FW_BURST_EVERY */
#define FW_BURST_EVERY 2000u

volatile uint32_t main_events, tick_events, timer_events, nested_events, dropped_events;
volatile uint32_t fw_in_tick;
volatile uint32_t fw_transport;        /* 0: UART byte sink, 1: RTT (a debugger reads the ring) */
volatile uint32_t rtt_polls;           /* rtt_poll_point calls */
volatile uint32_t fw_drain_every = 4u; /* main events between drains (the debugger may change it) */
uint32_t sent_bytes;                   /* bytes the UART sink took */

trx_rtt_control _SEGGER_RTT; /* the name RTT tools look for first */
static ULONG ring_words[1024 / 4];
static ULONG staging_words[256 / 4];
static trx_uia_logger stream_logger;
static trx_stream_ring *ring;
#if defined(FW_TXTB) && FW_TXTB
static TRX_TRACE_BUFFER(trace_buffer, 48 + 16 + TX_TRACE_OBJECT_REGISTRY_NAME + 64 * 32);
static trx_txtb_drain txtb_drain;
static char main_thread[] = "main";
volatile uint32_t overwritten_entries;

static VOID on_trace_full(VOID *buffer)
{
    (void)buffer;
    trx_txtb_drain_lap(&txtb_drain);
}
#endif

/* The UART byte sink: takes bytes while the UART's TX buffer has room. */
static ULONG uart_sink(VOID *context, const UCHAR *bytes, ULONG length)
{
    ULONG n = 0;
    (void)context;
    while (n < length && board_uart_try_putc((char)bytes[n]))
        n++;
    sent_bytes += n;
    return n;
}

/* Where a debugger playing an RTT probe stops to read the ring (RTT mode). */
__attribute__((noinline)) void rtt_poll_point(void);
__attribute__((noinline)) void rtt_poll_point(void)
{
    rtt_polls++;
    __asm__ volatile("" ::: "memory");
}

/* Sends what waits: the staging buffer's packet, then the ring. */
static void drain(void)
{
#if defined(FW_TXTB) && FW_TXTB
    trx_txtb_drain_poll(&txtb_drain);
#endif
    trx_stream_flush(&stream_logger);
    if (fw_transport == 0u)
        trx_stream_drain(ring, uart_sink, 0);
    else
        rtt_poll_point();
}

static void record(ULONG id, ULONG seq, ULONG third)
{
#if defined(FW_TXTB) && FW_TXTB
    tx_trace_user_event_insert(4096u + id, seq, seq * 2654435761u, third, 0);
    return;
#endif
    trx_uia_write4(&stream_logger, id << 16 | FW_MODULE, seq, seq * 2654435761u, third, 0,
                   0xFFFFFFFFu);
}

void fw_on_tick(void)
{
    fw_in_tick = 1u;
    record(2u, tick_events, 0u);
    tick_events++;
    for (volatile uint32_t i = 0; i < 200u; i++) {
    }
    fw_in_tick = 0u;
}

void fw_on_timer(int nested)
{
    if (nested)
        nested_events++;
    record(3u, timer_events, (ULONG)nested);
    timer_events++;
}

/* One streamed event (the test counts its instructions). */
__attribute__((noinline)) void stream_probe(ULONG value);
__attribute__((noinline)) void stream_probe(ULONG value)
{
    record(1u, value, 0u);
}

/* Where the debugger stops at the end: every packet sent, counters final. */
__attribute__((noinline)) void stream_done(void);
__attribute__((noinline)) void stream_done(void)
{
    __asm__ volatile("" ::: "memory");
}

int main(void)
{
    board_init();
    ring = trx_rtt_init(&_SEGGER_RTT, ring_words, sizeof ring_words, "trx");
    trx_stream_enable(&stream_logger, staging_words, sizeof staging_words, ring, 0, 1);
#if defined(FW_TXTB) && FW_TXTB
    tx_trace_enable(trace_buffer, sizeof trace_buffer, 1);
    tx_trace_buffer_full_notify(on_trace_full);
    trx_trace_thread_register(main_thread, "main", main_thread, sizeof main_thread, 0);
    trx_recorder_thread_set(main_thread, 0, 0); /* the main loop's entries: thread "main" */
    trx_txtb_drain_start(&txtb_drain, trace_buffer, &stream_logger); /* sends the registry */
#endif
    board_start_interrupts();
    while (main_events < FW_MAIN_EVENTS) {
        if (main_events == FW_MAIN_EVENTS / 2) {
            drain();                   /* an empty packet: the probe closes none */
            stream_probe(main_events); /* an ordinary main event, measured */
        } else {
            record(1u, main_events, board_reference_time());
        }
        main_events++;
        if (main_events % FW_BURST_EVERY >= FW_BURST && main_events % fw_drain_every == 0u)
            drain();
    }
    board_stop_interrupts();
    drain();
    while (ring->read_offset != ring->write_offset)
        drain();
    trx_uia_disable(&stream_logger); /* the last packet (news of drops after the last event) */
    drain();
    while (ring->read_offset != ring->write_offset)
        drain();
    dropped_events = trx_uia_dropped(&stream_logger); /* TXTB: the overwritten entries too */
#if defined(FW_TXTB) && FW_TXTB
    overwritten_entries = txtb_drain.overwritten;
#endif
    stream_done();
    for (;;) {
    }
}
