/* test_srec_load.c - Motorola S-record loader: S0-S9, address sizes,
 * lengths, and the offset and wording of every error. */
#include <ctype.h>

#include "load_test_helpers.h"

/* The classic example file (header, three S1 records, count, S9). */
static const char reference[] =
    "S00F000068656C6C6F202020202000003C\n"
    "S11F00007C0802A6900100049421FFF07C6C1B787C8C23783C6000003863000026\n"
    "S11F001C4BFFFFE5398000007D83637880010014382100107C0803A64E800020E9\n"
    "S111003848656C6C6F20776F726C642E0A0042\n"
    "S5030003F9\n"
    "S9030000FC\n";

static void test_reference_file(void **state)
{
    (void)state;
    trx_image img;
    trx_error err;
    assert_int_equal(load_text(&img, reference, TRX_FORMAT_SREC, &err), 0);
    assert_int_equal(img.format, TRX_FORMAT_SREC);
    assert_int_equal(img.base, 0);
    assert_int_equal(img.size, 0x46);
    const uint8_t first[] = {0x7C, 0x08, 0x02, 0xA6};
    assert_memory_equal(img.data, first, 4);
    assert_int_equal(img.data[0x1C], 0x4B);
    assert_memory_equal(img.data + 0x38, "Hello world.\n", 13);
    trx_image_free(&img);
}

/* S2 and S3 addresses, holes, overlap, base = lowest address; S8/S7 end. */
static void test_address_sizes_holes_overlap(void **state)
{
    (void)state;
    char text[1024] = "";
    const uint8_t a[] = {0xA1, 0xA2, 0xA3}, b[] = {0xB1}, c[] = {0xC1};
    srec_line(text, 0, 2, 0, (const uint8_t *)"hdr", 3);
    srec_line(text, 3, 4, 0x01000004, a, 3); /* 0x01000004..6 */
    srec_line(text, 2, 3, 0x000000, c, 1);   /* far below: span grows */
    srec_line(text, 7, 4, 0, NULL, 0);
    srec_line(text, 1, 2, 0x1234, b, 1); /* after the end: ignored */
    trx_image img;
    trx_error err;
    assert_int_equal(load_text(&img, text, TRX_FORMAT_SREC, &err), 0);
    assert_int_equal(img.base, 0);
    assert_int_equal(img.size, 0x01000007);
    assert_int_equal(img.data[0], 0xC1);
    assert_int_equal(img.data[0x1234], 0);
    assert_memory_equal(img.data + 0x01000004, a, 3);
    trx_image_free(&img);

    text[0] = '\0';
    srec_line(text, 2, 3, 0x123456, a, 3);
    srec_line(text, 2, 3, 0x123453, a, 3);     /* lower and adjacent */
    srec_line(text, 1, 2, 0x3455, b, 1);       /* not the same as 0x123455 */
    srec_line(text, 2, 3, 0x123457, a + 1, 2); /* repeats A2 A3 of the first: fine */
    srec_line(text, 6, 3, 4, NULL, 0);         /* count record: 4 data records */
    srec_line(text, 8, 3, 0, NULL, 0);
    assert_int_equal(load_text(&img, text, TRX_FORMAT_SREC, &err), 0);
    assert_int_equal(img.base, 0x3455);
    assert_int_equal(img.size, 0x123459 - 0x3455);
    assert_int_equal(img.data[0], 0xB1);
    const uint8_t want[] = {0xA1, 0xA2, 0xA3, 0xA1, 0xA2, 0xA3};
    assert_memory_equal(img.data + (0x123453 - 0x3455), want, 6);
    trx_image_free(&img);

    /* An overlap with different data: an error naming both lines. */
    text[0] = '\0';
    srec_line(text, 2, 3, 0x123456, a, 3);
    size_t second = strlen(text);
    srec_line(text, 2, 3, 0x123457, c, 1); /* C1 where line 1 wrote A2 */
    expect_load_error(text, TRX_FORMAT_SREC, second,
                      "S-record: the record on line 2 writes 0xC1 at address 0x123457, where the "
                      "record on line 1 wrote 0xA2 (overlapping records disagree)");
}

/* S5/S6 count records must count the S1-S3 records before them. */
static void test_count_records(void **state)
{
    (void)state;
    const uint8_t a[] = {0xA1, 0xA2};
    char text[1024] = "";
    srec_line(text, 0, 2, 0, (const uint8_t *)"hdr", 3); /* S0 does not count */
    srec_line(text, 1, 2, 0x100, a, 2);
    srec_line(text, 1, 2, 0x102, a, 2);
    srec_line(text, 5, 2, 2, NULL, 0); /* right */
    srec_line(text, 1, 2, 0x104, a, 2);
    srec_line(text, 6, 3, 3, NULL, 0); /* cumulative: right */
    trx_image img;
    trx_error err;
    assert_int_equal(load_text(&img, text, TRX_FORMAT_SREC, &err), 0);
    assert_int_equal(img.size, 6);
    trx_image_free(&img);

    size_t at = strlen(text);
    srec_line(text, 5, 2, 2, NULL, 0); /* 3 data records precede it */
    expect_load_error(text, TRX_FORMAT_SREC, at,
                      "S-record: S5 count record says 2 data records, but 3 precede it");
    text[at] = '\0';
    srec_line(text, 6, 3, 4, NULL, 0);
    expect_load_error(text, TRX_FORMAT_SREC, at,
                      "S-record: S6 count record says 4 data records, but 3 precede it");
}

