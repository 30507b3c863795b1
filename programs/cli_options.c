/*
 * cli_options.c - the option parser every command uses: the common options
 * (-h, -o, --input-format, --custom, --max-input-size and, where a command
 * takes them, --json,
 * --crlf, --compat) merged with the command's own, then the positional
 * arguments counted against what the command accepts.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum {
    OPT_INPUT_FORMAT = 256,
    OPT_CUSTOM,
    OPT_MAX_INPUT,
    OPT_JSON,
    OPT_CRLF,
    OPT_COMPAT,
    OPT_TRACE_FORMAT,
    OPT_ENDIAN,
    OPT_UIA_META,
    OPT_ELF,
    OPT_IDLE,
    OPT_JOBS
};

int cli_usage_error(const char *command, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "trx%s%s: ", command ? " " : "", command ? command : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'trx %s%s--help' for more information.\n", command ? command : "",
            command ? " " : "");
    return EXIT_USAGE;
}

int cli_input_error(const char *path, const trx_error *err)
{
    fprintf(stderr, "trx: %s: offset %" PRIu64 ": %s\n", path, err->offset, err->message);
    return EXIT_INPUT;
}

int cli_out_of_memory(const char *path)
{
    fprintf(stderr, "trx: %s: out of memory\n", path);
    return EXIT_INPUT;
}

bool cli_parse_u64(const char *s, uint64_t *out)
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

bool cli_parse_size(const char *s, uint64_t *out)
{
    if (*s < '0' || *s > '9')
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || v == 0)
        return false;
    static const char units[] = "KMGT";
    const char *u = *end ? strchr(units, *end >= 'a' ? *end - 'a' + 'A' : *end) : NULL;
    if (*end && (!u || !*u))
        return false;
    if (u) {
        if (strcmp(end + 1, "") != 0 && strcmp(end + 1, "iB") != 0)
            return false;
        for (const char *k = units; k <= u; k++) {
            if (v > UINT64_MAX / 1024)
                return false;
            v *= 1024;
        }
    }
    *out = v;
    return true;
}

/* Appends `o` to the table being built (bounded by `cap`). */
static bool add_option(struct option *table, int *n, int cap, struct option o)
{
    if (*n >= cap - 1)
        return false;
    table[(*n)++] = o;
    return true;
}

/* Builds the long-option table of `spec`: common ones, then its own. */
static bool build_table(const cli_spec *spec, struct option *table, int cap)
{
    int n = 0;
    bool ok =
        add_option(table, &n, cap, (struct option){"help", no_argument, NULL, 'h'}) &&
        add_option(table, &n, cap, (struct option){"output", required_argument, NULL, 'o'}) &&
        add_option(table, &n, cap,
                   (struct option){"input-format", required_argument, NULL, OPT_INPUT_FORMAT}) &&
        add_option(table, &n, cap,
                   (struct option){"custom", required_argument, NULL, OPT_CUSTOM}) &&
        add_option(table, &n, cap,
                   (struct option){"trace-format", required_argument, NULL, OPT_TRACE_FORMAT}) &&
        add_option(table, &n, cap,
                   (struct option){"endian", required_argument, NULL, OPT_ENDIAN}) &&
        add_option(table, &n, cap,
                   (struct option){"uia-meta", required_argument, NULL, OPT_UIA_META}) &&
        add_option(table, &n, cap, (struct option){"elf", required_argument, NULL, OPT_ELF}) &&
        add_option(table, &n, cap, (struct option){"idle", required_argument, NULL, OPT_IDLE}) &&
        add_option(table, &n, cap, (struct option){"jobs", required_argument, NULL, OPT_JOBS}) &&
        add_option(table, &n, cap,
                   (struct option){"max-input-size", required_argument, NULL, OPT_MAX_INPUT});
    if (ok && (spec->common & CLI_JSON))
        ok = add_option(table, &n, cap, (struct option){"json", no_argument, NULL, OPT_JSON});
    if (ok && (spec->common & CLI_CRLF))
        ok = add_option(table, &n, cap, (struct option){"crlf", no_argument, NULL, OPT_CRLF});
    if (ok && (spec->common & CLI_COMPAT))
        ok = add_option(table, &n, cap,
                        (struct option){"compat", required_argument, NULL, OPT_COMPAT});
    for (const struct option *o = spec->own; ok && o && o->name; o++)
        ok = add_option(table, &n, cap, *o);
    table[n] = (struct option){NULL, 0, NULL, 0};
    return ok;
}

