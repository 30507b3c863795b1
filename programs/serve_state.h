/* serve_state.h - one generation of what `trx serve` shows (serve_state.c):
 * a trace opened as the command line says, its page, its overview and its
 * statistics; and the host that answers from the newest generation
 * (trx capture --serve makes a new one as the capture grows). POSIX only. */
#ifndef TRX_SERVE_STATE_H
#define TRX_SERVE_STATE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "http_request.h"
#include "serve_api.h"

/* Opens `path` as `c` says into a new generation with its page; NULL after
 * printing why (not a trace, out of memory: the latter not when `quiet`). */
serve_state *serve_state_open(const cli_common *c, const char *path, uint64_t ticks_per_second,
                              uint64_t generation, bool quiet);

/* Builds the overview, then the statistics (blocking: call it on a helper
 * thread); stops early when *stop. With `report`, one line on stderr with
 * the overview's time and size. */
void serve_state_build(serve_state *s, const atomic_bool *stop, bool report);

/* Releases a generation and its input. */
void serve_state_free(serve_state *s);

/* What the server answers from: the current generation (the server's thread
 * only), a newer one waiting to replace it, and what to say while there is none. */
typedef struct serve_host {
    serve_state *current;
    _Atomic(serve_state *) pending;
    const char *waiting_for; /* the file a live capture is writing */
} serve_host;

/* trx_http_handler over a serve_host: the current generation's answers, or
 * a page that reloads itself while the first is being made. */
int serve_host_handle(void *host, const trx_http_request *req, trx_out *body, const char **type);

/* Between requests (the server's idle hook): a pending generation replaces
 * the current one, which is freed. */
void serve_host_idle(void *host);

/* Hands generation `s` to the server (frees a pending one it replaces). */
void serve_host_offer(serve_host *h, serve_state *s);

/* Frees what the host holds. */
void serve_host_free(serve_host *h);

#endif
