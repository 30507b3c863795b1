/* protobuf_writer.c - protobuf wire-format encoding into fixed buffers (see protobuf_writer.h). */
#include "output/protobuf_writer.h"

#include <string.h>

#include "output/json_string.h"

void trx_pb_reset(trx_pb *b)
{
    b->len = 0;
    b->overflow = false;
}

size_t trx_pb_encode_varint(uint8_t *out, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        out[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    out[n++] = (uint8_t)v;
    return n;
}

static void put(trx_pb *b, const void *p, size_t n)
{
    if (b->overflow || n > sizeof b->data - b->len) {
        b->overflow = true;
        return;
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

static void key(trx_pb *b, uint32_t field, uint32_t wire)
{
    uint8_t tmp[10];
    put(b, tmp, trx_pb_encode_varint(tmp, (uint64_t)field << 3 | wire));
}

void trx_pb_varint(trx_pb *b, uint32_t field, uint64_t v)
{
    uint8_t tmp[10];
    key(b, field, 0);
    put(b, tmp, trx_pb_encode_varint(tmp, v));
}

void trx_pb_fixed64(trx_pb *b, uint32_t field, uint64_t v)
{
    uint8_t tmp[8];
    for (int i = 0; i < 8; i++)
        tmp[i] = (uint8_t)(v >> (8 * i));
    key(b, field, 1);
    put(b, tmp, 8);
}

void trx_pb_double(trx_pb *b, uint32_t field, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    trx_pb_fixed64(b, field, bits);
}

void trx_pb_bytes(trx_pb *b, uint32_t field, const void *p, size_t n)
{
    uint8_t tmp[10];
    key(b, field, 2);
    put(b, tmp, trx_pb_encode_varint(tmp, n));
    put(b, p, n);
}

void trx_pb_string(trx_pb *b, uint32_t field, const char *s)
{
    trx_pb_bytes(b, field, s, strlen(s));
}

void trx_pb_message(trx_pb *b, uint32_t field, const trx_pb *m)
{
    if (m->overflow)
        b->overflow = true;
    trx_pb_bytes(b, field, m->data, m->len);
}

void trx_pb_text(trx_pb *b, uint32_t field, const char *s)
{
    uint8_t tmp[1024];
    size_t n = 0;
    const unsigned char *p = (const unsigned char *)s;
    while (*p && n + 4 <= sizeof tmp) {
        int k = *p >= 0x80 ? trx_utf8_sequence(p) : 1;
        if (k > 0) {
            memcpy(tmp + n, p, (size_t)k);
            n += (size_t)k;
            p += k;
        } else {
            tmp[n++] = (uint8_t)(0xC0 | *p >> 6);
            tmp[n++] = (uint8_t)(0x80 | (*p & 0x3F));
            p++;
        }
    }
    trx_pb_bytes(b, field, tmp, n);
}
