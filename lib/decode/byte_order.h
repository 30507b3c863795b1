/* byte_order.h - reading (and writing) 16/32-bit fields of a trace buffer in its own byte order. */
#ifndef TRX_BYTE_ORDER_H
#define TRX_BYTE_ORDER_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* The 32-bit word at `p` in little- or big-endian order. */
static inline uint32_t trx_rd32(const uint8_t *p, bool big_endian)
{
    uint32_t v;
    memcpy(&v, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return big_endian ? v : __builtin_bswap32(v);
#else
    return big_endian ? __builtin_bswap32(v) : v;
#endif
}

/* Writes `v` at `p` in little- or big-endian order. */
static inline void trx_wr32(uint8_t *p, uint32_t v, bool big_endian)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = big_endian ? v : __builtin_bswap32(v);
#else
    v = big_endian ? __builtin_bswap32(v) : v;
#endif
    memcpy(p, &v, 4);
}

/* The 16-bit value at `p` in little- or big-endian order. */
static inline uint16_t trx_rd16(const uint8_t *p, bool big_endian)
{
    return big_endian ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]);
}

#endif
