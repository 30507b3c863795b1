/* capture_source.c - opening `trx capture`'s source (capture_source.h): a
 * TCP connection (getaddrinfo: names, IPv4, [IPv6]), a serial device set
 * to raw mode at the given speed (termios), a file or FIFO, or standard
 * input. */
#ifndef _WIN32

#include "capture_source.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <termios.h>
#include <unistd.h>

/* A connected socket to tcp://HOST:PORT, or -1. */
static int open_tcp(const char *source, bool quiet)
{
    const char *hostport = source + 6;
    const char *colon = strrchr(hostport, ':');
    if (!colon || colon == hostport || !colon[1]) {
        if (!quiet)
            fprintf(stderr, "trx capture: %s: expected tcp://HOST:PORT\n", source);
        return -1;
    }
    char host[256];
    size_t hl = (size_t)(colon - hostport);
    if (hl >= sizeof host) {
        if (!quiet)
            fprintf(stderr, "trx capture: %s: host name too long\n", source);
        return -1;
    }
    memcpy(host, hostport, hl);
    host[hl] = '\0';
    if (host[0] == '[' && hl > 2 && host[hl - 1] == ']') { /* [::1]:PORT */
        memmove(host, host + 1, hl - 2);
        host[hl - 2] = '\0';
    }
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    int rc = getaddrinfo(host, colon + 1, &hints, &res);
    if (rc != 0) {
        if (!quiet)
            fprintf(stderr, "trx capture: %s: %s\n", source, gai_strerror(rc));
        return -1;
    }
    int fd = -1, err = 0;
    for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
            err = errno;
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd < 0 && !quiet)
        fprintf(stderr, "trx capture: %s: cannot connect: %s\n", source, strerror(err));
    return fd;
}

/* The termios speed for `baud`, or 0 when it has none. */
static speed_t speed_of(unsigned long baud)
{
    static const struct {
        unsigned long baud;
        speed_t speed;
    } speeds[] = {
        {9600, B9600},       {19200, B19200},   {38400, B38400},
        {57600, B57600},     {115200, B115200}, {230400, B230400},
#ifdef B460800
        {460800, B460800},
#endif
#ifdef B921600
        {921600, B921600},
#endif
#ifdef B1000000
        {1000000, B1000000},
#endif
#ifdef B2000000
        {2000000, B2000000},
#endif
#ifdef B3000000
        {3000000, B3000000},
#endif
#ifdef B4000000
        {4000000, B4000000},
#endif
    };
    for (size_t i = 0; i < sizeof speeds / sizeof speeds[0]; i++)
        if (speeds[i].baud == baud)
            return speeds[i].speed;
    return 0;
}

/* serial:DEVICE[@BAUD] opened in raw mode, or -1. */
static int open_serial(const char *source, bool quiet)
{
    char dev[4096];
    const char *spec = source + 7, *at = strrchr(spec, '@');
    size_t dl = at ? (size_t)(at - spec) : strlen(spec);
    unsigned long baud = 0;
    if (dl == 0 || dl >= sizeof dev) {
        if (!quiet)
            fprintf(stderr, "trx capture: %s: expected serial:DEVICE[@BAUD]\n", source);
        return -1;
    }
    memcpy(dev, spec, dl);
    dev[dl] = '\0';
    if (at) {
        char *end;
        baud = strtoul(at + 1, &end, 10);
        if (*end || speed_of(baud) == 0) {
            if (!quiet)
                fprintf(stderr,
                        "trx capture: %s: baud rate '%s' unknown (9600, 19200, 38400, 57600, "
                        "115200, 230400, 460800, 921600, 1000000 ... 4000000)\n",
                        source, at + 1);
            return -1;
        }
    }
    int fd = open(dev, O_RDONLY | O_NOCTTY);
    struct termios tio;
    if (fd < 0 || tcgetattr(fd, &tio) != 0) {
        if (!quiet)
            fprintf(stderr, "trx capture: %s: %s\n", dev,
                    fd < 0 ? strerror(errno) : "not a serial device (tcgetattr failed)");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    cfmakeraw(&tio);
    tio.c_cflag |= CREAD | CLOCAL;
    tio.c_cc[VMIN] = 1;
    tio.c_cc[VTIME] = 0;
    if (baud &&
        (cfsetispeed(&tio, speed_of(baud)) != 0 || cfsetospeed(&tio, speed_of(baud)) != 0)) {
        if (!quiet)
            fprintf(stderr, "trx capture: %s: cannot set %lu baud\n", dev, baud);
        close(fd);
        return -1;
    }
    if (tcsetattr(fd, TCSANOW, &tio) != 0) {
        if (!quiet)
            fprintf(stderr, "trx capture: %s: %s\n", dev, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

int capture_source_open(const char *source, bool quiet)
{
    if (strncmp(source, "tcp://", 6) == 0)
        return open_tcp(source, quiet);
    if (strncmp(source, "serial:", 7) == 0)
        return open_serial(source, quiet);
    if (strcmp(source, "-") == 0)
        return 0;
    int fd = open(source, O_RDONLY);
    if (fd < 0 && !quiet)
        fprintf(stderr, "trx capture: %s: %s\n", source, strerror(errno));
    return fd;
}

bool capture_source_reconnects(const char *source)
{
    return strncmp(source, "tcp://", 6) == 0;
}

#else
typedef int capture_source_not_on_windows; /* a translation unit is never empty */
#endif
