/* check_report.h - writes the results of `trx check`: text, JSON, JUnit XML. */
#ifndef TRX_CHECK_REPORT_H
#define TRX_CHECK_REPORT_H

#include <stdio.h>

#include "check_rules.h"
#include "output/out_buffer.h"

/* The rules and their results, in the order given. */
typedef struct check_run {
    const char *path; /* the trace */
    const check_rule *rules;
    const check_result *results;
    size_t count;
    size_t passed, failed, unavailable, skipped;
    uint64_t time_backwards; /* times the trace's timestamps went backwards */
} check_run;

/* One line per rule ("PASS  rule  evidence") and a summary line. */
void check_write_text(const check_run *run, trx_out *w);

/* One JSON object: file, mode, counts, "time_backwards" when the trace's
 * timestamps went backwards (as trx stats --json counts it), and per rule
 * its status, value, limit, event index, ticks, subject and evidence. */
void check_write_json(const check_run *run, trx_out *w);

/* A JUnit XML report: one testsuite, each rule a testcase (a failure
 * element for a failed rule, an error element for one not available). */
void check_write_junit(const check_run *run, FILE *f);

#endif
