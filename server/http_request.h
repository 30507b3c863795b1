/*
 * http_request.h - the strict HTTP/1.x request-head parser of `trx serve`:
 * one request line and its header fields, at most TRX_HTTP_HEAD_MAX bytes,
 * CRLF line ends, GET only, no body, exactly one Host. Anything else is
 * refused with the status a careful server answers. Pure: no I/O, no
 * allocation (fuzz target fuzz_http).
 */
#ifndef TRX_HTTP_REQUEST_H
#define TRX_HTTP_REQUEST_H

#include <stdbool.h>
#include <stddef.h>

#define TRX_HTTP_HEAD_MAX 8192u
#define TRX_HTTP_PATH_MAX 256u
#define TRX_HTTP_QUERY_MAX 1024u
#define TRX_HTTP_HOST_MAX 256u

typedef struct trx_http_request {
    char path[TRX_HTTP_PATH_MAX];   /* "/api/view" (no query) */
    char query[TRX_HTTP_QUERY_MAX]; /* after '?', as sent ("" when none) */
    char host[TRX_HTTP_HOST_MAX];   /* the Host field's value */
} trx_http_request;

/* Parses the request head at the start of buf[0..len). Returns the head's
 * length when it is complete and acceptable; 0 when more bytes are needed
 * (and len < TRX_HTTP_HEAD_MAX); otherwise minus the HTTP status to answer:
 * 400 malformed, 405 a method other than GET, 414 target too long,
 * 431 head too large, 505 not HTTP/1.0 or 1.1. */
int trx_http_parse(const char *buf, size_t len, trx_http_request *r);

/* The value of `name` in query string `query`, percent- and '+'-decoded into
 * out[0..size) (NUL-terminated). False when absent, malformed or too long. */
bool trx_http_query_get(const char *query, const char *name, char *out, size_t size);

/* True when a and b are equal, in time that does not depend on where they differ. */
bool trx_http_secret_equal(const char *a, const char *b);

#endif
