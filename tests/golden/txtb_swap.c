/*
 * txtb_swap.c - rewrites a TXTB trace buffer in the other byte order (little
 * <-> big endian), as a big-endian target would have written it; shared by
 * the swap_endian tool and the differential test. See txtb_swap.h.
 */
#include "txtb_swap.h"

#include <stdbool.h>
#include <string.h>

#define HEADER_SIZE 48u
#define ENTRY_SIZE 32u
#define REG_FIXED_SIZE 16u

/* Reads a 32-bit value in the given byte order. */
static uint32_t get32(const uint8_t *p, bool big)
{
    if (big)
        return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

/* Reverses the 4 bytes at p. */
static void swap32(uint8_t *p)
{
    uint8_t t = p[0];
    p[0] = p[3];
    p[3] = t;
    t = p[1];
    p[1] = p[2];
    p[2] = t;
}

/* Reverses the 2 bytes at p. */
static void swap16(uint8_t *p)
{
    uint8_t t = p[0];
    p[0] = p[1];
    p[1] = t;
}

/* Offset of target address `addr` in the file, or false when outside it. */
static bool offset_of(uint32_t addr, uint32_t base, size_t size, size_t *out)
{
    if (addr < base || (uint64_t)(addr - base) > size)
        return false;
    *out = addr - base;
    return true;
}

const char *txtb_swap_byte_order(uint8_t *d, size_t size)
{
    if (size < HEADER_SIZE)
        return "file shorter than the 48-byte header";
    bool big;
    if (memcmp(d, "BTXT", 4) == 0)
        big = false;
    else if (memcmp(d, "TXTB", 4) == 0)
        big = true;
    else
        return "no TXTB id at offset 0";
    uint32_t base = get32(d + 8, big);
    uint32_t name_size = big ? (uint32_t)d[18] << 8 | d[19] : (uint32_t)d[19] << 8 | d[18];
    size_t reg_start, reg_end, buf_start, buf_end;
    if (!offset_of(get32(d + 12, big), base, size, &reg_start) ||
        !offset_of(get32(d + 20, big), base, size, &reg_end) ||
        !offset_of(get32(d + 24, big), base, size, &buf_start) ||
        !offset_of(get32(d + 28, big), base, size, &buf_end))
        return "header pointer outside the file";
    if (reg_end < reg_start || buf_end < buf_start)
        return "header end pointer before start pointer";

    for (size_t off = 0; off < HEADER_SIZE; off += 4) {
        if (off == 16) {
            swap16(d + 16);
            swap16(d + 18);
        } else {
            swap32(d + off);
        }
    }
    size_t reg_size = REG_FIXED_SIZE + name_size;
    for (size_t e = reg_start; e + reg_size <= reg_end; e += reg_size) {
        swap32(d + e + 4);
        swap32(d + e + 8);
        swap32(d + e + 12);
    }
    for (size_t e = buf_start; e + ENTRY_SIZE <= buf_end; e += ENTRY_SIZE)
        for (size_t w = 0; w < ENTRY_SIZE; w += 4)
            swap32(d + e + w);
    return NULL;
}
