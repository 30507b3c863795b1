/*
 * text_loaders.h - the converters from text dumps to a memory image, one per
 * format (ihex_load.c, srec_load.c, ascii_load.c). Each reads `size` bytes
 * at `in`, fills `img` (owned heap image, `format` set) and returns 0, or
 * returns -1 with `err` naming the offset in `in` and what was expected.
 */
#ifndef TRX_LOAD_TEXT_LOADERS_H
#define TRX_LOAD_TEXT_LOADERS_H

#include <stddef.h>
#include <stdint.h>

#include "trx/trx.h"

/* Intel HEX: types 00-05, checksums verified, base = lowest address. */
int trx_load_ihex(trx_image *img, const uint8_t *in, size_t size, trx_error *err);

/* Motorola S-record: S0-S9 (S4 rejected), checksums verified, base = lowest address. */
int trx_load_srec(trx_image *img, const uint8_t *in, size_t size, trx_error *err);

/* ASCII hex: byte pairs with optional white space between pairs, base 0. */
int trx_load_ascii(trx_image *img, const uint8_t *in, size_t size, trx_error *err);

#endif /* TRX_LOAD_TEXT_LOADERS_H */
