/* cmd_capture.c - `trx capture SOURCE -o OUT`: the bytes of a stream
 * (tcp://HOST:PORT, a file or FIFO, - for standard input) written to OUT as
 * they arrive, unbuffered: after a kill -9 or a power cut every trx command
 * still reads OUT up to its last whole record (the UIA reader starts at the
 * first whole packet and keeps the whole records of a cut last one). Stops
 * at the end of the source, after --duration SECONDS, or on SIGINT /
 * SIGTERM, with exit 0 in each case, then prints one summary: bytes, time,
 * rate, and what the capture holds (records, lost events in gaps). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "trx/trx.h"

static const char usage[] =
    "usage: trx capture SOURCE -o OUT [--duration SECONDS] [--quiet]\n"
    "\n"
    "Records a stream while the target runs: the bytes of SOURCE are written to\n"
    "OUT as they arrive (every trx command reads OUT, also while it grows or\n"
    "after the capture was killed: a packet cut at either end is skipped or\n"
    "read up to its last whole record). SOURCE:\n"
    "  tcp://HOST:PORT     a TCP stream (a probe's RTT server, QEMU's serial\n"
    "                      socket, TI run-mode UIA packets)\n"
    "  PATH                a file or FIFO\n"
    "  -                   standard input\n"
    "It stops at the end of SOURCE, after --duration, or on Ctrl-C / SIGTERM\n"
    "(exit 0 and a complete capture in each case), then says what it holds.\n"
    "\n"
    "  -o, --output OUT    the capture file (required; replaced)\n"
    "  --duration SECONDS  stop after this long\n"
    "  --quiet             no summary\n"
    "  -h, --help          this text\n"
    "\n"
    "Exit status: 0 done, 1 usage, 2 the source cannot be read, 3 OUT cannot be\n"
    "written (a full disk: the capture up to there is intact).\n";

#ifdef _WIN32

int cmd_capture(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        fputs(usage, stdout);
        return EXIT_OK;
    }
    fprintf(stderr, "trx capture: not available on Windows yet (use a Linux or macOS host)\n");
    return EXIT_USAGE;
}

#else

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A connected socket to tcp://HOST:PORT, or -1 with the reason printed. */
static int open_tcp(const char *source)
{
    const char *hostport = source + 6;
    const char *colon = strrchr(hostport, ':');
    if (!colon || colon == hostport || !colon[1]) {
        fprintf(stderr, "trx capture: %s: expected tcp://HOST:PORT\n", source);
        return -1;
    }
    char host[256];
    size_t hl = (size_t)(colon - hostport);
    if (hl >= sizeof host) {
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
    if (fd < 0)
        fprintf(stderr, "trx capture: %s: cannot connect: %s\n", source, strerror(err));
    return fd;
}

/* Writes all of buf to fd; 0, or the errno of the failure. */
static int write_all(int fd, const char *buf, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, buf, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return w < 0 ? errno : EIO;
        buf += w;
        n -= (size_t)w;
    }
    return 0;
}

/* One line on what `path` holds as a trace. */
static void summarize(const char *path, unsigned long long bytes, double seconds)
{
    fprintf(stderr, "trx capture: %llu bytes in %.1f s (%.2f MB/s) to %s", bytes, seconds,
            seconds > 0 ? (double)bytes / seconds / 1e6 : 0.0, path);
    trx_trace t;
    trx_error err;
    if (bytes == 0) {
        fprintf(stderr, "; nothing received\n");
        return;
    }
    if (trx_trace_open(&t, path, TRX_FORMAT_AUTO, &err) != 0) {
        fprintf(stderr, "; not a trace trx reads: offset %llu: %s\n",
                (unsigned long long)err.offset, err.message);
        return;
    }
    trx_trace_prepare(&t);
    fprintf(stderr, "; %llu events, %llu lost in %llu gap%s\n", (unsigned long long)t.total_events,
            (unsigned long long)t.lost_events, (unsigned long long)t.gap_count,
            t.gap_count == 1 ? "" : "s");
    trx_trace_close(&t);
}

int cmd_capture(int argc, char **argv)
{
    enum { OPT_DURATION = 256, OPT_QUIET };
    static const struct option options[] = {{"output", required_argument, NULL, 'o'},
                                            {"duration", required_argument, NULL, OPT_DURATION},
                                            {"quiet", no_argument, NULL, OPT_QUIET},
                                            {"help", no_argument, NULL, 'h'},
                                            {NULL, 0, NULL, 0}};
    const char *output = NULL;
    double duration = 0;
    bool quiet = false;
    int opt;
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":o:h", options, NULL)) != -1) {
        switch (opt) {
        case 'o':
            output = optarg;
            break;
        case OPT_DURATION: {
            char *end;
            duration = strtod(optarg, &end);
            if (*end || !(duration > 0))
                return cli_usage_error("capture", "--duration: expected seconds > 0, got '%s'",
                                       optarg);
            break;
        }
        case OPT_QUIET:
            quiet = true;
            break;
        case 'h':
            fputs(usage, stdout);
            return EXIT_OK;
        case ':':
            return cli_usage_error("capture", "%s needs a value", argv[optind - 1]);
        default:
            return cli_usage_error("capture", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind + 1 != argc)
        return cli_usage_error("capture", "expected one SOURCE");
    if (!output)
        return cli_usage_error("capture", "-o OUT is required");
    const char *source = argv[optind];
    int in = strncmp(source, "tcp://", 6) == 0 ? open_tcp(source)
             : strcmp(source, "-") == 0        ? 0
                                               : open(source, O_RDONLY);
    if (in < 0) {
        if (strncmp(source, "tcp://", 6) != 0)
            fprintf(stderr, "trx capture: %s: %s\n", source, strerror(errno));
        return EXIT_INPUT;
    }
    int out = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0) {
        fprintf(stderr, "trx capture: %s: %s\n", output, strerror(errno));
        return EXIT_OUTPUT;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; /* no SA_RESTART: poll and read return EINTR */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    static char buf[1 << 16];
    unsigned long long bytes = 0;
    double start = now_seconds();
    int status = EXIT_OK;
    while (!stop_requested) {
        double left = duration > 0 ? start + duration - now_seconds() : 1.0;
        if (left <= 0)
            break;
        struct pollfd p = {in, POLLIN, 0};
        int ready = poll(&p, 1, left < 0.2 ? (int)(left * 1000) + 1 : 200);
        if (ready < 0 && errno != EINTR) {
            fprintf(stderr, "trx capture: %s: %s\n", source, strerror(errno));
            status = EXIT_INPUT;
            break;
        }
        if (ready <= 0)
            continue;
        ssize_t n = read(in, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            fprintf(stderr, "trx capture: %s: %s\n", source, strerror(errno));
            status = EXIT_INPUT;
            break;
        }
        if (n == 0)
            break; /* the source ended */
        int werr = write_all(out, buf, (size_t)n);
        if (werr) {
            fprintf(stderr, "trx capture: %s: %s (the capture up to here is intact)\n", output,
                    strerror(werr));
            status = EXIT_OUTPUT;
            break;
        }
        bytes += (unsigned long long)n;
    }
    double seconds = now_seconds() - start;
    if (in != 0)
        close(in);
    if (close(out) != 0 && status == EXIT_OK) {
        fprintf(stderr, "trx capture: %s: %s\n", output, strerror(errno));
        status = EXIT_OUTPUT;
    }
    if (!quiet)
        summarize(output, bytes, seconds);
    return status;
}

#endif
