/*
 * test_rtos_hooks.c - the named RTOS hooks of trx/rtos_hooks.h write the
 * event id, field order and filter group TraceX expects (research
 * events.csv), read back from the buffer bytes by a reader written here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "trx/rtos_hooks.h"

static uint32_t buffer_words[4096];

static uint32_t word(size_t byte_offset)
{
    uint32_t v;
    memcpy(&v, (const uint8_t *)buffer_words + byte_offset, 4);
    return v;
}

/* Entry `n` after enable's two RUNNING events: id and the four info fields. */
static void expect_entry(uint32_t n, uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3,
                         uint32_t i4)
{
    size_t base = word(8), entry = word(24) - base + (size_t)(n + 2) * 32;
    assert_int_equal(word(entry + 8), id);
    assert_int_equal(word(entry + 16), i1);
    assert_int_equal(word(entry + 20), i2);
    assert_int_equal(word(entry + 24), i3);
    assert_int_equal(word(entry + 28), i4);
}

/* Entries written after enable's two RUNNING events. */
static uint32_t written(void)
{
    return (word(32) - word(24)) / 32 - 2;
}

static void test_each_hook_writes_its_event(void **state)
{
    (void)state;
    int thread_a, thread_b, mutex, sem, queue, msg;
    uint32_t a = TRX_W_(&thread_a), b = TRX_W_(&thread_b);
    assert_int_equal(tx_trace_enable(buffer_words, sizeof buffer_words, 2), TX_SUCCESS);
    trx_recorder_thread_set(&thread_a, 5, 5);
    TRX_HOOK_THREAD_RESUME(&thread_b, 3, 0x100, &thread_b);
    TRX_HOOK_THREAD_SUSPEND(&thread_a, 13, 0x104, &thread_b);
    TRX_HOOK_TIME_SLICE(&thread_b, 0, 0, 0x108);
    TRX_HOOK_THREAD_CREATE(&thread_b, 7, 0x10C, 1024);
    TRX_HOOK_THREAD_RELINQUISH(0x110, &thread_b);
    TRX_HOOK_THREAD_SLEEP(10, 4, 0x114);
    TRX_HOOK_MUTEX_GET(&mutex, 0xFFFFFFFFu, &thread_b, 1);
    TRX_HOOK_MUTEX_PUT(&mutex, &thread_a, 1, 0x118);
    TRX_HOOK_SEMAPHORE_GET(&sem, 0, 2, 0x11C);
    TRX_HOOK_SEMAPHORE_PUT(&sem, 3, 0, 0x120);
    TRX_HOOK_QUEUE_SEND(&queue, &msg, 0, 4);
    TRX_HOOK_QUEUE_RECEIVE(&queue, &msg, 0xFFFFFFFFu, 5);
    assert_int_equal(written(), 12);
    uint32_t m = TRX_W_(&mutex), s = TRX_W_(&sem), q = TRX_W_(&queue), p = TRX_W_(&msg);
    expect_entry(0, 1, b, 3, 0x100, b);
    expect_entry(1, 2, a, 13, 0x104, b);
    expect_entry(2, 5, b, 0, 0, 0x108);
    expect_entry(3, 100, b, 7, 0x10C, 1024);
    expect_entry(4, 109, 0x110, b, 0, 0);
    expect_entry(5, 112, 10, 4, 0x114, 0);
    expect_entry(6, 52, m, 0xFFFFFFFFu, b, 1);
    expect_entry(7, 57, m, a, 1, 0x118);
    expect_entry(8, 83, s, 0, 2, 0x11C);
    expect_entry(9, 88, s, 3, 0, 0x120);
    expect_entry(10, 69, q, p, 0, 4);
    expect_entry(11, 68, q, p, 0xFFFFFFFFu, 5);
    assert_int_equal(tx_trace_disable(), TX_SUCCESS);
}

/* Each hook obeys its ThreadX filter group. */
static void test_hooks_follow_filter_groups(void **state)
{
    (void)state;
    int mutex, queue;
    assert_int_equal(tx_trace_enable(buffer_words, sizeof buffer_words, 2), TX_SUCCESS);
    assert_int_equal(tx_trace_event_filter(TX_TRACE_MUTEX_EVENTS | TX_TRACE_INTERNAL_EVENTS),
                     TX_SUCCESS);
    TRX_HOOK_MUTEX_GET(&mutex, 0, 0, 0);
    TRX_HOOK_THREAD_SUSPEND(&mutex, 13, 0, 0);
    TRX_HOOK_QUEUE_SEND(&queue, 0, 0, 1);
    assert_int_equal(written(), 1);
    expect_entry(0, 69, TRX_W_(&queue), 0, 0, 1);
    assert_int_equal(tx_trace_disable(), TX_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_hook_writes_its_event),
        cmocka_unit_test(test_hooks_follow_filter_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
