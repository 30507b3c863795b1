/*
 * http_server.h - the small local HTTP server of `trx serve`: one thread,
 * poll(), up to TRX_HTTP_MAX_CLIENTS connections at once, one request per
 * connection (Connection: close). Before any handler runs it checks, for
 * every request: the head parses strictly (http_request.h) within its time
 * limit, the Host field names this server (127.0.0.1, localhost, [::1] or the
 * bound address, with the port: a page of another origin that rebinds a DNS
 * name to 127.0.0.1 is refused) and the query carries the secret token.
 * Every answer has the report's Content-Security-Policy, no-store, nosniff,
 * no referrer and no framing. POSIX only (a stub elsewhere).
 */
#ifndef TRX_HTTP_SERVER_H
#define TRX_HTTP_SERVER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "http_request.h"
#include "output/out_buffer.h"

#define TRX_HTTP_MAX_CLIENTS 32u
#define TRX_HTTP_READ_TIMEOUT_MS 10000
#define TRX_HTTP_WRITE_TIMEOUT_MS 30000

/* Answers one checked request: writes the body into `body`, sets *type (a
 * Content-Type) and returns the status (200, 404 ...). */
typedef int (*trx_http_handler)(void *ctx, const trx_http_request *req, trx_out *body,
                                const char **type);

typedef struct trx_http_config {
    const char *bind;  /* address to listen on ("127.0.0.1" when NULL) */
    uint16_t port;     /* 0: any free port */
    const char *token; /* required as ?token=... on every request */
    trx_http_handler handle;
    void *ctx;
    /* called once the socket accepts connections, with the port it got */
    void (*on_listening)(void *ctx, uint16_t port);
    const atomic_bool *stop; /* the loop ends soon after it turns true */
    void (*idle)(void *ctx); /* NULL, or called between requests (at least every 200 ms) */
} trx_http_config;

/* Serves until *stop. 0, or -1 with a one-line reason in err (cannot bind ...). */
int trx_http_run(const trx_http_config *c, char *err, size_t err_size);

/* True when `host` (a Host field) names a server bound to `bind` on `port`:
 * bound to loopback, 127.0.0.1 / localhost / [::1]; bound to one address,
 * that one; bound to every address (0.0.0.0, ::), those and any IP literal.
 * Never a DNS name other than localhost (what DNS rebinding would send). */
bool trx_http_host_allowed(const char *host, const char *bind, uint16_t port);

#endif
