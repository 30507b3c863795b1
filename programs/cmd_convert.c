/* cmd_convert.c - `trx convert`: a trace in another trace format (TXTB <-> UIA)
 * or its image in another encoding (bin, Intel HEX, S-record). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "output/convert.h"

static const char usage[] =
    "usage: trx convert --to txtb|uia|bin|ihex|srec [OPTIONS] FILE -o OUT\n"
    "\n"
    "Rewrites FILE. --to uia: a TXTB trace as a UIAPacket file (every entry a\n"
    "record that carries it whole); --to txtb: a UIA trace as a TXTB buffer that\n"
    "TraceX and trx dump open, each lost-event gap a user event 0xFFF0 (info1 =\n"
    "events lost); records that carry a TXTB entry give it back byte for byte.\n"
    "--to bin|ihex|srec: the loaded image re-encoded at its address.\n"
    "(docs/uia-decoding.md, \"Conversions\")\n"
    "\n"
    "  --to FORMAT             txtb, uia, bin, ihex or srec (required)\n"
    "  -o, --output OUT        write to OUT (replaced only when complete; default stdout)\n"
    "  --input-format FORMAT   bin, ihex, srec, ascii or auto (default)\n"
    "  --trace-format txtb|uia the trace decoder (default: by content)\n"
    "  --endian little|big     byte order of UIA records (default: packet bit / detected)\n"
    "  --uia-meta FILE         UIA event names (accepted, not needed here)\n"
    "  --custom FILE           event definitions, description or .trxc (checked)\n";

enum { OPT_TO = CLI_OPT_FIRST_OWN };
typedef enum { TO_NONE, TO_TXTB, TO_UIA, TO_BIN, TO_IHEX, TO_SREC } target;

static int on_option(void *state, int opt, const char *arg)
{
    target *to = state;
    if (opt != OPT_TO)
        return cli_usage_error("convert", "unknown option");
    static const char *const names[] = {"", "txtb", "uia", "bin", "ihex", "srec"};
    for (int k = 1; k < 6; k++)
        if (strcmp(arg, names[k]) == 0) {
            *to = (target)k;
            return -1;
        }
    return cli_usage_error("convert", "--to: unknown format '%s' (txtb, uia, bin, ihex, srec)",
                           arg);
}

static int write_convert(cli_input *in, const cli_common *c, void *state, trx_out *w)
{
    target to = *(target *)state;
    trx_trace *t = &in->trace;
    int rc = 0;
    switch (to) {
    case TO_TXTB:
        if (t->format != TRX_TRACE_UIA && !t->stream_source) {
            fprintf(stderr, "trx convert: %s is already TXTB (use --to bin to copy it)\n",
                    c->args[0]);
            return EXIT_INPUT;
        }
        rc = trx_convert_to_txtb(t, w);
        break;
    case TO_UIA:
        if (t->format != TRX_TRACE_TXTB || t->used == 0) {
            fprintf(stderr, "trx convert: %s: %s\n", c->args[0],
                    t->format == TRX_TRACE_UIA ? "is already UIA" : "has no events to convert");
            return EXIT_INPUT;
        }
        rc = trx_convert_to_uia(t, w);
        break;
    case TO_BIN:
        trx_out_mem(w, t->image.data, t->image.size);
        break;
    case TO_IHEX:
        trx_write_ihex(&t->image, w);
        break;
    case TO_SREC:
        trx_write_srec(&t->image, w);
        break;
    default:
        break;
    }
    if (rc != 0) {
        fprintf(stderr, "trx: %s: out of memory\n", c->args[0]);
        return EXIT_INPUT;
    }
    return EXIT_OK;
}

int cmd_convert(int argc, char **argv)
{
    static const struct option own[] = {{"to", required_argument, NULL, OPT_TO},
                                        {NULL, 0, NULL, 0}};
    static target to;
    to = TO_NONE;
    const cli_spec spec = {.name = "convert",
                           .usage = usage,
                           .own = own,
                           .on_own = on_option,
                           .own_state = &to,
                           .min_args = 1,
                           .max_args = 1};
    cli_common c;
    int rc = cli_parse(argc, argv, &spec, &c);
    if (rc >= 0)
        return rc;
    if (to == TO_NONE)
        return cli_usage_error("convert", "--to FORMAT is required (txtb, uia, bin, ihex, srec)");
    return cli_run_on_input(&c, write_convert, &to);
}
