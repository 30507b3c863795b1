/*
 * check_rules.c - parses the rules of `trx check` ("max-isr-ticks=500:3",
 * "no-priority-inversion=unbounded", ...) into check_rule; a bad rule gets
 * a message saying what was expected.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_rules.h"
#include "cli.h"

const char check_rule_syntax[] =
    "  max-isr-ticks=N[:ISR]            no ISR (or ISR number ISR) runs longer than N ticks\n"
    "                                   (ENTER to EXIT, nested ISRs included)\n"
    "  max-isr-rate=N:TICKS             at most N interrupts in any TICKS ticks\n"
    "  no-priority-inversion[=unbounded] no priority inversion (or no unbounded one)\n"
    "  min-stack-free=BYTES[:THREAD]    every thread (or THREAD) keeps BYTES of stack free\n"
    "  max-cpu-load=PERCENT[:WINDOW]    no window of WINDOW ticks (default: span / 100)\n"
    "                                   busier than PERCENT\n"
    "  max-latency=TICKS[:THREAD]       interrupt-to-thread latency at most TICKS\n"
    "  max-response=THREAD:LIMIT        every instance of THREAD (release to its next wait,\n"
    "                                   trx latency) responds within LIMIT ticks, or us, ms,\n"
    "                                   s with a tick rate (--ticks-per-us); also\n"
    "                                   max-response=TICKS[:THREAD]: every thread, or THREAD\n"
    "  max-duration=NAME:LIMIT          every UIABenchmark start/stop interval NAME (its\n"
    "                                   string, or its address without --elf) on any core\n"
    "                                   lasts at most LIMIT ticks, or us, ms, s\n"
    "  no-lost-events                   nothing lost: no gap, no wrapped start, no damage\n"
    "  registry-not-full                the object registry kept a free entry (every\n"
    "                                   object named)\n";

typedef struct rule_name {
    const char *name;
    check_kind kind;
    const char *expected;
} rule_name;

static const rule_name names[] = {
    {"max-isr-ticks", CHECK_MAX_ISR_TICKS,
     "max-isr-ticks=N[:ISR] with N a tick count and ISR an "
     "ISR number"},
    {"max-isr-rate", CHECK_MAX_ISR_RATE, "max-isr-rate=N:TICKS with N a count and TICKS > 0"},
    {"no-priority-inversion", CHECK_NO_INVERSION,
     "no-priority-inversion or "
     "no-priority-inversion=unbounded"},
    {"min-stack-free", CHECK_MIN_STACK_FREE,
     "min-stack-free=BYTES[:THREAD] with BYTES a byte "
     "count"},
    {"max-cpu-load", CHECK_MAX_CPU_LOAD,
     "max-cpu-load=PERCENT[:WINDOW] with PERCENT 0..100 and "
     "WINDOW > 0 ticks"},
    {"max-latency", CHECK_MAX_LATENCY, "max-latency=TICKS[:THREAD] with TICKS a tick count"},
    {"max-response", CHECK_MAX_RESPONSE,
     "max-response=THREAD:LIMIT (LIMIT ticks, or a number with us, ms or s) or "
     "max-response=TICKS[:THREAD]"},
    {"max-duration", CHECK_MAX_DURATION,
     "max-duration=NAME:LIMIT (LIMIT ticks, or a number with us, ms or s)"},
    {"no-lost-events", CHECK_NO_LOST_EVENTS, "no-lost-events (no value)"},
    {"registry-not-full", CHECK_REGISTRY_ROOM, "registry-not-full (no value)"},
};

/* Splits "N[:REST]": parses N into *n and points *rest at REST (or NULL). */
static bool number_and_rest(char *value, uint64_t *n, char **rest)
{
    char *colon = strchr(value, ':');
    *rest = NULL;
    if (colon) {
        *colon = '\0';
        *rest = colon + 1;
    }
    return cli_parse_u64(value, n);
}

/* THREAD:LIMIT, LIMIT a tick count or a number with us, ms or s (the
 * thread's name may hold colons: the last one separates). */
