/*
 * trx.c - the trx command-line tool: parses each subcommand's arguments,
 * opens and validates the trace completely, then lets the library write the
 * output. Exit codes: 0 success, 1 usage error, 2 bad input, 3 output error.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#include <windows.h>
#endif

#include "output/dump_text.h"
#include "output/event_filter.h"
#include "output/events_output.h"
#include "output/info_json.h"
#include "output/info_text.h"
#include "output/stats_json.h"
#include "output/stats_text.h"
#include "output/out_buffer.h"
#include "trx/catalog.h"
#include "trx/trx.h"

enum { EXIT_OK = 0, EXIT_USAGE = 1, EXIT_INPUT = 2, EXIT_OUTPUT = 3 };

static const char main_usage[] =
    "usage: trx COMMAND [OPTIONS] FILE\n"
    "       trx --help | --version\n"
    "\n"
    "Reads a ThreadX event-trace buffer (TXTB) dumped as raw binary, Intel HEX,\n"
    "Motorola S-record or ASCII hex, and analyses it the way TraceX does.\n"
    "\n"
    "Commands:\n"
    "  info     format, byte order, header, registry, wrap state, time span\n"
    "  dump     TraceX's raw trace dump, byte for byte\n"
    "  events   one line per event (text, CSV or JSON Lines), with filters\n"
    "  stats    TraceX's statistics: performance, execution profile, stack usage,\n"
    "           popular services, FileX and NetX (text or JSON)\n"
    "\n"
    "Planned, not available yet: report, export, convert, check, diff.\n"
    "\n"
    "Options of every command that reads a trace:\n"
    "  --input-format bin|ihex|srec|ascii|auto   how FILE is encoded (default: auto)\n"
    "  --custom FILE.trxc                        TraceX custom-event definitions\n"
    "  -h, --help                                the command's own help\n"
    "\n"
    "Exit status:\n"
    "  0  success (also when the reader of a pipe stops early)\n"
    "  1  usage error: unknown command or option, bad option argument\n"
    "  2  bad input: FILE (or the --custom file) cannot be read or is not a valid\n"
    "     trace; one line on stderr: trx: FILE: offset N: MESSAGE\n"
    "  3  the output could not be written (e.g. disk full)\n";

static const char info_usage[] =
    "usage: trx info [OPTIONS] FILE\n"
    "\n"
    "Prints what FILE holds: source format, byte order, header fields, registry\n"
    "entries used/total, buffer capacity, entries used, wrap state, oldest entry,\n"
    "first and last relative tick, timer mask and counting direction.\n"
    "\n"
    "  --json                  one JSON object instead of text\n"
    "  --input-format FORMAT   bin, ihex, srec, ascii or auto (default)\n"
    "  -o, --output OUT        write to OUT (replaced only when complete)\n";

static const char dump_usage[] =
    "usage: trx dump [OPTIONS] FILE\n"
    "\n"
    "Writes TraceX's \"raw trace file dump\" of FILE: header, threads, objects,\n"
    "statistics and every event, identical to TraceX 6.2.1's text.\n"
    "\n"
    "  --crlf                  end lines with CR LF, as TraceX on Windows does\n"
    "  --input-format FORMAT   bin, ihex, srec, ascii or auto (default)\n"
    "  -o, --output OUT        write to OUT (replaced only when complete)\n";

static const char events_usage[] =
    "usage: trx events [OPTIONS] FILE\n"
    "\n"
    "Lists the events of FILE in TraceX's order, including the RUNNING events\n"
    "TraceX inserts where the running thread changes without an event.\n"
    "\n"
    "  --format text|csv|jsonl  output format (default: text)\n"
    "  --thread NAME|0xADDR     only events of this thread (repeatable)\n"
    "  --event NAME|ID          only this event: catalogue name (\"TX QUEUE SEND\"),\n"
    "                           symbol, TraceX GUI name, custom-event name, or a\n"
    "                           decimal / 0x id (repeatable)\n"
    "  --from TICKS             only events at or after this relative tick\n"
    "  --to TICKS               only events at or before this relative tick\n"
    "  --no-synthetic           leave out the RUNNING events TraceX inserts\n"
    "  --custom FILE.trxc       names and field captions of user events\n"
    "  --crlf                   end lines with CR LF\n"
    "  --input-format FORMAT    bin, ihex, srec, ascii or auto (default)\n"
    "  -o, --output OUT         write to OUT (replaced only when complete)\n";

static const char stats_usage[] =
    "usage: trx stats [OPTIONS] FILE\n"
    "\n"
    "Prints TraceX's statistics of FILE, number for number: performance statistics\n"
    "(context switches, preemptions, time slices, suspensions, resumptions,\n"
    "interrupts, priority inversions), execution profile, stack usage, popular\n"
    "services, FileX and NetX statistics; --json adds each thread's ranges and\n"
    "popular services.\n"
    "\n"
    "  --json                  one JSON object instead of text\n"
    "  --input-format FORMAT   bin, ihex, srec, ascii or auto (default)\n"
    "  -o, --output OUT        write to OUT (replaced only when complete)\n";

static const char *const planned[] = {"report", "export", "convert", "check", "diff"};

/* ------------------------------------------------------------ messages */

