/*
 * ascii_load.c - ASCII hex to memory image (base 0), in two spellings:
 * - plain: hex byte pairs in either case, separated by any white space or by
 *   nothing at all (TraceX accepts "5458" as two bytes); anything else is an
 *   error, and so is a digit without a partner;
 * - a C array, as debuggers, scripts and `xxd -i` save memory: "0x54, 0x58,
 *   ..." with one comma between values, optionally inside braces after a
 *   declaration ("static const uint8_t trace[] = { ... };"), with C comments.
 *   Every value needs its 0x prefix (a bare "84" could be decimal), holds one
 *   byte, and the text after the closing brace may not open a second array.
 */
#include <stdbool.h>
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
                             "ASCII hex: \"0x\" prefixes are not allowed among plain hex "
                             "digit pairs (a C array has one on every value: 0x54, 0x58, ...)");
    if (trx_hex_space[next])
        return trx_error_set(err, pos + 1,
                             "ASCII hex: expected the second hex digit of a byte, found %s (odd "
                             "number of digits in a group)",
                             trx_describe_byte(next, what));
    return trx_error_set(err, pos + 1, "ASCII hex: expected hex digit, found %s",
                         trx_describe_byte(next, what));
}

/* ------------------------------------------------------------ C arrays */

/* Skips white space and C comments from `pos`; SIZE_MAX (with `err` set) for
 * a comment that never ends. */
static size_t skip_c_space(const uint8_t *in, size_t size, size_t pos, trx_error *err)
{
    for (;;) {
        pos = trx_skip_space(in, size, pos);
        if (size - pos < 2 || in[pos] != '/' || (in[pos + 1] != '*' && in[pos + 1] != '/'))
            return pos;
        size_t start = pos;
        if (in[pos + 1] == '/') {
            while (pos < size && in[pos] != '\n')
                pos++;
            continue;
        }
        for (pos += 2; size - pos >= 2 && !(in[pos] == '*' && in[pos + 1] == '/'); pos++)
            ;
        if (size - pos < 2) {
            trx_error_set(err, start, "ASCII hex: comment never ends (expected \"*/\")");
            return SIZE_MAX;
        }
        pos += 2;
    }
}

/* A byte that may appear in a C declaration before its '{'. */
static bool declaration_byte(uint8_t c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '[' || c == ']' || c == '=' || c == '*' || c == '(' || c == ')' || c == ',' ||
           trx_hex_space[c];
}

size_t trx_ascii_c_array_start(const uint8_t *in, size_t size, size_t pos, bool *braced)
{
    trx_error ignored;
    pos = skip_c_space(in, size, pos, &ignored);
    if (pos >= size)
        return SIZE_MAX;
    bool brace = false;
    size_t body = SIZE_MAX;
    if (size - pos >= 3 && in[pos] == '0' && (in[pos + 1] == 'x' || in[pos + 1] == 'X') &&
        trx_hex_value[in[pos + 2]] != TRX_HEX_BAD) {
        body = pos;
    } else if (in[pos] == '{') {
        brace = true;
        body = pos + 1;
    } else if ((in[pos] >= 'a' && in[pos] <= 'z') || (in[pos] >= 'A' && in[pos] <= 'Z') ||
               in[pos] == '_') {
        /* a declaration: "[static] [const] TYPE NAME[N] = {", within 1 KiB */
        bool assigned = false;
        for (size_t i = pos; i < size && i - pos < 1024; i++) {
            if (in[i] == '{' && assigned) {
                brace = true;
                body = i + 1;
                break;
            }
            if (!declaration_byte(in[i]))
                break;
            assigned |= in[i] == '=';
        }
    }
    if (body != SIZE_MAX && braced)
        *braced = brace;
    return body;
}

/* The byte values of a C array body starting at `pos` into `out` (room for
 * `limit` bytes); 0 or -1 with `err`. */
static int load_c_array(const uint8_t *in, size_t size, size_t pos, bool braced, uint8_t *out,
                        size_t limit, size_t *count, trx_error *err)
{
    char what[16];
    size_t n = 0;
    bool need_value = true; /* at the start and after a comma */
    for (;;) {
        if ((pos = skip_c_space(in, size, pos, err)) == SIZE_MAX)
            return -1;
        if (pos >= size) {
            if (braced)
                return trx_error_set(err, size,
                                     "ASCII hex: C array: expected '}', found end of file");
            if (need_value && n > 0)
                return trx_error_set(err, size,
                                     "ASCII hex: C array: expected 0x value after ',', "
                                     "found end of file");
            break;
        }
        uint8_t c = in[pos];
        if (braced && c == '}') { /* a trailing comma is fine */
            if ((pos = skip_c_space(in, size, pos + 1, err)) == SIZE_MAX)
                return -1;
            for (size_t i = pos; i < size; i++)
                if (in[i] == '{')
                    return trx_error_set(err, i,
                                         "ASCII hex: C array: a second array starts here "
                                         "(one array per file)");
            break;
        }
        if (!need_value) {
            if (c != ',')
                return trx_error_set(err, pos,
                                     "ASCII hex: C array: expected ',' %sbetween values, "
                                     "found %s",
                                     braced ? "or '}' " : "", trx_describe_byte(c, what));
            need_value = true;
            pos++;
            continue;
        }
        if (c != '0' || size - pos < 3 || (in[pos + 1] != 'x' && in[pos + 1] != 'X') ||
            trx_hex_value[in[pos + 2]] == TRX_HEX_BAD)
            return trx_error_set(err, pos, "ASCII hex: C array: expected a 0x byte value, found %s",
                                 trx_describe_byte(c, what));
        size_t digits = pos + 2, end = digits;
        while (end < size && trx_hex_value[in[end]] != TRX_HEX_BAD)
            end++;
        if (end - digits > 2)
            return trx_error_set(err, pos, "ASCII hex: C array: value %.*s is more than one byte",
                                 (int)(end - pos > 18 ? 18 : end - pos), (const char *)in + pos);
        if (n == limit)
            return trx_error_set(err, pos, "ASCII hex: more than %llu MiB of data",
                                 (unsigned long long)(TRX_IMAGE_MAX_SPAN >> 20));
        uint8_t v = trx_hex_value[in[digits]];
        if (end - digits == 2)
            v = (uint8_t)(v << 4 | trx_hex_value[in[digits + 1]]);
        out[n++] = v;
        pos = end;
        need_value = false;
    }
    *count = n;
    return 0;
}

/* ------------------------------------------------------------------ load */

int trx_load_ascii(trx_image *img, const uint8_t *in, size_t size, trx_error *err)
{
    size_t limit = size / 2 < TRX_IMAGE_MAX_SPAN ? size / 2 : (size_t)TRX_IMAGE_MAX_SPAN;
    uint8_t *out = malloc(limit ? limit : 1);
    if (!out)
        return trx_error_set(err, 0, "out of memory reading ASCII hex (%zu bytes)", limit);
    size_t n = 0, pos = trx_bom_length(in, size);
    bool braced;
    size_t body = trx_ascii_c_array_start(in, size, trx_skip_space(in, size, pos), &braced);
    if (body != SIZE_MAX) {
        if (load_c_array(in, size, body, braced, out, limit, &n, err)) {
            free(out);
            return -1;
        }
        pos = size;
    }
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
