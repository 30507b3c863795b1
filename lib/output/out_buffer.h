/*
 * out_buffer.h - a small buffered text writer shared by every output: plain
 * appends into a 64 KiB buffer, no printf in the hot path, optional CRLF
 * line endings. Write errors are remembered and reported by trx_out_flush.
 */
#ifndef TRX_OUT_BUFFER_H
#define TRX_OUT_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define TRX_OUT_BUFFER_SIZE (1u << 16)

typedef struct trx_out {
    FILE *f;
    bool crlf;  /* write "\r\n" for every '\n' */
    size_t len; /* bytes waiting in buf */
    char buf[TRX_OUT_BUFFER_SIZE];
    int error; /* errno of the first failed write, 0 if none */
} trx_out;

/* Starts writing to `f`; with `crlf`, each '\n' becomes "\r\n". */
void trx_out_init(trx_out *o, FILE *f, bool crlf);

/* Writes the buffered bytes to the stream (and fflush); 0, or -1 after any write error. */
int trx_out_flush(trx_out *o);

/* Internal: makes room by writing the buffer out (used by the inline helpers). */
void trx_out_drain_(trx_out *o);

/* Internal: trx_out_mem when the bytes do not simply fit or need CRLF conversion. */
void trx_out_mem_slow_(trx_out *o, const void *p, size_t n);

/* Appends `n` bytes (newlines converted when crlf). */
static inline void trx_out_mem(trx_out *o, const void *p, size_t n)
{
    if (!o->crlf && n <= sizeof o->buf - o->len) {
        memcpy(o->buf + o->len, p, n);
        o->len += n;
        return;
    }
    trx_out_mem_slow_(o, p, n);
}

/* Appends a NUL-terminated string. */
static inline void trx_out_str(trx_out *o, const char *s)
{
    trx_out_mem(o, s, strlen(s));
}

/* Appends one character. */
static inline void trx_out_char(trx_out *o, char c)
{
    if (o->len + 2 > sizeof o->buf)
        trx_out_drain_(o);
    if (c == '\n' && o->crlf)
        o->buf[o->len++] = '\r';
    o->buf[o->len++] = c;
}

/* printf-style append for reports (not for hot paths); at most 4 KiB per call. */
void trx_out_printf(trx_out *o, const char *fmt, ...)
#if defined(__MINGW32__) /* the library is built with MinGW's C99 printf */
    __attribute__((format(gnu_printf, 2, 3)))
#elif defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Appends `v` as exactly 8 upper-case hex digits (like "%08lX"). */
void trx_out_hex32(trx_out *o, uint32_t v);

/* Appends `v` in decimal, right-aligned in `width` characters filled with
 * `pad` (width 0 or too small: the natural width). */
void trx_out_u64_pad(trx_out *o, uint64_t v, int width, char pad);

/* Writes `v` in decimal at `d` (room for 20 characters); returns the end. */
char *trx_put_u64(char *d, uint64_t v);

/* Appends a 32-bit field word in decimal: as int32 when `is_signed` (a field
 * its description declares i32: -18, not 4294967278), else unsigned. */
void trx_out_word(trx_out *o, uint32_t v, bool is_signed);

#endif /* TRX_OUT_BUFFER_H */
