/*
 * cmd_check.c - `trx check FILE RULE...`: a gate for CI. Evaluates each rule
 * against the trace's correct-mode statistics and prints pass or fail with
 * the evidence; --json, --junit FILE. Exit 0 when every rule passes, 1 when
 * one fails, 2 for bad input, a bad rule or a rule that cannot be evaluated.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check_report.h"
#include "check_rules.h"
#include "cli.h"
#include "commands.h"

enum { CHECK_EXIT_FAIL = 1, CHECK_EXIT_ERROR = 2 };

static const char usage_head[] =
    "usage: trx check [OPTIONS] FILE RULE...\n"
    "\n"
    "Checks FILE against each RULE (correct-mode statistics, see trx stats) and\n"
    "prints one line per rule: PASS or FAIL, the measured value, the limit and\n"
    "where (event index, ticks, thread or ISR). A gate for CI.\n"
    "\n"
    "Rules:\n";

static const char usage_tail[] =
    "\n"
    "  --rules FILE            more rules, one per line; blank lines and '#' comments\n"
    "                          (from a '#' at the start or after a blank) ignored\n"
    "  --json                  one JSON object instead of text\n"
    "  --junit OUT.xml         also write a JUnit XML report (each rule a "
    "testcase)\n"
    "  --skip-unavailable      a rule the trace cannot give (a UIA trace has no thread\n"
    "                          or interrupt context) is skipped, not an error\n"
    "  --ticks-per-us X        the tick rate, for limits in us, ms or s\n"
    "  --ticks-per-second N    the same, N ticks per second\n" CLI_HELP_INPUT_OPTIONS "\n"
    "Exit status: 0 every rule passes (or is skipped), 1 a rule fails, 2 bad input,\n"
    "a bad rule (the message names it and what was expected), a bad option, or a\n"
    "rule whose metric the trace cannot give (the message says why; see\n"
    "--skip-unavailable).\n";

/* The rules collected from --rules files and the command line. */
typedef struct check_options {
    const char *junit;
    uint64_t ticks_per_second;
    bool skip_unavailable;
    check_rule *rules;
    size_t count, cap;
    int status; /* CHECK_EXIT_ERROR after a bad rule or rules file */
} check_options;

enum { OPT_RULES = CLI_OPT_FIRST_OWN, OPT_JUNIT, OPT_SKIP_UNAVAILABLE, OPT_TPS, OPT_TPUS };

static int add_rule(check_options *o, const char *text, const char *where, size_t line)
{
    if (o->count == o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 16;
        check_rule *n = realloc(o->rules, cap * sizeof *n);
        if (!n) {
            fprintf(stderr, "trx check: out of memory\n");
            return -1;
        }
        o->rules = n;
        o->cap = cap;
    }
    char why[1024];
    if (check_rule_parse(text, &o->rules[o->count], why, sizeof why) != 0) {
        if (where)
            fprintf(stderr, "trx check: %s: line %zu: bad rule '%s': %s\n", where, line, text, why);
        else
            fprintf(stderr, "trx check: bad rule '%s': %s\n", text, why);
        return -1;
    }
    o->count++;
    return 0;
}

/* Reads a rules file: one rule per line, '#' comments, blank lines. */
static int read_rules_file(check_options *o, const char *path)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (!f) {
        fprintf(stderr, "trx check: %s: %s\n", path, strerror(errno));
        return -1;
    }
    char line[1024];
    size_t number = 0;
    int rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        number++;
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n' && !feof(f)) {
            fprintf(stderr, "trx check: %s: line %zu: longer than %zu characters\n", path, number,
                    sizeof line - 2);
            rc = -1;
            break;
        }
        for (char *p = line; *p; p++) /* a comment: '#' first or after a blank */
            if (*p == '#' && (p == line || p[-1] == ' ' || p[-1] == '\t')) {
                *p = '\0';
                break;
            }
        char *p = line;
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
            p++;
        size_t end = strlen(p);
        while (end && (p[end - 1] == ' ' || p[end - 1] == '\t' || p[end - 1] == '\r' ||
                       p[end - 1] == '\n'))
            p[--end] = '\0';
        if (*p)
            rc = add_rule(o, p, path, number);
    }
    if (rc == 0 && ferror(f)) {
        fprintf(stderr, "trx check: %s: read error\n", path);
        rc = -1;
    }
    if (f != stdin)
        fclose(f);
    return rc;
}

static int on_option(void *state, int opt, const char *arg)
{
    check_options *o = state;
    if (opt == OPT_JUNIT) {
        o->junit = arg;
        return -1;
    }
    if (opt == OPT_SKIP_UNAVAILABLE) {
        o->skip_unavailable = true;
        return -1;
    }
    if (opt == OPT_TPS)
        return cli_time_option("check", "ticks-per-second", arg, &o->ticks_per_second);
    if (opt == OPT_TPUS)
        return cli_time_option("check", "ticks-per-us", arg, &o->ticks_per_second);
    if (read_rules_file(o, arg) != 0) {
        o->status = CHECK_EXIT_ERROR;
        return CHECK_EXIT_ERROR;
    }
    return -1;
}

static int write_junit(const char *path, const check_run *run)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "trx check: --junit %s: %s\n", path, strerror(errno));
        return EXIT_OUTPUT;
    }
    check_write_junit(run, f);
    if (ferror(f) | (fclose(f) != 0)) {
        fprintf(stderr, "trx check: --junit %s: write error\n", path);
        return EXIT_OUTPUT;
    }
    return 0;
}

