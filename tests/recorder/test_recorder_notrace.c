/*
 * test_recorder_notrace.c - the recorder built without TX_ENABLE_EVENT_TRACE:
 * every call answers TX_FEATURE_NOT_ENABLED, nothing is written, and the
 * TRX_TRACE_EVENT macro does not even evaluate its arguments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "trx/recorder.h"

static uint32_t buffer_words[1024];

static void notify(VOID *buffer)
{
    (void)buffer;
}

static void test_every_call_says_not_enabled(void **state)
{
    (void)state;
    static int object;
    uint32_t copy[1024];
    memset(buffer_words, 0x5A, sizeof buffer_words);
    memcpy(copy, buffer_words, sizeof copy);
    assert_int_equal(tx_trace_enable(buffer_words, sizeof buffer_words, 4), TX_FEATURE_NOT_ENABLED);
    assert_int_equal(tx_trace_event_filter(TX_TRACE_ALL_EVENTS), TX_FEATURE_NOT_ENABLED);
    assert_int_equal(tx_trace_event_unfilter(TX_TRACE_ALL_EVENTS), TX_FEATURE_NOT_ENABLED);
    assert_int_equal(tx_trace_buffer_full_notify(notify), TX_FEATURE_NOT_ENABLED);
    assert_int_equal(tx_trace_user_event_insert(4096, 1, 2, 3, 4), TX_FEATURE_NOT_ENABLED);
    tx_trace_isr_enter_insert(1);
    tx_trace_isr_exit_insert(1);
    assert_int_equal(trx_trace_object_register(3, &object, "q", 0, 0), TX_FEATURE_NOT_ENABLED);
    assert_int_equal(trx_trace_thread_register(&object, "t", NULL, 0, 1), TX_FEATURE_NOT_ENABLED);
    assert_int_equal(trx_trace_object_unregister(&object), TX_FEATURE_NOT_ENABLED);
    assert_int_equal(tx_trace_disable(), TX_FEATURE_NOT_ENABLED);
    assert_memory_equal(buffer_words, copy, sizeof copy);
}

static void test_macro_compiles_to_nothing(void **state)
{
    (void)state;
    int evaluated = 0;
    TRX_TRACE_EVENT(evaluated++, evaluated++, 0, 0, 0, TX_TRACE_USER_EVENTS);
    assert_int_equal(evaluated, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_call_says_not_enabled),
        cmocka_unit_test(test_macro_compiles_to_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
