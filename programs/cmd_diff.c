/*
 * cmd_diff.c - `trx diff A B`: the statistics of two traces side by side
 * (summary, performance, execution profile, stack usage, inversions per
 * lock), each figure with its absolute and relative change; --json.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "diff_rows.h"
#include "output/json_string.h"

static const char usage[] =
    "usage: trx diff [OPTIONS] A B\n"
    "\n"
    "Compares the statistics of traces A and B (as trx stats computes them): the\n"
    "summary (events, span, threads, lost events), performance statistics,\n"
    "execution profile, stack usage, priority inversions per lock, ISR durations\n"
    "per ISR number, interrupt-to-thread latency and response time per thread,\n"
    "each with its value in A and B, the change (B - A) and the relative change\n"
    "in percent of A. Threads and locks are matched by name (the k-th of a name\n"
    "in A with the k-th in B), ISRs by number (on an AMP SYS/BIOS capture by\n"
    "core and number, \"1/ISR 16\"); one side's missing item shows as '-'\n"
    "(JSON: null).\n"
    "\n"
    "  --json                  one JSON object instead of text\n"
    "  --changed               only the rows that changed (text)\n"
    "  --compat tracex         TraceX 6.2.1's numbers on both sides\n" CLI_HELP_INPUT_OPTIONS;

enum { OPT_CHANGED = CLI_OPT_FIRST_OWN };

typedef struct diff_options {
    bool changed_only;
} diff_options;

static int on_option(void *state, int opt, const char *arg)
{
    (void)arg;
    diff_options *o = state;
    if (opt == OPT_CHANGED)
        o->changed_only = true;
    return -1;
}

static bool changed(const diff_row *r)
{
    return r->has_a != r->has_b || (r->has_a && r->a != r->b);
}

/* B - A as a signed 64-bit figure (both below 2^63 in any real trace). */
static int64_t change_of(const diff_row *r)
{
    return (int64_t)(r->b - r->a);
}

/* "+12.34%", "0%" or "new"/"-" when A is 0 or a side is missing. */
static void relative_text(const diff_row *r, char *buf, size_t size)
{
    if (!r->has_a || !r->has_b)
        snprintf(buf, size, "-");
    else if (r->a == r->b)
        snprintf(buf, size, "0%%");
    else if (r->a == 0)
        snprintf(buf, size, "new");
    else
        snprintf(buf, size, "%+.2f%%", 100.0 * (double)change_of(r) / (double)r->a);
}

static void value_text(bool has, uint64_t v, char *buf, size_t size)
{
    if (has)
        snprintf(buf, size, "%" PRIu64, v);
    else
        snprintf(buf, size, "-");
}

/* Whether row i's section has several fields per item (its next or
 * previous row is the same item with another field). */
static bool multi_field(const diff_rows *d, size_t i)
{
    const diff_row *r = &d->rows[i];
    for (size_t k = i ? i - 1 : i + 1; k <= i + 1 && k < d->count; k += 2) {
        const diff_row *o = &d->rows[k];
        if (strcmp(o->section, r->section) == 0 && strcmp(o->field, r->field) != 0)
            return true;
    }
    return false;
}

/* `irq`: the RTOS's word for an interrupt's row ("ISR", "Hwi": trx_interrupt_word). */
static void write_text(const diff_rows *d, const cli_common *c, const diff_options *o,
                       const char *irq, trx_out *w)
{
    size_t n_changed = 0;
    for (size_t i = 0; i < d->count; i++)
        n_changed += changed(&d->rows[i]);
    trx_out_printf(w, "A: %s\nB: %s\nmode: %s\n%zu of %zu figures changed\n", c->args[0],
                   c->args[1], c->mode == TRX_MODE_TRACEX ? "tracex" : "correct", n_changed,
                   d->count);
    if (d->unavailable_reason)
        trx_out_printf(w, "not available (%s: %s): %s\n", d->unavailable_in, d->unavailable_reason,
                       diff_context_sections);
    const char *section = NULL;
    for (size_t i = 0; i < d->count; i++) {
        const diff_row *r = &d->rows[i];
        if (o->changed_only && !changed(r))
            continue;
        if (!section || strcmp(section, r->section) != 0) {
            section = r->section;
            bool one_field = r->field[0] && !multi_field(d, i);
            trx_out_printf(w, "\n%s%s%s%s\n", section, one_field ? " (" : "",
                           one_field ? r->field : "", one_field ? ")" : "");
            trx_out_printf(w, "  %-36s %14s %14s %14s %10s\n", "", "A", "B", "change", "relative");
        }
        char a[32], b[32], ch[32], rel[32];
        value_text(r->has_a, r->a, a, sizeof a);
        value_text(r->has_b, r->b, b, sizeof b);
        if (r->has_a && r->has_b)
            snprintf(ch, sizeof ch, r->a == r->b ? "0" : "%+" PRId64, change_of(r));
        else
            snprintf(ch, sizeof ch, "-");
        relative_text(r, rel, sizeof rel);
        char name[TRX_NAME_MAX + 16], number[24];
        if (multi_field(d, i)) /* several fields per item: "name (field)" */
            snprintf(name, sizeof name, "%s%s%s (%s)",
                     strcmp(r->section, "isr") || r->isr_core != TRX_UNKNOWN ? "" : irq,
                     strcmp(r->section, "isr") || r->isr_core != TRX_UNKNOWN ? "" : " ",
                     diff_row_name(r, irq, number, sizeof number), r->field);
        else
            snprintf(name, sizeof name, "%s", diff_row_name(r, irq, number, sizeof number));
        trx_out_printf(w, "  %-36s %14s %14s %14s %10s\n", name, a, b, ch, rel);
    }
}

