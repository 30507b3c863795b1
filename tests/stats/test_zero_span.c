/* test_zero_span.c - a trace that spans zero ticks (one entry, or entries
 * with one time stamp): TraceX's tml_initialize reports max_relative_ticks 1
 * (a floor) while its dump prints 0; the correct mode reports 0 everywhere. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "decode/trace_builder.h"
#include "output/dump_text.h"
#include "output/stats_json.h"
#include "output/stats_text.h"

enum { OUT_JSON, OUT_TEXT, OUT_DUMP };

/* What output `which` of trace `b` in `mode` says, as a string (caller frees). */
static char *output_of(test_trace *b, trx_mode mode, int which)
{
    trx_trace t;
    trx_stats s;
    tb_open(b, &t);
    t.mode = mode;
    FILE *f = tmpfile();
    assert_non_null(f);
    trx_out *o = malloc(sizeof *o);
    assert_non_null(o);
    trx_out_init(o, f, false);
    if (which == OUT_DUMP) {
        assert_int_equal(trx_dump_write(&t, o, "in", "out"), 0);
    } else {
        assert_int_equal(trx_stats_compute(&t, &s), 0);
        if (which == OUT_JSON)
            trx_stats_write_json(&t, &s, NULL, o);
        else
            trx_stats_write_text(&t, &s, NULL, 0, o);
        trx_stats_free(&s);
    }
    assert_int_equal(trx_out_flush(o), 0);
    free(o);
    long n = ftell(f);
    char *text = malloc((size_t)n + 1);
    assert_non_null(text);
    rewind(f);
    assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = '\0';
    fclose(f);
    trx_trace_close(&t);
    return text;
}

static void expect(test_trace *b, trx_mode mode, int which, const char *part)
{
    char *text = output_of(b, mode, which);
    if (!strstr(text, part)) {
        fprintf(stderr, "missing \"%s\" in:\n%s\n", part, text);
        fail();
    }
    free(text);
}

static void check_zero_span(test_trace *b)
{
    expect(b, TRX_MODE_TRACEX, OUT_JSON, "\"max_relative_ticks\": 1,");
    expect(b, TRX_MODE_CORRECT, OUT_JSON, "\"max_relative_ticks\": 0,");
    expect(b, TRX_MODE_TRACEX, OUT_TEXT, "Max relative ticks: 1\n");
    expect(b, TRX_MODE_CORRECT, OUT_TEXT, "Max relative ticks: 0\n");
    expect(b, TRX_MODE_TRACEX, OUT_DUMP, "Max Relative Ticks:  00000000000000000000\n");
}

static void test_one_entry(void **state)
{
    (void)state;
    test_trace b;
    tb_init(&b, 1, 4, false);
    tb_object(&b, 0, TRX_OBJ_THREAD, 0x1000, "t", 0x30000, 1024, 5);
    tb_event(&b, 0x1000, 0x80050005u, 69, 1234, 0, 0, 0, 0);
    check_zero_span(&b);
}

static void test_one_time_stamp(void **state)
{
    (void)state;
    test_trace b;
    tb_init(&b, 1, 4, true);
    tb_object(&b, 0, TRX_OBJ_THREAD, 0x1000, "t", 0x30000, 1024, 5);
    for (int k = 0; k < 3; k++)
        tb_event(&b, 0x1000, 0x80050005u, 69, 77, 0, 0, 0, 0);
    check_zero_span(&b);
}

/* A span of one or more ticks is reported as it is in both modes. */
static void test_nonzero_span(void **state)
{
    (void)state;
    test_trace b;
    tb_init(&b, 1, 4, false);
    tb_object(&b, 0, TRX_OBJ_THREAD, 0x1000, "t", 0x30000, 1024, 5);
    /* two entries: TraceX's vote is a tie, so the timer counts down */
    tb_event(&b, 0x1000, 0x80050005u, 69, 12, 0, 0, 0, 0);
    tb_event(&b, 0x1000, 0x80050005u, 69, 10, 0, 0, 0, 0);
    expect(&b, TRX_MODE_TRACEX, OUT_JSON, "\"max_relative_ticks\": 2,");
    expect(&b, TRX_MODE_CORRECT, OUT_JSON, "\"max_relative_ticks\": 2,");
    expect(&b, TRX_MODE_TRACEX, OUT_DUMP, "Max Relative Ticks:  00000000000000000002\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_entry),
        cmocka_unit_test(test_one_time_stamp),
        cmocka_unit_test(test_nonzero_span),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
