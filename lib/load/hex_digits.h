/*
 * hex_digits.h - table-driven hex digit decoding and character classes shared
 * by the text loaders (Intel HEX, S-record, ASCII hex), plus the wording used
 * to name an unexpected input byte in an error message.
 */
#ifndef TRX_LOAD_HEX_DIGITS_H
#define TRX_LOAD_HEX_DIGITS_H

#include <stddef.h>
#include <stdint.h>

/* Value 0..15 of a hex digit (either case); TRX_HEX_BAD for anything else. */
#define TRX_HEX_BAD 0xFFu
extern const uint8_t trx_hex_value[256];

/* Non-zero for the white space allowed between records and byte pairs:
 * space, tab, CR, LF, vertical tab, form feed. */
extern const uint8_t trx_hex_space[256];

/* Decodes `n` bytes from the 2*n hex digits at `in` (all readable) into
 * `out`. Returns the index of the first non-hex digit, or SIZE_MAX. */
static inline size_t trx_hex_decode(const uint8_t *in, size_t n, uint8_t *out)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t hi = trx_hex_value[in[2 * i]], lo = trx_hex_value[in[2 * i + 1]];
        if ((hi | lo) & 0x80u)
            return (hi & 0x80u) ? 2 * i : 2 * i + 1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return SIZE_MAX;
}

/* Index of the first non-hex digit among the `count` bytes at `from`, or
 * where they end (at most `size`) when all are digits. */
static inline size_t trx_hex_first_bad(const uint8_t *in, size_t size, size_t from, size_t count)
{
    size_t i = from;
    while (i < size && i < from + count && trx_hex_value[in[i]] != TRX_HEX_BAD)
        i++;
    return i;
}

/* Writes a printable description of byte `c` ("'G'", "end of line",
 * "byte 0x00") into `buf` (at least 16 bytes); returns `buf`. */
const char *trx_describe_byte(uint8_t c, char *buf);

/* Index of the first byte at or after `pos` that is not white space (`size`
 * when there is none). */
static inline size_t trx_skip_space(const uint8_t *in, size_t size, size_t pos)
{
    while (pos < size && trx_hex_space[in[pos]])
        pos++;
    return pos;
}

/* Length of a UTF-8 byte-order mark at the start of `in` (3 or 0): text
 * editors on Windows add one, and the loaders skip it. */
static inline size_t trx_bom_length(const uint8_t *in, size_t size)
{
    return (size >= 3 && in[0] == 0xEF && in[1] == 0xBB && in[2] == 0xBF) ? 3 : 0;
}

#endif /* TRX_LOAD_HEX_DIGITS_H */
