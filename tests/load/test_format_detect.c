/* test_format_detect.c - format detection, forcing a format, and the format
 * names used by --input-format. */
#include "load_test_helpers.h"

static trx_input_format detect(const char *s)
{
    return trx_detect_format((const uint8_t *)s, strlen(s));
}

static void test_detection(void **state)
{
    (void)state;
    assert_int_equal(detect("TXTB\x01\x02"), TRX_FORMAT_BIN);
    assert_int_equal(detect("BTXT\x01\x02"), TRX_FORMAT_BIN);
    assert_int_equal(detect(":100000"), TRX_FORMAT_IHEX);
    assert_int_equal(detect("\r\n \t:100000"), TRX_FORMAT_IHEX);
    assert_int_equal(detect("S00F0000"), TRX_FORMAT_SREC);
    assert_int_equal(detect("\nS3"), TRX_FORMAT_SREC);
    assert_int_equal(detect("Sx"), TRX_FORMAT_BIN);
    assert_int_equal(detect("S"), TRX_FORMAT_BIN);
    assert_int_equal(detect("54 58 54 42"), TRX_FORMAT_ASCII);
    assert_int_equal(detect("5458544200"), TRX_FORMAT_ASCII);
    assert_int_equal(detect("  ab\n"), TRX_FORMAT_ASCII);
    assert_int_equal(detect("ab"), TRX_FORMAT_ASCII);
    assert_int_equal(detect("\xEF\xBB\xBF:10"), TRX_FORMAT_IHEX);
    assert_int_equal(detect("0x54, 0x58"), TRX_FORMAT_ASCII); /* C arrays */
    assert_int_equal(detect(" {0x54}"), TRX_FORMAT_ASCII);
    assert_int_equal(detect("static const unsigned char buf[4] = {\n0x54"), TRX_FORMAT_ASCII);
    assert_int_equal(detect("/* dump */\nuint8_t b[] = {"), TRX_FORMAT_ASCII);
    assert_int_equal(detect("uint8_t b[] {"), TRX_FORMAT_BIN); /* no '=' */
    assert_int_equal(detect("0x"), TRX_FORMAT_BIN);
    assert_int_equal(detect("abg"), TRX_FORMAT_BIN);
    assert_int_equal(detect("a"), TRX_FORMAT_BIN);
    assert_int_equal(detect("TXT"), TRX_FORMAT_BIN);
    assert_int_equal(detect("hello"), TRX_FORMAT_BIN);
    assert_int_equal(detect("   "), TRX_FORMAT_BIN);
    assert_int_equal(trx_detect_format(NULL, 0), TRX_FORMAT_BIN);
    const uint8_t zeros[8] = {0};
    assert_int_equal(trx_detect_format(zeros, sizeof zeros), TRX_FORMAT_BIN);
}

/* AUTO follows detection; a forced format is used as given. */
static void test_auto_and_forced(void **state)
{
    (void)state;
    trx_image img;
    trx_error err;
    const char *hex = ":0100000011EE\n:00000001FF\n";
    assert_int_equal(load_text(&img, hex, TRX_FORMAT_AUTO, &err), 0);
    assert_int_equal(img.format, TRX_FORMAT_IHEX);
    assert_int_equal(img.size, 1);
    trx_image_free(&img);

    assert_int_equal(load_text(&img, hex, TRX_FORMAT_BIN, &err), 0); /* forced: bytes as they are */
    assert_int_equal(img.format, TRX_FORMAT_BIN);
    assert_int_equal(img.size, strlen(hex));
    assert_memory_equal(img.data, hex, strlen(hex));
    trx_image_free(&img);

    assert_int_equal(load_text(&img, "S105000011EA\n", TRX_FORMAT_AUTO, &err), -1); /* bad length */
    assert_int_equal(load_text(&img, "S104000011EA\n", TRX_FORMAT_AUTO, &err), 0);
    assert_int_equal(img.format, TRX_FORMAT_SREC);
    trx_image_free(&img);

    assert_int_equal(load_text(&img, "11 22", TRX_FORMAT_AUTO, &err), 0);
    assert_int_equal(img.format, TRX_FORMAT_ASCII);
    assert_int_equal(img.size, 2);
    trx_image_free(&img);

    /* "1122" forced as Intel HEX: not a record, so nothing to load */
    expect_load_error("1122", TRX_FORMAT_IHEX, 4,
                      "Intel HEX: no data records (1 line that is not a record skipped)");
    expect_load_error(":0100000011EE", TRX_FORMAT_ASCII, 0,
                      "expected hex digit or white space, found ':'");
    expect_load_error("TXTB", TRX_FORMAT_SREC, 4, "S-record: no data records");
    expect_load_error("", TRX_FORMAT_AUTO, 0, "empty file");
    expect_load_error("", TRX_FORMAT_BIN, 0, "empty file");
    expect_load_error("x", (trx_input_format)42, 0, "unknown input format");
}

static void test_format_names(void **state)
{
    (void)state;
    static const trx_input_format all[] = {TRX_FORMAT_AUTO, TRX_FORMAT_BIN, TRX_FORMAT_IHEX,
                                           TRX_FORMAT_SREC, TRX_FORMAT_ASCII};
    static const char *const names[] = {"auto", "bin", "ihex", "srec", "ascii"};
    for (size_t i = 0; i < 5; i++) {
        assert_string_equal(trx_input_format_name(all[i]), names[i]);
        trx_input_format f = (trx_input_format)99;
        assert_int_equal(trx_input_format_parse(names[i], &f), 0);
        assert_int_equal(f, all[i]);
    }
    trx_input_format f = TRX_FORMAT_AUTO;
    assert_int_equal(trx_input_format_parse("hex", &f), 0);
    assert_int_equal(f, TRX_FORMAT_IHEX);
    assert_int_equal(trx_input_format_parse("s19", &f), 0);
    assert_int_equal(f, TRX_FORMAT_SREC);
    assert_int_equal(trx_input_format_parse("binary", &f), 0);
    assert_int_equal(f, TRX_FORMAT_BIN);
    f = TRX_FORMAT_SREC;
    assert_int_equal(trx_input_format_parse("elf", &f), -1);
    assert_int_equal(trx_input_format_parse("", &f), -1);
    assert_int_equal(trx_input_format_parse("BIN", &f), -1);
    assert_int_equal(trx_input_format_parse(NULL, &f), -1);
    assert_int_equal(f, TRX_FORMAT_SREC);
    assert_string_equal(trx_input_format_name((trx_input_format)77), "unknown");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_detection),
        cmocka_unit_test(test_auto_and_forced),
        cmocka_unit_test(test_format_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
