/*
 * report_latency.c - the data of the page's Responses view (a report's
 * meta.latency and meta.late, trx serve's /api/latency): per thread its
 * response distribution as fixed bins, its worst instances with their
 * critical paths (as `trx why --json` prints them, and as the lanes the page
 * draws them on), and the late marks of the time line. Bounded: at most
 * REPORT_WORST instances per thread, REPORT_PATHS paths in all, fewer on
 * large traces (REPORT_PATH_EVENTS events walked for them in all).
 */
#include <stdlib.h>
#include <string.h>

#include "output/json_string.h"
#include "output/latency_output.h"
#include "output/path_output.h"
#include "output/report.h"
#include "output/timeline.h"

static void num(trx_out *w, uint64_t v)
{
    trx_out_u64_pad(w, v, 0, ' ');
}

uint32_t trx_report_path_budget(const trx_trace *t)
{
    uint64_t events = t->total_events ? t->total_events : 1;
    return REPORT_PATH_EVENTS / events < REPORT_PATHS ? (uint32_t)(REPORT_PATH_EVENTS / events)
                                                      : REPORT_PATHS;
}

void trx_report_latency_options(trx_latency_options *o)
{
    memset(o, 0, sizeof *o);
    o->worst = REPORT_WORST;
}

int trx_report_latency_compute(trx_trace *t, trx_latency *l)
{
    trx_latency_options o;
    trx_report_latency_options(&o);
    trx_trace_prepare(t);
    return trx_latency_compute(t, &o, l);
}

/* A path's segments as the page draws them: [start, end, state, lane, depth],
 * a blocked one with its holder's lane after (the lock's handoff). */
static void write_draw(const trx_trace *t, const trx_path *p, trx_out *w)
{
    trx_out_str(w, ",\"draw\":[");
    for (uint32_t i = 0; i < p->segment_count; i++) {
        const trx_segment *s = &p->segments[i];
        trx_out_str(w, i ? ",[" : "[");
        num(w, s->start_ticks);
        trx_out_char(w, ',');
        num(w, s->end_ticks);
        trx_out_str(w, ",\"");
        trx_out_str(w, trx_segment_state_name((trx_segment_state)s->state));
        trx_out_str(w, "\",");
        num(w, trx_lane_of(t, s->context));
        trx_out_char(w, ',');
        num(w, s->depth);
        if (s->state == TRX_SEG_BLOCKED && s->holder) { /* the handoff: from the holder's lane */
            trx_out_char(w, ',');
            num(w, trx_lane_of(t, s->holder));
        }
        trx_out_char(w, ']');
    }
    trx_out_str(w, "],\"wake\":[");
    /* the wake-up: from the releasing context's lane at the release event */
    num(w, trx_lane_of(t, p->released_by));
    trx_out_char(w, ',');
    num(w, p->released_index);
    trx_out_char(w, ']');
}

/* One worst instance, with its path while `*paths_left`. */
static int write_instance(trx_trace *t, const trx_latency_row *row, const trx_instance *in,
                          const trx_path_view *v, uint32_t *paths_left, trx_out *w)
{
    trx_out_str(w, "{\"number\":");
    num(w, in->number);
    trx_out_str(w, ",\"release_index\":");
    num(w, in->release_index);
    trx_out_str(w, ",\"release_ticks\":");
    num(w, in->release_ticks);
    trx_out_str(w, ",\"end_ticks\":");
    num(w, in->end_ticks);
    trx_out_str(w, ",\"response_ticks\":");
    num(w, in->response_ticks);
    if (*paths_left) {
        (*paths_left)--;
        trx_latency_options o = {0};
        trx_path p;
        int rc = trx_path_compute(t, &o, row->address, in->number, 0, 0, &p);
        if (rc < 0) {
            trx_path_free(&p);
            return -1;
        }
        if (rc == 0) {
            write_draw(t, &p, w);
            trx_out_str(w, ",\"path\":");
            trx_path_write_json(t, &p, v, w);
        }
        trx_path_free(&p);
    }
    trx_out_char(w, '}');
    return 0;
}

static void write_dist(const trx_latency_dist *d, trx_out *w)
{
    trx_out_str(w, "{\"min\":");
    num(w, d->min);
    trx_out_str(w, ",\"p50\":");
    num(w, d->p50);
    trx_out_str(w, ",\"p90\":");
    num(w, d->p90);
    trx_out_str(w, ",\"p99\":");
    num(w, d->p99);
    trx_out_str(w, ",\"max\":");
    num(w, d->max);
    trx_out_str(w, ",\"bin_width\":");
    num(w, d->bin_width);
    trx_out_str(w, ",\"bins\":[");
    for (uint32_t b = 0; b < TRX_LATENCY_BINS; b++) {
        if (b)
            trx_out_char(w, ',');
        num(w, d->bins[b]);
    }
    trx_out_str(w, "]}");
}

int trx_report_latency_json(trx_trace *t, const trx_latency *l, uint64_t ticks_per_second,
                            trx_out *w)
{
    uint32_t paths_left = trx_report_path_budget(t);
    trx_out_str(w, "{\"threads\":[");
    for (uint32_t r = 0; r < l->row_count; r++) {
        const trx_latency_row *row = &l->rows[r];
        trx_out_str(w, r ? ",\n{\"name\":" : "\n{\"name\":");
        char name[TRX_NAME_MAX + 32];
        trx_out_json_string(w, trx_latency_row_name(t, row, name, sizeof name));
        trx_out_str(w, ",\"address\":");
        num(w, row->address);
        trx_out_str(w, ",\"lane\":");
        num(w, trx_lane_of(t, row->address));
        trx_out_str(w, ",\"instances\":");
        num(w, row->instances);
        trx_out_str(w, ",\"incomplete\":");
        num(w, row->incomplete);
        trx_out_str(w, ",\"response\":");
        write_dist(&row->response, w);
        trx_out_str(w, ",\"worst\":[");
        trx_path_view v = {ticks_per_second, row->response.p50};
        for (uint32_t k = 0; k < row->worst_count; k++) {
            if (k)
                trx_out_char(w, ',');
            if (write_instance(t, row, &row->worst[k], &v, &paths_left, w) != 0)
                return -1;
        }
        trx_out_str(w, "]}");
    }
    trx_out_str(w, "]}");
    return 0;
}

void trx_report_late_json(const trx_trace *t, const trx_latency *l, trx_out *w)
{
    trx_out_char(w, '[');
    bool first = true;
    for (uint32_t r = 0; r < l->row_count; r++) {
        const trx_latency_row *row = &l->rows[r];
        bool any = false;
        /* the worst ones at or above the thread's p99 (worst: longest first) */
        for (uint32_t k = 0; k < row->worst_count; k++) {
            const trx_instance *in = &row->worst[k];
            if (in->response_ticks < row->response.p99)
                break;
            if (!any) {
                trx_out_str(w, first ? "[" : ",[");
                num(w, trx_lane_of(t, row->address));
                trx_out_str(w, ",[");
                first = false;
                any = true;
            } else {
                trx_out_char(w, ',');
            }
            trx_out_char(w, '[');
            num(w, in->release_ticks);
            trx_out_char(w, ',');
            num(w, in->release_index);
            trx_out_char(w, ']');
        }
        if (any)
            trx_out_str(w, "]]");
    }
    trx_out_char(w, ']');
}
