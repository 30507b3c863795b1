/*
 * check_report.c - the results of `trx check` as text (one line per rule),
 * JSON (a stable interface: see docs/trx.1) and JUnit XML (what CI systems
 * show as tests: each rule a testcase).
 */
#include <inttypes.h>

#include "check_report.h"
#include "output/json_string.h"

static const char *status_name(check_status s)
{
    return s == CHECK_PASS      ? "pass"
           : s == CHECK_FAIL    ? "fail"
           : s == CHECK_SKIPPED ? "skipped"
                                : "unavailable";
}

void check_write_text(const check_run *run, trx_out *w)
{
    for (size_t i = 0; i < run->count; i++) {
        const check_result *r = &run->results[i];
        trx_out_printf(w, "%-5s %s: %s\n",
                       r->status == CHECK_PASS      ? "PASS"
                       : r->status == CHECK_FAIL    ? "FAIL"
                       : r->status == CHECK_SKIPPED ? "SKIP"
                                                    : "ERROR",
                       run->rules[i].text, r->evidence);
    }
    trx_out_printf(w, "%zu rules: %zu passed, %zu failed", run->count, run->passed, run->failed);
    if (run->unavailable)
        trx_out_printf(w, ", %zu not available", run->unavailable);
    if (run->skipped)
        trx_out_printf(w, ", %zu skipped (not available)", run->skipped);
    trx_out_str(w, "\n");
}

void check_write_json(const check_run *run, trx_out *w)
{
    trx_out_str(w, "{\"file\": ");
    trx_out_json_string(w, run->path);
    trx_out_printf(w,
                   ", \"mode\": \"correct\", \"rules\": %zu, \"passed\": %zu, \"failed\": %zu, "
                   "\"unavailable\": %zu, \"skipped\": %zu, ",
                   run->count, run->passed, run->failed, run->unavailable, run->skipped);
    if (run->time_backwards) /* figures spanning such a step are left out */
        trx_out_printf(w, "\"time_backwards\": %" PRIu64 ", ", run->time_backwards);
    trx_out_str(w, "\"results\": [");
    for (size_t i = 0; i < run->count; i++) {
        const check_result *r = &run->results[i];
        const check_rule *rule = &run->rules[i];
        trx_out_str(w, i ? ",\n  {\"rule\": " : "\n  {\"rule\": ");
        trx_out_json_string(w, rule->text);
        trx_out_printf(w, ", \"status\": \"%s\", \"value\": ", status_name(r->status));
        if (r->has_value && r->percent)
            trx_out_printf(w, "%" PRIu64 ".%02" PRIu64, r->value / 100, r->value % 100);
        else if (r->has_value)
            trx_out_printf(w, "%" PRIu64, r->value);
        else
            trx_out_str(w, "null");
        trx_out_printf(w, ", \"limit\": %" PRIu64 ", \"event_index\": ", rule->limit);
        if (r->has_event)
            trx_out_printf(w, "%" PRIu64 ", \"ticks\": %" PRIu64, r->event_index, r->ticks);
        else
            trx_out_str(w, "null, \"ticks\": null");
        trx_out_str(w, ", \"subject\": ");
        trx_out_json_string(w, r->subject);
        trx_out_str(w, ", \"evidence\": ");
        trx_out_json_string(w, r->evidence);
        trx_out_char(w, '}');
    }
    trx_out_str(w, run->count ? "\n]}\n" : "]}\n");
}

/* Text as XML character data / attribute value: markup characters escaped,
 * control characters (not allowed in XML 1.0) as '?'. */
static void xml_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '&':
            fputs("&amp;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        case '\'':
            fputs("&apos;", f);
            break;
        default:
            fputc(c < 0x20 && c != '\t' ? '?' : (c >= 0x80 ? '?' : c), f);
        }
    }
}

void check_write_junit(const check_run *run, FILE *f)
{
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
    fprintf(f, "<testsuites tests=\"%zu\" failures=\"%zu\" errors=\"%zu\">\n", run->count,
            run->failed, run->unavailable);
    fputs("  <testsuite name=\"trx check ", f);
    xml_text(f, run->path);
    fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\">\n", run->count,
            run->failed, run->unavailable, run->skipped);
    for (size_t i = 0; i < run->count; i++) {
        const check_result *r = &run->results[i];
        fputs("    <testcase classname=\"trx.check\" name=\"", f);
        xml_text(f, run->rules[i].text);
        fputs("\">\n", f);
        if (r->status == CHECK_SKIPPED) {
            fputs("      <skipped message=\"", f);
            xml_text(f, r->evidence);
            fputs("\"/>\n", f);
        } else if (r->status != CHECK_PASS) {
            fputs(r->status == CHECK_FAIL ? "      <failure message=\"" : "      <error message=\"",
                  f);
            xml_text(f, r->evidence);
            fputs("\">", f);
            xml_text(f, r->evidence);
            fputs(r->status == CHECK_FAIL ? "</failure>\n" : "</error>\n", f);
        }
        fputs("      <system-out>", f);
        xml_text(f, r->evidence);
        fputs("</system-out>\n    </testcase>\n", f);
    }
    fputs("  </testsuite>\n</testsuites>\n", f);
}
