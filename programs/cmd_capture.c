/* cmd_capture.c - `trx capture SOURCE -o OUT`: the bytes of a stream
 * (capture_source.h) written to OUT as they arrive, unbuffered: after a
 * kill -9 or a power cut every trx command still reads OUT up to its last
 * whole packet. The stream is counted while it arrives (stream/uia_live.h):
 * a status line on a terminal, --max-events, and --rotate, which splits at
 * packet boundaries. Stops at the end of the source (or reconnects with
 * --reconnect), after --duration SECONDS or --max-events N, or on SIGINT /
 * SIGTERM, with exit 0 in each case, then prints one summary: bytes, time,
 * rate, and what the capture holds (events, lost events in gaps). */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_source.h"
#include "cli.h"
#include "commands.h"
#include "serve_live.h"
#include "stream/uia_live.h"
#include "trx/trx.h"
#include "trx/uia_names.h"

static const char usage[] =
    "usage: trx capture SOURCE -o OUT [--duration SECONDS] [--max-events N]\n"
    "                   [--rotate SIZE] [--reconnect] [--connect-wait SECONDS]\n"
    "                   [--stream-format F]\n"
    "                   [--uia-meta FILE] [--serve [--port N] [--bind ADDR]] [--quiet]\n"
    "\n"
    "Records a stream while the target runs: the bytes of SOURCE are written to\n"
    "OUT as they arrive (every trx command reads OUT, also while it grows or\n"
    "after the capture was killed: a packet cut at either end is skipped or\n"
    "read up to its last whole record). SOURCE:\n"
    "  tcp://HOST:PORT        a TCP stream (a probe's RTT server, QEMU's serial\n"
    "                         socket, TI run-mode UIA packets)\n"
    "  serial:DEVICE[@BAUD]   a serial port in raw mode (serial:/dev/ttyACM0@921600,\n"
    "                         serial:COM3@921600)\n"
    "  PATH                   a file or FIFO\n"
    "  -                      standard input\n"
    "It stops at the end of SOURCE, after --duration or --max-events, or on\n"
    "Ctrl-C / SIGTERM (exit 0 and a complete capture in each case), then says\n"
    "what it holds. On a terminal a status line shows the time, the rates, the\n"
    "events and the lost events so far.\n"
    "\n"
    "  -o, --output OUT       the capture file (required; replaced)\n"
    "  --duration SECONDS     stop after this long\n"
    "  --max-events N         stop at the end of the packet that brings the\n"
    "                         events to N or more (nothing after it is written)\n"
    "  --rotate SIZE          write OUT.000, OUT.001, ...: a new file at the first\n"
    "                         packet boundary after SIZE bytes (K, M, G suffixes);\n"
    "                         each file is a trace of its own\n"
    "  --reconnect            a TCP source that closes is connected to again\n"
    "                         (every half second) until the capture stops; the\n"
    "                         first connection too is tried again (--connect-wait)\n"
    "  --connect-wait SECONDS a TCP target not listening yet: try the first\n"
    "                         connection again every half second for up to this\n"
    "                         long, then give up (exit 2); default 30 with\n"
    "                         --reconnect, else 0 (one try). --duration counts\n"
    "                         from the connection\n"
    "  --uia-meta FILE        TI's event names (.uia.xml): the status line shows each\n"
    "                         core's CPU load as the target reports it (Load)\n"
    "  --stream-format F      auto (default), packets (TI's UIAPackets and the\n"
    "                         recorder's streams) or records (raw UIA records): how\n"
    "                         the stream is counted while it arrives\n"
    "  --serve                show OUT in the browser while it grows (the page of\n"
    "                         trx serve: its URL is stdout's first line; the view\n"
    "                         refreshes every second or so, lost events as they\n"
    "                         come; it stops with the capture)\n"
    "  --port N, --bind ADDR  where --serve listens (default: any free port on\n"
    "                         127.0.0.1)\n"
    "  --quiet                no status line, no summary\n"
    "  -h, --help             this text\n"
    "\n"
    "Exit status: 0 done, 1 usage, 2 the source cannot be read, 3 OUT cannot be\n"
    "written (a full disk: the capture up to there is intact).\n";

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

