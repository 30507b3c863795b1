/* stats_json_text.c - the segment tests' helpers (stats_json_text.h). */
#include "stats_json_text.h"

#include <stdio.h>
#include <stdlib.h>

#include "output/latency_output.h"
#include "output/stats_json.h"

/* What `write` writes of (t, a, flag), as a malloc'd string (NULL: out of memory). */
static char *text_of(void (*write)(const trx_trace *, const void *, bool, trx_out *),
                     const trx_trace *t, const void *a, bool flag)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    trx_out o;
    trx_out_init(&o, f, false);
    write(t, a, flag, &o);
    trx_out_flush(&o);
    fclose(f);
    return buf;
}

static void write_stats(const trx_trace *t, const void *s, bool flag, trx_out *o)
{
    (void)flag;
    trx_stats_write_json(t, s, NULL, o);
}

static void write_latency(const trx_trace *t, const void *l, bool intervals, trx_out *o)
{
    trx_latency_write_json(t, l, intervals, o);
}

char *stats_json_text(const trx_trace *t, const trx_stats *s)
{
    return text_of(write_stats, t, s, false);
}

char *latency_json_text(const trx_trace *t, const trx_latency *l, bool intervals)
{
    return text_of(write_latency, t, l, intervals);
}
