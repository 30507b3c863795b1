/*
 * bench_recorder_lockfree.c - ns per event of the lock-free-mode insert
 * (TRX_RECORDER_LOCKFREE=1) on one thread and on two threads sharing one
 * buffer (ns/event = wall time / all events). Built twice: with the default
 * shared atomic event counter as clock, and with a per-thread counter.
 */
#include "trx/recorder.h"

#if defined(BENCH_CORE_CLOCK)
#include "bench_clock.h"
_Thread_local ULONG trx_bench_thread_clock;
#define CLOCK_NAME ", per-core clock"
#else
#define CLOCK_NAME ", shared clock"
#endif

#include "bench_common.h"

static uint32_t buffer_words[(48 + BENCH_CAPACITY * 32) / 4];

static void recorder_body(uint32_t thread, uint32_t events)
{
    for (uint32_t i = 0; i < events; i++) {
        TRX_TRACE_EVENT(TX_TRACE_QUEUE_SEND, i, thread, i ^ 0x55u, 7, TX_TRACE_QUEUE_EVENTS);
    }
}

static void context_body(uint32_t thread, uint32_t events)
{
    for (uint32_t i = 0; i < events; i++) {
        trx_trace_insert_with_context(0x20000000u + thread * 64u, 0x80000005u, TX_TRACE_QUEUE_SEND,
                                      i, thread, i ^ 0x55u, 7, TX_TRACE_QUEUE_EVENTS);
    }
}

static void recorder_reset(void)
{
    tx_trace_disable();
    if (tx_trace_enable(buffer_words, sizeof buffer_words, 0) != TX_SUCCESS) {
        fprintf(stderr, "enable failed\n");
        exit(1);
    }
}

int main(void)
{
    const uint32_t n = BENCH_EVENTS_PER_THREAD;
    bench_header();
    double t = bench_time(recorder_body, 1, n, recorder_reset);
    bench_row("lock-free, trx_trace_insert" CLOCK_NAME, 1, n, t);
    t = bench_time(recorder_body, 2, n / 2, recorder_reset);
    bench_row("lock-free, trx_trace_insert" CLOCK_NAME, 2, n / 2, t);
    t = bench_time(context_body, 2, n / 2, recorder_reset);
    bench_row("lock-free, trx_trace_insert_with_context" CLOCK_NAME, 2, n / 2, t);
    return 0;
}
