/* json_string.c - JSON string literals for the JSON outputs (see json_string.h). */
#include "output/json_string.h"

#include <stdint.h>
#include <string.h>

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

size_t trx_json_escape_some(char *d, size_t room, const char **s)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)*s;
    char *o = d, *end = d + room;
    while (*p && end - o >= TRX_JSON_ESCAPE_MAX) {
        unsigned c = *p;
        if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') { /* plain ASCII: as it is */
            *o++ = (char)c;
            p++;
            continue;
        }
        int n = c >= 0x80 ? trx_utf8_sequence(p) : 0;
        if (n > 0) { /* valid UTF-8 passes through */
            memcpy(o, p, (size_t)n);
            o += n;
            p += n;
            continue;
        }
        p++;
        char short_escape = c == '"'    ? '"'
                            : c == '\\' ? '\\'
                            : c == '\n' ? 'n'
                            : c == '\t' ? 't'
                            : c == '\r' ? 'r'
                                        : 0;
        if (short_escape) {
            o[0] = '\\';
            o[1] = short_escape;
            o += 2;
        } else { /* other control bytes and bytes that start no UTF-8 sequence */
            memcpy(o, "\\u00", 4);
            o[4] = hex[c >> 4];
            o[5] = hex[c & 15];
            o += 6;
        }
    }
    *s = (const char *)p;
    return (size_t)(o - d);
}

void trx_out_json_string(trx_out *o, const char *s)
{
    trx_out_char(o, '"');
    while (*s) { /* no '\n' is ever written raw: nothing for CRLF to convert */
        if (sizeof o->buf - o->len < TRX_JSON_ESCAPE_MAX)
            trx_out_drain_(o);
        o->len += trx_json_escape_some(o->buf + o->len, sizeof o->buf - o->len, &s);
    }
    trx_out_char(o, '"');
}
