/* test_out_buffer.c - the buffered writer: exact text, CRLF conversion, numbers, large output,
 * write errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "output/out_buffer.h"

static trx_out o;

/* Writes through `fill` into a memory stream and returns what came out. */
static char *capture(bool crlf, void (*fill)(trx_out *), size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    assert_non_null(f);
    trx_out_init(&o, f, crlf);
    fill(&o);
    assert_int_equal(trx_out_flush(&o), 0);
    fclose(f);
    return buf;
}

static void fill_basic(trx_out *w)
{
    trx_out_str(w, "a\nb");
    trx_out_char(w, '\n');
    trx_out_mem(w, "x\ny\n", 4);
    trx_out_hex32(w, 0x00ABCDEFu);
    trx_out_char(w, ' ');
    trx_out_hex32(w, 0xFFFFFFFFu);
    trx_out_char(w, ' ');
    trx_out_u64_pad(w, 42, 8, ' ');
    trx_out_char(w, '|');
    trx_out_u64_pad(w, 156206, 20, '0');
    trx_out_char(w, '|');
    trx_out_u64_pad(w, 0, 0, ' ');
    trx_out_char(w, '|');
    trx_out_u64_pad(w, UINT64_MAX, 3, ' ');
    trx_out_char(w, '|');
    trx_out_u64_pad(w, 12345, 2, '0');
}

static void test_text_and_numbers(void **state)
{
    (void)state;
    size_t len;
    char *s = capture(false, fill_basic, &len);
    assert_string_equal(s, "a\nb\nx\ny\n00ABCDEF FFFFFFFF       42|00000000000000156206|0|"
                           "18446744073709551615|12345");
    free(s);
    s = capture(true, fill_basic, &len);
    assert_string_equal(s, "a\r\nb\r\nx\r\ny\r\n00ABCDEF FFFFFFFF       42|00000000000000156206|0|"
                           "18446744073709551615|12345");
    free(s);
}

static void fill_large(trx_out *w)
{
    /* 300 000 lines of 10 characters: crosses the 64 KiB buffer many times */
    for (uint32_t i = 0; i < 300000; i++) {
        trx_out_u64_pad(w, i, 9, '0');
        trx_out_char(w, '\n');
    }
}

static void test_large_output(void **state)
{
    (void)state;
    size_t len;
    char *s = capture(true, fill_large, &len);
    assert_int_equal(len, 300000u * 11);
    assert_memory_equal(s + 11 * 123456, "000123456\r\n", 11);
    free(s);
    s = capture(false, fill_large, &len);
    assert_int_equal(len, 300000u * 10);
    assert_memory_equal(s + 10 * 299999, "000299999\n", 10);
    free(s);
}

static void test_write_error(void **state)
{
    (void)state;
    FILE *f = fopen("/dev/full", "w");
    if (!f) {
#ifdef __linux__
        fail_msg("/dev/full cannot be opened"); /* every Linux has it */
#else
        skip();
#endif
    }
    trx_out_init(&o, f, false);
    for (int i = 0; i < 100000; i++)
        trx_out_str(&o, "0123456789");
    assert_int_equal(trx_out_flush(&o), -1);
    assert_int_not_equal(o.error, 0);
    fclose(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_and_numbers),
        cmocka_unit_test(test_large_output),
        cmocka_unit_test(test_write_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