static bool parse_thread_limit(check_rule *r, char *value)
{
    char *colon = strrchr(value, ':');
    if (!colon || colon == value || !colon[1])
        return false;
    *colon = '\0';
    char *limit = colon + 1, *end;
    size_t n = strspn(limit, "0123456789");
    static const struct {
        const char *unit;
        uint64_t ns;
    } units[] = {{"us", 1000}, {"ms", 1000000}, {"s", 1000000000}};
    if (n == 0 || n > 12)
        return false;
    uint64_t v = strtoull(limit, &end, 10);
    if (*end) {
        bool known = false;
        for (size_t k = 0; k < 3; k++)
            if (strcmp(end, units[k].unit) == 0) {
                r->has_unit = known = true;
                r->limit_ns = v * units[k].ns;
            }
        if (!known)
            return false;
    } else
        r->limit = v;
    r->has_thread = true;
    snprintf(r->thread, sizeof r->thread, "%s", value);
    return true;
}

static int fail(char *why, size_t size, const char *expected)
{
    snprintf(why, size, "expected %s", expected);
    return -1;
}

int check_rule_parse(const char *text, check_rule *r, char *why, size_t why_size)
{
    memset(r, 0, sizeof *r);
    while (isspace((unsigned char)*text))
        text++;
    size_t len = strlen(text);
    while (len && isspace((unsigned char)text[len - 1]))
        len--;
    if (len >= sizeof r->text) {
        snprintf(why, why_size, "rule longer than %zu characters", sizeof r->text - 1);
        return -1;
    }
    memcpy(r->text, text, len);
    r->text[len] = '\0';
    char buf[sizeof r->text];
    memcpy(buf, r->text, len + 1);
    char *value = strchr(buf, '=');
    if (value)
        *value++ = '\0';
    const rule_name *rn = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(buf, names[i].name) == 0)
            rn = &names[i];
    if (!rn) {
        snprintf(why, why_size, "unknown rule; expected one of:\n%s", check_rule_syntax);
        return -1;
    }
    r->kind = rn->kind;
    char *rest = NULL;
    switch (rn->kind) {
    case CHECK_NO_LOST_EVENTS:
    case CHECK_REGISTRY_ROOM:
        if (value)
            return fail(why, why_size, rn->expected);
        return 0;
    case CHECK_NO_INVERSION:
        if (!value)
            return 0;
        if (strcmp(value, "unbounded") != 0)
            return fail(why, why_size, rn->expected);
        r->unbounded_only = true;
        return 0;
    case CHECK_MAX_ISR_RATE:
        if (!value || !number_and_rest(value, &r->limit, &rest) || !rest ||
            !cli_parse_u64(rest, &r->window) || r->window == 0)
            return fail(why, why_size, rn->expected);
        return 0;
    case CHECK_MAX_ISR_TICKS: {
        uint64_t isr;
        if (!value || !number_and_rest(value, &r->limit, &rest))
            return fail(why, why_size, rn->expected);
        if (rest) {
            if (!cli_parse_u64(rest, &isr) || isr > UINT32_MAX)
                return fail(why, why_size, rn->expected);
            r->has_isr = true;
            r->isr = (uint32_t)isr;
        }
        return 0;
    }
    case CHECK_MAX_CPU_LOAD:
        if (!value || !number_and_rest(value, &r->limit, &rest) || r->limit > 100 ||
            (rest && (!cli_parse_u64(rest, &r->window) || r->window == 0)))
            return fail(why, why_size, rn->expected);
        return 0;
    case CHECK_MAX_DURATION:
        return value && parse_thread_limit(r, value) ? 0 : fail(why, why_size, rn->expected);
    case CHECK_MAX_RESPONSE:
        if (value && !isdigit((unsigned char)value[0]))
            return parse_thread_limit(r, value) ? 0 : fail(why, why_size, rn->expected);
        /* fall through: TICKS[:THREAD] */
        __attribute__((fallthrough));
    case CHECK_MIN_STACK_FREE:
    case CHECK_MAX_LATENCY:
        if (!value || !number_and_rest(value, &r->limit, &rest) || (rest && !*rest))
            return fail(why, why_size, rn->expected);
        if (rest) {
            r->has_thread = true;
            snprintf(r->thread, sizeof r->thread, "%s", rest);
        }
        return 0;
    }
    return fail(why, why_size, rn->expected);
}