int cli_parse(int argc, char **argv, const cli_spec *spec, cli_common *c)
{
    struct option table[64];
    memset(c, 0, sizeof *c);
    c->command = spec->name;
    c->input_format = TRX_FORMAT_AUTO;
    c->mode = TRX_MODE_CORRECT;
    c->max_input_size = TRX_DEFAULT_MAX_INPUT;
    if (!build_table(spec, table, (int)(sizeof table / sizeof table[0]))) {
        fprintf(stderr, "trx %s: internal error: too many options\n", spec->name);
        return EXIT_USAGE;
    }
    opterr = 0;
    optind = 1;
    int ch, index;
    while ((ch = getopt_long(argc, argv, ":ho:", table, &index)) != -1) {
        switch (ch) {
        case 'h':
            fputs(spec->usage, stdout);
            return fflush(stdout) == 0 ? EXIT_OK : EXIT_OUTPUT;
        case 'o':
            c->output = optarg;
            break;
        case OPT_INPUT_FORMAT:
            if (trx_input_format_parse(optarg, &c->input_format) != 0)
                return cli_usage_error(spec->name, "--input-format: unknown format '%s'", optarg);
            break;
        case OPT_CUSTOM:
            c->custom = optarg;
            break;
        case OPT_TRACE_FORMAT:
            if (trx_trace_format_parse(optarg, &c->trace_format) != 0)
                return cli_usage_error(spec->name,
                                       "--trace-format: unknown format '%s' (txtb, uia)", optarg);
            c->force_trace_format = true;
            break;
        case OPT_ENDIAN:
            if (strcmp(optarg, "little") == 0)
                c->endian = TRX_ENDIAN_LITTLE;
            else if (strcmp(optarg, "big") == 0)
                c->endian = TRX_ENDIAN_BIG;
            else if (strcmp(optarg, "auto") == 0)
                c->endian = TRX_ENDIAN_AUTO;
            else
                return cli_usage_error(
                    spec->name, "--endian: unknown byte order '%s' (little, big, auto)", optarg);
            break;
        case OPT_UIA_META:
            c->uia_meta = optarg;
            break;
        case OPT_ELF:
            c->elf = optarg;
            break;
        case OPT_IDLE:
            c->idle = optarg;
            break;
        case OPT_JOBS: {
            uint64_t jobs;
            if (!cli_parse_u64(optarg, &jobs) || jobs < 1 || jobs > 1024)
                return cli_usage_error(spec->name, "--jobs: '%s' is not a thread count (1 to 1024)",
                                       optarg);
            c->jobs = (uint32_t)jobs;
            break;
        }
        case OPT_MAX_INPUT:
            if (!cli_parse_size(optarg, &c->max_input_size))
                return cli_usage_error(spec->name,
                                       "--max-input-size: '%s' is not a size in bytes (e.g. "
                                       "4294967296, 512M, 4G)",
                                       optarg);
            break;
        case OPT_JSON:
            c->json = true;
            break;
        case OPT_CRLF:
            c->crlf = true;
            break;
        case OPT_COMPAT:
            if (strcmp(optarg, "tracex") == 0)
                c->mode = TRX_MODE_TRACEX;
            else if (strcmp(optarg, "none") == 0)
                c->mode = TRX_MODE_CORRECT;
            else
                return cli_usage_error(spec->name, "--compat: unknown mode '%s' (tracex, none)",
                                       optarg);
            break;
        case ':':
            return cli_usage_error(spec->name, "option '%s' needs an argument", argv[optind - 1]);
        case '?':
            return cli_usage_error(spec->name, "unknown option '%s'", argv[optind - 1]);
        default:
            if (ch >= CLI_OPT_FIRST_OWN && spec->on_own) {
                int rc = spec->on_own(spec->own_state, ch, optarg);
                if (rc >= 0)
                    return rc;
                break;
            }
            return cli_usage_error(spec->name, "unknown option '%s'", argv[optind - 1]);
        }
    }
    c->args = argv + optind;
    c->arg_count = argc - optind;
    const char *what = spec->args_name ? spec->args_name : "FILE";
    if (c->arg_count < spec->min_args)
        return cli_usage_error(spec->name, "no input %s given", what);
    if (spec->max_args == 1 && c->arg_count > 1)
        return cli_usage_error(spec->name, "one input %s only ('%s' is extra)", what, c->args[1]);
    if (spec->max_args >= 0 && c->arg_count > spec->max_args)
        return cli_usage_error(spec->name, "too many arguments ('%s' is extra)",
                               c->args[spec->max_args]);
    return -1;
}
