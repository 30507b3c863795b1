/*
 * check_rules.h - the rules of `trx check`: their syntax (parsed here) and
 * their evaluation against one trace (check_metrics.c, one function per
 * metric), with the evidence each result carries.
 */
#ifndef TRX_CHECK_RULES_H
#define TRX_CHECK_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trx/latency.h"
#include "trx/stats.h"
#include "trx/trx.h"

typedef enum check_kind {
    CHECK_MAX_ISR_TICKS,  /* max-isr-ticks=N[:ISR] */
    CHECK_MAX_ISR_RATE,   /* max-isr-rate=N:TICKS */
    CHECK_NO_INVERSION,   /* no-priority-inversion[=unbounded] */
    CHECK_MIN_STACK_FREE, /* min-stack-free=BYTES[:THREAD] */
    CHECK_MAX_CPU_LOAD,   /* max-cpu-load=PERCENT[:WINDOW] */
    CHECK_MAX_LATENCY,    /* max-latency=TICKS[:THREAD] */
    CHECK_MAX_RESPONSE,   /* max-response=TICKS[:THREAD] or max-response=THREAD:LIMIT[us|ms|s] */
    CHECK_NO_LOST_EVENTS, /* no-lost-events */
    CHECK_REGISTRY_ROOM,  /* registry-not-full */
    CHECK_MAX_DURATION    /* max-duration=NAME:LIMIT[us|ms|s] (UIABenchmark) */
} check_kind;

/* One parsed rule. */
typedef struct check_rule {
    check_kind kind;
    char text[320];      /* the rule as written (trimmed) */
    uint64_t limit;      /* N, TICKS, BYTES or PERCENT */
    uint64_t window;     /* max-isr-rate's TICKS; max-cpu-load's window (0: default) */
    bool unbounded_only; /* no-priority-inversion=unbounded */
    bool has_isr;        /* max-isr-ticks=N:ISR */
    uint32_t isr;        /* the ISR number */
    bool has_unit;       /* LIMIT given in time: limit_ns holds it */
    uint64_t limit_ns;
    bool has_thread;               /* ...:THREAD given (max-duration: its NAME) */
    char thread[TRX_NAME_MAX + 1]; /* the thread's name (max-duration: the interval's) */
} check_rule;

/* Parses `text` (leading/trailing blanks ignored). 0, or -1 with `why` set
 * to what was expected ("max-isr-ticks=N[:ISR] with N a tick count"). */
int check_rule_parse(const char *text, check_rule *r, char *why, size_t why_size);

/* The syntax of every rule, one per line (for --help and errors). */
extern const char check_rule_syntax[];

/* UNAVAILABLE: the trace cannot give the metric (the evidence says why);
 * SKIPPED: that, with --skip-unavailable. */
typedef enum check_status { CHECK_PASS, CHECK_FAIL, CHECK_UNAVAILABLE, CHECK_SKIPPED } check_status;

/* What a rule found: pass or fail, the measured value against the limit,
 * where (event index and ticks), about what (thread, ISR, lock) and one
 * readable line saying all of it. */
typedef struct check_result {
    check_status status;
    bool has_value;
    uint64_t value; /* the worst value measured (ticks, bytes, count; with `percent`:
                       hundredths of a percent) */
    bool percent;   /* value is a share: printed as a percent with 2 decimals */
    bool has_event;
    uint64_t event_index, ticks;
    char subject[TRX_NAME_MAX + 64]; /* "thread low", "ISR 3", "" */
    char evidence[768];
} check_result;

/* The trace a rule is checked against: opened, prepared, its statistics. */
typedef struct check_ctx {
    trx_trace *trace;
    const trx_stats *stats;
    uint64_t ticks_per_second;  /* --ticks-per-us / --ticks-per-second, 0: unknown */
    const trx_latency *latency; /* the instances (check_latency_options) if a rule needs them */
} check_ctx;

/* Whether rule `r` reads check_ctx.latency. */
bool check_needs_latency(const check_rule *r);

/* The options of the instances the rules read (each thread's worst one). */
void check_latency_options(trx_latency_options *o);

/* Evaluates one rule (dispatching to the metric's function). 0, or -1 when
 * out of memory. */
int check_evaluate(const check_ctx *ctx, const check_rule *r, check_result *out);

#endif
