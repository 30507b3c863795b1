/*
 * cli.h - what every `trx` command shares: exit codes, error messages, the
 * option parser (common options plus each command's own), the output sink
 * (stdout or a file replaced only when complete) and opening the input trace.
 * Each command lives in its own cmd_NAME.c and uses only this interface.
 */
#ifndef TRX_CLI_H
#define TRX_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "output/out_buffer.h"
#include "trx/catalog.h"
#include "trx/elf.h"
#include "trx/trx.h"
#include "trx/uia_names.h"

enum { EXIT_OK = 0, EXIT_USAGE = 1, EXIT_INPUT = 2, EXIT_OUTPUT = 3 };

/* "trx COMMAND: MESSAGE" + a --help hint on stderr; returns EXIT_USAGE.
 * `command` may be NULL (errors before a command is known). */
int cli_usage_error(const char *command, const char *fmt, ...)
#if defined(__MINGW32__)
    __attribute__((format(gnu_printf, 2, 3)))
#elif defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* "trx: PATH: offset N: MESSAGE" on stderr; returns EXIT_INPUT. */
int cli_input_error(const char *path, const trx_error *err);

/* "trx: PATH: out of memory" on stderr; returns EXIT_INPUT. */
int cli_out_of_memory(const char *path);

/* ------------------------------------------------------------ options */

/* Flags for the optional common options a command accepts. */
enum { CLI_JSON = 1u << 0, CLI_CRLF = 1u << 1, CLI_COMPAT = 1u << 2 };

/* The first `val` a command may use for its own long options. */
#define CLI_OPT_FIRST_OWN 1000

/* What the common options asked for, and the positional arguments. */
typedef struct cli_common {
    const char *command;
    trx_input_format input_format;
    const char *custom;            /* --custom FILE (a description or a .trxc), or NULL */
    bool force_trace_format;       /* --trace-format given */
    trx_trace_format trace_format; /* --trace-format txtb|uia */
    trx_endian endian;             /* --endian little|big (UIA records) */
    const char *uia_meta;          /* --uia-meta APP.uia.xml or names file, or NULL */
    const char *elf;               /* --elf FIRMWARE (symbols), or NULL */
    const char *idle;              /* --idle TASK: the idle task's name or handle, or NULL */
    uint32_t jobs;                 /* --jobs N (0: as many as the machine has) */
    const char *output;            /* -o OUT, or NULL for stdout */
    trx_mode mode;                 /* --compat tracex -> TRX_MODE_TRACEX */
    uint64_t max_input_size;       /* --max-input-size (default TRX_DEFAULT_MAX_INPUT) */
    bool json, crlf;               /* --json, --crlf (when the command takes them) */
    bool core_counts;              /* the open's pass counts for trx_core_summary (trx info) */
    bool time_counts;              /* ... and for the statistics' pre-passes (trx_open_options) */
    char **args;                   /* positional arguments (input files, rules ...) */
    int arg_count;
} cli_common;

/* Handles one of a command's own options (`opt` = its `val`); returns -1
 * when accepted, else an exit status (use cli_usage_error). */
typedef int (*cli_own_option)(void *own, int opt, const char *arg);

/* How a command's command line looks. */
typedef struct cli_spec {
    const char *name;         /* "info" */
    const char *usage;        /* the --help text */
    unsigned common;          /* CLI_JSON | CLI_CRLF | CLI_COMPAT */
    const struct option *own; /* its own long options (val >= CLI_OPT_FIRST_OWN), or NULL */
    cli_own_option on_own;    /* called for each of them */
    void *own_state;          /* passed to on_own */
    int min_args, max_args;   /* positional arguments accepted */
    const char *args_name;    /* "FILE" (for messages) */
} cli_spec;

/* Parses argv (argv[0] = the command name). Every command takes -h/--help,
 * -o/--output, --input-format, --custom and --max-input-size. Returns -1 when
 * parsed, else the exit status (EXIT_OK after --help). */
int cli_parse(int argc, char **argv, const cli_spec *spec, cli_common *c);

/* Parses a non-negative decimal tick count (no sign, no junk). */
bool cli_parse_u64(const char *s, uint64_t *out);

/* Handles --ticks-per-second N (`option` "ticks-per-second", an integer) or
 * --ticks-per-us X (`option` "ticks-per-us", up to 6 decimals): sets
 * `ticks_per_second` and returns -1, else a usage error's status. */
int cli_time_option(const char *command, const char *option, const char *arg,
                    uint64_t *ticks_per_second);

