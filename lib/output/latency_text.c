/* latency_text.c - `trx latency` as text: a table of response and execution
 * figures per thread, then each thread's worst instances. */
#include <inttypes.h>

#include "output/latency_output.h"

/* A duration: ticks, or microseconds with a known rate. */
static void cell(trx_out *o, uint64_t v, uint64_t tps)
{
    if (tps)
        trx_out_printf(o, " %11.1f", (double)v * 1e6 / (double)tps);
    else
        trx_out_printf(o, " %11" PRIu64, v);
}

static void row_dist(trx_out *o, const char *what, const trx_latency_dist *d, uint64_t tps)
{
    trx_out_printf(o, "    %-10s", what);
    if (!d->count) {
        trx_out_str(o, " -\n");
        return;
    }
    cell(o, d->min, tps);
    cell(o, d->sum / d->count, tps);
    cell(o, d->p50, tps);
    cell(o, d->p90, tps);
    cell(o, d->p99, tps);
    cell(o, d->max, tps);
    trx_out_char(o, '\n');
}

void trx_latency_write_text(const trx_trace *t, const trx_latency *l, bool intervals, trx_out *o)
{
    uint64_t tps = l->ticks_per_second;
    trx_out_printf(o, "%s (times in %s)\n",
                   intervals ? "Intervals (--from .. --to) by the thread that began them"
                             : "Responses: each thread's instances, release to its next wait",
                   tps ? "microseconds" : "ticks");
    if (!l->row_count)
        trx_out_str(o, "  none\n");
    for (uint32_t i = 0; i < l->row_count; i++) {
        const trx_latency_row *r = &l->rows[i];
        char name[TRX_NAME_MAX + 32];
        trx_out_printf(o, "\n  %s: %" PRIu64 " instances",
                       trx_latency_row_name(t, r, name, sizeof name), r->instances);
        if (r->incomplete)
            trx_out_printf(o, " (+%" PRIu64 " incomplete: outside the trace or across a gap)",
                           r->incomplete);
        trx_out_str(o, "\n                    min        mean         p50         p90         "
                       "p99         max\n");
        row_dist(o, "response", &r->response, tps);
        if (!intervals)
            row_dist(o, "execution", &r->execution, tps);
        for (uint32_t k = 0; k < r->worst_count; k++) {
            const trx_instance *in = &r->worst[k];
            trx_out_printf(
                o, "    worst #%" PRIu64 ": released at %" PRIu64 " (event %" PRIu64 "), response",
                in->number, in->release_ticks, in->release_index);
            cell(o, in->response_ticks, tps);
            trx_out_char(o, '\n');
        }
    }
}