/* The capture's file(s): OUT, or OUT.000, OUT.001 ... with --rotate. */
typedef struct capture_out {
    const char *base;
    unsigned long long rotate; /* bytes per file, 0: one file */
    int fd;
    unsigned index;
    unsigned long long file_bytes, total;
    bool next_due; /* --rotate: the next byte opens the next file */
    char path[4096];
} capture_out;

/* Opens the next file; 0 or EXIT_OUTPUT (said). */
static int out_next(capture_out *o)
{
    if (o->fd >= 0 && capture_file_close(o->fd) != 0) {
        fprintf(stderr, "trx capture: %s: %s\n", o->path, strerror(errno));
        return EXIT_OUTPUT;
    }
    if (o->rotate)
        snprintf(o->path, sizeof o->path, "%s.%03u", o->base, o->index++);
    else
        snprintf(o->path, sizeof o->path, "%s", o->base);
    o->fd = capture_file_create(o->path);
    o->file_bytes = 0;
    if (o->fd < 0) {
        fprintf(stderr, "trx capture: %s: %s\n", o->path, strerror(errno));
        return EXIT_OUTPUT;
    }
    return 0;
}

/* Writes all of buf to the current file; 0 or EXIT_OUTPUT (said). */
static int out_write(capture_out *o, const char *buf, size_t n)
{
    if (n > 0 && o->next_due) { /* no empty file when the stream ends at a boundary */
        int rc = out_next(o);
        if (rc != 0)
            return rc;
        o->next_due = false;
    }
    while (n > 0) {
        long w = capture_file_write(o->fd, buf, n);
        if (w <= 0) {
            fprintf(stderr, "trx capture: %s: %s (the capture up to here is intact)\n", o->path,
                    w < 0 ? strerror(errno) : "nothing written");
            return EXIT_OUTPUT;
        }
        buf += w;
        n -= (size_t)w;
        o->file_bytes += (unsigned long long)w;
        o->total += (unsigned long long)w;
    }
    return 0;
}

/* Writes a chunk whose first byte is at stream offset `at`; `boundary` is
 * where the last whole packet counted so far ends. With --rotate a new file
 * starts at that boundary once the current one holds SIZE bytes (or, when
 * the stream shows no packets, at the chunk's start once it holds a packet
 * more than SIZE). */
static int out_chunk(capture_out *o, const char *buf, size_t n, unsigned long long at,
                     unsigned long long boundary)
{
    if (o->rotate && !o->next_due && o->file_bytes + n > o->rotate) {
        size_t cut = boundary > at && boundary - at <= n ? (size_t)(boundary - at) : 0;
        int rc;
        if (cut && (rc = out_write(o, buf, cut)) != 0)
            return rc;
        if ((cut || o->file_bytes > o->rotate + TRX_LIVE_MAX_PACKET) && o->file_bytes > 0)
            o->next_due = true;
        buf += cut;
        n -= cut;
    }
    return out_write(o, buf, n);
}

/* The status line (a terminal only): time, rates, events, lost, skipped. */
static void status_line(const trx_uia_live *l, unsigned long long bytes, double seconds,
                        double *last_t, uint64_t *last_events, unsigned long long *last_bytes)
{
    double dt = seconds - *last_t;
    if (dt < 0.25)
        return;
    fprintf(stderr,
            "\r%8.1f s  %7.2f MB/s  %9.0f events/s  %llu events  %llu lost  %llu bytes "
            "skipped",
            seconds, (double)(bytes - *last_bytes) / dt / 1e6,
            (double)(l->events - *last_events) / dt, (unsigned long long)l->events,
            (unsigned long long)l->lost, (unsigned long long)l->garbage_bytes);
    for (uint32_t i = 0; i < l->stream_count; i++) /* the targets' own CPU-load reports */
        if (l->streams[i].load >= 0)
            fprintf(stderr, "  core %u load %d%%", (unsigned)l->streams[i].sender,
                    (int)l->streams[i].load);
    fputs("\033[K", stderr);
    *last_t = seconds;
    *last_events = l->events;
    *last_bytes = bytes;
}

/* One line on what the capture holds: from the running count when the
 * stream was packets (memory stays flat however long it ran), else from
 * decoding the file. */
