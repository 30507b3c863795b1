/* cli_time.c - `--ticks-per-second N` / `--ticks-per-us X`: the timer rate the
 * commands use to turn ticks into time, by default the trace's own
 * (trx_trace_ticks_per_second: TI's metadata, UIA sync points). */
#include <string.h>

#include "cli.h"

/* Parses "D[.DDDDDD]" scaled by 10^6 (microsecond rate -> per second). */
static bool parse_micro(const char *s, uint64_t *out)
{
    uint64_t whole = 0, frac = 0;
    int digits = 0;
    if (*s < '0' || *s > '9')
        return false;
    for (; *s >= '0' && *s <= '9'; s++) {
        if (whole > (UINT64_MAX - 9) / 10)
            return false;
        whole = whole * 10 + (uint64_t)(*s - '0');
    }
    if (*s == '.') {
        for (s++; *s >= '0' && *s <= '9'; s++) {
            if (digits == 6)
                return false; /* finer than one tick per second */
            frac = frac * 10 + (uint64_t)(*s - '0');
            digits++;
        }
    }
    if (*s)
        return false;
    for (; digits < 6; digits++)
        frac *= 10;
    if (whole > (UINT64_MAX - frac) / 1000000u)
        return false;
    *out = whole * 1000000u + frac;
    return true;
}

int cli_time_option(const char *command, const char *option, const char *arg,
                    uint64_t *ticks_per_second)
{
    uint64_t v = 0;
    bool ok = strcmp(option, "ticks-per-us") == 0 ? parse_micro(arg, &v) : cli_parse_u64(arg, &v);
    if (!ok || v == 0)
        return cli_usage_error(command, "--%s: '%s' is not a positive rate", option, arg);
    *ticks_per_second = v;
    return -1;
}

uint64_t cli_ticks_per_second(const cli_input *in, uint64_t option)
{
    return option ? option : trx_trace_ticks_per_second(&in->trace);
}
