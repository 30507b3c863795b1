/* reencode.c - Intel HEX and S-record copies of a trace buffer (see
 * reencode.h), written from the format definitions. */
#include "reencode.h"

#include <stdbool.h>
#include <stdlib.h>

#define RECORD_BYTES 32u

typedef struct text {
    char *s;
    size_t len, cap;
    bool failed;
} text;

static void put_char(text *t, char c)
{
    if (t->failed)
        return;
    if (t->len + 2 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 4096;
        char *n = realloc(t->s, cap);
        if (!n) {
            t->failed = true;
            return;
        }
        t->s = n;
        t->cap = cap;
    }
    t->s[t->len++] = c;
    t->s[t->len] = '\0';
}

static void put_hex8(text *t, unsigned v)
{
    static const char digits[] = "0123456789ABCDEF";
    put_char(t, digits[(v >> 4) & 15u]);
    put_char(t, digits[v & 15u]);
}

static char *finish(text *t, size_t *len)
{
    if (t->failed) {
        free(t->s);
        return NULL;
    }
    *len = t->len;
    return t->s;
}

/* One Intel HEX record: length, 16-bit address, type, data, checksum. */
static void ihex_record(text *t, unsigned type, unsigned address, const uint8_t *data, size_t n)
{
    unsigned sum = (unsigned)n + (address >> 8) + (address & 0xFFu) + type;
    put_char(t, ':');
    put_hex8(t, (unsigned)n);
    put_hex8(t, address >> 8);
    put_hex8(t, address & 0xFFu);
    put_hex8(t, type);
    for (size_t i = 0; i < n; i++) {
        put_hex8(t, data[i]);
        sum += data[i];
    }
    put_hex8(t, (0x100u - (sum & 0xFFu)) & 0xFFu);
    put_char(t, '\n');
}

char *reencode_ihex(const uint8_t *bytes, size_t size, uint32_t address, size_t *len)
{
    text t = {0};
    uint32_t upper = UINT32_MAX;
    for (size_t off = 0; off < size;) {
        uint32_t a = address + (uint32_t)off;
        size_t n = size - off < RECORD_BYTES ? size - off : RECORD_BYTES;
        size_t to_boundary = 0x10000u - (a & 0xFFFFu); /* a record stays inside 64 KiB */
        if (n > to_boundary)
            n = to_boundary;
        if (a >> 16 != upper) {
            upper = a >> 16;
            const uint8_t ela[2] = {(uint8_t)(upper >> 8), (uint8_t)upper};
            ihex_record(&t, 4, 0, ela, 2);
        }
        ihex_record(&t, 0, a & 0xFFFFu, bytes + off, n);
        off += n;
    }
    ihex_record(&t, 1, 0, NULL, 0);
    return finish(&t, len);
}

/* One S-record: type, count, address of `address_bytes` bytes, data, checksum. */
static void srec_record(text *t, char type, uint32_t address, unsigned address_bytes,
                        const uint8_t *data, size_t n)
{
    unsigned count = address_bytes + (unsigned)n + 1;
    unsigned sum = count;
    put_char(t, 'S');
    put_char(t, type);
    put_hex8(t, count);
    for (unsigned k = address_bytes; k-- > 0;) {
        unsigned b = (address >> (8 * k)) & 0xFFu;
        put_hex8(t, b);
        sum += b;
    }
    for (size_t i = 0; i < n; i++) {
        put_hex8(t, data[i]);
        sum += data[i];
    }
    put_hex8(t, ~sum & 0xFFu);
    put_char(t, '\n');
}

char *reencode_srec(const uint8_t *bytes, size_t size, uint32_t address, size_t *len)
{
    text t = {0};
    static const uint8_t header[] = {'t', 'r', 'x'};
    srec_record(&t, '0', 0, 2, header, sizeof header);
    for (size_t off = 0; off < size; off += RECORD_BYTES) {
        size_t n = size - off < RECORD_BYTES ? size - off : RECORD_BYTES;
        srec_record(&t, '3', address + (uint32_t)off, 4, bytes + off, n);
    }
    srec_record(&t, '7', address, 4, NULL, 0);
    return finish(&t, len);
}
