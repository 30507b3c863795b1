/* test_ascii_load.c - ASCII hex loader: separators, no separators, and the
 * offset and wording of every error. */
#include "load_test_helpers.h"

static void expect_bytes(const char *text, const uint8_t *want, size_t n)
{
    trx_image img;
    trx_error err = {0};
    int rc = load_text(&img, text, TRX_FORMAT_ASCII, &err);
    if (rc)
        print_error("\"%s\": %s at %llu\n", text, err.message, (unsigned long long)err.offset);
    assert_int_equal(rc, 0);
    assert_int_equal(img.format, TRX_FORMAT_ASCII);
    assert_int_equal(img.base, 0);
    assert_int_equal(img.size, n);
    assert_memory_equal(img.data, want, n);
    trx_image_free(&img);
}

static void test_separators(void **state)
{
    (void)state;
    const uint8_t txtb[] = {0x54, 0x58, 0x54, 0x42, 0xAB, 0xCD};
    expect_bytes("54 58 54 42 ab CD", txtb, 6);
    expect_bytes("54\t58\r\n54\n42\r\nAb  cD\n", txtb, 6);
    expect_bytes("545854\n42abcd\n", txtb, 6); /* xxd -p style */
    expect_bytes("54585442ABCD", txtb, 6);
    expect_bytes("\n\n  54 5854 42ABcd \n\n", txtb, 6);
    expect_bytes("\xEF\xBB\xBF"
                 "54 58 54 42 AB CD",
                 txtb, 6); /* UTF-8 byte-order mark */
    const uint8_t one[] = {0x0F};
    expect_bytes("0f", one, 1);
}

static void test_errors(void **state)
{
    (void)state;
    expect_load_error("54 0x58", TRX_FORMAT_ASCII, 3, "\"0x\" prefixes are not allowed");
    expect_load_error("0X54", TRX_FORMAT_ASCII, 0, "\"0x\" prefixes are not allowed");
    expect_load_error("54,58", TRX_FORMAT_ASCII, 2, "expected hex digit or white space, found ','");
    expect_load_error("54 58 5", TRX_FORMAT_ASCII, 6,
                      "odd number of hex digits: last digit '5' has no partner");
    expect_load_error("545\n", TRX_FORMAT_ASCII, 3,
                      "expected the second hex digit of a byte, found end of line");
    expect_load_error("5 4", TRX_FORMAT_ASCII, 1,
                      "expected the second hex digit of a byte, found white space");
    expect_load_error("54 5G", TRX_FORMAT_ASCII, 4, "expected hex digit, found 'G'");
    expect_load_error("54 G5", TRX_FORMAT_ASCII, 3, "expected hex digit or white space, found 'G'");
    expect_load_error(" \n\t", TRX_FORMAT_ASCII, 3, "ASCII hex: no hex digits");
}

/* A zero byte in the middle of the input (load_text stops at NUL, so use memory). */
static void test_nul_in_input(void **state)
{
    (void)state;
    const uint8_t in[] = {'5', '4', 0, '5', '8'};
    trx_image img;
    trx_error err;
    assert_int_equal(trx_image_load_memory(&img, in, sizeof in, TRX_FORMAT_ASCII, &err), -1);
    assert_int_equal(err.offset, 2);
    assert_non_null(strstr(err.message, "found byte 0x00"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_separators),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_nul_in_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
