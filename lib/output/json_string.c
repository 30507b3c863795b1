/* json_string.c - JSON string literals for the JSON outputs (see json_string.h). */
#include "output/json_string.h"

#include <stdint.h>

int trx_utf8_sequence(const unsigned char *p)
{
    unsigned c = p[0];
    int n;
    uint32_t min;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        min = 0x10000;
    } else {
        return 0;
    }
    uint32_t cp = c & (0x7Fu >> n);
    for (int i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80) /* also stops at the NUL terminator */
            return 0;
        cp = cp << 6 | (p[i] & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

void trx_out_json_string(trx_out *o, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)s;
    trx_out_char(o, '"');
    while (*p) {
        const unsigned char *run = p; /* plain ASCII needs no escape: copy it in one go */
        while (*p >= 0x20 && *p < 0x7F && *p != '"' && *p != '\\')
            p++;
        if (p > run)
            trx_out_mem(o, run, (size_t)(p - run));
        if (!*p)
            break;
        unsigned c = *p;
        if (c == '"' || c == '\\') {
            trx_out_char(o, '\\');
            trx_out_char(o, (char)c);
            p++;
        } else if (c >= 0x20 && c < 0x7F) {
            trx_out_char(o, (char)c);
            p++;
        } else if (c == '\n') {
            trx_out_str(o, "\\n");
            p++;
        } else if (c == '\t') {
            trx_out_str(o, "\\t");
            p++;
        } else if (c == '\r') {
            trx_out_str(o, "\\r");
            p++;
        } else {
            int n = c >= 0x80 ? trx_utf8_sequence(p) : 0;
            if (n > 0) {
                trx_out_mem(o, p, (size_t)n);
                p += n;
            } else {
                trx_out_str(o, "\\u00");
                trx_out_char(o, hex[c >> 4]);
                trx_out_char(o, hex[c & 15]);
                p++;
            }
        }
    }
    trx_out_char(o, '"');
}
