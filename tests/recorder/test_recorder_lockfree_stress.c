/*
 * test_recorder_lockfree_stress.c - lock-free mode under contention: two
 * threads insert 10 M events each (2 x 5 M under sanitizers, or
 * TRX_STRESS_INSERTS=n) into a buffer that wraps several times. Every
 * entry's words are derived from (thread, sequence number), so a torn entry
 * is detected; the buffer must then hold exactly the newest `capacity`
 * claims: for each thread a run of its last sequence numbers, in order from
 * the header's oldest pointer, and the full-notify count must match.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "trx/recorder.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TRX_STRESS_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define TRX_STRESS_SANITIZED 1
#endif
#endif
#ifndef TRX_STRESS_SANITIZED
#define TRX_STRESS_SANITIZED 0
#endif

#define THREADS 2
/* 8 M entries (256 MiB). A writer thread the OS deschedules mid-entry for a
 * whole lap of the buffer can leave a stale entry in a newer slot (the
 * design's documented limit; seen once with a 64 Ki-entry buffer under a
 * loaded ctest -j2). At ~7 ns per insert a lap here takes ~60 ms, far more
 * than a scheduling delay; 2 x 10 M inserts still wrap it. */
#define CAPACITY (8u * 1024u * 1024u)
#define MIN_INSERTS 5000000u /* 2 x 5 M still wraps the 8 M buffer */
#define SANITIZED_INSERTS 5000000u

static uint32_t buffer_words[(48 + CAPACITY * 32) / 4];
static unsigned long notify_calls;
static void *notify_arg;
static uint32_t inserts_per_thread;
static pthread_barrier_t start_line;
static ULONG time_at_start[THREADS], time_at_end[THREADS];

/* The default lock-free time source: one tick per claimed event. */
static ULONG event_clock(void)
{
    return __atomic_load_n(&trx_trace_simulated_time, __ATOMIC_RELAXED);
}

static void on_full(VOID *buffer)
{
    __atomic_fetch_add(&notify_calls, 1, __ATOMIC_RELAXED);
    notify_arg = buffer;
}

/* The words of entry `seq` of thread `t` (1-based tag in the top nibble). */
static ULONG ctx_of(uint32_t t, uint32_t seq)
{
    return ((ULONG)(t + 1) << 28) | (seq & 0x0FFFFFFFu);
}
static ULONG prio_of(uint32_t t, uint32_t seq)
{
    return (seq * 2654435761u) ^ t;
}
static ULONG check_of(ULONG ctx, ULONG prio, ULONG id, ULONG i1, ULONG i2, ULONG i3)
{
    return (ctx * 31u) ^ (prio * 17u) ^ (id * 13u) ^ (i1 * 7u) ^ (i2 * 5u) ^ (i3 * 3u) ^ 0x5EEDu;
}

static void *writer(void *arg)
{
    uint32_t t = (uint32_t)(uintptr_t)arg;
    const ULONG tag = (ULONG)(t + 1) * 0x01010101u;
    pthread_barrier_wait(&start_line);
    time_at_start[t] = event_clock();
    for (uint32_t seq = 0; seq < inserts_per_thread; seq++) {
        ULONG ctx = ctx_of(t, seq), prio = prio_of(t, seq), id = 4096u + t;
        ULONG i1 = seq, i2 = ~seq, i3 = seq ^ tag;
        trx_trace_insert_with_context(ctx, prio, id, i1, i2, i3,
                                      check_of(ctx, prio, id, i1, i2, i3), TX_TRACE_USER_EVENTS);
    }
    time_at_end[t] = event_clock();
    return NULL;
}

static uint32_t rd32(const uint8_t *b, size_t off)
{
    uint32_t v;
    memcpy(&v, b + off, 4);
    return v;
}

