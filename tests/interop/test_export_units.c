/* test_export_units.c - the exporters' building blocks: protobuf wire
 * encoding, tick-to-time conversion and microsecond formatting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "output/export_formats.h"
#include "output/protobuf_writer.h"

static void varints_match_the_wire_format(void **state)
{
    (void)state;
    static trx_pb b;
    trx_pb_reset(&b);
    trx_pb_varint(&b, 1, 150); /* the protobuf guide's example: 08 96 01 */
    trx_pb_varint(&b, 60, 0);  /* key 60 << 3 = 480: e0 03 */
    trx_pb_fixed64(&b, 47, 0x0102030405060708ull);
    trx_pb_string(&b, 2, "ab");
    const uint8_t want[] = {0x08, 0x96, 0x01, 0xe0, 0x03, 0x00, 0xf9, 0x02, 0x08, 0x07,
                            0x06, 0x05, 0x04, 0x03, 0x02, 0x01, 0x12, 0x02, 'a',  'b'};
    assert_int_equal(b.len, sizeof want);
    assert_memory_equal(b.data, want, sizeof want);
    assert_false(b.overflow);
    uint8_t tmp[10];
    assert_int_equal(trx_pb_encode_varint(tmp, UINT64_MAX), 10);
    assert_int_equal(tmp[9], 1);
}

static void nested_messages_carry_their_length(void **state)
{
    (void)state;
    static trx_pb outer, inner;
    trx_pb_reset(&outer);
    trx_pb_reset(&inner);
    trx_pb_varint(&inner, 1, 3);
    trx_pb_message(&outer, 11, &inner);
    const uint8_t want[] = {0x5a, 0x02, 0x08, 0x03};
    assert_int_equal(outer.len, sizeof want);
    assert_memory_equal(outer.data, want, sizeof want);
}

static void overflow_is_flagged_not_written(void **state)
{
    (void)state;
    static trx_pb b;
    static char big[TRX_PB_BUFFER_SIZE + 1];
    memset(big, 'x', sizeof big - 1);
    trx_pb_reset(&b);
    trx_pb_string(&b, 2, big);
    assert_true(b.overflow);
    assert_true(b.len <= TRX_PB_BUFFER_SIZE);
}

static void text_becomes_utf8(void **state)
{
    (void)state;
    static trx_pb b;
    trx_pb_reset(&b);
    trx_pb_text(&b, 2, "\xe9t\xc3\xa9"); /* Latin-1 e-acute, then UTF-8 e-acute */
    const uint8_t want[] = {0x12, 0x05, 0xc3, 0xa9, 't', 0xc3, 0xa9};
    assert_int_equal(b.len, sizeof want);
    assert_memory_equal(b.data, want, sizeof want);
}

static void ticks_convert_at_the_given_rate(void **state)
{
    (void)state;
    trx_export_options none = {0, NULL}, mhz80 = {80000000u, NULL}, ghz = {1000000000u, NULL},
                       slow = {3u, NULL};
    assert_int_equal(trx_export_ticks_to_ns(&none, 7), 7000);
    assert_int_equal(trx_export_ticks_to_ns(&mhz80, 80), 1000);
    assert_int_equal(trx_export_ticks_to_ns(&mhz80, 1), 12); /* 12.5 rounded down */
    assert_int_equal(trx_export_ticks_to_ns(&ghz, 123456789012ull), 123456789012ull);
    assert_int_equal(trx_export_ticks_to_ns(&slow, 4), 1333333333ull);
    assert_int_equal(trx_export_ticks_to_ns(&none, UINT64_MAX), UINT64_MAX);
}

static void microseconds_print_only_needed_decimals(void **state)
{
    (void)state;
    static trx_out o;
    FILE *f = tmpfile();
    assert_non_null(f);
    trx_out_init(&o, f, false);
    trx_out_us_from_ns(&o, 5000);
    trx_out_char(&o, ' ');
    trx_out_us_from_ns(&o, 12);
    trx_out_char(&o, ' ');
    trx_out_us_from_ns(&o, 1234567);
    trx_out_char(&o, ' ');
    trx_out_us_from_ns(&o, 64400);
    o.buf[o.len] = '\0';
    assert_string_equal(o.buf, "5 0.012 1234.567 64.4");
    fclose(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(varints_match_the_wire_format),
        cmocka_unit_test(nested_messages_carry_their_length),
        cmocka_unit_test(overflow_is_flagged_not_written),
        cmocka_unit_test(text_becomes_utf8),
        cmocka_unit_test(ticks_convert_at_the_given_rate),
        cmocka_unit_test(microseconds_print_only_needed_decimals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
