/* capture_source.h - where `trx capture` reads from: tcp://HOST:PORT,
 * serial:DEVICE[@BAUD], a file or FIFO, or - (standard input). POSIX only
 * (cmd_capture.c says "not available" on Windows). */
#ifndef TRX_CAPTURE_SOURCE_H
#define TRX_CAPTURE_SOURCE_H

#include <stdbool.h>

/* Opens `source` for reading: a file descriptor, or -1 with one line on
 * stderr saying why (unless `quiet`). */
int capture_source_open(const char *source, bool quiet);

/* True when `source` can be opened again after it ended (a TCP stream). */
bool capture_source_reconnects(const char *source);

#endif /* TRX_CAPTURE_SOURCE_H */
