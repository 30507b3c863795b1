/* test_time_check.c - trx_trace_time_check and `trx info`'s warning on bad
 * time sources: a timer that never runs, a SysTick value decoded with a mask
 * it does not wrap at, and the good cases (a counter wrapping at its mask,
 * one long pause) that must not warn. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "decode/trace_builder.h"
#include "output/info_json.h"
#include "output/info_text.h"

static test_trace b;

static void set_mask(uint32_t mask)
{
    b.bytes[4] = (uint8_t)mask;
    b.bytes[5] = (uint8_t)(mask >> 8);
    b.bytes[6] = (uint8_t)(mask >> 16);
    b.bytes[7] = (uint8_t)(mask >> 24);
}

/* Opens the built trace and checks it; also renders info (text, JSON) into `text`. */
static trx_time_check check(char *text, size_t cap, char *json, size_t jcap)
{
    trx_trace t;
    trx_time_check tc;
    tb_open(&b, &t);
    trx_trace_time_check(&t, &tc);
    assert_int_equal(tc.span, trx_trace_span_ticks(&t));
    FILE *f = tmpfile();
    assert_non_null(f);
    trx_out *o = malloc(sizeof *o);
    assert_non_null(o);
    trx_out_init(o, f, false);
    trx_info_write_text(&t, &tc, NULL, o);
    trx_out_flush(o);
    size_t n = (size_t)ftell(f);
    rewind(f);
    assert_true(n < cap);
    assert_int_equal(fread(text, 1, n, f), n);
    text[n] = 0;
    rewind(f);
    trx_out_init(o, f, false);
    trx_info_write_json(&t, &tc, NULL, o);
    trx_out_flush(o);
    n = (size_t)ftell(f);
    rewind(f);
    assert_true(n < jcap);
    assert_int_equal(fread(json, 1, n, f), n);
    json[n] = 0;
    fclose(f);
    free(o);
    trx_trace_close(&t);
    return tc;
}

static char text[8192], json[8192];

static void test_constant(void **state)
{
    (void)state;
    tb_init(&b, 0, 16, false);
    for (int i = 0; i < 10; i++)
        tb_event(&b, 0xF0F0F0F0u, 0, 4096, 0x1234, (uint32_t)i, 0, 0, 0);
    trx_time_check tc = check(text, sizeof text, json, sizeof json);
    assert_int_equal(tc.verdict, TRX_TIME_CONSTANT);
    assert_int_equal(tc.steps, 9);
    assert_int_equal(tc.changes, 0);
    assert_non_null(
        strstr(text, "\nWarning:            the time stamps never change (all 0x00001234)"));
    assert_non_null(strstr(json, "\"time_source\":\"constant\""));
}

/* SysTick as a 1 kHz tick at 25 MHz: VAL counts 24999..0; an event every
 * 10000 counts; decoded with mask 0xFFFFFF every reload looks like a step of
 * almost 2^24 (the trap the composed counter avoids). */
static void test_systick_value_with_short_reload(void **state)
{
    (void)state;
    tb_init(&b, 0, 64, false);
    set_mask(0xFFFFFF);
    uint64_t now = 0;
    for (int i = 0; i < 40; i++, now += 10000)
        tb_event(&b, 0xF0F0F0F0u, 0, 4096, (uint32_t)(24999 - now % 25000), 0, 0, 0, 0);
    trx_time_check tc = check(text, sizeof text, json, sizeof json);
    assert_int_equal(tc.verdict, TRX_TIME_IMPLAUSIBLE);
    assert_int_equal(tc.steps, 39);
    assert_int_equal(tc.large_steps, 15); /* 390000 counts: 15 reloads crossed */
    assert_true(tc.large_span > tc.span / 2);
    assert_non_null(strstr(text, "\nWarning:            15 of 39 steps between entries exceed half "
                                 "the timer range (mask 0x00FFFFFF)"));
    assert_non_null(strstr(json, "\"time_source\":\"implausible\""));
    assert_non_null(strstr(json, "\"time_large_steps\":15"));
}

/* A 16-bit timer read as such: wraps at its mask; no warning. */
static void test_wrapping_counter_ok(void **state)
{
    (void)state;
    tb_init(&b, 0, 64, false);
    set_mask(0xFFFF);
    for (uint32_t i = 0; i < 60; i++)
        tb_event(&b, 0xF0F0F0F0u, 0, 4096, (i * 7000u) & 0xFFFFu, 0, 0, 0, 0);
    trx_time_check tc = check(text, sizeof text, json, sizeof json);
    assert_int_equal(tc.verdict, TRX_TIME_OK);
    assert_int_equal(tc.large_steps, 0);
    assert_int_equal(tc.span, 59u * 7000u);
    assert_null(strstr(text, "Warning"));
    assert_non_null(strstr(json, "\"time_source\":\"ok\""));
}

