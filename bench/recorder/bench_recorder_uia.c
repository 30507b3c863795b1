/*
 * bench_recorder_uia.c - ns per record of the UIA writer (uia_recorder.h,
 * default configuration: PrevLen records, 64-bit timestamps extended from
 * the 32-bit default time source, wrap policy) on one thread: a 2-argument
 * record (trx_uia_write2), a hook record with four info words
 * (trx_uia_hook_event), and a 64-byte memory snapshot, next to the TXTB
 * insert of the same hook for comparison. The buffer (1.5 MiB) wraps many
 * times, so the wrap path is included at its real rate.
 */
#include "trx/uia_recorder.h"

#include "bench_common.h"

#define UIA_BUFFER_BYTES (1536u * 1024u)
static uint32_t uia_buffer[UIA_BUFFER_BYTES / 4];
static uint32_t txtb_buffer[(48 + BENCH_CAPACITY * 32) / 4];
static uint8_t snapshot_data[64];

static void uia_reset(void)
{
    trx_uia_disable(&trx_uia_default_logger);
    if (trx_uia_enable(&trx_uia_default_logger, uia_buffer, sizeof uia_buffer, TRX_UIA_POLICY_WRAP,
                       0) != TX_SUCCESS) {
        fprintf(stderr, "trx_uia_enable failed\n");
        exit(1);
    }
}

static void txtb_reset(void)
{
    tx_trace_disable();
    if (tx_trace_enable(txtb_buffer, sizeof txtb_buffer, 0) != TX_SUCCESS) {
        fprintf(stderr, "tx_trace_enable failed\n");
        exit(1);
    }
}

static void uia_write2_body(uint32_t thread, uint32_t events)
{
    for (uint32_t i = 0; i < events; i++) {
        trx_uia_write2(&trx_uia_default_logger, 0x00450001u, i, thread, TX_TRACE_QUEUE_EVENTS);
    }
}

static void uia_hook_body(uint32_t thread, uint32_t events)
{
    for (uint32_t i = 0; i < events; i++) {
        trx_uia_hook_event(&trx_uia_default_logger, TX_TRACE_QUEUE_SEND, i | 1u, thread, i ^ 0x55u,
                           7, TX_TRACE_QUEUE_EVENTS);
    }
}

static void uia_snapshot_body(uint32_t thread, uint32_t events)
{
    for (uint32_t i = 0; i < events; i++) {
        trx_uia_snapshot_memory(&trx_uia_default_logger, i + thread, snapshot_data,
                                sizeof snapshot_data);
    }
}

static void txtb_body(uint32_t thread, uint32_t events)
{
    for (uint32_t i = 0; i < events; i++) {
        TRX_TRACE_EVENT(TX_TRACE_QUEUE_SEND, i | 1u, thread, i ^ 0x55u, 7, TX_TRACE_QUEUE_EVENTS);
    }
}

int main(void)
{
    const uint32_t n = BENCH_EVENTS_PER_THREAD;
    bench_header();
    double t = bench_time(uia_write2_body, 1, n, uia_reset);
    bench_row("UIA write2, 64-bit ts (24 bytes)", 1, n, t);
    t = bench_time(uia_hook_body, 1, n, uia_reset);
    bench_row("UIA hook record, 4 info words (32 bytes)", 1, n, t);
    t = bench_time(uia_snapshot_body, 1, n / 8, uia_reset);
    bench_row("UIA snapshot of 64 bytes (104 bytes)", 1, n / 8, t);
    t = bench_time(txtb_body, 1, n, txtb_reset);
    bench_row("TXTB insert, same hook (32 bytes)", 1, n, t);
    if (trx_uia_used_bytes(&trx_uia_default_logger) == 0u) {
        return 1; /* keep the buffers observable */
    }
    return 0;
}
