/* test_ascii_load.c - ASCII hex loader: separators, no separators, C arrays
 * of 0x values, and the offset and wording of every error. */
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

/* C arrays: with and without braces and a declaration, comments, trailing
 * comma, one-digit values, upper-case X, what follows the closing brace. */
static void test_c_arrays(void **state)
{
    (void)state;
    const uint8_t txtb[] = {0x54, 0x58, 0x54, 0x42, 0xAB, 0x0C};
    expect_bytes("0x54, 0x58, 0x54, 0x42, 0xab, 0x0c", txtb, 6);
    expect_bytes("0x54,0x58,\r\n0X54 ,\t0x42,\n0xAB, 0xC\n", txtb, 6);
    expect_bytes("{0x54, 0x58, 0x54, 0x42, 0xAB, 0x0C,}", txtb, 6);
    expect_bytes("  { 0x54, 0x58, 0x54, 0x42, 0xAB, 0x0C };\n", txtb, 6);
    expect_bytes("static const uint8_t trace[6] = {\n"
                 "    /* 0x0000 */ 0x54, 0x58, 0x54, 0x42, // the id\n"
                 "    0xab, 0x0c\n"
                 "};\n",
                 txtb, 6);
    /* xxd -i: the declaration, then a length variable after the array */
    expect_bytes("unsigned char trace_trx[] = {\n  0x54, 0x58, 0x54, 0x42, 0xab, 0x0c\n};\n"
                 "unsigned int trace_trx_len = 6;\n",
                 txtb, 6);
    expect_bytes("/* dumped by a script */\n// trace\n0x54, 0x58, 0x54, 0x42, 0xAB, 0x0C\n", txtb,
                 6);
    expect_bytes("\xEF\xBB\xBF{0x54,0x58,0x54,0x42,0xAB,0x0C}", txtb, 6);
}

static void test_c_array_errors(void **state)
{
    (void)state;
    expect_load_error("0x54 0x58", TRX_FORMAT_ASCII, 5,
                      "ASCII hex: C array: expected ',' between values, found '0'");
    expect_load_error("{0x54 0x58}", TRX_FORMAT_ASCII, 6,
                      "ASCII hex: C array: expected ',' or '}' between values, found '0'");
    expect_load_error("0x54,, 0x58", TRX_FORMAT_ASCII, 5,
                      "ASCII hex: C array: expected a 0x byte value, found ','");
    expect_load_error("{0x54, 84}", TRX_FORMAT_ASCII, 7,
                      "ASCII hex: C array: expected a 0x byte value, found '8'");
    expect_load_error("{0x54, 0x58", TRX_FORMAT_ASCII, 11,
                      "ASCII hex: C array: expected '}', found end of file");
    expect_load_error("0x54, 0x58,", TRX_FORMAT_ASCII, 11,
                      "ASCII hex: C array: expected 0x value after ',', found end of file");
    expect_load_error("0x54, 0x158", TRX_FORMAT_ASCII, 6,
                      "ASCII hex: C array: value 0x158 is more than one byte");
    expect_load_error("{0x54, /* 0x58 }", TRX_FORMAT_ASCII, 7,
                      "ASCII hex: comment never ends (expected \"*/\")");
    expect_load_error("int a[] = {0x54};\nint b[] = {0x55};\n", TRX_FORMAT_ASCII, 28,
                      "ASCII hex: C array: a second array starts here (one array per file)");
    expect_load_error("{}", TRX_FORMAT_ASCII, 2, "ASCII hex: no hex digits");
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
        cmocka_unit_test(test_separators),   cmocka_unit_test(test_errors),
        cmocka_unit_test(test_c_arrays),     cmocka_unit_test(test_c_array_errors),
        cmocka_unit_test(test_nul_in_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