/* Data lengths 1, 16, 32 and 250 (the most an S3 record holds), in upper and
 * lower case hex, CR LF line ends, no termination record. */
static void test_record_lengths_and_case(void **state)
{
    (void)state;
    static const unsigned lengths[] = {1, 16, 32, 250};
    for (int lower = 0; lower < 2; lower++)
        for (size_t k = 0; k < 4; k++) {
            unsigned len = lengths[k];
            uint8_t data[3 * 250];
            for (unsigned i = 0; i < 3 * len; i++)
                data[i] = (uint8_t)(i * 13 + 0x5A);
            char text[4096] = "";
            for (unsigned r = 0; r < 3; r++) {
                srec_line(text, 3, 4, 0x90000000u + r * len, data + r * len, len);
                text[strlen(text) - 1] = '\r';
                strcat(text, "\n");
            }
            if (lower)
                for (char *p = text; *p; p++)
                    if (*p != 'S')
                        *p = (char)tolower((unsigned char)*p);
            trx_image img;
            trx_error err;
            assert_int_equal(load_text(&img, text, TRX_FORMAT_SREC, &err), 0);
            assert_int_equal(img.base, 0x90000000u);
            assert_int_equal(img.size, 3 * len);
            assert_memory_equal(img.data, data, 3 * len);
            trx_image_free(&img);
        }
}

static void test_errors(void **state)
{
    (void)state;
    /* checksum of the last S1 record (its digits start at 35 + 36) */
    expect_load_error(
        "S00F000068656C6C6F202020202000003C\nS111003848656C6C6F20776F726C642E0A0043\n",
        TRX_FORMAT_SREC, 35 + 36, "S-record checksum mismatch: record says 0x43, computed 0x42");
    expect_load_error("S3030000\n", TRX_FORMAT_SREC, 2,
                      "S-record: record length 3 too short for S3 address");
    expect_load_error("S1020000\n", TRX_FORMAT_SREC, 2,
                      "S-record: record length 2 too short for S1 address");
    expect_load_error("S9030000FC\n", TRX_FORMAT_SREC, 10, "S-record: no data records");
    expect_load_error("S4030000FC\n", TRX_FORMAT_SREC, 1, "record type S4 is reserved");
    /* 'S' without a type digit does not start a record: console text, skipped */
    expect_load_error("SX030000FC\n", TRX_FORMAT_SREC, 11,
                      "S-record: no data records (1 line that is not a record skipped)");
    expect_load_error("S", TRX_FORMAT_SREC, 1, "no data records (1 line that");
    expect_load_error("S1040000G1FA\n", TRX_FORMAT_SREC, 8,
                      "S-record data: expected hex digit, found 'G'");
    expect_load_error("S10400_011FA\n", TRX_FORMAT_SREC, 6,
                      "S-record address: expected hex digit, found '_'");
    expect_load_error("S1Q4000011FA\n", TRX_FORMAT_SREC, 2,
                      "S-record length: expected hex digit, found 'Q'");
    expect_load_error("S104000011F\n", TRX_FORMAT_SREC, 11,
                      "S-record checksum: expected hex digit, found end of line");
    expect_load_error("S10400001", TRX_FORMAT_SREC, 9,
                      "S-record data: expected hex digit, found end of file");
    expect_load_error("S104000011EA00\n", TRX_FORMAT_SREC, 12,
                      "record longer than its length byte says");
    expect_load_error("S104000011EA,\n", TRX_FORMAT_SREC, 12,
                      "expected end of line after the checksum, found ','");
    expect_load_error("s104000011EA\n", TRX_FORMAT_SREC, 13,
                      "S-record: no data records (1 line that is not a record skipped)");
}

static void test_span_limit(void **state)
{
    (void)state;
    char text[512] = "";
    const uint8_t one[] = {1};
    srec_line(text, 3, 4, 0x80000000u, one, 1);
    size_t second = strlen(text);
    srec_line(text, 3, 4, 0x7FFFFFFFu - (1u << 30), one, 1);
    expect_load_error(text, TRX_FORMAT_SREC, second, "more than the limit of 1024 MiB");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_file), cmocka_unit_test(test_address_sizes_holes_overlap),
        cmocka_unit_test(test_count_records),  cmocka_unit_test(test_record_lengths_and_case),
        cmocka_unit_test(test_errors),         cmocka_unit_test(test_span_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
