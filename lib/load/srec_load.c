/*
 * srec_load.c - Motorola S-record to memory image. Records "Stccaddr<data>ss"
 * where cc counts the address, data and checksum bytes and ss is the ones'
 * complement of the sum of count, address and data. S1/S2/S3 carry data with
 * 2/3/4 address bytes; S0 (header) is checked for its checksum only; an
 * S5/S6 record's count (its address field) must equal the number of S1-S3
 * records before it, so a dump that lost or gained records is an error
 * instead of a silently different image. S7/S8/S9 end the file
 * (whatever follows is ignored); S4 is reserved and rejected. White space
 * may separate records. A line that does not start with 'S' and a digit is
 * not a record (console output around a UART capture): skipped and counted
 * in trx_image.skipped_lines.
 */
#include <stdio.h>

#include "load/hex_digits.h"
#include "load/image_builder.h"
#include "load/text_loaders.h"

/* Address bytes of each record type S0..S9 (0: reserved type S4). */
static const unsigned srec_address_bytes[10] = {2, 2, 3, 4, 0, 2, 3, 4, 3, 2};

/* What digit `i` (0 = first after the type) of a record belongs to. */
static const char *srec_field(size_t i, unsigned addr_len, unsigned count)
{
    if (i < 2)
        return "length";
    if (i < 2 + 2 * (size_t)addr_len)
        return "address";
    if (i < 2 * (size_t)count)
        return "data";
    return "checksum";
}

/* How the shared record checks name this format and find its records. */
static const trx_record_syntax srec_syntax = {"S-record", 'S', "bytes", true};

/* Error for the first non-hex digit (or the end of input) among the `count`
 * digits expected at `from`. */
static int srec_digit_error(const uint8_t *in, size_t size, size_t digits_start, size_t from,
                            size_t count, unsigned addr_len, unsigned record_count, trx_error *err)
{
    size_t i = trx_hex_first_bad(in, size, from, count);
    return trx_record_digit_error(&srec_syntax, in, size, i,
                                  srec_field(i - digits_start, addr_len, record_count), err);
}

int trx_load_srec(trx_image *img, const uint8_t *in, size_t size, trx_error *err)
{
    image_builder b;
    if (image_builder_init(&b, "S-record", size / 2, err))
        return -1;
    uint8_t scratch[256];
    char what[16];
    uint64_t skipped = 0;      /* lines that are not records */
    uint64_t data_records = 0; /* S1-S3 records so far */
    size_t pos = trx_bom_length(in, size);
    for (;;) {
        pos = trx_skip_space(in, size, pos);
        if (pos >= size)
            break; /* no S7/S8/S9: accepted, the data records are all there is */
        size_t next = trx_record_skip_line(&srec_syntax, in, size, pos, &skipped);
        if (next != pos) {
            pos = next; /* not a record: console output around the capture */
            continue;
        }
        size_t rec = pos;
        if (trx_record_start(&srec_syntax, in, rec, err))
            goto fail;
        if (rec + 1 >= size || in[rec + 1] < '0' || in[rec + 1] > '9') {
            if (rec + 1 >= size)
                trx_error_set(err, size,
                              "S-record: expected record type digit after 'S', found end of file");
            else
                trx_error_set(err, rec + 1,
                              "S-record: expected record type digit after 'S', found %s",
                              trx_describe_byte(in[rec + 1], what));
            goto fail;
        }
        unsigned type = (unsigned)(in[rec + 1] - '0');
        unsigned addr_len = srec_address_bytes[type];
        if (addr_len == 0) {
            trx_error_set(err, rec + 1,
                          "S-record: record type S4 is reserved (expected S0-S3 or S5-S9)");
            goto fail;
        }
        size_t p = rec + 2; /* first digit of the count */
        uint8_t count_byte;
        if (size - p < 2 || trx_hex_decode(in + p, 1, &count_byte) != SIZE_MAX) {
            srec_digit_error(in, size, p, p, 2, addr_len, 255, err);
            goto fail;
        }
        unsigned count = count_byte;
        if (count < addr_len + 1) {
            trx_error_set(
                err, p, "S-record: record length %u too short for S%u address (needs at least %u)",
                count, type, addr_len + 1);
            goto fail;
        }
        unsigned data_len = count - addr_len - 1;
        size_t addr_at = p + 2, data_at = addr_at + 2 * (size_t)addr_len;
        size_t need = 2 * (size_t)count; /* address, data and checksum digits */
        uint8_t addr[4];
        uint8_t *dst = scratch;
        if (type >= 1 && type <= 3 && !(dst = image_builder_reserve(&b, data_len, rec, err)))
            goto fail;
        if (size - addr_at < need || trx_hex_decode(in + addr_at, addr_len, addr) != SIZE_MAX ||
            trx_hex_decode(in + data_at, data_len, dst) != SIZE_MAX ||
            trx_hex_value[in[addr_at + need - 2]] == TRX_HEX_BAD ||
            trx_hex_value[in[addr_at + need - 1]] == TRX_HEX_BAD) {
            srec_digit_error(in, size, p, addr_at, need, addr_len, count, err);
            goto fail;
        }
        size_t cs_at = addr_at + need - 2;
        unsigned sum = count;
        uint64_t address = 0;
        for (unsigned i = 0; i < addr_len; i++) {
            sum += addr[i];
            address = address << 8 | addr[i];
        }
        for (unsigned i = 0; i < data_len; i++)
            sum += dst[i];
        unsigned computed = ~sum & 0xFFu;
        pos = cs_at + 2;
        if (trx_record_checksum(&srec_syntax, in, cs_at, computed, err) ||
            trx_record_end(&srec_syntax, in, size, pos, count, err))
            goto fail;
        if (type >= 1 && type <= 3) {
            if (image_builder_commit(&b, address, data_len, rec, err))
                goto fail;
            data_records++;
        } else if ((type == 5 || type == 6) && address != data_records) {
            trx_error_set(err, rec,
                          "S-record: S%u count record says %llu data records, but %llu precede it",
                          type, (unsigned long long)address, (unsigned long long)data_records);
            goto fail;
        } else if (type >= 7) {
            break; /* termination record: the rest is ignored */
        }
    }
    if (b.run_count == 0 && skipped > 0) {
        trx_record_none(&srec_syntax, pos, skipped, err);
        goto fail;
    }
    if (image_builder_finish(&b, img, pos, in, size, err))
        return -1;
    img->format = TRX_FORMAT_SREC;
    img->skipped_lines = skipped;
    return 0;
fail:
    image_builder_discard(&b);
    return -1;
}