/* A 32-bit cycle counter with one pause longer than half its range: one
 * large step is a pause, not a broken time source. */
static void test_one_long_pause_ok(void **state)
{
    (void)state;
    tb_init(&b, 0, 16, false);
    uint32_t ts[] = {100, 200, 300, 0xB0000000u, 0xB0000100u, 0xB0000200u};
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++)
        tb_event(&b, 0xF0F0F0F0u, 0, 4096, ts[i], 0, 0, 0, 0);
    trx_time_check tc = check(text, sizeof text, json, sizeof json);
    assert_int_equal(tc.verdict, TRX_TIME_OK);
    assert_int_equal(tc.large_steps, 1);
    assert_null(strstr(text, "Warning"));
}

/* One entry, or two equal ones at the start of a run: too little to judge. */
static void test_too_short_to_judge(void **state)
{
    (void)state;
    tb_init(&b, 0, 16, false);
    tb_event(&b, 0xF0F0F0F0u, 0, 4096, 5, 0, 0, 0, 0);
    tb_event(&b, 0xF0F0F0F0u, 0, 4096, 5, 0, 0, 0, 0);
    trx_time_check tc = check(text, sizeof text, json, sizeof json);
    assert_int_equal(tc.verdict, TRX_TIME_OK);
    assert_int_equal(tc.steps, 1);
}

/* A timer started after tracing: the first events carry what the register
 * held (all ones, or 0), then it runs. Warned, with where and what to do. */
static void test_late_start(void **state)
{
    (void)state;
    const uint32_t before[] = {0xFFFFFFFFu, 0u};
    for (int k = 0; k < 2; k++) {
        tb_init(&b, 0, 32, false);
        for (int i = 0; i < 5; i++)
            tb_event(&b, 0xF0F0F0F0u, 0, 4096, before[k], 0, 0, 0, 0);
        for (uint32_t i = 0; i < 10; i++)
            tb_event(&b, 0xF0F0F0F0u, 0, 4096, 1000u + 10u * i, 0, 0, 0, 0);
        trx_time_check tc = check(text, sizeof text, json, sizeof json);
        assert_int_equal(tc.verdict, TRX_TIME_OK);
        assert_true(tc.late_start);
        assert_int_equal(tc.leading_same, 5);
        assert_int_equal(tc.first_stamp, before[k]);
        char want[160];
        snprintf(want, sizeof want,
                 "\nWarning:            the first 5 events (up to event 4) all carry the time "
                 "stamp 0x%08X, what a timer holds before it runs",
                 (unsigned)before[k]);
        assert_non_null(strstr(text, want));
        assert_non_null(strstr(text, "(start the time source before tx_trace_enable)\n"));
        snprintf(want, sizeof want, "\"time_late_start\":{\"events\":5,\"stamp\":%u}",
                 (unsigned)before[k]);
        assert_non_null(strstr(json, want));
    }
}

/* Not a late start: events sharing a first stamp that a running timer could
 * hold, one event at 0, or a trace stamped 0 throughout (that is CONSTANT). */
static void test_no_late_start(void **state)
{
    (void)state;
    const uint32_t first[][3] = {{0x1234u, 0x1234u, 0x1240u}, {0u, 5u, 9u}, {0u, 0u, 0u}};
    for (int k = 0; k < 3; k++) {
        tb_init(&b, 0, 16, false);
        for (int i = 0; i < 3; i++)
            tb_event(&b, 0xF0F0F0F0u, 0, 4096, first[k][i], 0, 0, 0, 0);
        trx_time_check tc = check(text, sizeof text, json, sizeof json);
        assert_false(tc.late_start);
        assert_null(strstr(text, "what a timer holds"));
        assert_null(strstr(json, "time_late_start"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_constant),
        cmocka_unit_test(test_systick_value_with_short_reload),
        cmocka_unit_test(test_wrapping_counter_ok),
        cmocka_unit_test(test_one_long_pause_ok),
        cmocka_unit_test(test_too_short_to_judge),
        cmocka_unit_test(test_late_start),
        cmocka_unit_test(test_no_late_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
