/*
 * bench_recorder_cs.c - ns per event of the critical-section-mode insert (the
 * inline TRX_TRACE_EVENT, with the default no-op lock) on one thread, next to
 * naive baselines: a pthread-mutex-protected memcpy ring on 1 and 2 threads.
 */
#include <string.h>

#include "trx/recorder.h"

#include "bench_common.h"

static uint32_t buffer_words[(48 + BENCH_CAPACITY * 32) / 4];

static void recorder_body(uint32_t thread, uint32_t events)
{
    for (uint32_t i = 0; i < events; i++) {
        TRX_TRACE_EVENT(TX_TRACE_QUEUE_SEND, i, thread, i ^ 0x55u, 7, TX_TRACE_QUEUE_EVENTS);
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

/* The naive baseline: a mutex around a memcpy of the entry into a ring. */
typedef struct naive_entry {
    uint32_t w[8];
} naive_entry;
static naive_entry naive_ring[BENCH_CAPACITY];
static uint32_t naive_next;
static uint32_t naive_time;
static pthread_mutex_t naive_lock = PTHREAD_MUTEX_INITIALIZER;

static void naive_body(uint32_t thread, uint32_t events)
{
    for (uint32_t i = 0; i < events; i++) {
        naive_entry e = {{0xF0F0F0F0u, 0, 69, 0, i, thread, i ^ 0x55u, 7}};
        pthread_mutex_lock(&naive_lock);
        e.w[3] = ++naive_time;
        memcpy(&naive_ring[naive_next], &e, sizeof e);
        naive_next = (naive_next + 1) % BENCH_CAPACITY;
        pthread_mutex_unlock(&naive_lock);
    }
}

int main(void)
{
    const uint32_t n = BENCH_EVENTS_PER_THREAD;
    bench_header();
    double t = bench_time(recorder_body, 1, n, recorder_reset);
    bench_row("critical-section mode (no-op lock), inline insert", 1, n, t);
    if (trx_recorder_state_.header->id != 0x54585442u) {
        return 1; /* keep the buffer observable */
    }
    t = bench_time(naive_body, 1, n, NULL);
    bench_row("naive: pthread mutex + memcpy ring", 1, n, t);
    t = bench_time(naive_body, 2, n / 2, NULL);
    bench_row("naive: pthread mutex + memcpy ring", 2, n / 2, t);
    return 0;
}