static int usage_error(const char *command, const char *fmt, const char *arg)
{
    fprintf(stderr, "trx%s%s: ", command ? " " : "", command ? command : "");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'trx %s%s--help' for more information.\n", command ? command : "",
            command ? " " : "");
    return EXIT_USAGE;
}

static int input_error(const char *path, const trx_error *err)
{
    fprintf(stderr, "trx: %s: offset %" PRIu64 ": %s\n", path, err->offset, err->message);
    return EXIT_INPUT;
}

/* ------------------------------------------------------------- options */

enum {
    OPT_INPUT_FORMAT = 256,
    OPT_CUSTOM,
    OPT_JSON,
    OPT_CRLF,
    OPT_FORMAT,
    OPT_THREAD,
    OPT_EVENT,
    OPT_FROM,
    OPT_TO,
    OPT_NO_SYNTHETIC
};

/* What the options of one command asked for. */
typedef struct options {
    trx_input_format input_format;
    const char *custom;
    const char *output;
    const char *file;
    bool json, crlf, no_synthetic;
    trx_events_format format;
    const char *threads[64];
    int thread_count;
    const char *events[256];
    int event_count;
    bool have_from, have_to;
    uint64_t from, to;
} options;

static bool parse_ticks(const char *s, uint64_t *out)
{
    if (*s < '0' || *s > '9')
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

/* Parses argv of `command` (argv[0] = command); `accepted` lists the extra
 * long options it takes. Returns -1 when parsed, else the exit status. */
static int parse_options(int argc, char **argv, const char *command, const char *help,
                         const struct option *longopts, options *o)
{
    memset(o, 0, sizeof *o);
    o->input_format = TRX_FORMAT_AUTO;
    o->format = TRX_EVENTS_TEXT;
    opterr = 0;
    optind = 1;
    int c, index;
    while ((c = getopt_long(argc, argv, ":ho:", longopts, &index)) != -1) {
        switch (c) {
        case 'h':
            fputs(help, stdout);
            return EXIT_OK;
        case 'o':
            o->output = optarg;
            break;
        case OPT_INPUT_FORMAT:
            if (trx_input_format_parse(optarg, &o->input_format) != 0)
                return usage_error(command, "--input-format: unknown format '%s'", optarg);
            break;
        case OPT_CUSTOM:
            o->custom = optarg;
            break;
        case OPT_JSON:
            o->json = true;
            break;
        case OPT_CRLF:
            o->crlf = true;
            break;
        case OPT_FORMAT:
            if (strcmp(optarg, "text") == 0)
                o->format = TRX_EVENTS_TEXT;
            else if (strcmp(optarg, "csv") == 0)
                o->format = TRX_EVENTS_CSV;
            else if (strcmp(optarg, "jsonl") == 0)
                o->format = TRX_EVENTS_JSONL;
            else
                return usage_error(command, "--format: unknown format '%s' (text, csv, jsonl)",
                                   optarg);
            break;
        case OPT_THREAD:
            if (o->thread_count == (int)(sizeof o->threads / sizeof o->threads[0]))
                return usage_error(command, "too many --thread options%s", "");
            o->threads[o->thread_count++] = optarg;
            break;
        case OPT_EVENT:
            if (o->event_count == (int)(sizeof o->events / sizeof o->events[0]))
                return usage_error(command, "too many --event options%s", "");
            o->events[o->event_count++] = optarg;
            break;
        case OPT_FROM:
            if (!parse_ticks(optarg, &o->from))
                return usage_error(command, "--from: '%s' is not a tick count", optarg);
            o->have_from = true;
            break;
        case OPT_TO:
            if (!parse_ticks(optarg, &o->to))
                return usage_error(command, "--to: '%s' is not a tick count", optarg);
            o->have_to = true;
            break;
        case OPT_NO_SYNTHETIC:
            o->no_synthetic = true;
            break;
        case ':':
            return usage_error(command, "option '%s' needs an argument", argv[optind - 1]);
        default:
            return usage_error(command, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind == argc)
        return usage_error(command, "no input FILE given%s", "");
    if (optind + 1 < argc)
        return usage_error(command, "one input FILE only ('%s' is extra)", argv[optind + 1]);
    o->file = argv[optind];
    return -1;
}

/* ------------------------------------------------------------- output */

/* Where a command writes: stdout, or a temporary file renamed to OUT at the end. */
typedef struct sink {
    const char *path; /* OUT, or NULL for stdout */
    char *tmp;
    FILE *f;
} sink;

#ifdef _WIN32
/* rename() cannot replace an existing file on Windows; MoveFileEx can. */
static int replace_file(const char *from, const char *to)
{
    if (MoveFileExA(from, to, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
        return 0;
    switch (GetLastError()) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
        errno = ENOENT;
        break;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION:
        errno = EACCES;
        break;
    case ERROR_NOT_SAME_DEVICE:
        errno = EXDEV;
        break;
    case ERROR_DISK_FULL:
        errno = ENOSPC;
        break;
    default:
        errno = EIO;
        break;
    }
    return -1;
}
#else
static int replace_file(const char *from, const char *to)
{
    return rename(from, to);
}
#endif

/* Whether a failed write to stdout means its reader stopped (e.g. `| head`);
 * Windows' CRT reports a closed pipe as EINVAL or EPIPE. */
static bool stdout_reader_gone(int error)
{
#ifdef _WIN32
    if (error == EINVAL && GetFileType((HANDLE)_get_osfhandle(_fileno(stdout))) == FILE_TYPE_PIPE)
        return true;
#endif
    return error == EPIPE;
}

static int sink_open(sink *s, const char *path)
{
    s->path = path;
    s->tmp = NULL;
    s->f = stdout;
    if (!path)
        return 0;
    size_t n = strlen(path);
    s->tmp = malloc(n + 8);
    if (!s->tmp) {
        fprintf(stderr, "trx: out of memory\n");
        return EXIT_OUTPUT;
    }
    memcpy(s->tmp, path, n);
    memcpy(s->tmp + n, ".XXXXXX", 8);
    int fd = mkstemp(s->tmp);
    if (fd < 0 || !(s->f = fdopen(fd, "wb"))) {
        fprintf(stderr, "trx: %s: cannot create: %s\n", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(s->tmp);
        }
        free(s->tmp);
        s->tmp = NULL;
        return EXIT_OUTPUT;
    }
    return 0;
}

/* Flushes `o` and finishes the sink; returns the exit status. */
static int sink_close(sink *s, trx_out *o, int status)
{
    int rc = trx_out_flush(o);
    int error = o->error;
    if (s->tmp) {
        if (fclose(s->f) != 0 && rc == 0) {
            rc = -1;
            error = errno;
        }
        if (rc == 0 && status == EXIT_OK && replace_file(s->tmp, s->path) != 0) {
            rc = -1;
            error = errno;
        }
        if (rc != 0 || status != EXIT_OK)
            unlink(s->tmp);
        free(s->tmp);
        s->tmp = NULL;
    }
    if (rc == 0)
        return status;
    if (!s->path && stdout_reader_gone(error))
        return status; /* the reader stopped early (e.g. `| head`): not an error */
    fprintf(stderr, "trx: %s: write error: %s\n", s->path ? s->path : "standard output",
            strerror(error));
    return EXIT_OUTPUT;
}

/* The writer is large; one per process is enough. */
static trx_out out;

/* ------------------------------------------------------------ commands */

static int open_trace(trx_trace *t, const options *o)
{
    trx_error err;
    memset(t, 0, sizeof *t);
    memset(&err, 0, sizeof err);
    if (trx_trace_open(t, o->file, o->input_format, &err) != 0) {
        trx_trace_close(t);
        return input_error(o->file, &err);
    }
    return 0;
}

/* Writes one command's output for an opened trace; returns the exit status. */
typedef int (*trace_writer)(trx_trace *t, const options *o, trx_out *w);

/* Opens the input, then the output (a temporary file renamed when complete,
 * or stdout), runs `write`, and closes both. */
static int run_on_trace(const options *o, bool crlf, trace_writer write)
{
    trx_trace t;
    int rc = open_trace(&t, o);
    if (rc != 0)
        return rc;
    sink s;
    if ((rc = sink_open(&s, o->output)) != 0) {
        trx_trace_close(&t);
        return rc;
    }
    trx_out_init(&out, s.f, crlf);
    rc = sink_close(&s, &out, write(&t, o, &out));
    trx_trace_close(&t);
    return rc;
}

static int write_info(trx_trace *t, const options *o, trx_out *w)
{
    uint64_t span = trx_trace_span_ticks(t);
    if (o->json)
        trx_info_write_json(t, span, w);
    else
        trx_info_write_text(t, span, w);
    return EXIT_OK;
}

static int write_dump(trx_trace *t, const options *o, trx_out *w)
{
    if (trx_dump_write(t, w, o->file, o->output ? o->output : "-") == 0)
        return EXIT_OK;
    fprintf(stderr, "trx: %s: out of memory\n", o->file);
    return EXIT_INPUT;
}

static int write_stats(trx_trace *t, const options *o, trx_out *w)
{
    trx_stats st;
    if (trx_stats_compute(t, &st) != 0) {
        fprintf(stderr, "trx: %s: out of memory\n", o->file);
        return EXIT_INPUT;
    }
    if (o->json)
        trx_stats_write_json(t, &st, w);
    else
        trx_stats_write_text(t, &st, w);
    trx_stats_free(&st);
    return EXIT_OK;
}

/* The event listing: custom names, filters, then one line per event. Bad
 * filter arguments are usage errors; nothing is kept of the output then. */
static int write_events(trx_trace *t, const options *o, trx_out *w)
{
    trx_custom_events ce = {NULL, 0};
    trx_event_filter f;
    trx_event_filter_init(&f);
    trx_error err;
    memset(&err, 0, sizeof err);
    int rc = EXIT_OK;
    if (o->custom && trx_custom_events_load(&ce, o->custom, &err) != 0) {
        rc = input_error(o->custom, &err);
        goto done;
    }
    f.no_synthetic = o->no_synthetic;
    f.have_from = o->have_from;
    f.from = o->from;
    f.have_to = o->have_to;
    f.to = o->to;
    for (int i = 0; i < o->thread_count && rc == EXIT_OK; i++)
        if (trx_event_filter_add_thread(&f, t, o->threads[i], &err) != 0)
            rc = usage_error("events", "%s", err.message);
    for (int i = 0; i < o->event_count && rc == EXIT_OK; i++)
        if (trx_event_filter_add_event(&f, o->events[i], &ce, &err) != 0)
            rc = usage_error("events", "%s", err.message);
    if (rc == EXIT_OK && trx_events_write(t, w, o->format, &f, &ce) != 0) {
        fprintf(stderr, "trx: %s: out of memory\n", o->file);
        rc = EXIT_INPUT;
    }
done:
    trx_event_filter_free(&f);
    trx_custom_events_free(&ce);
    return rc;
}

/* Options every command that reads a trace takes. */
#define TRACE_OPTIONS                                                                              \
    {"help", no_argument, NULL, 'h'}, {"output", required_argument, NULL, 'o'},                    \
        {"input-format", required_argument, NULL, OPT_INPUT_FORMAT},                               \
    {                                                                                              \
        "custom", required_argument, NULL, OPT_CUSTOM                                              \
    }

static const struct option report_options[] = {
    TRACE_OPTIONS, {"json", no_argument, NULL, OPT_JSON}, {NULL, 0, NULL, 0}};
static const struct option dump_options[] = {
    TRACE_OPTIONS, {"crlf", no_argument, NULL, OPT_CRLF}, {NULL, 0, NULL, 0}};
static const struct option events_options[] = {
    TRACE_OPTIONS,
    {"format", required_argument, NULL, OPT_FORMAT},
    {"thread", required_argument, NULL, OPT_THREAD},
    {"event", required_argument, NULL, OPT_EVENT},
    {"from", required_argument, NULL, OPT_FROM},
    {"to", required_argument, NULL, OPT_TO},
    {"no-synthetic", no_argument, NULL, OPT_NO_SYNTHETIC},
    {"crlf", no_argument, NULL, OPT_CRLF},
    {NULL, 0, NULL, 0},
};

/* A command: its name, help, options and what it writes. */
typedef struct command {
    const char *name;
    const char *usage;
    const struct option *options;
    trace_writer write;
} command;

static const command commands[] = {
    {"info", info_usage, report_options, write_info},
    {"dump", dump_usage, dump_options, write_dump},
    {"events", events_usage, events_options, write_events},
    {"stats", stats_usage, report_options, write_stats},
};

/* Parses a command's options, then runs it on its input. */
static int run_command(const command *c, int argc, char **argv)
{
    options o;
    int rc = parse_options(argc, argv, c->name, c->usage, c->options, &o);
    return rc >= 0 ? rc : run_on_trace(&o, o.crlf, c->write);
}

int main(int argc, char **argv)
{
#ifdef SIGPIPE
    /* A closed pipe shows up as EPIPE from write(), handled in sink_close. */
    signal(SIGPIPE, SIG_IGN);
#endif
#ifdef _WIN32
    /* Output bytes as written: LF stays LF (--crlf asks for CRLF). */
    _setmode(_fileno(stdout), _O_BINARY);
#endif
    if (argc < 2) {
        fputs(main_usage, stderr);
        return EXIT_USAGE;
    }
    const char *command = argv[1];
    if (strcmp(command, "--help") == 0 || strcmp(command, "-h") == 0 ||
        strcmp(command, "help") == 0) {
        fputs(main_usage, stdout);
        return fflush(stdout) == 0 ? EXIT_OK : EXIT_OUTPUT;
    }
    if (strcmp(command, "--version") == 0 || strcmp(command, "-V") == 0) {
        puts("trx " TRX_VERSION_STRING);
        return fflush(stdout) == 0 ? EXIT_OK : EXIT_OUTPUT;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(command, commands[i].name) == 0)
            return run_command(&commands[i], argc - 1, argv + 1);
    if (command[0] == '-')
        return usage_error(NULL, "unknown option '%s'", command);
    for (size_t i = 0; i < sizeof planned / sizeof planned[0]; i++)
        if (strcmp(command, planned[i]) == 0)
            return usage_error(NULL, "unknown command '%s' (planned, not implemented yet)",
                               command);
    return usage_error(NULL, "unknown command '%s'", command);
}
