/* out_buffer.c - the buffered text writer behind every output (see out_buffer.h). */
#include "output/out_buffer.h"

#include <errno.h>
#include <string.h>

void trx_out_init(trx_out *o, FILE *f, bool crlf)
{
    o->f = f;
    o->crlf = crlf;
    o->len = 0;
    o->error = 0;
}

void trx_out_drain_(trx_out *o)
{
    if (o->len > 0 && o->error == 0) {
        errno = 0;
        if (fwrite(o->buf, 1, o->len, o->f) != o->len)
            o->error = errno ? errno : EIO;
    }
    o->len = 0;
}

int trx_out_flush(trx_out *o)
{
    trx_out_drain_(o);
    if (o->error == 0) {
        errno = 0;
        if (fflush(o->f) != 0 || ferror(o->f))
            o->error = errno ? errno : EIO;
    }
    return o->error ? -1 : 0;
}

/* Copies bytes that contain no '\n' (or any bytes when not converting). */
static void put_plain(trx_out *o, const char *p, size_t n)
{
    while (n > 0) {
        size_t room = sizeof o->buf - o->len;
        if (room == 0) {
            trx_out_drain_(o);
            room = sizeof o->buf;
        }
        size_t k = n < room ? n : room;
        memcpy(o->buf + o->len, p, k);
        o->len += k;
        p += k;
        n -= k;
    }
}

void trx_out_mem(trx_out *o, const void *p, size_t n)
{
    const char *s = p;
    if (!o->crlf) {
        put_plain(o, s, n);
        return;
    }
    while (n > 0) {
        const char *nl = memchr(s, '\n', n);
        size_t k = nl ? (size_t)(nl - s) : n;
        put_plain(o, s, k);
        if (!nl)
            break;
        put_plain(o, "\r\n", 2);
        s += k + 1;
        n -= k + 1;
    }
}

void trx_out_str(trx_out *o, const char *s)
{
    trx_out_mem(o, s, strlen(s));
}

void trx_out_hex32(trx_out *o, uint32_t v)
{
    static const char digits[] = "0123456789ABCDEF";
    if (o->len + 8 > sizeof o->buf)
        trx_out_drain_(o);
    char *d = o->buf + o->len;
    for (int i = 7; i >= 0; i--) {
        d[i] = digits[v & 15u];
        v >>= 4;
    }
    o->len += 8;
}

void trx_out_u64_pad(trx_out *o, uint64_t v, int width, char pad)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[sizeof tmp - 1 - (size_t)n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0);
    if (width > 200)
        width = 200;
    if (o->len + (size_t)(width > n ? width : n) > sizeof o->buf)
        trx_out_drain_(o);
    char *d = o->buf + o->len;
    int fill = width > n ? width - n : 0;
    if (fill)
        memset(d, pad, (size_t)fill);
    memcpy(d + fill, tmp + sizeof tmp - (size_t)n, (size_t)n);
    o->len += (size_t)(fill + n);
}
