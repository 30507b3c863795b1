/*
 * ascii_load.c - ASCII hex to memory image (base 0): hex byte pairs in
 * either case, separated by any white space or by nothing at all (TraceX
 * accepts "5458" as two bytes). Anything else ("0x" prefixes, commas) is an
 * error, and so is a digit without a partner.
 */
#include <stdlib.h>

#include "load/hex_digits.h"
#include "load/image_builder.h"
#include "load/text_loaders.h"

/* The error for the pair starting at `pos`, which is not two hex digits. */
static int ascii_pair_error(const uint8_t *in, size_t size, size_t pos, trx_error *err)
{
    char what[16];
    if (trx_hex_value[in[pos]] == TRX_HEX_BAD)
        return trx_error_set(err, pos, "ASCII hex: expected hex digit or white space, found %s",
                             trx_describe_byte(in[pos], what));
    if (pos + 1 >= size)
        return trx_error_set(err, pos,
                             "ASCII hex: odd number of hex digits: last digit '%c' has no partner",
                             (char)in[pos]);
    uint8_t next = in[pos + 1];
    if (in[pos] == '0' && (next == 'x' || next == 'X'))
        return trx_error_set(err, pos,
                             "ASCII hex: \"0x\" prefixes are not allowed, expected plain hex "
                             "digit pairs");
    if (trx_hex_space[next])
        return trx_error_set(err, pos + 1,
                             "ASCII hex: expected the second hex digit of a byte, found %s (odd "
                             "number of digits in a group)",
                             trx_describe_byte(next, what));
    return trx_error_set(err, pos + 1, "ASCII hex: expected hex digit, found %s",
                         trx_describe_byte(next, what));
}

int trx_load_ascii(trx_image *img, const uint8_t *in, size_t size, trx_error *err)
{
    size_t limit = size / 2 < TRX_IMAGE_MAX_SPAN ? size / 2 : (size_t)TRX_IMAGE_MAX_SPAN;
    uint8_t *out = malloc(limit ? limit : 1);
    if (!out)
        return trx_error_set(err, 0, "out of memory reading ASCII hex (%zu bytes)", limit);
    size_t n = 0, pos = trx_bom_length(in, size);
    while (pos < size) {
        if (trx_hex_space[in[pos]]) {
            pos++;
            continue;
        }
        /* a run of pairs without separators */
        while (size - pos >= 2) {
            uint8_t hi = trx_hex_value[in[pos]], lo = trx_hex_value[in[pos + 1]];
            if ((hi | lo) & 0x80u)
                break;
            if (n == limit) {
                free(out);
                return trx_error_set(err, pos, "ASCII hex: more than %llu MiB of data",
                                     (unsigned long long)(TRX_IMAGE_MAX_SPAN >> 20));
            }
            out[n++] = (uint8_t)(hi << 4 | lo);
            pos += 2;
        }
        if (pos < size && !trx_hex_space[in[pos]]) {
            free(out);
            return ascii_pair_error(in, size, pos, err);
        }
    }
    if (n == 0) {
        free(out);
        return trx_error_set(err, size, "ASCII hex: no hex digits");
    }
    if (n < limit) {
        uint8_t *shrunk = realloc(out, n);
        if (shrunk)
            out = shrunk;
    }
    img->data = out;
    img->size = n;
    img->base = 0;
    img->owned_ = out;
    img->format = TRX_FORMAT_ASCII;
    return 0;
}
