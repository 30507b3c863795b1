/*
 * text_loaders.h - the converters from text dumps to a memory image, one per
 * format (ihex_load.c, srec_load.c, ascii_load.c). Each reads `size` bytes
 * at `in`, fills `img` (owned heap image, `format` set) and returns 0, or
 * returns -1 with `err` naming the offset in `in` and what was expected.
 */
#ifndef TRX_LOAD_TEXT_LOADERS_H
#define TRX_LOAD_TEXT_LOADERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trx/trx.h"

/* Intel HEX: types 00-05, checksums verified, base = lowest address. */
int trx_load_ihex(trx_image *img, const uint8_t *in, size_t size, trx_error *err);

/* Motorola S-record: S0-S9 (S4 rejected), checksums verified, base = lowest address. */
int trx_load_srec(trx_image *img, const uint8_t *in, size_t size, trx_error *err);

/* ASCII hex: byte pairs with optional white space between pairs, or a C
 * array of 0x values (see ascii_load.c), base 0. */
int trx_load_ascii(trx_image *img, const uint8_t *in, size_t size, trx_error *err);

/* Whether the text at `pos` (first non-blank byte) starts a C array of 0x
 * byte values: "0x..", "{" or a declaration ending in "= {" (C comments
 * before it are skipped). Returns where its values start (after the brace;
 * `*braced` set when braces enclose them), or SIZE_MAX. */
size_t trx_ascii_c_array_start(const uint8_t *in, size_t size, size_t pos, bool *braced);

/* ---- shared by the record loaders (record_common.c); each returns 0, or -1 with `err` set */

/* What a record format calls itself in messages, the character that starts
 * each record, what its length byte counts ("data bytes", "bytes"), and
 * whether a decimal digit (the record type) must follow the start character
 * for a line to count as a record (S-record: "S1", not "Starting"). */
typedef struct trx_record_syntax {
    const char *name;
    char start;
    const char *length_unit;
    bool type_digit;
} trx_record_syntax;

/* Real captures hold other text around the records (a boot banner, log lines
 * on the same UART). At `pos`, a line's first non-blank character: when the
 * line does not start like a record, returns the position after its end of
 * line and counts it in `*skipped`; otherwise returns `pos`. A line that
 * starts like a record is parsed as one, so a damaged record still fails. */
size_t trx_record_skip_line(const trx_record_syntax *s, const uint8_t *in, size_t size, size_t pos,
                            uint64_t *skipped);

/* The error for a capture without data records, naming the skipped lines; -1. */
int trx_record_none(const trx_record_syntax *s, size_t end, uint64_t skipped, trx_error *err);

/* Checks that a record starts at `pos` (< size). */
int trx_record_start(const trx_record_syntax *s, const uint8_t *in, size_t pos, trx_error *err);

/* Sets `err` for the non-hex digit at `i` (or the end of input when i >= size)
 * in the record field `field`; always returns -1. */
int trx_record_digit_error(const trx_record_syntax *s, const uint8_t *in, size_t size, size_t i,
                           const char *field, trx_error *err);

/* Compares the two checksum digits at `cs_at` (known to be hex) with `computed`. */
int trx_record_checksum(const trx_record_syntax *s, const uint8_t *in, size_t cs_at,
                        unsigned computed, trx_error *err);

/* Checks that the checksum ending before `pos` is followed by the end of input,
 * white space or the next record; `length` is what the length byte said. */
int trx_record_end(const trx_record_syntax *s, const uint8_t *in, size_t size, size_t pos,
                   unsigned length, trx_error *err);

#endif /* TRX_LOAD_TEXT_LOADERS_H */
