/*
 * trx_export.c - streams a memory region as Intel HEX or Motorola S-record
 * text through a put-char callback, so firmware can ship its trace buffer
 * over a UART without a debugger. Freestanding C99: no libc, no heap; the
 * record layout rules are documented in include/trx/export.h.
 */
#include "trx/export.h"

#include <stddef.h>

/* Where the characters go and the checksum of the record being written. */
typedef struct record_writer {
    trx_export_put_fn put;
    void *ctx;
    unsigned flags;
    uint8_t sum; /* sum of the bytes written since record_begin */
} record_writer;

static const char hex_digits[16] = {'0', '1', '2', '3', '4', '5', '6', '7',
                                    '8', '9', 'A', 'B', 'C', 'D', 'E', 'F'};

/* Writes one byte as two hex digits and adds it to the checksum. */
static void put_byte(record_writer *w, uint8_t b)
{
    w->put(w->ctx, hex_digits[b >> 4]);
    w->put(w->ctx, hex_digits[b & 0xFu]);
    w->sum = (uint8_t)(w->sum + b);
}

/* Writes the `nbytes` low bytes of `value`, most significant first. */
static void put_be(record_writer *w, uint32_t value, unsigned nbytes)
{
    while (nbytes > 0u) {
        nbytes--;
        put_byte(w, (uint8_t)(value >> (8u * nbytes)));
    }
}

/* Writes `len` bytes from `data` as hex digits, adding them to the checksum. */
static void put_bytes(record_writer *w, const uint8_t *data, uint32_t len)
{
    uint32_t i;

    for (i = 0; i < len; i++)
        put_byte(w, data[i]);
}

/* Ends a line with LF or CR LF. */
static void put_eol(record_writer *w)
{
    if (w->flags & TRX_EXPORT_CRLF)
        w->put(w->ctx, '\r');
    w->put(w->ctx, '\n');
}

/* Writes a marker line (TRX_EXPORT_MARKERS) or nothing. */
static void put_marker(record_writer *w, const char *text)
{
    if (!(w->flags & TRX_EXPORT_MARKERS))
        return;
    while (*text != '\0')
        w->put(w->ctx, *text++);
    put_eol(w);
}

/* Common argument checks, then sets up `w`; returns TRX_EXPORT_OK or an error code. */
static int start_writer(record_writer *w, const void *data, uint32_t size, uint32_t load_address,
                        unsigned flags, trx_export_put_fn put, void *ctx)
{
    if (put == NULL || (data == NULL && size > 0u))
        return TRX_EXPORT_BAD_ARGUMENT;
    if (size > 0u && (uint32_t)(load_address + (size - 1u)) < load_address)
        return TRX_EXPORT_ADDRESS_RANGE;
    w->put = put;
    w->ctx = ctx;
    w->flags = flags;
    w->sum = 0;
    return TRX_EXPORT_OK;
}

/* Bytes per data record as the flags ask. */
static uint32_t record_length(unsigned flags)
{
    return (flags & TRX_EXPORT_RECORD_32) ? 32u : 16u;
}

/* ------------------------------------------------------------ Intel HEX */

/* One Intel HEX record: ':' length, 16-bit offset, type, data, checksum. */
static void ihex_record(record_writer *w, uint8_t type, uint16_t offset, const uint8_t *data,
                        uint32_t len)
{
    w->put(w->ctx, ':');
    w->sum = 0;
    put_byte(w, (uint8_t)len);
    put_be(w, offset, 2u);
    put_byte(w, type);
    put_bytes(w, data, len);
    put_byte(w, (uint8_t)(0u - w->sum));
    put_eol(w);
}

/* Writes `size` bytes at `data` as Intel HEX loading at `load_address`. */
int trx_export_ihex(const void *data, uint32_t size, uint32_t load_address, unsigned flags,
                    trx_export_put_fn put, void *ctx)
{
    const uint8_t *bytes = (const uint8_t *)data;
    uint32_t max_len = record_length(flags);
    uint32_t done = 0;
    uint32_t upper = 0; /* the upper 16 bits the reader currently assumes */
    record_writer w;
    int status = start_writer(&w, data, size, load_address, flags, put, ctx);

    if (status != TRX_EXPORT_OK)
        return status;
    put_marker(&w, TRX_EXPORT_BEGIN);

    while (done < size) {
        uint32_t address = load_address + done;
        uint32_t to_boundary = 0x10000u - (address & 0xFFFFu);
        uint32_t len = size - done;

        if ((address >> 16) != upper) {
            uint8_t ela[2];
            upper = address >> 16;
            ela[0] = (uint8_t)(upper >> 8);
            ela[1] = (uint8_t)upper;
            ihex_record(&w, 0x04u, 0u, ela, 2u);
        }
        if (len > max_len)
            len = max_len;
        if (len > to_boundary)
            len = to_boundary;
        ihex_record(&w, 0x00u, (uint16_t)(address & 0xFFFFu), bytes + done, len);
        done += len;
    }
    ihex_record(&w, 0x01u, 0u, NULL, 0u);
    put_marker(&w, TRX_EXPORT_END);
    return TRX_EXPORT_OK;
}

/* ------------------------------------------------------------ S-record */

/* One S-record: 'S' type, count, address, data, checksum. */
static void srec_record(record_writer *w, char type, uint32_t address, unsigned address_bytes,
                        const uint8_t *data, uint32_t len)
{
    w->put(w->ctx, 'S');
    w->put(w->ctx, type);
    w->sum = 0;
    put_byte(w, (uint8_t)(address_bytes + len + 1u));
    put_be(w, address, address_bytes);
    put_bytes(w, data, len);
    put_byte(w, (uint8_t)~w->sum);
    put_eol(w);
}

/* Writes `size` bytes at `data` as Motorola S-records loading at `load_address`. */
int trx_export_srec(const void *data, uint32_t size, uint32_t load_address, unsigned flags,
                    trx_export_put_fn put, void *ctx)
{
    static const uint8_t header_text[3] = {'t', 'r', 'x'};
    const uint8_t *bytes = (const uint8_t *)data;
    uint32_t max_len = record_length(flags);
    uint32_t last = (size > 0u) ? load_address + (size - 1u) : load_address;
    uint32_t done = 0;
    unsigned address_bytes;
    char data_type, end_type;
    record_writer w;
    int status = start_writer(&w, data, size, load_address, flags, put, ctx);

    if (status != TRX_EXPORT_OK)
        return status;
    put_marker(&w, TRX_EXPORT_BEGIN);

    if (!(flags & TRX_EXPORT_SREC_S3) && last <= 0xFFFFu) {
        address_bytes = 2u;
        data_type = '1';
        end_type = '9';
    } else if (!(flags & TRX_EXPORT_SREC_S3) && last <= 0xFFFFFFu) {
        address_bytes = 3u;
        data_type = '2';
        end_type = '8';
    } else {
        address_bytes = 4u;
        data_type = '3';
        end_type = '7';
    }

    srec_record(&w, '0', 0u, 2u, header_text, sizeof header_text);
    while (done < size) {
        uint32_t len = size - done;
        if (len > max_len)
            len = max_len;
        srec_record(&w, data_type, load_address + done, address_bytes, bytes + done, len);
        done += len;
    }
    srec_record(&w, end_type, load_address, address_bytes, NULL, 0u);
    put_marker(&w, TRX_EXPORT_END);
    return TRX_EXPORT_OK;
}
