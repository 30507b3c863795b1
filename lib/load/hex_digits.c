/* hex_digits.c - the lookup tables behind hex_digits.h and the description of
 * an unexpected byte for error messages (never containing a newline). */
#include <stdio.h>

#include "load/hex_digits.h"

#define X 0xFFu
/* clang-format off */
const uint8_t trx_hex_value[256] = {
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, /* 0x00 */
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, /* 0x10 */
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, /* 0x20 */
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, X, X, X, X, X, X, /* 0x30 '0'-'9' */
    X, 10, 11, 12, 13, 14, 15, X, X, X, X, X, X, X, X, X, /* 0x40 'A'-'F' */
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, /* 0x50 */
    X, 10, 11, 12, 13, 14, 15, X, X, X, X, X, X, X, X, X, /* 0x60 'a'-'f' */
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, /* 0x70 */
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, /* 0x80 */
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, /* 0xF0 */
};
/* clang-format on */
#undef X

const uint8_t trx_hex_space[256] = {
    ['\t'] = 1, ['\n'] = 1, ['\v'] = 1, ['\f'] = 1, ['\r'] = 1, [' '] = 1,
};

const char *trx_describe_byte(uint8_t c, char *buf)
{
    if (c == '\n' || c == '\r')
        snprintf(buf, 16, "end of line");
    else if (c == '\'')
        snprintf(buf, 16, "a quote");
    else if (c >= 0x21 && c <= 0x7E)
        snprintf(buf, 16, "'%c'", (char)c);
    else if (c == ' ' || c == '\t')
        snprintf(buf, 16, "white space");
    else
        snprintf(buf, 16, "byte 0x%02X", c);
    return buf;
}
