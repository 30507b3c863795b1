/* test_ihex_load.c - Intel HEX loader: records, addressing, lengths, and the
 * offset and wording of every error. */
#include <ctype.h>

#include "load_test_helpers.h"

/* Loads `text` as Intel HEX into `img`, asserting that it loads. */
static void load_ihex(trx_image *img, const char *text)
{
    trx_error err;
    assert_int_equal(load_text(img, text, TRX_FORMAT_IHEX, &err), 0);
}

/* Asserts that `text` loads as Intel HEX into the `size` bytes `want` at `base`. */
static void expect_ihex_image(const char *text, uint64_t base, const void *want, size_t size)
{
    trx_image img;
    load_ihex(&img, text);
    assert_int_equal(img.base, base);
    assert_int_equal(img.size, size);
    assert_memory_equal(img.data, want, size);
    trx_image_free(&img);
}

/* Asserts that `text` fails to load as Intel HEX at `offset` with a message containing `part`. */
static void expect_ihex_error(const char *text, uint64_t offset, const char *part)
{
    expect_load_error(text, TRX_FORMAT_IHEX, offset, part);
}

/* The classic example record: "address gap" at 0x0010. */
static void test_reference_record(void **state)
{
    (void)state;
    trx_image img;
    load_ihex(&img, ":0B0010006164647265737320676170A7\n:00000001FF\n");
    assert_int_equal(img.base, 0x10);
    assert_int_equal(img.size, 11);
    assert_memory_equal(img.data, "address gap", 11);
    assert_int_equal(img.format, TRX_FORMAT_IHEX);
    trx_image_free(&img);
    assert_null(img.data);
}

/* Holes between records are zero-filled; base is the lowest address even
 * when it comes last; records may overlap where they agree. */
static void test_holes_order_overlap(void **state)
{
    (void)state;
    char text[512] = "";
    const uint8_t a[] = {0xA1, 0xA2, 0xA3, 0xA4}, b[] = {0xB1}, c[] = {0xA3, 0xA4, 0xC3};
    ihex_line(text, 0, 0x0108, a, 4); /* 0x108..0x10B */
    ihex_line(text, 0, 0x0100, b, 1); /* lowest, after a higher one */
    ihex_line(text, 0, 0x010A, c, 3); /* repeats A3 A4, then one more byte */
    ihex_line(text, 0, 0x0108, a, 2); /* repeats A1 A2 */
    ihex_line(text, 1, 0, NULL, 0);
    const uint8_t want[] = {0xB1, 0, 0, 0, 0, 0, 0, 0, 0xA1, 0xA2, 0xA3, 0xA4, 0xC3};
    expect_ihex_image(text, 0x100, want, sizeof want);
}

/* Records that overlap with different bytes: an error at the later record
 * naming both lines, the address and both values. */
static void test_overlap_disagrees(void **state)
{
    (void)state;
    char text[512] = "";
    const uint8_t a[] = {0xA1, 0xA2, 0xA3, 0xA4}, b[] = {0xB1}, c[] = {0xA4, 0xC2};
    ihex_line(text, 0, 0x0108, a, 4); /* line 1: 0x108..0x10B */
    ihex_line(text, 0, 0x0100, b, 1); /* line 2 */
    size_t third = strlen(text);
    ihex_line(text, 0, 0x010B, c, 2); /* line 3: A4 agrees, C2 at 0x10C is new: fine */
    size_t fourth = strlen(text);
    ihex_line(text, 0, 0x010C, b, 1); /* line 4: B1 where line 3 wrote C2 */
    ihex_line(text, 1, 0, NULL, 0);
    expect_ihex_error(text, fourth,
                      "Intel HEX: the record on line 4 writes 0xB1 at address 0x10C, where the "
                      "record on line 3 wrote 0xC2 (overlapping records disagree)");
    /* Line numbers with CR LF line ends. */
    char crlf[512] = "";
    size_t n = 0;
    for (size_t i = 0; i < third; i++) {
        if (text[i] == '\n')
            crlf[n++] = '\r';
        crlf[n++] = text[i];
    }
    crlf[n] = '\0';
    size_t at = strlen(crlf);
    ihex_line(crlf, 0, 0x0109, b, 1); /* line 3: B1 where line 1 wrote A2 */
    expect_ihex_error(crlf, at,
                      "the record on line 3 writes 0xB1 at address 0x109, where the record on "
                      "line 1 wrote 0xA2");
}

static void test_extended_segment_address(void **state)
{
    (void)state;
    /* 02 record 0x1200 -> 0x12000; data at offset 4 -> 0x12004 */
    trx_image img;
    load_ihex(&img, ":020000021200EA\n:0200040055AAFB\n:00000001FF\n");
    assert_int_equal(img.base, 0x12004);
    assert_int_equal(img.size, 2);
    assert_int_equal(img.data[0], 0x55);
    assert_int_equal(img.data[1], 0xAA);
    trx_image_free(&img);
}

static void test_extended_linear_address(void **state)
{
    (void)state;
    char text[512] = "";
    const uint8_t hi[] = {0x20, 0x00}, d1[] = {1, 2}, hi2[] = {0x20, 0x01}, d2[] = {3};
    ihex_line(text, 4, 0, hi, 2);
    ihex_line(text, 0, 0xFFFE, d1, 2); /* 0x2000FFFE, 0x2000FFFF */
    ihex_line(text, 4, 0, hi2, 2);
    ihex_line(text, 0, 0x0000, d2, 1); /* 0x20010000: adjacent */
    ihex_line(text, 1, 0, NULL, 0);
    expect_ihex_image(text, 0x2000FFFE, "\1\2\3", 3);

    /* the literal record for 0xFFFF0000 */
    trx_image img;
    load_ihex(&img, ":02000004FFFFFC\n:01000000AB54\n");
    assert_int_equal(img.base, 0xFFFF0000u);
    assert_int_equal(img.data[0], 0xAB);
    trx_image_free(&img);
}

