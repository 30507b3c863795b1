/* capture_source.c - `trx capture`'s system layer (capture_source.h): on
 * POSIX a TCP connection (getaddrinfo: names, IPv4, [IPv6]), a serial
 * device in raw mode at the given speed (termios), a file, FIFO or standard
 * input, waited on with poll(2); on Windows the same through Winsock, the
 * COM API (serial:COMn@BAUD) and the C runtime's file calls. */
#include "capture_source.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Splits HOST:PORT of tcp://HOST:PORT into `host` (brackets of [IPv6]
 * removed) and returns the port text, or NULL (said unless quiet). */
static const char *tcp_host_port(const char *source, char *host, size_t size, bool quiet)
{
    const char *hostport = source + 6;
    const char *colon = strrchr(hostport, ':');
    if (!colon || colon == hostport || !colon[1]) {
        if (!quiet)
            fprintf(stderr, "trx capture: %s: expected tcp://HOST:PORT\n", source);
        return NULL;
    }
    size_t hl = (size_t)(colon - hostport);
    if (hl >= size) {
        if (!quiet)
            fprintf(stderr, "trx capture: %s: host name too long\n", source);
        return NULL;
    }
    memcpy(host, hostport, hl);
    host[hl] = '\0';
    if (host[0] == '[' && hl > 2 && host[hl - 1] == ']') { /* [::1]:PORT */
        memmove(host, host + 1, hl - 2);
        host[hl - 2] = '\0';
    }
    return colon + 1;
}

/* Splits serial:DEVICE[@BAUD]: the device into `dev`, the speed into *baud
 * (0 when not given). false when malformed (said unless quiet). */
static bool serial_spec(const char *source, char *dev, size_t size, unsigned long *baud, bool quiet)
{
    const char *spec = source + 7, *at = strrchr(spec, '@');
    size_t dl = at ? (size_t)(at - spec) : strlen(spec);
    *baud = 0;
    if (dl == 0 || dl >= size) {
        if (!quiet)
            fprintf(stderr, "trx capture: %s: expected serial:DEVICE[@BAUD]\n", source);
        return false;
    }
    memcpy(dev, spec, dl);
    dev[dl] = '\0';
    if (at) {
        char *end;
        *baud = strtoul(at + 1, &end, 10);
        if (*end || *baud == 0 || at[1] == '-') {
            if (!quiet)
                fprintf(stderr, "trx capture: %s: baud rate '%s' is not a number\n", source,
                        at + 1);
            return false;
        }
    }
    return true;
}

/* Why the last TCP connection failed (capture_source_last_error). */
static char last_error[160];

const char *capture_source_last_error(void)
{
    return last_error;
}

bool capture_source_reconnects(const char *source)
{
    return strncmp(source, "tcp://", 6) == 0;
}

void capture_on_stop(void (*handler)(int))
{
#ifdef _WIN32
    signal(SIGINT, handler);
#else
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler; /* no SA_RESTART: a waiting poll returns EINTR */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
#endif
}

#ifndef _WIN32

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

/* A connected socket to tcp://HOST:PORT, or -1 (no connection now), or
 * CAPTURE_SOURCE_MALFORMED (not HOST:PORT: trying again cannot help). */
