/*
 * cli_input.c - opening a command's input the same way for every command:
 * the trace (a file or "-" for standard input; format from --input-format or
 * content; at most --max-input-size bytes), the --custom
 * definitions (a bad file is an error for every command), the analysis mode;
 * and the common open -> write -> close sequence of single-input commands.
 */
#include <inttypes.h>
#include <string.h>

#include "cli.h"
#include "output/uia_events.h"

int cli_input_open(cli_input *in, const cli_common *c, const char *path)
{
    trx_error err;
    memset(in, 0, sizeof *in);
    memset(&err, 0, sizeof err);
    if (c->custom && trx_custom_events_load(&in->custom, c->custom, &err) != 0) {
        cli_input_close(in);
        return cli_input_error(c->custom, &err);
    }
    if (c->uia_meta && trx_uia_names_load(&in->uia_names, c->uia_meta, &err) != 0) {
        cli_input_close(in);
        return cli_input_error(c->uia_meta, &err);
    }
    if (c->elf && trx_elf_load(&in->elf, c->elf, &err) != 0) {
        cli_input_close(in);
        return cli_input_error(c->elf, &err);
    }
    trx_open_options o = {.input_format = c->input_format,
                          .force_format = c->force_trace_format,
                          .trace_format = c->trace_format,
                          .endian = c->endian,
                          .uia_names = &in->uia_names,
                          .jobs = c->jobs,
                          .core_counts = c->core_counts,
                          .time_counts = c->time_counts};
    bool from_stdin = strcmp(path, "-") == 0;
    trx_image img;
    int rc = from_stdin
                 ? trx_image_load_fd(&img, 0, c->input_format, c->max_input_size, &err)
                 : trx_image_load_file_limit(&img, path, c->input_format, c->max_input_size, &err);
    if (rc != 0 || trx_trace_open_image_with(&in->trace, &img, path, &o, &err) != 0) {
        cli_input_close(in);
        return cli_input_error(from_stdin ? "standard input" : path, &err);
    }
    trx_trace_set_mode(&in->trace, c->mode);
    /* an RTOS's own names in the default mode; TraceX's with --compat tracex */
    in->custom.rtos = c->mode == TRX_MODE_CORRECT ? (int)in->trace.rtos : TRX_RTOS_THREADX;
    in->trace.uia_names = &in->uia_names; /* this trace's names: no other trace sees them */
    if (c->elf) {
        in->trace.elf = &in->elf;
        trx_trace_name_from_elf(&in->trace);
        trx_elf_match m;
        trx_elf_check(&in->trace, &m);
        if (m.verdict == TRX_ELF_MISMATCH)
            fprintf(stderr,
                    "trx: %s: warning: %s is not the firmware that wrote this trace (%s): "
                    "its names would mislead\n",
                    path, c->elf, m.reason);
    }
    in->trace.jobs = c->jobs;
    if (c->idle && trx_trace_mark_idle(&in->trace, c->idle) == 0)
        fprintf(stderr, "trx: %s: warning: --idle %s names no task of this trace\n", path, c->idle);
    cli_warn_time_backwards(in, path);
    return 0;
}

void cli_warn_damaged(const cli_input *in, const char *path, const char *what)
{
    char summary[160];
    trx_trace_damage_summary(&in->trace, summary, sizeof summary);
    if (summary[0])
        fprintf(stderr, "trx: %s: warning: %s %s\n", path, summary, what);
}

void cli_warn_time_backwards(const cli_input *in, const char *path)
{
    uint64_t first;
    uint64_t n = trx_trace_time_backwards(&in->trace, &first);
    if (n)
        fprintf(stderr,
                "trx: %s: warning: timestamps go backwards %" PRIu64 " time%s (first at offset "
                "%" PRIu64 "): a broken time source; figures spanning a backward step are "
                "left out\n",
                path, n, n == 1 ? "" : "s", first);
}

void cli_input_close(cli_input *in)
{
    trx_trace_close(&in->trace);
    trx_custom_events_free(&in->custom);
    trx_uia_names_free(&in->uia_names);
    trx_elf_free(&in->elf);
}

int cli_run_on_input(const cli_common *c, cli_writer write, void *state)
{
    /* The output first: a path that cannot be written fails before reading
     * (possibly a long stream), and the temporary exists while reading. */
    cli_sink s;
    int rc = cli_sink_open(&s, c->output);
    if (rc != 0)
        return rc;
    cli_input in;
    if ((rc = cli_input_open(&in, c, c->args[0])) != 0) {
        trx_out_init(&cli_out, s.f, c->crlf);
        return cli_sink_close(&s, &cli_out, rc);
    }
    trx_out_init(&cli_out, s.f, c->crlf);
    rc = cli_sink_close(&s, &cli_out, write(&in, c, state, &cli_out));
    cli_input_close(&in);
    return rc;
}

int cli_main_on_input(int argc, char **argv, const cli_spec *spec, cli_writer write, void *state)
{
    cli_common c;
    int rc = cli_parse(argc, argv, spec, &c);
    return rc >= 0 ? rc : cli_run_on_input(&c, write, state);
}
