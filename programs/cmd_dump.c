/* cmd_dump.c - `trx dump`: TraceX's "raw trace file dump", byte for byte (always TraceX's rules).
 */
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
    "  --crlf                  end lines with CR LF, as TraceX on Windows "
    "does\n" CLI_HELP_INPUT_OPTIONS;

static int write_dump(cli_input *in, const cli_common *c, void *state, trx_out *w)
{
    if (in->trace.format == TRX_TRACE_UIA) {
        if (trx_uia_dump_write(&in->trace, w) == 0)
            return EXIT_OK;
        return cli_out_of_memory(c->args[0]);
    }
    (void)state;
    trx_trace_set_mode(&in->trace, TRX_MODE_TRACEX); /* TraceX's text, quirks included */
    cli_warn_damaged(in, c->args[0],
                     "in the buffer: the dump shows them as TraceX reads the buffer; "
                     "`trx events` and `trx stats` skip them");
    if (trx_dump_write(&in->trace, w, c->args[0], c->output ? c->output : "-") == 0)
        return EXIT_OK;
    return cli_out_of_memory(c->args[0]);
}

int cmd_dump(int argc, char **argv)
{
    static const cli_spec spec = {
        .name = "dump", .usage = usage, .common = CLI_CRLF, .min_args = 1, .max_args = 1};
    return cli_main_on_input(argc, argv, &spec, write_dump, NULL);
}