static void summarize(const capture_out *o, double seconds, const trx_uia_live *l, bool counted)
{
    fprintf(stderr, "trx capture: %llu bytes in %.1f s (%.2f MB/s) to %s", o->total, seconds,
            seconds > 0 ? (double)o->total / seconds / 1e6 : 0.0, o->rotate ? o->base : o->path);
    if (o->rotate)
        fprintf(stderr, ".000 ... %s (%u files)", o->path, o->index);
    if (o->total == 0) {
        fprintf(stderr, "; nothing received\n");
        return;
    }
    if (counted && (l->packets > 0 || (l->format == TRX_LIVE_RECORDS && l->events > 0))) {
        fprintf(stderr, "; %llu events, %llu lost in %llu gap%s", (unsigned long long)l->events,
                (unsigned long long)l->lost, (unsigned long long)l->gaps, l->gaps == 1 ? "" : "s");
        if (l->garbage_bytes)
            fprintf(stderr, ", %llu bytes that are no packet skipped",
                    (unsigned long long)l->garbage_bytes);
        fputc('\n', stderr);
        return;
    }
    if (o->rotate) { /* not packets: each file is read on its own */
        fputc('\n', stderr);
        return;
    }
    trx_trace t;
    trx_error err;
    if (trx_trace_open(&t, o->path, TRX_FORMAT_AUTO, &err) != 0) {
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

/* The event words of the CPU-load reports (SYS/BIOS's Load.LS_cpuLoad) the
 * names in `path` give; 0, or EXIT_INPUT (said). */
static int load_words(trx_uia_live *l, const char *path)
{
    trx_uia_names names;
    trx_error err;
    memset(&names, 0, sizeof names);
    if (trx_uia_names_load(&names, path, &err) != 0) {
        fprintf(stderr, "trx capture: %s: offset %llu: %s\n", path, (unsigned long long)err.offset,
                err.message);
        return EXIT_INPUT;
    }
    for (uint32_t i = 0; i < names.event_count && l->load_word_count < 4; i++)
        if (trx_uia_name_is(&names.events[i], "Load.LS_cpuLoad"))
            l->load_words[l->load_word_count++] =
                names.events[i].event << 16 | (names.events[i].module & 0xFFFFu);
    trx_uia_names_free(&names);
    return 0;
}

/* Opens SOURCE for the capture. With `wait` > 0 (a TCP source) a first
 * connection that fails is tried again every half second for up to `wait`
 * seconds: one line says so when it starts waiting and one when it
 * connected (unless `quiet`); giving up (or a stop request) is said in one
 * line with the last reason. 0, or EXIT_INPUT. */
static int open_first(capture_source *in, const char *source, double wait, bool quiet)
{
    int rc = capture_source_open(in, source, wait > 0);
    if (rc == 0)
        return EXIT_OK;
    if (wait <= 0 || rc == CAPTURE_SOURCE_MALFORMED) {
        if (wait > 0) /* say why (the quiet try did not) */
            capture_source_open(in, source, false);
        return EXIT_INPUT;
    }
    if (!quiet)
        fprintf(stderr, "trx capture: %s: %s; trying again every 0.5 s for up to %g s\n", source,
                capture_source_last_error(), wait);
    double start = capture_now();
    unsigned long tries = 1;
    while (!stop_requested && capture_now() < start + wait) {
        double left = start + wait - capture_now();
        capture_pause(left < 0.5 ? left : 0.5);
        if (stop_requested)
            break;
        tries++;
        if (capture_source_open(in, source, true) == 0) {
            if (!quiet)
                fprintf(stderr, "trx capture: %s: connected after %.1f s\n", source,
                        capture_now() - start);
            return EXIT_OK;
        }
    }
    fprintf(stderr, "trx capture: %s: %s after %lu tries in %.1f s; %s\n", source,
            capture_source_last_error(), tries, capture_now() - start,
            stop_requested ? "stopped" : "giving up (--connect-wait)");
    return EXIT_INPUT;
}

/* SIZE with an optional K, M or G suffix (powers of 1024); 0 when invalid. */
static unsigned long long parse_size(const char *s)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    unsigned shift = *end == 'K' || *end == 'k' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
    if (end == s || (shift && end[1]) || (!shift && *end) || v == 0 || v > (~0ull >> shift))
        return 0;
    return v << shift;
}

int cmd_capture(int argc, char **argv)
{
    enum {
        OPT_DURATION = 256,
        OPT_QUIET,
        OPT_MAX_EVENTS,
        OPT_ROTATE,
        OPT_RECONNECT,
        OPT_CONNECT_WAIT,
        OPT_FORMAT,
        OPT_UIA_META,
        OPT_SERVE,
        OPT_PORT,
        OPT_BIND
    };
    static const struct option options[] = {
        {"output", required_argument, NULL, 'o'},
        {"duration", required_argument, NULL, OPT_DURATION},
        {"max-events", required_argument, NULL, OPT_MAX_EVENTS},
        {"rotate", required_argument, NULL, OPT_ROTATE},
        {"reconnect", no_argument, NULL, OPT_RECONNECT},
        {"connect-wait", required_argument, NULL, OPT_CONNECT_WAIT},
        {"stream-format", required_argument, NULL, OPT_FORMAT},
        {"uia-meta", required_argument, NULL, OPT_UIA_META},
        {"serve", no_argument, NULL, OPT_SERVE},
        {"port", required_argument, NULL, OPT_PORT},
        {"bind", required_argument, NULL, OPT_BIND},
        {"quiet", no_argument, NULL, OPT_QUIET},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    capture_out out = {NULL, 0, -1, 0, 0, 0, false, {0}};
    double duration = 0, connect_wait = -1; /* -1: not given */
    unsigned long long max_events = 0;
    bool quiet = false, reconnect = false;
    int format = TRX_LIVE_AUTO;
    const char *uia_meta = NULL, *bind = "127.0.0.1";
    bool serve = false;
    unsigned long port = 0;
    int opt;
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":o:h", options, NULL)) != -1) {
        char *end;
        switch (opt) {
        case 'o':
            out.base = optarg;
            break;
        case OPT_DURATION:
            duration = strtod(optarg, &end);
            if (*end || !(duration > 0))
                return cli_usage_error("capture", "--duration: expected seconds > 0, got '%s'",
                                       optarg);
            break;
        case OPT_MAX_EVENTS:
            max_events = strtoull(optarg, &end, 10);
            if (*end || max_events == 0 || optarg[0] == '-')
                return cli_usage_error("capture", "--max-events: expected a count > 0, got '%s'",
                                       optarg);
            break;
        case OPT_ROTATE:
            if ((out.rotate = parse_size(optarg)) == 0)
                return cli_usage_error("capture",
                                       "--rotate: expected a size > 0 (bytes, or with K, M, G), "
                                       "got '%s'",
                                       optarg);
            break;
        case OPT_RECONNECT:
            reconnect = true;
            break;
        case OPT_CONNECT_WAIT:
            connect_wait = strtod(optarg, &end);
            if (*end || !*optarg || !(connect_wait >= 0 && connect_wait <= 1e6))
                return cli_usage_error("capture", "--connect-wait: expected seconds >= 0, got '%s'",
                                       optarg);
            break;
        case OPT_UIA_META:
            uia_meta = optarg;
            break;
        case OPT_FORMAT:
            format = strcmp(optarg, "auto") == 0      ? TRX_LIVE_AUTO
                     : strcmp(optarg, "packets") == 0 ? TRX_LIVE_PACKETS
                     : strcmp(optarg, "records") == 0 ? TRX_LIVE_RECORDS
                                                      : -1;
            if (format < 0)
                return cli_usage_error("capture",
                                       "--stream-format: expected auto, packets or records, got "
                                       "'%s'",
                                       optarg);
            break;
        case OPT_QUIET:
            quiet = true;
            break;
        case OPT_SERVE:
            serve = true;
            break;
        case OPT_PORT:
            port = strtoul(optarg, &end, 10);
            if (*end || !*optarg || optarg[0] == '-' || port > 65535)
                return cli_usage_error("capture", "--port: expected 0..65535, got '%s'", optarg);
            break;
        case OPT_BIND:
            if (!*optarg)
                return cli_usage_error("capture", "--bind: expected an address");
            bind = optarg;
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
    if (!out.base)
        return cli_usage_error("capture", "-o OUT is required");
    const char *source = argv[optind];
#ifdef _WIN32
    (void)bind, (void)port;
    if (serve)
        return cli_usage_error("capture", "--serve is not available on Windows yet");
#endif
    if (reconnect && !capture_source_reconnects(source))
        return cli_usage_error("capture", "--reconnect: only a tcp:// source can be reconnected");
    if (connect_wait > 0 && !capture_source_reconnects(source))
        return cli_usage_error("capture", "--connect-wait: only a tcp:// source is waited for");
    if (connect_wait < 0)
        connect_wait = reconnect ? 30 : 0;
    trx_uia_live live;
    trx_uia_live_init(&live);
    live.stop_events = max_events;
    live.format = format;
    if (uia_meta && load_words(&live, uia_meta) != 0)
        return EXIT_INPUT;
    capture_source in;
    capture_on_stop(on_signal); /* also while waiting for the first connection */
    if (open_first(&in, source, connect_wait, quiet) != EXIT_OK) {
        trx_uia_live_free(&live);
        return EXIT_INPUT;
    }
    bool connected = true;
    int status = out_next(&out);
    if (status != 0) {
        capture_source_close(&in);
        return status;
    }
#ifndef _WIN32
    serve_live *server = NULL;
    if (serve && !(server = serve_live_start(out.path, uia_meta, bind, (uint16_t)port))) {
        capture_source_close(&in);
        capture_file_close(out.fd);
        return EXIT_USAGE;
    }
#endif
    static char buf[1 << 16];
    bool counting = true, tty = !quiet && capture_stderr_is_tty();
    double start = capture_now(), last_t = 0;
    uint64_t last_events = 0;
    unsigned long long last_bytes = 0;
    while (!stop_requested) {
        double left = duration > 0 ? start + duration - capture_now() : 1.0;
        if (left <= 0)
            break;
        if (tty)
            status_line(&live, out.total, capture_now() - start, &last_t, &last_events,
                        &last_bytes);
        if (!connected) { /* --reconnect: try again every half second */
            capture_pause(left < 0.5 ? left : 0.5);
            connected = capture_source_open(&in, source, true) == 0;
            continue;
        }
        long n = capture_source_read(&in, buf, sizeof buf,
                                     left < 0.25 ? (int)(left * 1000) + 1 : 250, source);
        if (n == CAPTURE_WAIT)
            continue;
        if (n <= 0 && reconnect) { /* closed or broken: connect again */
            capture_source_close(&in);
            connected = false;
            if (!quiet)
                fprintf(stderr, "%strx capture: %s: the connection ended; connecting again\n",
                        tty ? "\r\033[K" : "", source);
            continue;
        }
        if (n == CAPTURE_ERROR) {
            status = EXIT_INPUT;
            break;
        }
        if (n == CAPTURE_ENDED)
            break;                         /* the source ended */
        unsigned long long at = out.total; /* the chunk's stream offset */
        if (counting && trx_uia_live_feed(&live, (const uint8_t *)buf, (size_t)n) != 0)
            counting = false; /* out of memory for the count: the capture goes on */
        size_t keep = (size_t)n;
        bool done = false;
        if (counting && live.stopped) {
            /* up to the packet that reached N (a stream still being told apart when it
             * began may have passed it in bytes already written) */
            keep = live.boundary > at ? (size_t)(live.boundary - at) : 0;
            done = true;
        }
        if ((status = out_chunk(&out, buf, keep, at, live.boundary)) != 0 || done)
            break;
#ifndef _WIN32
        if (server) { /* the page's next generation reads up to the last whole packet */
            unsigned long long first = out.total - out.file_bytes; /* the file's first byte */
            unsigned long long whole =
                counting ? (live.boundary > first ? live.boundary - first : 0) : out.file_bytes;
            serve_live_grew(server, out.path, whole < out.file_bytes ? whole : out.file_bytes);
        }
#endif
    }
    double seconds = capture_now() - start;
    if (tty)
        fputs("\r\033[K", stderr);
    if (connected)
        capture_source_close(&in);
    if (capture_file_close(out.fd) != 0 && status == EXIT_OK) {
        fprintf(stderr, "trx capture: %s: %s\n", out.path, strerror(errno));
        status = EXIT_OUTPUT;
    }
#ifndef _WIN32
    if (server) {
        serve_live_stop(server);
        if (!quiet)
            fprintf(stderr, "trx capture: no longer serving; `trx serve %s` shows the %s\n",
                    out.path, out.rotate ? "last file" : "capture");
    }
#endif
    if (!quiet)
        summarize(&out, seconds, &live, counting);
    trx_uia_live_free(&live);
    return status;
}