/* Parses a positive byte count with an optional binary suffix: K, M, G, T
 * (also KiB, MiB, GiB, TiB). */
bool cli_parse_size(const char *s, uint64_t *out);

/* ------------------------------------------------------------- output */

/* Where a command writes: stdout; or for `-o OUT` a temporary file renamed
 * over OUT (symbolic links followed) at the end, or OUT itself when it is not
 * a regular file (FIFO, device, the file behind /dev/stdout). See cli_sink.c. */
typedef struct cli_sink {
    const char *path; /* OUT, or NULL for stdout */
    char *target;     /* the regular file to replace (links followed), or NULL */
    char *tmp;        /* the temporary beside `target`, or NULL */
    bool direct;      /* OUT written directly */
    FILE *f;
} cli_sink;

/* Opens stdout (path NULL), OUT directly, or a temporary file beside OUT's
 * target (removed if SIGINT, SIGTERM, SIGHUP or SIGPIPE ends the process);
 * 0 or EXIT_OUTPUT. */
int cli_sink_open(cli_sink *s, const char *path);

/* Flushes `o`, then renames the temporary into place when `status` is
 * EXIT_OK (else removes it). Returns the final exit status. */
int cli_sink_close(cli_sink *s, trx_out *o, int status);

/* The one output writer of the process (large: keep it off the stack). */
extern trx_out cli_out;

/* -------------------------------------------------------------- input */

/* An opened input: the trace and the --custom definitions (empty if none). */
typedef struct cli_input {
    trx_trace trace;
    trx_custom_events custom;
    trx_uia_names uia_names; /* --uia-meta (empty if none) */
    trx_elf elf;             /* --elf (empty if none) */
} cli_input;

/* The timer rate a command uses: `option` (--ticks-per-second / --ticks-per-us;
 * 0 when not given) wins, else what the trace or its metadata tells
 * (trx_trace_ticks_per_second; 0: unknown). */
uint64_t cli_ticks_per_second(const cli_input *in, uint64_t option);

/* Opens `path` ("-": standard input) as the common options say (input
 * format, size limit, --custom, mode); 0, or EXIT_INPUT after printing the
 * error. Close with cli_input_close. */
int cli_input_open(cli_input *in, const cli_common *c, const char *path);

/* Releases an input; safe after a failed open. */
void cli_input_close(cli_input *in);

/* When the trace has damaged entries: "trx: PATH: warning: N damaged entries
 * (...) WHAT" on stderr (commands whose output has no summary line). */
void cli_warn_damaged(const cli_input *in, const char *path, const char *what);

/* Warns on stderr when the trace's timestamps go backwards (how often, where
 * first): every command that reads a trace says so. */
void cli_warn_time_backwards(const cli_input *in, const char *path);

/* What a command that lists events does with damaged entries, by mode. */
#define CLI_DAMAGED_SKIPPED(c)                                                                     \
    ((c)->mode == TRX_MODE_TRACEX ? "read as TraceX reads them (--compat tracex)"                  \
                                  : "skipped (`trx info --json` lists them)")

/* Writes one command's output for an opened input; returns the exit status. */
typedef int (*cli_writer)(cli_input *in, const cli_common *c, void *state, trx_out *w);

/* Opens the output, then args[0], runs `write`, and closes both. */
int cli_run_on_input(const cli_common *c, cli_writer write, void *state);

/* The whole of a one-input command: cli_parse as `spec` says, then (unless
 * that ended the run, e.g. --help or a usage error) cli_run_on_input. */
int cli_main_on_input(int argc, char **argv, const cli_spec *spec, cli_writer write, void *state);

/* The --help lines of the input and output options every one-input command takes. */
#define CLI_HELP_INPUT_OPTIONS                                                                     \
    "  --input-format FORMAT   bin, ihex, srec, ascii or auto (default)\n"                         \
    "  --trace-format txtb|uia the trace decoder (default: by content)\n"                          \
    "  --endian little|big     byte order of UIA records (default: packet bit / detected)\n"       \
    "  --uia-meta FILE         UIA event names: a names file or TI's APP.uia.xml\n"                \
    "  --elf FIRMWARE          the firmware's ELF: addresses shown as its symbols\n"               \
    "  --idle TASK             the idle task (name or handle): its time is idle (SYS/BIOS load)\n" \
    "  --max-input-size SIZE   refuse larger input (default 4G; K, M, G suffixes)\n"               \
    "  --custom FILE           event definitions, description or .trxc (checked)\n"                \
    "  -o, --output OUT        write to OUT (replaced only when complete)\n"

#endif