/* Evaluates every rule on the opened trace, writes the results; returns
 * the check's exit status (the sink is closed as written successfully). */
static int run_check(cli_input *in, const cli_common *c, check_options *o, trx_out *w,
                     bool *complete)
{
    *complete = false;
    bool need_latency = false;
    for (size_t i = 0; i < o->count; i++)
        need_latency |= check_needs_latency(&o->rules[i]);
    trx_stats st;
    trx_latency lat;
    trx_latency_options lo;
    check_latency_options(&lo);
    /* the instances with the statistics: one walk of the trace for both */
    if (need_latency ? trx_stats_latency_compute(&in->trace, &st, &lo, &lat) != 0
                     : trx_stats_compute(&in->trace, &st) != 0) {
        fprintf(stderr, "trx: %s: out of memory\n", c->args[0]);
        return EXIT_INPUT;
    }
    check_result *results = calloc(o->count, sizeof *results);
    if (!results) {
        trx_stats_free(&st);
        if (need_latency)
            trx_latency_free(&lat);
        fprintf(stderr, "trx: %s: out of memory\n", c->args[0]);
        return EXIT_INPUT;
    }
    check_ctx ctx = {&in->trace, &st, cli_ticks_per_second(in, o->ticks_per_second),
                     need_latency ? &lat : NULL};
    check_run run = {.path = c->args[0],
                     .rules = o->rules,
                     .results = results,
                     .count = o->count,
                     .time_backwards = trx_trace_time_backwards(&in->trace, NULL)};
    int rc = 0;
    for (size_t i = 0; i < o->count && rc == 0; i++) {
        if (check_evaluate(&ctx, &o->rules[i], &results[i]) != 0) {
            fprintf(stderr, "trx: %s: out of memory\n", c->args[0]);
            rc = EXIT_INPUT;
        }
        if (o->skip_unavailable && results[i].status == CHECK_UNAVAILABLE)
            results[i].status = CHECK_SKIPPED;
        run.passed += results[i].status == CHECK_PASS;
        run.skipped += results[i].status == CHECK_SKIPPED;
        run.failed += results[i].status == CHECK_FAIL;
        run.unavailable += results[i].status == CHECK_UNAVAILABLE;
    }
    if (rc == 0) {
        if (c->json)
            check_write_json(&run, w);
        else
            check_write_text(&run, w);
        for (size_t i = 0; i < o->count; i++)
            if (results[i].status == CHECK_UNAVAILABLE)
                fprintf(stderr, "trx check: rule '%s': %s\n", o->rules[i].text,
                        results[i].evidence);
        *complete = true;
        if (o->junit)
            rc = write_junit(o->junit, &run);
    }
    if (rc == 0)
        rc = run.unavailable ? CHECK_EXIT_ERROR : run.failed ? CHECK_EXIT_FAIL : EXIT_OK;
    free(results);
    trx_stats_free(&st);
    if (need_latency)
        trx_latency_free(&lat);
    return rc;
}

int cmd_check(int argc, char **argv)
{
    static const struct option own[] = {
        {"rules", required_argument, NULL, OPT_RULES},
        {"junit", required_argument, NULL, OPT_JUNIT},
        {"skip-unavailable", no_argument, NULL, OPT_SKIP_UNAVAILABLE},
        {"ticks-per-second", required_argument, NULL, OPT_TPS},
        {"ticks-per-us", required_argument, NULL, OPT_TPUS},
        {NULL, 0, NULL, 0},
    };
    char usage[4096];
    snprintf(usage, sizeof usage, "%s%s%s", usage_head, check_rule_syntax, usage_tail);
    check_options o = {0};
    cli_spec spec = {.name = "check",
                     .usage = usage,
                     .common = CLI_JSON,
                     .own = own,
                     .on_own = on_option,
                     .own_state = &o,
                     .min_args = 1,
                     .max_args = -1,
                     .args_name = "FILE"};
    cli_common c;
    int rc = cli_parse(argc, argv, &spec, &c);
    if (rc >= 0) {
        free(o.rules);
        /* a usage error is not a failed rule: 2, as a bad rule */
        return rc == EXIT_USAGE || o.status ? CHECK_EXIT_ERROR : rc;
    }
    for (int i = 1; i < c.arg_count; i++)
        if (add_rule(&o, c.args[i], NULL, 0) != 0) {
            free(o.rules);
            return CHECK_EXIT_ERROR;
        }
    if (o.count == 0) {
        free(o.rules);
        fprintf(stderr, "trx check: no rule given (RULE arguments or --rules FILE); rules:\n%s",
                check_rule_syntax);
        return CHECK_EXIT_ERROR;
    }
    c.mode = TRX_MODE_CORRECT;
    c.time_counts = true; /* the statistics' pre-passes from the open's own pass */
    cli_sink s;
    if ((rc = cli_sink_open(&s, c.output)) != 0) {
        free(o.rules);
        return rc;
    }
    cli_input in;
    if ((rc = cli_input_open(&in, &c, c.args[0])) != 0) {
        trx_out_init(&cli_out, s.f, c.crlf);
        free(o.rules);
        return cli_sink_close(&s, &cli_out, rc);
    }
    trx_out_init(&cli_out, s.f, c.crlf);
    bool complete;
    int status = run_check(&in, &c, &o, &cli_out, &complete);
    /* the results are complete whether the rules pass or fail */
    rc = cli_sink_close(&s, &cli_out, complete ? EXIT_OK : status);
    cli_input_close(&in);
    free(o.rules);
    return rc != EXIT_OK ? rc : status;
}