static int open_tcp(const char *source, bool quiet)
{
    char host[256];
    const char *port = tcp_host_port(source, host, sizeof host, quiet);
    if (!port)
        return CAPTURE_SOURCE_MALFORMED;
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    int rc = getaddrinfo(host, port, &hints, &res);
    if (rc != 0) {
        snprintf(last_error, sizeof last_error, "%s", gai_strerror(rc));
        if (!quiet)
            fprintf(stderr, "trx capture: %s: %s\n", source, last_error);
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
    if (fd < 0)
        snprintf(last_error, sizeof last_error, "cannot connect: %s", strerror(err));
    if (fd < 0 && !quiet)
        fprintf(stderr, "trx capture: %s: %s\n", source, last_error);
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
    unsigned long baud;
    if (!serial_spec(source, dev, sizeof dev, &baud, quiet))
        return -1;
    if (baud && speed_of(baud) == 0) {
        if (!quiet)
            fprintf(stderr,
                    "trx capture: %s: baud rate %lu unknown (9600, 19200, 38400, 57600, 115200, "
                    "230400, 460800, 921600, 1000000 ... 4000000)\n",
                    source, baud);
        return -1;
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
    if ((baud &&
         (cfsetispeed(&tio, speed_of(baud)) != 0 || cfsetospeed(&tio, speed_of(baud)) != 0)) ||
        tcsetattr(fd, TCSANOW, &tio) != 0) {
        if (!quiet)
            fprintf(stderr, "trx capture: %s: cannot set raw mode at %lu baud: %s\n", dev, baud,
                    strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

int capture_source_open(capture_source *s, const char *source, bool quiet)
{
    int fd;
    if (strncmp(source, "tcp://", 6) == 0)
        fd = open_tcp(source, quiet);
    else if (strncmp(source, "serial:", 7) == 0)
        fd = open_serial(source, quiet);
    else if (strcmp(source, "-") == 0)
        fd = 0;
    else if ((fd = open(source, O_RDONLY)) < 0 && !quiet)
        fprintf(stderr, "trx capture: %s: %s\n", source, strerror(errno));
    s->kind = CAPTURE_FD;
    s->h = fd < 0 ? -1 : fd;
    return fd == CAPTURE_SOURCE_MALFORMED ? CAPTURE_SOURCE_MALFORMED : fd < 0 ? -1 : 0;
}

long capture_source_read(capture_source *s, char *buf, size_t n, int ms, const char *name)
{
    struct pollfd p = {(int)s->h, POLLIN, 0};
    int ready = poll(&p, 1, ms);
    if (ready < 0 && errno != EINTR) {
        fprintf(stderr, "trx capture: %s: %s\n", name, strerror(errno));
        return CAPTURE_ERROR;
    }
    if (ready <= 0)
        return CAPTURE_WAIT;
    ssize_t got = read((int)s->h, buf, n);
    if (got < 0 && errno == EINTR)
        return CAPTURE_WAIT;
    if (got < 0) {
        fprintf(stderr, "trx capture: %s: %s\n", name, strerror(errno));
        return CAPTURE_ERROR;
    }
    return (long)got;
}

void capture_source_close(capture_source *s)
{
    if (s->h > 0)
        close((int)s->h);
    s->h = -1;
}

double capture_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void capture_pause(double seconds)
{
    struct timespec ts = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    nanosleep(&ts, NULL);
}

bool capture_stderr_is_tty(void)
{
    return isatty(STDERR_FILENO) != 0;
}

int capture_file_create(const char *path)
{
    return open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
}

long capture_file_write(int fd, const char *buf, size_t n)
{
    ssize_t w;
    do
        w = write(fd, buf, n);
    while (w < 0 && errno == EINTR);
    return (long)w;
}

int capture_file_close(int fd)
{
    return close(fd);
}

#else /* Windows */

#include <io.h>
#include <winsock2.h>
#include <ws2tcpip.h>

#include <windows.h>

/* A connected SOCKET to tcp://HOST:PORT, or INVALID_SOCKET (*malformed set
 * when SOURCE is not HOST:PORT). */
static SOCKET open_tcp(const char *source, bool quiet, bool *malformed)
{
    static bool started;
    WSADATA wsa;
    if (!started && WSAStartup(MAKEWORD(2, 2), &wsa) != 0) {
        if (!quiet)
            fprintf(stderr, "trx capture: %s: Winsock does not start\n", source);
        return INVALID_SOCKET;
    }
    started = true;
    char host[256];
    const char *port = tcp_host_port(source, host, sizeof host, quiet);
    if (!port) {
        *malformed = true;
        return INVALID_SOCKET;
    }
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    if (getaddrinfo(host, port, &hints, &res) != 0) {
        snprintf(last_error, sizeof last_error, "unknown host or port");
        if (!quiet)
            fprintf(stderr, "trx capture: %s: %s\n", source, last_error);
        return INVALID_SOCKET;
    }
    SOCKET fd = INVALID_SOCKET;
    for (struct addrinfo *a = res; a && fd == INVALID_SOCKET; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (fd != INVALID_SOCKET && connect(fd, a->ai_addr, (int)a->ai_addrlen) != 0) {
            closesocket(fd);
            fd = INVALID_SOCKET;
        }
    }
    freeaddrinfo(res);
    if (fd == INVALID_SOCKET)
        snprintf(last_error, sizeof last_error, "cannot connect (error %d)", WSAGetLastError());
    if (fd == INVALID_SOCKET && !quiet)
        fprintf(stderr, "trx capture: %s: %s\n", source, last_error);
    return fd;
}

/* serial:COMn[@BAUD] through the COM API (8 data bits, no parity, 1 stop
 * bit; reads return within the time-out), or INVALID_HANDLE_VALUE. */
static HANDLE open_serial(const char *source, bool quiet)
{
    char dev[256], path[300];
    unsigned long baud;
    if (!serial_spec(source, dev, sizeof dev, &baud, quiet))
        return INVALID_HANDLE_VALUE;
    /* COM10 and above need the device namespace prefix \\.\ */
    snprintf(path, sizeof path, "%s%s", strncmp(dev, "\\\\.\\", 4) ? "\\\\.\\" : "", dev);
    HANDLE h = CreateFileA(path, GENERIC_READ, 0, NULL, OPEN_EXISTING, 0, NULL);
    DCB dcb;
    memset(&dcb, 0, sizeof dcb);
    dcb.DCBlength = sizeof dcb;
    if (h == INVALID_HANDLE_VALUE || !GetCommState(h, &dcb)) {
        if (!quiet)
            fprintf(stderr, "trx capture: %s: cannot open the serial port (error %lu)\n", dev,
                    (unsigned long)GetLastError());
        if (h != INVALID_HANDLE_VALUE)
            CloseHandle(h);
        return INVALID_HANDLE_VALUE;
    }
    if (baud)
        dcb.BaudRate = (DWORD)baud;
    dcb.fBinary = TRUE;
    dcb.fParity = FALSE;
    dcb.ByteSize = 8;
    dcb.Parity = NOPARITY;
    dcb.StopBits = ONESTOPBIT;
    dcb.fOutxCtsFlow = FALSE;
    dcb.fOutxDsrFlow = FALSE;
    dcb.fDtrControl = DTR_CONTROL_ENABLE;
    dcb.fRtsControl = RTS_CONTROL_ENABLE;
    dcb.fInX = FALSE;
    dcb.fOutX = FALSE;
    if (!SetCommState(h, &dcb)) {
        if (!quiet)
            fprintf(stderr, "trx capture: %s: cannot set %lu baud (error %lu)\n", dev, baud,
                    (unsigned long)GetLastError());
        CloseHandle(h);
        return INVALID_HANDLE_VALUE;
    }
    return h;
}

int capture_source_open(capture_source *s, const char *source, bool quiet)
{
    if (strncmp(source, "tcp://", 6) == 0) {
        bool malformed = false;
        SOCKET fd = open_tcp(source, quiet, &malformed);
        s->kind = CAPTURE_SOCKET;
        s->h = (intptr_t)fd;
        return malformed ? CAPTURE_SOURCE_MALFORMED : fd == INVALID_SOCKET ? -1 : 0;
    }
    if (strncmp(source, "serial:", 7) == 0) {
        HANDLE h = open_serial(source, quiet);
        s->kind = CAPTURE_HANDLE;
        s->h = (intptr_t)h;
        return h == INVALID_HANDLE_VALUE ? -1 : 0;
    }
    int fd = strcmp(source, "-") == 0 ? 0 : _open(source, _O_RDONLY | _O_BINARY);
    if (fd == 0)
        _setmode(0, _O_BINARY);
    if (fd < 0 && !quiet)
        fprintf(stderr, "trx capture: %s: %s\n", source, strerror(errno));
    s->kind = CAPTURE_FD;
    s->h = fd;
    return fd < 0 ? -1 : 0;
}

long capture_source_read(capture_source *s, char *buf, size_t n, int ms, const char *name)
{
    unsigned chunk = n > 0x7FFFFFFFu ? 0x7FFFFFFFu : (unsigned)n;
    if (s->kind == CAPTURE_SOCKET) {
        SOCKET fd = (SOCKET)s->h;
        fd_set set;
        FD_ZERO(&set);
        FD_SET(fd, &set);
        struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
        int ready = select(0, &set, NULL, NULL, &tv);
        if (ready == SOCKET_ERROR) {
            fprintf(stderr, "trx capture: %s: error %d\n", name, WSAGetLastError());
            return CAPTURE_ERROR;
        }
        if (ready == 0)
            return CAPTURE_WAIT;
        int got = recv(fd, buf, (int)chunk, 0);
        if (got == SOCKET_ERROR) {
            fprintf(stderr, "trx capture: %s: error %d\n", name, WSAGetLastError());
            return CAPTURE_ERROR;
        }
        return got;
    }
    if (s->kind == CAPTURE_HANDLE) {
        HANDLE h = (HANDLE)s->h;
        COMMTIMEOUTS to = {MAXDWORD, MAXDWORD, (DWORD)ms, 0, 0};
        DWORD got = 0;
        if (!SetCommTimeouts(h, &to) || !ReadFile(h, buf, chunk, &got, NULL)) {
            fprintf(stderr, "trx capture: %s: read error %lu\n", name,
                    (unsigned long)GetLastError());
            return CAPTURE_ERROR;
        }
        return got ? (long)got : CAPTURE_WAIT; /* a serial port does not end */
    }
    int got = _read((int)s->h, buf, chunk); /* files and pipes: no time-out */
    if (got < 0) {
        fprintf(stderr, "trx capture: %s: %s\n", name, strerror(errno));
        return CAPTURE_ERROR;
    }
    return got;
}

void capture_source_close(capture_source *s)
{
    if (s->kind == CAPTURE_SOCKET && (SOCKET)s->h != INVALID_SOCKET)
        closesocket((SOCKET)s->h);
    else if (s->kind == CAPTURE_HANDLE && (HANDLE)s->h != INVALID_HANDLE_VALUE)
        CloseHandle((HANDLE)s->h);
    else if (s->kind == CAPTURE_FD && s->h > 0)
        _close((int)s->h);
    s->h = -1;
}

double capture_now(void)
{
    return (double)GetTickCount64() / 1000.0;
}

void capture_pause(double seconds)
{
    Sleep((DWORD)(seconds * 1000.0));
}

bool capture_stderr_is_tty(void)
{
    return _isatty(2) != 0;
}

int capture_file_create(const char *path)
{
    return _open(path, _O_WRONLY | _O_CREAT | _O_TRUNC | _O_BINARY, 0644);
}

long capture_file_write(int fd, const char *buf, size_t n)
{
    return _write(fd, buf, n > 0x7FFFFFFFu ? 0x7FFFFFFFu : (unsigned)n);
}

int capture_file_close(int fd)
{
    return _close(fd);
}

#endif