/* Lengths 1, 16, 32 and 255, upper and lower case. */
static void test_record_lengths_and_case(void **state)
{
    (void)state;
    static const unsigned lengths[] = {1, 16, 32, 255};
    for (int lower = 0; lower < 2; lower++)
        for (size_t k = 0; k < 4; k++) {
            unsigned len = lengths[k];
            uint8_t data[3 * 255];
            for (unsigned i = 0; i < 3 * len; i++)
                data[i] = (uint8_t)(i * 7 + 0xA5);
            char text[4096] = "";
            for (unsigned r = 0; r < 3; r++)
                ihex_line(text, 0, 0x4000 + r * len, data + r * len, len);
            ihex_line(text, 1, 0, NULL, 0);
            if (lower)
                for (char *p = text; *p; p++)
                    *p = (char)tolower((unsigned char)*p);
            expect_ihex_image(text, 0x4000, data, 3 * len);
        }
}

/* CR LF, blank lines, spaces and tabs between records; records back to back;
 * 03/05 ignored; anything after the EOF record ignored; no EOF record. */
static void test_separators_and_ignored_records(void **state)
{
    (void)state;
    const char *text = "\r\n  :0400000300003800C1\r\n\r\n\t:04000005000000CD2A \t\r\n"
                       ":0100000011EE:0100010022DC\r\n:00000001FF\r\nthis is ignored :zz";
    expect_ihex_image(text, 0, "\x11\x22", 2);

    trx_image img;
    load_ihex(&img, ":0100000011EE");
    assert_int_equal(img.size, 1);
    trx_image_free(&img);
}

static void test_errors(void **state)
{
    (void)state;
    /* checksum: digits at offset 31 */
    expect_ihex_error(":0B0010006164647265737320676170A8\n", 31,
                      "Intel HEX checksum mismatch: record says 0xA8, computed 0xA7");
    /* bad digit in the data, on the second line */
    expect_ihex_error(":0100000011EE\n:02000000G1221B\n", 23,
                      "record data: expected hex digit, found 'G'");
    expect_ihex_error(":0Z00000011EE\n", 2, "record length: expected hex digit, found 'Z'");
    expect_ihex_error(":010000x011EE\n", 7, "record type: expected hex digit, found 'x'");
    expect_ihex_error(":0100000011E-\n", 12, "checksum: expected hex digit, found '-'");
    /* the line ends before the length byte says */
    expect_ihex_error(":10000000AABB\n:00000001FF\n", 13,
                      "record data: expected hex digit, found end of line");
    /* the file ends inside a record */
    expect_ihex_error(":0100000011E", 12, "expected hex digit, found end of file");
    expect_ihex_error(":01", 3, "record address: expected hex digit, found end of file");
    /* a line that is not a record is skipped; with no record at all: */
    expect_ihex_error("\x01", 1,
                      "Intel HEX: no data records (1 line that is not a record skipped)");
    expect_ihex_error("boot\r\nlog\n", 10,
                      "no data records (2 lines that are not records skipped)");
    /* record longer than its length byte */
    expect_ihex_error(":0100000011EE00\n", 13, "record longer than its length byte");
    expect_ihex_error(":0100000011EE;\n", 13, "expected end of line after the checksum, found ';'");
    /* unknown type */
    expect_ihex_error(":00000006FA\n", 7, "unknown record type 0x06");
    /* extended address records of the wrong size */
    expect_ihex_error(":010000021FDE\n", 0,
                      "extended segment address record (type 02) must have 2 data bytes, has 1");
    expect_ihex_error(":03000004000000F9\n", 0,
                      "extended linear address record (type 04) must have 2 data bytes, has 3");
    /* nothing but an EOF record */
    expect_ihex_error(":00000001FF\n", 11, "Intel HEX: no data records");
    expect_ihex_error(" \r\n", 3, "no data records");
}

/* An image spanning more than 1 GiB is refused, naming the record. */
static void test_span_limit(void **state)
{
    (void)state;
    char text[512] = "";
    const uint8_t one[] = {1}, hi[] = {0x40, 0x00};
    ihex_line(text, 0, 0x0000, one, 1);
    ihex_line(text, 4, 0, hi, 2);
    size_t second = strlen(text);
    ihex_line(text, 0, 0x0000, one, 1); /* 0x40000000: span 0x40000001 */
    expect_ihex_error(text, second,
                      "record at address 0x40000000 would make the image span 1073741825 bytes, "
                      "more than the limit of 1024 MiB (lowest address 0x0)");

    /* exactly 1 GiB is allowed (only two bytes are stored, the image is the span) */
    text[0] = '\0';
    ihex_line(text, 0, 0x0000, one, 1);
    ihex_line(text, 4, 0, (const uint8_t[]){0x3F, 0xFF}, 2);
    ihex_line(text, 0, 0xFFFF, one, 1);
    trx_image img;
    load_ihex(&img, text);
    assert_int_equal(img.size, (size_t)1 << 30);
    assert_int_equal(img.data[0], 1);
    assert_int_equal(img.data[img.size - 1], 1);
    assert_int_equal(img.data[img.size / 2], 0);
    trx_image_free(&img);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_record),
        cmocka_unit_test(test_holes_order_overlap),
        cmocka_unit_test(test_overlap_disagrees),
        cmocka_unit_test(test_extended_segment_address),
        cmocka_unit_test(test_extended_linear_address),
        cmocka_unit_test(test_record_lengths_and_case),
        cmocka_unit_test(test_separators_and_ignored_records),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_span_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
