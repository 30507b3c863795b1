/*
 * test_uia_known_answer.c - the known answers for UIA header words,
 * computed here from the EventHdr bit definition (HdrType 31..27, length
 * 26..16, then sequence 15..0, or PrevLen 15..5 and sequence 4..0), not from
 * the writer's macros, and then found in the bytes the writer produced:
 *   write0 with 64-bit timestamp (type 1), 16 bytes, sequence 5: 0x08100005
 *   PrevLen type 10, 20 bytes after a 16-byte record, sequence 3: 0x50140203
 *   its terminator (type 8, length 0, previous 20, sequence 4):  0x40000284
 * Built twice: standard records (TRX_UIA_PREVLEN=0) and PrevLen records.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "trx/uia_recorder.h"

uint32_t uia_test_clock, uia_test_step = 1;

static uint32_t buffer[1024];

/* Header word 0 as the EventHdr definition lays it out. */
static uint32_t definition_std(uint32_t type, uint32_t bytes, uint32_t seq16)
{
    return type * 0x08000000u + bytes * 0x00010000u + seq16;
}

static uint32_t definition_prevlen(uint32_t type, uint32_t bytes, uint32_t prev, uint32_t seq5)
{
    return type * 0x08000000u + bytes * 0x00010000u + prev * 0x20u + seq5;
}

/* The 32-bit word at byte offset `off` of the buffer, little-endian (the
 * host's byte order; the test checks the packet header says so). */
static uint32_t word_at(size_t off)
{
    const uint8_t *b = (const uint8_t *)buffer + off;
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void test_definition(void **state)
{
    (void)state;
    assert_int_equal(definition_std(1, 16, 5), 0x08100005u);
    assert_int_equal(definition_prevlen(10, 20, 16, 3), 0x50140203u);
    assert_int_equal(definition_prevlen(8, 0, 20, 4), 0x40000284u);
    /* the writer's public macros agree with the definition */
    assert_int_equal(TRX_UIA_STD_WORD(1, 16, 5), 0x08100005u);
    assert_int_equal(TRX_UIA_PREVLEN_WORD(10, 20, 16, 3), 0x50140203u);
    assert_int_equal(TRX_UIA_PREVLEN_WORD(8, 0, 20, 4), 0x40000284u);
}

static void test_writer_bytes(void **state)
{
    (void)state;
    trx_uia_logger lg;
    memset(&lg, 0, sizeof lg);
    assert_int_equal(trx_uia_enable(&lg, buffer, sizeof buffer, TRX_UIA_POLICY_WRAP, 0),
                     TX_SUCCESS);
    assert_int_equal(((const uint8_t *)buffer)[0] & 0x08u, 0u); /* E bit: little-endian payload */
#if TRX_UIA_PREVLEN
    /* three 16-byte write0 records (sequence 0..2), then a 20-byte write1 */
    for (int i = 0; i < 3; i++)
        trx_uia_write0(&lg, 0x00010001u, 0xFFFFFFFFu);
    trx_uia_write1(&lg, 0x00020001u, 0xA1u, 0xFFFFFFFFu);
    assert_int_equal(word_at(16 + 2 * 16), definition_prevlen(10, 16, 16, 2));
    assert_int_equal(word_at(16 + 3 * 16), 0x50140203u);
    assert_int_equal(word_at(16 + 3 * 16 + 20), 0x40000284u);
    assert_int_equal(word_at(16 + 3 * 16 + 16), 0xA1u); /* its argument, before the terminator */
#else
    /* six 16-byte write0 records: sequence 0..5 */
    for (int i = 0; i < 6; i++)
        trx_uia_write0(&lg, 0x00010001u, 0xFFFFFFFFu);
    assert_int_equal(word_at(16 + 5 * 16), 0x08100005u);
    assert_int_equal(word_at(16 + 4 * 16), definition_std(1, 16, 4));
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_definition),
        cmocka_unit_test(test_writer_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
