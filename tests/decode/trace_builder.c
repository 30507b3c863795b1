/* trace_builder.c - builds small TXTB buffers in memory for decoder tests. */
#include "trace_builder.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

static void put32(test_trace *b, uint32_t off, uint32_t v)
{
    uint8_t *p = b->bytes + off;
    for (int k = 0; k < 4; k++)
        p[k] = (uint8_t)(b->big_endian ? v >> (24 - 8 * k) : v >> (8 * k));
}

static void put16(test_trace *b, uint32_t off, uint16_t v)
{
    uint8_t *p = b->bytes + off;
    p[0] = (uint8_t)(b->big_endian ? v >> 8 : v);
    p[1] = (uint8_t)(b->big_endian ? v : v >> 8);
}

static uint32_t registry_off(const test_trace *b)
{
    (void)b; /* the registry follows the header, as ThreadX lays it out */
    return TRX_HEADER_SIZE;
}

static uint32_t entries_off(const test_trace *b)
{
    return registry_off(b) + b->registry_slots * (TRX_REGISTRY_FIXED_SIZE + b->name_size);
}

void tb_init(test_trace *b, uint32_t registry_slots, uint32_t capacity, bool big_endian)
{
    memset(b, 0, sizeof *b);
    b->base = 0x20000000u;
    b->registry_slots = registry_slots;
    b->capacity = capacity;
    b->name_size = 32;
    b->big_endian = big_endian;
    b->size = entries_off(b) + capacity * TRX_ENTRY_SIZE;
    assert_true(b->size <= sizeof b->bytes);
    put32(b, 0, TRX_TXTB_ID);
    put32(b, 4, 0xFFFFFFFFu);
    put32(b, 8, b->base);
    put32(b, 12, b->base + registry_off(b));
    put16(b, 18, (uint16_t)b->name_size);
    put32(b, 20, b->base + entries_off(b));
    put32(b, 24, b->base + entries_off(b));
    put32(b, 28, b->base + b->size);
    put32(b, 32, b->base + entries_off(b));
    put32(b, 36, 0xAAAAAAAAu);
    put32(b, 40, 0xBBBBBBBBu);
    put32(b, 44, 0xCCCCCCCCu);
    for (uint32_t i = 0; i < registry_slots; i++)
        b->bytes[registry_off(b) + i * (TRX_REGISTRY_FIXED_SIZE + b->name_size)] = 1;
}

void tb_object(test_trace *b, uint32_t slot, uint8_t type, uint32_t address, const char *name,
               uint32_t p1, uint32_t p2, uint32_t priority)
{
    uint32_t off = registry_off(b) + slot * (TRX_REGISTRY_FIXED_SIZE + b->name_size);
    b->bytes[off] = 0;
    b->bytes[off + 1] = type;
    if (type == TRX_OBJ_THREAD) {
        b->bytes[off + 2] = (uint8_t)(0x80 | priority >> 8);
        b->bytes[off + 3] = (uint8_t)priority;
    }
    put32(b, off + 4, address);
    put32(b, off + 8, p1);
    put32(b, off + 12, p2);
    strncpy((char *)b->bytes + off + 16, name, b->name_size - 1);
}

void tb_event(test_trace *b, uint32_t context, uint32_t priority, uint32_t id, uint32_t ts,
              uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4)
{
    assert_true(b->written < b->capacity);
    uint32_t off = entries_off(b) + b->written++ * TRX_ENTRY_SIZE;
    const uint32_t words[8] = {context, priority, id, ts, i1, i2, i3, i4};
    for (int k = 0; k < 8; k++)
        put32(b, off + 4 * (uint32_t)k, words[k]);
    put32(b, 32, b->base + entries_off(b) + (b->written % b->capacity) * TRX_ENTRY_SIZE);
}

void tb_oldest(test_trace *b, uint32_t index)
{
    put32(b, 32, b->base + entries_off(b) + index * TRX_ENTRY_SIZE);
}

void tb_entry_word(test_trace *b, uint32_t index, unsigned word, uint32_t value)
{
    assert_true(index < b->capacity && word < 8);
    put32(b, entries_off(b) + index * TRX_ENTRY_SIZE + 4 * word, value);
}

void tb_timer_mask(test_trace *b, uint32_t mask)
{
    put32(b, 4, mask);
}

void tb_open(test_trace *b, trx_trace *t)
{
    trx_image img;
    trx_error err;
    assert_int_equal(trx_image_load_memory(&img, b->bytes, b->size, TRX_FORMAT_BIN, &err), 0);
    assert_int_equal(trx_trace_open_image(t, &img, "built", &err), 0);
}