static void test_two_threads_no_torn_no_lost_entries(void **state)
{
    (void)state;
    const char *env = getenv("TRX_STRESS_INSERTS");
    inserts_per_thread = TRX_STRESS_SANITIZED ? SANITIZED_INSERTS : 10000000u;
    if (env != NULL && strtoul(env, NULL, 10) >= MIN_INSERTS) {
        inserts_per_thread = (uint32_t)strtoul(env, NULL, 10);
    }
    const uint8_t *buf = (const uint8_t *)buffer_words;
    assert_int_equal(tx_trace_buffer_full_notify(on_full), TX_SUCCESS);
    assert_int_equal(tx_trace_enable(buffer_words, sizeof buffer_words, 0), TX_SUCCESS);

    pthread_t th[THREADS];
    assert_int_equal(pthread_barrier_init(&start_line, NULL, THREADS), 0);
    for (uint32_t t = 0; t < THREADS; t++) {
        assert_int_equal(pthread_create(&th[t], NULL, writer, (void *)(uintptr_t)t), 0);
    }
    for (uint32_t t = 0; t < THREADS; t++) {
        assert_int_equal(pthread_join(th[t], NULL), 0);
    }
    assert_int_equal(tx_trace_disable(), TX_SUCCESS);
    pthread_barrier_destroy(&start_line);
    /* the runs overlapped (else nothing was concurrent) */
    assert_true(time_at_start[0] < time_at_end[1] && time_at_start[1] < time_at_end[0]);
    /* the per-event clock counted every claim */
    assert_int_equal(event_clock(), 2u + (uint64_t)THREADS * inserts_per_thread);

    /* claims: 2 RUNNING events + all inserts */
    const uint64_t total = 2u + (uint64_t)THREADS * inserts_per_thread;
    const uint32_t base = rd32(buf, 8);
    const uint32_t start_off = rd32(buf, 24) - base;
    const uint32_t cur_off = rd32(buf, 32) - base;
    assert_int_equal(start_off, 48);
    assert_int_equal(rd32(buf, 28) - base, 48 + CAPACITY * 32);
    assert_int_equal(cur_off, 48 + (uint32_t)(total % CAPACITY) * 32);
    assert_int_equal(notify_calls, (unsigned long)(total / CAPACITY));
    assert_ptr_equal(notify_arg, buffer_words);

    /* chronological walk from the oldest entry */
    uint32_t seen[THREADS] = {0};
    int64_t last[THREADS] = {-1, -1};
    uint32_t first_seq[THREADS] = {0};
    const uint32_t oldest = (uint32_t)(total % CAPACITY);
    for (uint32_t k = 0; k < CAPACITY; k++) {
        size_t off = 48 + (size_t)((oldest + k) % CAPACITY) * 32;
        ULONG ctx = rd32(buf, off), prio = rd32(buf, off + 4), id = rd32(buf, off + 8);
        ULONG i1 = rd32(buf, off + 16), i2 = rd32(buf, off + 20), i3 = rd32(buf, off + 24);
        ULONG i4 = rd32(buf, off + 28);
        uint32_t t = (uint32_t)(ctx >> 28) - 1u;
        assert_true(t < THREADS);
        assert_int_equal(ctx, ctx_of(t, i1));
        assert_int_equal(prio, prio_of(t, i1));
        assert_int_equal(id & 0xFF00FFFFu, 4096u + t); /* bits 16-23: the entry check */
        assert_int_equal(i2, ~i1);
        assert_int_equal(i3, i1 ^ ((ULONG)(t + 1) * 0x01010101u));
        assert_int_equal(i4, check_of(ctx, prio, id & 0xFF00FFFFu, i1, i2, i3));
        /* per thread: strictly increasing, consecutive sequence numbers */
        if (last[t] >= 0) {
            assert_int_equal((int64_t)i1, last[t] + 1);
        } else {
            first_seq[t] = i1;
        }
        last[t] = i1;
        seen[t]++;
    }
    /* the newest claims of every thread are all there: each run ends at the last insert */
    uint32_t sum = 0;
    for (uint32_t t = 0; t < THREADS; t++) {
        if (seen[t] > 0) {
            assert_int_equal(last[t], (int64_t)inserts_per_thread - 1);
            assert_int_equal(first_seq[t], inserts_per_thread - seen[t]);
        }
        sum += seen[t];
    }
    assert_int_equal(sum, CAPACITY);
    printf("# %u x %u inserts, %lu wraps, buffer holds %u + %u entries; clock at start %lu/%lu, "
           "end %lu/%lu\n",
           THREADS, inserts_per_thread, notify_calls, seen[0], seen[1],
           (unsigned long)time_at_start[0], (unsigned long)time_at_start[1],
           (unsigned long)time_at_end[0], (unsigned long)time_at_end[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_threads_no_torn_no_lost_entries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
