/*
 * test_recorder_decode.c - round trip: buffers written by the recorder are
 * saved as files, read back with the host library (trx_trace_open +
 * trx_cursor_next) and with `trx dump`; the events and their order must be
 * the ones the program inserted (synthetic RUNNING events aside).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "trx/recorder.h"
#include "trx/trx.h"

#define MAX_EXPECTED 256

typedef struct expected_event {
    uint32_t id, context, priority_word, info[4];
} expected_event;

static uint32_t buffer_words[4096];
static expected_event expected[MAX_EXPECTED];
static unsigned expected_count;
static ULONG cur_ctx = TX_TRACE_CONTEXT_INITIALIZE, cur_prio;

static void expect(uint32_t id, uint32_t ctx, uint32_t prio, uint32_t i1, uint32_t i2, uint32_t i3,
                   uint32_t i4)
{
    assert_true(expected_count < MAX_EXPECTED);
    expected_event *e = &expected[expected_count++];
    e->id = id;
    e->context = ctx;
    e->priority_word = prio;
    e->info[0] = i1;
    e->info[1] = i2;
    e->info[2] = i3;
    e->info[3] = i4;
}

/* A user event, remembered with the context it should carry. */
static void user_event(uint32_t id, uint32_t a, uint32_t b)
{
    assert_int_equal(tx_trace_user_event_insert(id, a, b, a ^ b, 7), TX_SUCCESS);
    expect(id, cur_ctx, cur_prio, a, b, a ^ b, 7);
}

static void switch_to(void *thread, UINT prio)
{
    trx_recorder_thread_set(thread, prio, prio);
    cur_ctx = thread != NULL ? (ULONG)(uintptr_t)thread : TX_TRACE_CONTEXT_INITIALIZE;
    cur_prio = thread != NULL ? (prio | 0x80000000u | ((ULONG)prio << 16)) : 0;
}

static void write_file(const char *path, size_t size)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buffer_words, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
}

/* Decodes `path` and compares its real (non-synthetic) events with the last
 * `count` expected ones. */
static void check_decoded(const char *path, unsigned count)
{
    trx_trace t;
    trx_error err;
    memset(&t, 0, sizeof t);
    memset(&err, 0, sizeof err);
    int rc = trx_trace_open(&t, path, TRX_FORMAT_BIN, &err);
    if (rc != 0) {
        fail_msg("trx_trace_open(%s): %s", path, err.message);
    }
    assert_int_equal(t.used, count);
    trx_cursor c;
    assert_int_equal(trx_cursor_init(&c, &t), 0);
    trx_event ev;
    unsigned k = expected_count - count, real = 0;
    while (trx_cursor_next(&c, &ev)) {
        if (ev.synthetic) {
            continue;
        }
        assert_true(k < expected_count);
        const expected_event *x = &expected[k++];
        assert_int_equal(ev.id, x->id);
        assert_int_equal(ev.context, x->context);
        assert_int_equal(ev.raw_priority, x->priority_word);
        for (int i = 0; i < 4; i++) {
            assert_int_equal(ev.info[i], x->info[i]);
        }
        real++;
    }
    assert_int_equal(real, count);
    trx_cursor_free(&c);
    trx_trace_close(&t);

    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' dump '%s' > '%s.dump.txt'", TRX_CLI_PATH, path, path);
    assert_int_equal(system(cmd), 0);
}

static int reset(void **state)
{
    (void)state;
    tx_trace_disable();
    tx_trace_buffer_full_notify(NULL);
    switch_to(NULL, 0);
    memset(buffer_words, 0, sizeof buffer_words);
    expected_count = 0;
    return 0;
}

static int thread_a, thread_b;
static uint8_t stack_a[256], stack_b[256];

/* Enables tracing into buffer_words with room for `registry` objects and
 * `entries` events, expects the two RUNNING events that inserts, and
 * returns the buffer size in bytes. */
