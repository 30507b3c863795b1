/* serve_live.h - `trx capture --serve`: the report page of the capture file
 * while it is being written (serve_live.c). A server thread answers from the
 * newest generation; a refresher thread makes a new one whenever more whole
 * packets have arrived, at most every max(1 s, twice the time the last one
 * took), so the work stays a bounded share of the capture's however long it
 * runs. With --rotate it follows the file being written. The capture itself
 * never waits for either. POSIX only. */
#ifndef TRX_SERVE_LIVE_H
#define TRX_SERVE_LIVE_H

#include <stdint.h>

typedef struct serve_live serve_live;

/* Starts serving `path` (being written; UIA names from `uia_meta`, or NULL)
 * on `bind`:`port`; prints the URL on stdout once it listens. NULL after
 * printing why. */
serve_live *serve_live_start(const char *path, const char *uia_meta, const char *bind,
                             uint16_t port);

/* The capture's news: `whole_bytes` bytes of the file it writes, `path`
 * (another one after a --rotate step), hold whole packets. */
void serve_live_grew(serve_live *l, const char *path, uint64_t whole_bytes);

/* Stops both threads and frees everything. */
void serve_live_stop(serve_live *l);

#endif
