/*
 * format_detect.c - guessing a dump's format from its first bytes: the TXTB
 * id in either byte order means a binary buffer; otherwise, after leading
 * white space (and a UTF-8 byte-order mark), ':' means Intel HEX, 'S' and a
 * digit an S-record, a hex digit pair or a C array of 0x values ("0x54,",
 * "{", "uint8_t buf[] = {") ASCII hex. Text that starts otherwise
 * (a console capture: banner and log lines before the export) is Intel HEX
 * or S-record when a later line starts like one. Anything else is treated as
 * binary, and the decoder then reports the bad id.
 */
#include "load/hex_digits.h"
#include "load/text_loaders.h"
#include "trx/trx.h"

/* Text whose first line is not a record: the first line (after white space)
 * that starts like an Intel HEX or S-record decides. Binary (a control byte
 * other than white space in the first line) stays binary. */
static trx_input_format detect_capture(const uint8_t *bytes, size_t size, size_t pos)
{
    for (size_t i = pos; i < size && bytes[i] != '\n'; i++)
        if ((bytes[i] < 0x20 && !trx_hex_space[bytes[i]]) || bytes[i] == 0x7F)
            return TRX_FORMAT_BIN;
    bool line_start = false;
    for (size_t i = pos; i < size; i++) {
        uint8_t c = bytes[i];
        if (c == '\n') {
            line_start = true;
        } else if (line_start && !trx_hex_space[c]) {
            if (c == ':')
                return TRX_FORMAT_IHEX;
            if (c == 'S' && i + 1 < size && bytes[i + 1] >= '0' && bytes[i + 1] <= '9')
                return TRX_FORMAT_SREC;
            line_start = false;
        }
    }
    return TRX_FORMAT_BIN;
}

trx_input_format trx_detect_format(const uint8_t *bytes, size_t size)
{
    if (size >= 4 && ((bytes[0] == 'T' && bytes[1] == 'X' && bytes[2] == 'T' && bytes[3] == 'B') ||
                      (bytes[0] == 'B' && bytes[1] == 'T' && bytes[2] == 'X' && bytes[3] == 'T')))
        return TRX_FORMAT_BIN;
    size_t pos = trx_skip_space(bytes, size, trx_bom_length(bytes, size));
    if (pos >= size)
        return TRX_FORMAT_BIN;
    const uint8_t *p = bytes + pos;
    size_t left = size - pos;
    if (p[0] == ':')
        return TRX_FORMAT_IHEX;
    if (p[0] == 'S' && left >= 2 && p[1] >= '0' && p[1] <= '9')
        return TRX_FORMAT_SREC;
    if (trx_ascii_c_array_start(bytes, size, pos, NULL) != SIZE_MAX)
        return TRX_FORMAT_ASCII;
    if (left >= 2 && trx_hex_value[p[0]] != TRX_HEX_BAD && trx_hex_value[p[1]] != TRX_HEX_BAD &&
        (left == 2 || trx_hex_value[p[2]] != TRX_HEX_BAD || trx_hex_space[p[2]]))
        return TRX_FORMAT_ASCII;
    return detect_capture(bytes, size, pos);
}
