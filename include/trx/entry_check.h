/*
 * entry_check.h - the 8-bit check value a trx recorder built with
 * TRX_RECORDER_ENTRY_CHECK=1 stores in bits 16-23 of each entry's event-id
 * word (TraceX masks ids with 0xFFFF, so it still opens the buffer), and the
 * header mark that says so. Shared by the recorder (freestanding C99) and
 * the host decoder, so both compute the same value.
 *
 * The check covers all eight words (the id word without bits 16-23), mixed
 * with multiplications so that an entry made of two writers' halves (a torn
 * entry) fails it with a probability of about 255/256 whatever the values.
 */
#ifndef TRX_ENTRY_CHECK_H
#define TRX_ENTRY_CHECK_H

#include <stdint.h>

/* Header reserved1 (offset 16, 0 in ThreadX) of a buffer whose entries
 * carry the check value. */
#define TRX_ENTRY_CHECK_MARK 0xC4E1u

/* Bits of the id word the check value occupies, and the ones it covers. */
#define TRX_ENTRY_CHECK_SHIFT 16
#define TRX_ENTRY_CHECK_ID_MASK 0xFF00FFFFu

/* The check value (0..255) of an entry; `id` without the check bits. */
static inline uint32_t trx_entry_check(uint32_t ctx, uint32_t prio, uint32_t id, uint32_t ts,
                                       uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4)
{
    const uint32_t k = 0x9E3779B1u; /* odd: each step is a bijection */
    uint32_t h = (ctx ^ 0x7F4A7C15u) * k;
    h = (h ^ (h >> 15) ^ prio) * k;
    h = (h ^ (h >> 15) ^ id) * k;
    h = (h ^ (h >> 15) ^ ts) * k;
    h = (h ^ (h >> 15) ^ i1) * k;
    h = (h ^ (h >> 15) ^ i2) * k;
    h = (h ^ (h >> 15) ^ i3) * k;
    h = (h ^ (h >> 15) ^ i4) * k;
    return h >> 24;
}

#endif /* TRX_ENTRY_CHECK_H */
