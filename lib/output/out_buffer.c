/* out_buffer.c - the buffered text writer behind every output (see out_buffer.h). */
#include "output/out_buffer.h"

#include <errno.h>
#include <stdarg.h>
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

void trx_out_mem_slow_(trx_out *o, const void *p, size_t n)
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

/* "00".."99": two decimal digits at a time. */
static const char two_digits[201] = "00010203040506070809"
                                    "10111213141516171819"
                                    "20212223242526272829"
                                    "30313233343536373839"
                                    "40414243444546474849"
                                    "50515253545556575859"
                                    "60616263646566676869"
                                    "70717273747576777879"
                                    "80818283848586878889"
                                    "90919293949596979899";

/* Writes the digits of `v` ending just before `end`; returns where they start. */
static char *digits_before(char *end, uint64_t v)
{
    while (v > 0xFFFFFFFFu) { /* 64-bit divisions only while needed */
        uint64_t q = v / 100u;
        unsigned r = (unsigned)(v - q * 100u);
        end -= 2;
        memcpy(end, two_digits + 2 * r, 2);
        v = q;
    }
    uint32_t w = (uint32_t)v;
    while (w >= 10000u) { /* four digits a step: half the dependent divisions */
        uint32_t q = w / 10000u;
        unsigned r = w - q * 10000u, high = r / 100u;
        end -= 4;
        memcpy(end, two_digits + 2 * high, 2);
        memcpy(end + 2, two_digits + 2 * (r - high * 100u), 2);
        w = q;
    }
    if (w >= 100u) {
        uint32_t q = w / 100u;
        unsigned r = w - q * 100u;
        end -= 2;
        memcpy(end, two_digits + 2 * r, 2);
        w = q;
    }
    if (w >= 10u) {
        end -= 2;
        memcpy(end, two_digits + 2 * w, 2);
    } else {
        *--end = (char)('0' + w);
    }
    return end;
}

/* The number of decimal digits of `v` (1 for 0). */
static int decimal_digits(uint64_t v)
{
    static const uint64_t powers[20] = {1u,
                                        10u,
                                        100u,
                                        1000u,
                                        10000u,
                                        100000u,
                                        1000000u,
                                        10000000u,
                                        100000000u,
                                        1000000000u,
                                        10000000000u,
                                        100000000000u,
                                        1000000000000u,
                                        10000000000000u,
                                        100000000000000u,
                                        1000000000000000u,
                                        10000000000000000u,
                                        100000000000000000u,
                                        1000000000000000000u,
                                        10000000000000000000u};
    v |= 1u; /* the same digits (powers of ten above 1 are even), and 0 has one */
#if defined(__GNUC__)
    int below = (64 - __builtin_clzll(v)) * 1233 >> 12; /* bits * log10(2): 10^below <= 2 v */
    return below + (v >= powers[below]);
#else
    int n = 1;
    while (n < 20 && v >= powers[n])
        n++;
    return n;
#endif
}

char *trx_put_u64(char *d, uint64_t v)
{
    char *end = d + decimal_digits(v);
    digits_before(end, v);
    return end;
}

void trx_out_u64_pad(trx_out *o, uint64_t v, int width, char pad)
{
    int n = decimal_digits(v);
    if (width > 200)
        width = 200;
    int fill = width > n ? width - n : 0;
    if (o->len + (size_t)(fill + n) > sizeof o->buf)
        trx_out_drain_(o);
    char *d = o->buf + o->len;
    if (fill)
        memset(d, pad, (size_t)fill);
    digits_before(d + fill + n, v);
    o->len += (size_t)(fill + n);
}

void trx_out_printf(trx_out *o, const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n > 0)
        trx_out_mem(o, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

void trx_out_word(trx_out *o, uint32_t v, bool is_signed)
{
    if (is_signed && (v & 0x80000000u)) {
        trx_out_char(o, '-');
        v = 0u - v; /* the magnitude of the negative int32 */
    }
    trx_out_u64_pad(o, v, 0, ' ');
}