static void json_value(trx_out *w, bool has, uint64_t v)
{
    if (has)
        trx_out_printf(w, "%" PRIu64, v);
    else
        trx_out_str(w, "null");
}

/* {"mode", "a", "b", "changed", "rows", then per section an array of
 * {"name", "field", "a", "b", "change", "relative"}} */
static void write_json(const diff_rows *d, const cli_common *c, const char *irq, trx_out *w)
{
    size_t n_changed = 0;
    for (size_t i = 0; i < d->count; i++)
        n_changed += changed(&d->rows[i]);
    trx_out_printf(w,
                   "{\"mode\": \"%s\", \"a\": ", c->mode == TRX_MODE_TRACEX ? "tracex" : "correct");
    trx_out_json_string(w, c->args[0]);
    trx_out_str(w, ", \"b\": ");
    trx_out_json_string(w, c->args[1]);
    trx_out_printf(w, ", \"rows\": %zu, \"changed\": %zu", d->count, n_changed);
    if (d->unavailable_reason) {
        trx_out_printf(w,
                       ",\n  \"unavailable\": {\"in\": \"%s\", \"sections\": ", d->unavailable_in);
        trx_out_json_string(w, diff_context_sections);
        trx_out_str(w, ", \"reason\": ");
        trx_out_json_string(w, d->unavailable_reason);
        trx_out_char(w, '}');
    }
    const char *section = NULL;
    for (size_t i = 0; i < d->count; i++) {
        const diff_row *r = &d->rows[i];
        bool first = !section || strcmp(section, r->section) != 0;
        if (first) {
            trx_out_str(w, section ? "\n  ],\n  \"" : ",\n  \"");
            section = r->section;
            trx_out_str(w, section);
            trx_out_str(w, "\": [\n    {\"name\": ");
        } else {
            trx_out_str(w, ",\n    {\"name\": ");
        }
        char number[24];
        trx_out_json_string(w, diff_row_name(r, irq, number, sizeof number));
        trx_out_str(w, ", \"field\": ");
        trx_out_json_string(w, r->field);
        trx_out_str(w, ", \"a\": ");
        json_value(w, r->has_a, r->a);
        trx_out_str(w, ", \"b\": ");
        json_value(w, r->has_b, r->b);
        trx_out_str(w, ", \"change\": ");
        if (r->has_a && r->has_b)
            trx_out_printf(w, "%" PRId64, change_of(r));
        else
            trx_out_str(w, "null");
        trx_out_str(w, ", \"relative\": ");
        if (r->has_a && r->has_b && (r->a != 0 || r->b == 0))
            trx_out_printf(w, "%.6g", r->a ? 100.0 * (double)change_of(r) / (double)r->a : 0.0);
        else
            trx_out_str(w, "null");
        trx_out_char(w, '}');
    }
    trx_out_str(w, section ? "\n  ]\n}\n" : "\n}\n");
}

/* Opens and computes one side (statistics and instance responses); 0 or
 * an exit status (error printed). */
static int open_side(cli_input *in, trx_stats *st, trx_latency *l, const cli_common *c,
                     const char *path)
{
    int rc = cli_input_open(in, c, path);
    if (rc != 0)
        return rc;
    trx_latency_options o;
    memset(&o, 0, sizeof o);
    if (trx_stats_latency_compute(&in->trace, st, &o, l) != 0) { /* one walk for both */
        fprintf(stderr, "trx: %s: out of memory\n", path);
        cli_input_close(in);
        return EXIT_INPUT;
    }
    return 0;
}

int cmd_diff(int argc, char **argv)
{
    static const struct option own[] = {
        {"changed", no_argument, NULL, OPT_CHANGED},
        {NULL, 0, NULL, 0},
    };
    diff_options o = {false};
    static const cli_spec spec_template = {.name = "diff",
                                           .usage = usage,
                                           .common = CLI_JSON | CLI_COMPAT,
                                           .own = own,
                                           .on_own = on_option,
                                           .min_args = 2,
                                           .max_args = 2,
                                           .args_name = "A B"};
    cli_spec spec = spec_template;
    spec.own_state = &o;
    cli_common c;
    int rc = cli_parse(argc, argv, &spec, &c);
    if (rc >= 0)
        return rc;
    c.time_counts = true; /* the statistics' pre-passes from the open's own pass */
    cli_sink s;
    if ((rc = cli_sink_open(&s, c.output)) != 0)
        return rc;
    trx_out_init(&cli_out, s.f, c.crlf);
    cli_input a, b;
    trx_stats sa, sb;
    trx_latency la, lb;
    if ((rc = open_side(&a, &sa, &la, &c, c.args[0])) != 0)
        return cli_sink_close(&s, &cli_out, rc);
    if ((rc = open_side(&b, &sb, &lb, &c, c.args[1])) != 0) {
        trx_stats_free(&sa);
        trx_latency_free(&la);
        cli_input_close(&a);
        return cli_sink_close(&s, &cli_out, rc);
    }
    diff_rows d;
    diff_side da = {&a.trace, &sa, &la}, db = {&b.trace, &sb, &lb};
    if (diff_rows_build(&d, &da, &db) != 0) {
        fprintf(stderr, "trx diff: out of memory\n");
        rc = EXIT_INPUT;
    } else if (c.json) {
        write_json(&d, &c, trx_interrupt_word(&a.trace), &cli_out);
    } else {
        write_text(&d, &c, &o, trx_interrupt_word(&a.trace), &cli_out);
    }
    diff_rows_free(&d);
    trx_stats_free(&sa);
    trx_stats_free(&sb);
    trx_latency_free(&la);
    trx_latency_free(&lb);
    cli_input_close(&a);
    cli_input_close(&b);
    return cli_sink_close(&s, &cli_out, rc);
}
