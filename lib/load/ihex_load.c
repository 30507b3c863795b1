/*
 * ihex_load.c - Intel HEX to memory image. Records ":LLAAAATT<data>CC" with
 * any length 0..255; every checksum is verified. Type 00 data, 01 end of file
 * (whatever follows is ignored; a file without one ends at end of input),
 * 02 extended segment address (value * 16), 04 extended linear address
 * (value << 16), 03/05 start addresses (ignored). White space (CR, LF, space,
 * tab) may separate records. A line that does not start with ':' is not a
 * record (console output around a UART capture): skipped and counted in
 * trx_image.skipped_lines. Addresses are linear: a record that runs past a
 * 64 KiB boundary continues at the next address (no wrap inside a segment).
 */
#include <stdio.h>

#include "load/hex_digits.h"
#include "load/image_builder.h"
#include "load/text_loaders.h"

/* What the digit at index `i` (0 = first after ':') of a record with `len`
 * data bytes belongs to. */
static const char *ihex_field(size_t i, unsigned len)
{
    if (i < 2)
        return "record length";
    if (i < 6)
        return "record address";
    if (i < 8)
        return "record type";
    if (i < 8 + 2 * (size_t)len)
        return "record data";
    return "checksum";
}

/* How the shared record checks name this format and find its records. */
static const trx_record_syntax ihex_syntax = {"Intel HEX", ':', "data bytes", false};

/* Error for the first non-hex digit (or the end of input) among the `count`
 * digits expected at `from`. */
static int ihex_digit_error(const uint8_t *in, size_t size, size_t digits_start, size_t from,
                            size_t count, unsigned len, trx_error *err)
{
    size_t i = trx_hex_first_bad(in, size, from, count);
    return trx_record_digit_error(&ihex_syntax, in, size, i, ihex_field(i - digits_start, len),
                                  err);
}

int trx_load_ihex(trx_image *img, const uint8_t *in, size_t size, trx_error *err)
{
    image_builder b;
    if (image_builder_init(&b, "Intel HEX", size / 2, err))
        return -1;
    uint64_t upper = 0; /* from the last type 02 or 04 record */
    uint8_t scratch[256];
    uint64_t skipped = 0; /* lines that are not records */
    size_t pos = trx_bom_length(in, size);
    for (;;) {
        pos = trx_skip_space(in, size, pos);
        if (pos >= size)
            break; /* no end-of-file record: accepted, like TraceX */
        size_t next = trx_record_skip_line(&ihex_syntax, in, size, pos, &skipped);
        if (next != pos) {
            pos = next; /* not a record: console output around the capture */
            continue;
        }
        size_t rec = pos;
        if (trx_record_start(&ihex_syntax, in, rec, err))
            goto fail;
        size_t p = rec + 1;
        uint8_t hdr[4];
        size_t bad = size - p >= 8 ? trx_hex_decode(in + p, 4, hdr) : 0;
        if (bad != SIZE_MAX) {
            ihex_digit_error(in, size, p, p, 8, 0, err);
            goto fail;
        }
        unsigned len = hdr[0], type = hdr[3];
        unsigned offset16 = (unsigned)hdr[1] << 8 | hdr[2];
        if (type > 5) {
            trx_error_set(err, p + 6, "Intel HEX: unknown record type 0x%02X (expected 00-05)",
                          type);
            goto fail;
        }
        size_t data_at = p + 8;
        size_t need = 2 * (size_t)len + 2; /* data and checksum digits */
        uint8_t *dst = scratch;
        if (type == 0 && !(dst = image_builder_reserve(&b, len, rec, err)))
            goto fail;
        if (size - data_at < need || trx_hex_decode(in + data_at, len, dst) != SIZE_MAX ||
            trx_hex_value[in[data_at + 2 * len]] == TRX_HEX_BAD ||
            trx_hex_value[in[data_at + 2 * len + 1]] == TRX_HEX_BAD) {
            ihex_digit_error(in, size, p, data_at, need, len, err);
            goto fail;
        }
        size_t cs_at = data_at + 2 * (size_t)len;
        unsigned sum = hdr[0] + hdr[1] + hdr[2] + hdr[3];
        for (unsigned i = 0; i < len; i++)
            sum += dst[i];
        unsigned computed = (0x100u - (sum & 0xFFu)) & 0xFFu;
        pos = cs_at + 2;
        if (trx_record_checksum(&ihex_syntax, in, cs_at, computed, err) ||
            trx_record_end(&ihex_syntax, in, size, pos, len, err))
            goto fail;
        if (type == 0) {
            if (image_builder_commit(&b, upper + offset16, len, rec, err))
                goto fail;
        } else if (type == 1) {
            break; /* end of file: the rest is ignored */
        } else if (type == 2 || type == 4) {
            if (len != 2) {
                trx_error_set(err, rec,
                              "Intel HEX: extended %s address record (type 0%u) must have 2 data "
                              "bytes, has %u",
                              type == 2 ? "segment" : "linear", type, len);
                goto fail;
            }
            uint64_t value = (uint64_t)dst[0] << 8 | dst[1];
            upper = type == 2 ? value << 4 : value << 16;
        }
        /* types 03 and 05 (start address) carry nothing for the image */
    }
    if (b.run_count == 0 && skipped > 0) {
        trx_record_none(&ihex_syntax, pos, skipped, err);
        goto fail;
    }
    if (image_builder_finish(&b, img, pos, in, size, err))
        return -1;
    img->format = TRX_FORMAT_IHEX;
    img->skipped_lines = skipped;
    return 0;
fail:
    image_builder_discard(&b);
    return -1;
}
