/* capture_source.h - what `trx capture` needs from the system, on POSIX
 * and on Windows: its source (tcp://HOST:PORT, serial:DEVICE[@BAUD] -
 * /dev/tty... or COMn -, a file or FIFO, or - for standard input) read with
 * a time-out, a monotonic clock, a pause, the stop request (Ctrl-C, and
 * SIGTERM on POSIX), and the output file written unbuffered. */
#ifndef TRX_CAPTURE_SOURCE_H
#define TRX_CAPTURE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An open source. */
typedef struct capture_source {
    int kind;   /* CAPTURE_FD, CAPTURE_SOCKET or CAPTURE_HANDLE */
    intptr_t h; /* file descriptor, SOCKET or HANDLE */
} capture_source;

enum { CAPTURE_FD = 0, CAPTURE_SOCKET = 1, CAPTURE_HANDLE = 2 };

/* capture_source_read's answers besides a byte count. */
#define CAPTURE_ENDED 0    /* the source ended (EOF, connection closed) */
#define CAPTURE_WAIT (-1)  /* nothing within the time-out, or interrupted by a stop request */
#define CAPTURE_ERROR (-2) /* a read error (said on stderr) */

/* capture_source_open's answer when SOURCE itself is malformed (not
 * tcp://HOST:PORT ...): trying again cannot help. */
#define CAPTURE_SOURCE_MALFORMED (-2)

/* Opens `source`: 0, or -1 (or CAPTURE_SOURCE_MALFORMED) with one line on
 * stderr saying why (unless `quiet`). */
int capture_source_open(capture_source *s, const char *source, bool quiet);

/* Reads up to `n` bytes, waiting at most `ms` milliseconds: the bytes read,
 * CAPTURE_ENDED, CAPTURE_WAIT or CAPTURE_ERROR. */
long capture_source_read(capture_source *s, char *buf, size_t n, int ms, const char *name);

/* Closes it (standard input stays open). */
void capture_source_close(capture_source *s);

/* Why the last failed TCP connection failed ("cannot connect: Connection
 * refused"), for a message of the caller's own. */
const char *capture_source_last_error(void);

/* True when `source` can be opened again after it ended (a TCP stream). */
bool capture_source_reconnects(const char *source);

/* Seconds on a monotonic clock. */
double capture_now(void);

/* Sleeps up to `seconds` (a stop request may end it early). */
void capture_pause(double seconds);

/* Calls `handler` on Ctrl-C (and SIGTERM on POSIX) instead of ending. */
void capture_on_stop(void (*handler)(int));

/* True when standard error is a terminal. */
bool capture_stderr_is_tty(void);

/* The output file: created or replaced for writing (binary), a descriptor
 * or -1; written without buffering. */
int capture_file_create(const char *path);
long capture_file_write(int fd, const char *buf, size_t n); /* bytes written, or -1 */
int capture_file_close(int fd);                             /* 0, or -1 */

#endif /* TRX_CAPTURE_SOURCE_H */
