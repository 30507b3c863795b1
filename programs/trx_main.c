/*
 * trx_main.c - the `trx` command-line tool: finds the command named by the
 * first argument in the table below and runs it (each lives in cmd_NAME.c).
 * Exit codes: 0 success, 1 usage error, 2 bad input, 3 output error.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#endif
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "cli.h"
#include "commands.h"

/* A command: its name, its line in `trx --help`, and its entry point. */
typedef struct command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);
} command;

static const command commands[] = {
    {"info", "format, byte order, header, registry, wrap state, time span", cmd_info},
    {"dump", "TraceX's raw trace dump, byte for byte", cmd_dump},
    {"events", "one line per event (text, CSV or JSON Lines), with filters", cmd_events},
    {"stats",
     "statistics: performance, execution profile, stack usage, popular\n"
     "           services, FileX and NetX (text or JSON)",
     cmd_stats},
    {"report", "one interactive HTML file: time line, event details, search, statistics",
     cmd_report},
    {"export", "the trace for other tools: Perfetto, Chrome JSON, CSV, CTF", cmd_export},
    {"convert", "TXTB <-> UIA, or the image as bin / Intel HEX / S-record", cmd_convert},
    {"check", "a CI gate: rules (ISR rate, inversions, stack, lost events ...) pass or fail",
     cmd_check},
    {"diff", "the statistics of two traces side by side, with the changes", cmd_diff},
    {"latency", "every response of every thread: distributions and the worst instances",
     cmd_latency},
    {"why", "why one response took as long as it did: its critical path, tick for tick", cmd_why},
    {"describe", "an event description as a recorder header, .trxc or SystemView file",
     cmd_describe},
    {"serve", "the report of a trace of any size in the browser, over local HTTP", cmd_serve},
    {"capture", "record a stream while the target runs (TCP, serial, a FIFO, standard input)",
     cmd_capture},
};

static const char usage_head[] =
    "usage: trx COMMAND [OPTIONS] FILE\n"
    "       trx check [OPTIONS] FILE RULE...    trx diff [OPTIONS] A B\n"
    "       trx --help | --version\n"
    "\n"
    "Reads the event traces of embedded targets and analyses them: ThreadX's\n"
    "trace buffer (TXTB, TraceX's format; FreeRTOS too, through trx's recorder\n"
    "integration), TI UIA records (System Analyzer files, SYS/BIOS captures,\n"
    "halted logger buffers) and the streams trx capture records while the\n"
    "target runs. A dump may be raw binary, Intel HEX, Motorola S-record or\n"
    "ASCII hex.\n"
    "\n"
    "Commands:\n";

static const char usage_tail[] =
    "\n"
    "Options of every command that reads a trace:\n"
    "  --input-format bin|ihex|srec|ascii|auto   how FILE is encoded (default: auto)\n"
    "  --custom FILE                             event definitions (docs/event-descriptions.md or "
    ".trxc)\n"
    "  --elf FIRMWARE                            addresses as the firmware's symbols\n"
    "  --uia-meta FILE                           UIA event names (TI's APP.uia.xml or a names "
    "file)\n"
    "  --max-input-size SIZE                     refuse larger input (default 4G)\n"
    "  --jobs N                                  threads to use (default: the processors; 1: one\n"
    "                                            walk; the results are the same)\n"
    "  -o, --output OUT                          write to OUT (replaced when complete)\n"
    "  -h, --help                                the command's own help\n"
    "FILE may be - (standard input).\n"
    "\n"
    "Exit status:\n"
    "  0  success (also when the reader of a pipe stops early)\n"
    "  1  usage error: unknown command or option, bad option argument\n"
    "  2  bad input: FILE (or the --custom file) cannot be read or is not a valid\n"
    "     trace; one line on stderr: trx: FILE: offset N: MESSAGE\n"
    "  3  the output could not be written (e.g. disk full)\n";

static void print_usage(FILE *f)
{
    fputs(usage_head, f);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fputs(usage_tail, f);
}

int main(int argc, char **argv)
{
#ifdef SIGPIPE
    /* A closed pipe shows up as EPIPE from write(), handled in cli_sink_close. */
    signal(SIGPIPE, SIG_IGN);
#endif
#ifdef __GLIBC__
    /* Tables of a million threads grow by realloc: as mappings of their own
     * they move with mremap (no copy, no second copy resident) and go back
     * to the system when freed. A fixed threshold also stops glibc raising
     * it to 32 MB after the first large free (then they would come from
     * the heap, copied on every growth). bench/README.md has the figures. */
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
#endif
#ifdef _WIN32
    /* Output bytes as written: LF stays LF (--crlf asks for CRLF). */
    _setmode(_fileno(stdout), _O_BINARY);
    _setmode(_fileno(stdin), _O_BINARY); /* `-` reads a binary trace */
#endif
    if (argc < 2) {
        print_usage(stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
        print_usage(stdout);
        return fflush(stdout) == 0 ? EXIT_OK : EXIT_OUTPUT;
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0) {
        puts("trx " TRX_VERSION_STRING);
        return fflush(stdout) == 0 ? EXIT_OK : EXIT_OUTPUT;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(name, commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    if (name[0] == '-')
        return cli_usage_error(NULL, "unknown option '%s'", name);
    return cli_usage_error(NULL, "unknown command '%s'", name);
}
