/* cmd_dump.c - `trx dump`: TraceX's "raw trace file dump", byte for byte (always TraceX's rules).
 */
#include <stdio.h>

#include "cli.h"
#include "commands.h"
#include "output/dump_text.h"
#include "output/uia_dump.h"

static const char usage[] =
    "usage: trx dump [OPTIONS] FILE\n"
    "\n"
    "Writes TraceX's \"raw trace file dump\" of FILE: header, threads, objects,\n"
    "statistics and every event, identical to TraceX 6.2.1's text.\n"
    "\n"
    "  --crlf                  end lines with CR LF, as TraceX on Windows does\n"
    "  --input-format FORMAT   bin, ihex, srec, ascii or auto (default)\n"
    "  --trace-format txtb|uia the trace decoder (default: by content)\n"
    "  --endian little|big     byte order of UIA records (default: packet bit / detected)\n"
    "  --uia-meta FILE         UIA event names: a names file or TI's APP.uia.xml\n"
    "  --max-input-size SIZE   refuse larger input (default 4G; K, M, G suffixes)\n"
    "  --custom FILE.trxc      TraceX custom-event definitions (checked)\n"
    "  -o, --output OUT        write to OUT (replaced only when complete)\n";

static int write_dump(cli_input *in, const cli_common *c, void *state, trx_out *w)
{
    if (in->trace.format == TRX_TRACE_UIA) {
        if (trx_uia_dump_write(&in->trace, w) == 0)
            return EXIT_OK;
        fprintf(stderr, "trx: %s: out of memory\n", c->args[0]);
        return EXIT_INPUT;
    }
    (void)state;
    trx_trace_set_mode(&in->trace, TRX_MODE_TRACEX); /* TraceX's text, quirks included */
    cli_warn_damaged(in, c->args[0],
                     "in the buffer: the dump shows them as TraceX reads the buffer; "
                     "`trx events` and `trx stats` skip them");
    if (trx_dump_write(&in->trace, w, c->args[0], c->output ? c->output : "-") == 0)
        return EXIT_OK;
    fprintf(stderr, "trx: %s: out of memory\n", c->args[0]);
    return EXIT_INPUT;
}

int cmd_dump(int argc, char **argv)
{
    static const cli_spec spec = {
        .name = "dump", .usage = usage, .common = CLI_CRLF, .min_args = 1, .max_args = 1};
    cli_common c;
    int rc = cli_parse(argc, argv, &spec, &c);
    return rc >= 0 ? rc : cli_run_on_input(&c, write_dump, NULL);
}
