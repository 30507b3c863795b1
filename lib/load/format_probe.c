/*
 * format_probe.c - deciding from the first bytes of a stream whether it can
 * be a trace dump at all (format_probe.h). Only the start is judged; the
 * loaders and the decoder check everything else once the whole input is in.
 */
#include <stdbool.h>
#include <stdio.h>

#include "decode/uia_internal.h"
#include "load/format_probe.h"
#include "load/hex_digits.h"
#include "load/text_loaders.h"

/* Whether a binary trace starts here: the TXTB id in either byte order, or
 * what the UIA decoder takes for UIA (a packet header or valid records). */
static bool binary_trace_signature(const uint8_t *b, size_t size)
{
    return (size >= 4 && ((b[0] == 'T' && b[1] == 'X' && b[2] == 'T' && b[3] == 'B') ||
                          (b[0] == 'B' && b[1] == 'T' && b[2] == 'X' && b[3] == 'T'))) ||
           trx_uia_probe(b, size);
}

/* Whether some line of `b` starts (after blanks) with `c` (and a digit if `digit`). */
static bool line_starts_with(const uint8_t *b, size_t size, uint8_t c, bool digit)
{
    bool line_start = true;
    for (size_t i = trx_bom_length(b, size); i < size; i++) {
        if (b[i] == '\n') {
            line_start = true;
        } else if (line_start && !trx_hex_space[b[i]]) {
            if (b[i] == c && (!digit || (i + 1 < size && b[i + 1] >= '0' && b[i + 1] <= '9')))
                return true;
            line_start = false;
        }
    }
    return false;
}

int trx_probe_format(const uint8_t *bytes, size_t size, trx_input_format format, trx_error *err)
{
    bool detected = format == TRX_FORMAT_AUTO;
    if (detected)
        format = trx_detect_format(bytes, size);
    switch (format) {
    case TRX_FORMAT_IHEX:
        if (line_starts_with(bytes, size, ':', false))
            return 0;
        return trx_error_set(err, 0, "no Intel HEX record in the first %zu bytes (stopped reading)",
                             size);
    case TRX_FORMAT_SREC:
        if (line_starts_with(bytes, size, 'S', true))
            return 0;
        return trx_error_set(err, 0, "no S-record in the first %zu bytes (stopped reading)", size);
    case TRX_FORMAT_ASCII: {
        size_t pos = trx_skip_space(bytes, size, trx_bom_length(bytes, size));
        if (pos < size && (trx_hex_value[bytes[pos]] != TRX_HEX_BAD ||
                           trx_ascii_c_array_start(bytes, size, pos, NULL) != SIZE_MAX))
            return 0;
        return trx_error_set(err, pos,
                             "ASCII hex: expected hex digits or a C array of 0x values "
                             "at the start (stopped reading)");
    }
    case TRX_FORMAT_BIN:
    case TRX_FORMAT_AUTO:
    default:
        break;
    }
    if (binary_trace_signature(bytes, size))
        return 0;
    char first[16] = "";
    if (size >= 4)
        snprintf(first, sizeof first, "%02X %02X %02X %02X", bytes[0], bytes[1], bytes[2],
                 bytes[3]);
    if (detected)
        return trx_error_set(
            err, 0,
            "not a trace: no TXTB id at the start (found %s), no UIA records and no "
            "Intel HEX, S-record or ASCII hex text in the first %zu bytes (stopped reading)",
            first, size);
    return trx_error_set(err, 0,
                         "not a trace: expected the id \"TXTB\" or UIA records at the "
                         "start, found %s (stopped reading)",
                         first);
}
