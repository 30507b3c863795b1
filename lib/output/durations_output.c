/* durations_output.c - UIABenchmark durations as JSON and text (see
 * durations_output.h). */
#include "output/durations_output.h"

#include <inttypes.h>

#include "output/json_string.h"

void trx_durations_write_json(trx_out *o, const trx_durations *d)
{
    trx_out_char(o, '[');
    for (uint32_t i = 0; i < d->row_count; i++) {
        const trx_duration_row *r = &d->rows[i];
        const trx_latency_dist *x = &r->r.duration;
        trx_out_str(o, i ? ",\n    {\"name\": " : "\n    {\"name\": ");
        trx_out_json_string(o, r->name);
        trx_out_printf(o,
                       ", \"core\": %" PRIu32 ", \"address\": %" PRIu32 ", \"count\": %" PRIu64
                       ", \"incomplete\": %" PRIu64 ", \"unmatched_stops\": %" PRIu64,
                       r->core, r->address, r->r.complete, r->r.incomplete, r->unmatched_stops);
        if (x->count)
            trx_out_printf(o,
                           ", \"min_ticks\": %" PRIu64
                           ", \"mean_ticks\": %.3f, \"max_ticks\": %" PRIu64
                           ", \"sum_ticks\": %" PRIu64,
                           x->min, (double)x->sum / (double)x->count, x->max, x->sum);
        else
            trx_out_str(o, ", \"min_ticks\": null, \"mean_ticks\": null, \"max_ticks\": null, "
                           "\"sum_ticks\": 0");
        trx_out_str(o, ", \"worst\": [");
        for (uint32_t k = 0; k < r->r.worst_count; k++) {
            const trx_instance *w = &r->r.worst[k];
            trx_out_printf(o,
                           "%s{\"start_ticks\": %" PRIu64 ", \"end_ticks\": %" PRIu64
                           ", \"ticks\": %" PRIu64 ", \"start_index\": %" PRIu64
                           ", \"end_index\": %" PRIu64 "}",
                           k ? ", " : "", w->release_ticks, w->end_ticks, w->response_ticks,
                           w->release_index, w->end_index);
        }
        trx_out_str(o, "]}");
    }
    trx_out_str(o, d->row_count ? "\n  ]" : "]");
}

void trx_durations_write_text(trx_out *o, const trx_durations *d)
{
    if (!d->row_count)
        return;
    trx_out_str(o, "\nDurations (UIABenchmark start/stop)  core     count  incomplete          min"
                   "         mean          max   worst at ticks\n");
    for (uint32_t i = 0; i < d->row_count; i++) {
        const trx_duration_row *r = &d->rows[i];
        const trx_latency_dist *x = &r->r.duration;
        trx_out_printf(o, "  %-34.34s %5" PRIu32 " %9" PRIu64 " %11" PRIu64, r->name, r->core,
                       r->r.complete, r->r.incomplete);
        if (x->count)
            trx_out_printf(o, " %12" PRIu64 " %12.2f %12" PRIu64 " %16" PRIu64 "\n", x->min,
                           (double)x->sum / (double)x->count, x->max,
                           r->r.worst_count ? r->r.worst[0].release_ticks : 0);
        else
            trx_out_str(o, "            -            -            -                -\n");
    }
}
