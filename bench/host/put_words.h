/* put_words.h - 32-bit words stored in a given byte order, for the
 * benchmark generators that write UIA packets (big-endian headers,
 * little-endian records). */
#ifndef TRX_BENCH_PUT_WORDS_H
#define TRX_BENCH_PUT_WORDS_H

#include <stdint.h>

static inline void put_le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static inline void put_be(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

#endif
