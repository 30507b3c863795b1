/* latency_json.c - `trx latency --json`: {"kind", "ticks_per_second",
 * "threads": [{"name", "address", "instances", "incomplete", "response":
 * {...}, "execution": {...}, "worst": [...]}]}, ticks with *_us beside them
 * where the tick rate is known. */
#include <inttypes.h>

#include "output/json_string.h"
#include "output/latency_output.h"
#include "output/path_output.h"

const char *trx_latency_row_name(const trx_trace *t, const trx_latency_row *row, char *buf,
                                 size_t size)
{
    trx_path_context_name(t, row->address, 0, false, buf, size);
    return buf;
}

/* `"key": ticks` and, with a rate, `"key_us": microseconds`. */
static void ticks(trx_out *o, const char *key, uint64_t v, uint64_t tps, bool first)
{
    trx_out_printf(o, "%s\"%s\": %" PRIu64, first ? "" : ", ", key, v);
    if (tps)
        trx_out_printf(o, ", \"%s_us\": %.3f", key, (double)v * 1e6 / (double)tps);
}

static void dist(trx_out *o, const char *key, const trx_latency_dist *d, uint64_t tps)
{
    trx_out_printf(o, ", \"%s\": ", key);
    if (!d->count) {
        trx_out_str(o, "null");
        return;
    }
    trx_out_char(o, '{');
    ticks(o, "min", d->min, tps, true);
    trx_out_printf(o, ", \"mean\": %.2f", (double)d->sum / (double)d->count);
    if (tps)
        trx_out_printf(o, ", \"mean_us\": %.3f",
                       (double)d->sum / (double)d->count * 1e6 / (double)tps);
    ticks(o, "p50", d->p50, tps, false);
    ticks(o, "p90", d->p90, tps, false);
    ticks(o, "p99", d->p99, tps, false);
    ticks(o, "max", d->max, tps, false);
    trx_out_char(o, '}');
}

void trx_latency_write_json(const trx_trace *t, const trx_latency *l, bool intervals, trx_out *o)
{
    uint64_t tps = l->ticks_per_second;
    trx_out_printf(
        o, "{\"kind\": \"%s\", \"ticks_per_second\": ", intervals ? "intervals" : "instances");
    if (tps)
        trx_out_printf(o, "%" PRIu64, tps);
    else
        trx_out_str(o, "null");
    uint64_t backwards = trx_trace_time_backwards(t, NULL);
    if (backwards) /* the broken time source stats --json also counts */
        trx_out_printf(o, ", \"time_backwards\": %" PRIu64, backwards);
    trx_out_str(o, ",\n \"threads\": [");
    for (uint32_t i = 0; i < l->row_count; i++) {
        const trx_latency_row *r = &l->rows[i];
        trx_out_str(o, i ? ",\n  {\"name\": " : "\n  {\"name\": ");
        char name[TRX_NAME_MAX + 32];
        trx_out_json_string(o, trx_latency_row_name(t, r, name, sizeof name));
        trx_out_printf(
            o, ", \"address\": %" PRIu32 ", \"instances\": %" PRIu64 ", \"incomplete\": %" PRIu64,
            trx_context_handle(t, r->address), r->instances, r->incomplete);
        dist(o, "response", &r->response, tps);
        dist(o, "execution", &r->execution, tps);
        trx_out_str(o, ", \"worst\": [");
        for (uint32_t k = 0; k < r->worst_count; k++) {
            const trx_instance *in = &r->worst[k];
            trx_out_printf(o,
                           "%s{\"number\": %" PRIu64 ", \"release_index\": %" PRIu64
                           ", \"end_index\": %" PRIu64 ", ",
                           k ? ", " : "", in->number, in->release_index, in->end_index);
            ticks(o, "release_ticks", in->release_ticks, tps, true);
            ticks(o, "end_ticks", in->end_ticks, tps, false);
            ticks(o, "response_ticks", in->response_ticks, tps, false);
            if (!intervals)
                ticks(o, "execution_ticks", in->execution_ticks, tps, false);
            trx_out_char(o, '}');
        }
        trx_out_str(o, "]}");
    }
    trx_out_str(o, "\n ]}\n");
}
