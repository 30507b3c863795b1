/* cmd_describe.c - `trx describe`: one event description (or a TraceX .trxc)
 * turned into a recorder header, a .trxc, a SystemView description or the
 * description itself (lib/output/describe.c). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "output/describe.h"

static const char usage[] =
    "usage: trx describe --to header|trxc|systemview|csv [OPTIONS] FILE [-o OUT]\n"
    "\n"
    "Reads FILE, a trx event description (docs/event-descriptions.md: per event\n"
    "id its name, meaning and typed fields) or a TraceX .trxc, and writes:\n"
    "  header      a C header with one typed inline function per user event\n"
    "              (trx_event_motor_start(speed, dir) records id and fields)\n"
    "  trxc        TraceX's custom-event file for the same user events\n"
    "  systemview  a SEGGER SystemView description of the same user events\n"
    "  csv         the description (a .trxc becomes one)\n"
    "The same FILE names the events in every command: trx events/stats/report/\n"
    "export --custom FILE.\n"
    "\n"
    "  --to FORMAT         header, trxc, systemview or csv (required)\n"
    "  -o, --output OUT    write to OUT (replaced only when complete; default stdout)\n"
    "  --prefix P          header: function prefix (default trx_event_)\n"
    "  --include H         header: the recorder API header (default trx/tx_trace.h;\n"
    "                      tx_api.h with ThreadX itself)\n"
    "  --guard G           header: include guard (default from FILE's name)\n"
    "  -h, --help          this text\n";

int cmd_describe(int argc, char **argv)
{
    enum { OPT_TO = 256, OPT_PREFIX, OPT_INCLUDE, OPT_GUARD };
    static const struct option options[] = {{"to", required_argument, NULL, OPT_TO},
                                            {"output", required_argument, NULL, 'o'},
                                            {"prefix", required_argument, NULL, OPT_PREFIX},
                                            {"include", required_argument, NULL, OPT_INCLUDE},
                                            {"guard", required_argument, NULL, OPT_GUARD},
                                            {"help", no_argument, NULL, 'h'},
                                            {NULL, 0, NULL, 0}};
    static const char *const formats[] = {"header", "trxc", "systemview", "csv"};
    trx_describe_options o = {.format = TRX_DESCRIBE_HEADER};
    bool have_format = false;
    const char *output = NULL;
    int opt;
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":o:h", options, NULL)) != -1) {
        switch (opt) {
        case OPT_TO:
            have_format = false;
            for (int k = 0; k < 4; k++)
                if (strcmp(optarg, formats[k]) == 0) {
                    o.format = (trx_describe_format)k;
                    have_format = true;
                }
            if (!have_format)
                return cli_usage_error("describe",
                                       "--to: unknown format '%s' (header, trxc, systemview, csv)",
                                       optarg);
            break;
        case 'o':
            output = optarg;
            break;
        case OPT_PREFIX:
            o.prefix = optarg;
            break;
        case OPT_INCLUDE:
            o.include = optarg;
            break;
        case OPT_GUARD:
            o.guard = optarg;
            break;
        case 'h':
            fputs(usage, stdout);
            return EXIT_OK;
        case ':':
            return cli_usage_error("describe", "option '%s' needs a value", argv[optind - 1]);
        default:
            return cli_usage_error("describe", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (!have_format)
        return cli_usage_error("describe",
                               "--to FORMAT is required (header, trxc, systemview, csv)");
    if (argc - optind != 1)
        return cli_usage_error("describe", "expected one description FILE");
    o.source = argv[optind];
    trx_custom_events ce = {0};
    trx_error err;
    if (trx_custom_events_load(&ce, o.source, &err) != 0)
        return cli_input_error(o.source, &err);
    cli_sink s;
    int rc = cli_sink_open(&s, output);
    if (rc == EXIT_OK) {
        trx_out_init(&cli_out, s.f, false);
        trx_describe_write(&ce, &o, &cli_out);
        rc = cli_sink_close(&s, &cli_out, EXIT_OK);
    }
    trx_custom_events_free(&ce);
    return rc;
}
