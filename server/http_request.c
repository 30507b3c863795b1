/*
 * http_request.c - parses a request head strictly (see http_request.h):
 * request line, header fields (token names, no folding, no control bytes),
 * the Host field once, no Content-Length other than 0, no Transfer-Encoding.
 */
#include <string.h>

#include "http_request.h"

static bool is_tchar(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

static bool same_name(const char *p, size_t n, const char *name)
{
    if (strlen(name) != n)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = p[i] >= 'A' && p[i] <= 'Z' ? (char)(p[i] - 'A' + 'a') : p[i];
        if (c != name[i])
            return false;
    }
    return true;
}

/* The end of the head (after CRLF CRLF) within buf[0..len), or 0. */
static size_t head_end(const char *buf, size_t len)
{
    for (size_t i = 3; i < len; i++)
        if (buf[i] == '\n' && buf[i - 1] == '\r' && buf[i - 2] == '\n' && buf[i - 3] == '\r')
            return i + 1;
    return 0;
}

static int parse_request_line(const char *p, size_t n, trx_http_request *r)
{
    if (n < 4 || memcmp(p, "GET ", 4) != 0) {
        for (size_t i = 0; i < n && p[i] != ' '; i++)
            if (!is_tchar((unsigned char)p[i]))
                return -400;
        return memchr(p, ' ', n) ? -405 : -400;
    }
    const char *target = p + 4, *sp = memchr(target, ' ', n - 4);
    if (!sp || target[0] != '/')
        return -400;
    const char *version = sp + 1;
    size_t vlen = (size_t)(p + n - version);
    if (vlen != 8 || memcmp(version, "HTTP/1.", 7) != 0)
        return vlen >= 5 && memcmp(version, "HTTP/", 5) == 0 ? -505 : -400;
    if (version[7] != '0' && version[7] != '1')
        return -505;
    size_t tlen = (size_t)(sp - target);
    for (size_t i = 0; i < tlen; i++)
        if ((unsigned char)target[i] <= 0x20 || (unsigned char)target[i] >= 0x7F)
            return -400;
    const char *q = memchr(target, '?', tlen);
    size_t plen = q ? (size_t)(q - target) : tlen, qlen = q ? tlen - plen - 1 : 0;
    if (plen >= TRX_HTTP_PATH_MAX || qlen >= TRX_HTTP_QUERY_MAX)
        return -414;
    if (memchr(target, '#', tlen))
        return -400;
    memcpy(r->path, target, plen);
    r->path[plen] = '\0';
    memcpy(r->query, q ? q + 1 : "", qlen);
    r->query[qlen] = '\0';
    return 0;
}

int trx_http_parse(const char *buf, size_t len, trx_http_request *r)
{
    memset(r, 0, sizeof *r);
    size_t end = head_end(buf, len < TRX_HTTP_HEAD_MAX ? len : TRX_HTTP_HEAD_MAX);
    if (!end) {
        const char *nl = memchr(buf, '\n', len < TRX_HTTP_HEAD_MAX ? len : TRX_HTTP_HEAD_MAX);
        if (nl && (nl == buf || nl[-1] != '\r'))
            return -400; /* a bare LF: not HTTP as we take it */
        return len >= TRX_HTTP_HEAD_MAX ? -431 : 0;
    }
    const char *p = buf, *stop = buf + end - 2; /* the last line is the empty one */
    const char *eol = memchr(p, '\r', (size_t)(stop - p));
    if (!eol || eol[1] != '\n')
        return -400;
    int rc = parse_request_line(p, (size_t)(eol - p), r);
    if (rc < 0)
        return rc;
    int hosts = 0;
    for (p = eol + 2; p < stop; p = eol + 2) {
        eol = memchr(p, '\r', (size_t)(stop - p));
        if (!eol || eol[1] != '\n')
            return -400;
        const char *colon = memchr(p, ':', (size_t)(eol - p));
        if (!colon || colon == p)
            return -400; /* no name, or a folded line (starts with white space) */
        for (const char *c = p; c < colon; c++)
            if (!is_tchar((unsigned char)*c))
                return -400;
        const char *v = colon + 1, *ve = eol;
        while (v < ve && (*v == ' ' || *v == '\t'))
            v++;
        while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t'))
            ve--;
        for (const char *c = v; c < ve; c++)
            if (((unsigned char)*c < 0x20 && *c != '\t') || *c == 0x7F)
                return -400;
        size_t nlen = (size_t)(colon - p), vlen = (size_t)(ve - v);
        if (same_name(p, nlen, "host")) {
            if (hosts++ || vlen == 0 || vlen >= TRX_HTTP_HOST_MAX)
                return -400;
            memcpy(r->host, v, vlen);
            r->host[vlen] = '\0';
        } else if (same_name(p, nlen, "transfer-encoding")) {
            return -400; /* GET carries no body */
        } else if (same_name(p, nlen, "content-length")) {
            if (vlen != 1 || *v != '0')
                return -400;
        }
    }
    if (hosts != 1)
        return -400;
    return (int)end;
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool trx_http_query_get(const char *query, const char *name, char *out, size_t size)
{
    size_t nlen = strlen(name);
    for (const char *p = query; *p;) {
        const char *amp = strchr(p, '&'), *end = amp ? amp : p + strlen(p);
        if ((size_t)(end - p) > nlen && memcmp(p, name, nlen) == 0 && p[nlen] == '=') {
            size_t n = 0;
            for (const char *c = p + nlen + 1; c < end; c++) {
                char ch = *c;
                if (ch == '+') {
                    ch = ' ';
                } else if (ch == '%') {
                    if (end - c < 3)
                        return false;
                    int hi = hex_value(c[1]), lo = hex_value(c[2]);
                    if (hi < 0 || lo < 0)
                        return false;
                    ch = (char)(hi << 4 | lo);
                    c += 2;
                }
                if (n + 1 >= size)
                    return false;
                out[n++] = ch;
            }
            out[n] = '\0';
            return true;
        }
        p = amp ? amp + 1 : end;
    }
    return false;
}

bool trx_http_secret_equal(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    unsigned char diff = (unsigned char)(na != nb);
    for (size_t i = 0; i < na; i++)
        diff |= (unsigned char)(a[i] ^ b[i < nb ? i : 0]);
    return diff == 0 && nb > 0;
}