static size_t start_trace(unsigned registry, unsigned entries)
{
    const size_t size = 48 + registry * (16 + TX_TRACE_OBJECT_REGISTRY_NAME) + entries * 32;
    assert_int_equal(tx_trace_enable(buffer_words, (ULONG)size, registry), TX_SUCCESS);
    expect(TX_TRACE_RUNNING, cur_ctx, 0, 0, 0, 0, 0);
    expect(TX_TRACE_RUNNING, cur_ctx, 0, 0, 0, 0, 0);
    return size;
}

/* Registers thread a (priority 4) and, when `with_b`, thread b (priority 9). */
static void register_threads(bool with_b)
{
    assert_int_equal(trx_trace_thread_register(&thread_a, "thread a", stack_a, sizeof stack_a, 4),
                     TX_SUCCESS);
    if (with_b)
        assert_int_equal(
            trx_trace_thread_register(&thread_b, "thread b", stack_b, sizeof stack_b, 9),
            TX_SUCCESS);
}

static void test_small_trace_round_trip(void **state)
{
    (void)state;
    const size_t size = start_trace(4, 64);
    register_threads(true);
    user_event(4096, 1, 2); /* initialization */
    switch_to(&thread_a, 4);
    user_event(4097, 3, 4);
    trx_trace_insert(TX_TRACE_THREAD_SLEEP, 10, 0, 0, 0, TX_TRACE_THREAD_EVENTS);
    expect(TX_TRACE_THREAD_SLEEP, cur_ctx, cur_prio, 10, 0, 0, 0);
    switch_to(&thread_b, 9);
    user_event(5000, 5, 6);
    user_event(65535, 7, 8);
    switch_to(&thread_a, 4);
    user_event(4098, 9, 10);
    const size_t n = expected_count;
    write_file(TRX_TEST_TMPDIR "/recorder_small.trx", size);
    check_decoded(TRX_TEST_TMPDIR "/recorder_small.trx", (unsigned)n);
}

static void test_isr_trace_round_trip(void **state)
{
    (void)state;
    const size_t size = start_trace(2, 64);
    register_threads(false);
    switch_to(&thread_a, 4);
    user_event(4096, 1, 1);
    tx_trace_isr_enter_insert(11);
    /* the stack pointer word is whatever the frame was: read it back */
    const trx_txtb_entry *enter = trx_recorder_state_.current - 1; /* no wrap here */
    expect(TX_TRACE_ISR_ENTER, 0xFFFFFFFFu, cur_ctx, enter->info_1, 11, 1, 0);
    assert_int_equal(tx_trace_user_event_insert(4200, 0, 0, 0, 0), TX_SUCCESS);
    expect(4200, 0xFFFFFFFFu, cur_ctx, 0, 0, 0, 0);
    tx_trace_isr_exit_insert(11);
    const trx_txtb_entry *exit_e = enter + 2;
    expect(TX_TRACE_ISR_EXIT, 0xFFFFFFFFu, cur_ctx, exit_e->info_1, 11, 1, 0);
    user_event(4097, 2, 2);
    const size_t n = expected_count;
    write_file(TRX_TEST_TMPDIR "/recorder_isr.trx", size);
    check_decoded(TRX_TEST_TMPDIR "/recorder_isr.trx", (unsigned)n);
}

static void test_wrapped_trace_round_trip(void **state)
{
    (void)state;
    const unsigned cap = 16;
    const size_t size = start_trace(2, cap);
    register_threads(true);
    for (unsigned i = 0; i < 100; i++) {
        switch_to((i / 3) % 2 ? (void *)&thread_b : (void *)&thread_a, (i / 3) % 2 ? 9 : 4);
        user_event(4096 + i, i, 2 * i);
    }
    write_file(TRX_TEST_TMPDIR "/recorder_wrapped.trx", size);
    check_decoded(TRX_TEST_TMPDIR "/recorder_wrapped.trx", cap);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_small_trace_round_trip, reset),
        cmocka_unit_test_setup(test_isr_trace_round_trip, reset),
        cmocka_unit_test_setup(test_wrapped_trace_round_trip, reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
