/*
 * export_path_flows.c - the worst instances' critical paths as slices and
 * flows for the Perfetto export (export_path_flows.h): computed before the
 * export's pass (trx latency's pass, then one pass per path, within the
 * report's budget), then handed out event by event. Every lookup during the
 * pass is a cursor over a sorted array or a scan of the few flows armed at
 * that moment, so the pass stays linear in the events.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/export_path_flows.h"
#include "output/latency_output.h"
#include "output/path_output.h"
#include "output/report.h"
#include "output/timeline.h"

/* A flow starting at event `index` (the wake-up), or at the holder lane's
 * first event at or after `ticks` (a lock handoff). */
typedef struct start_mark {
    uint64_t at; /* event index (wake) or ticks (handoff) */
    uint64_t id;
    uint32_t from_lane, to_lane;
} start_mark;

/* A slice's end event and its place in `slices`. */
typedef struct end_mark {
    uint64_t end_index;
    uint32_t slot;
} end_mark;

typedef struct pending_flow {
    uint64_t id;
    uint32_t lane;
} pending_flow;

struct trx_path_flows {
    trx_path_slice *slices; /* by release index */
    uint32_t slice_count, begin_next, end_next;
    end_mark *by_end; /* the slices by end index */
    start_mark *wakes, *handoffs;
    uint32_t wake_count, wake_next, handoff_count, handoff_next;
    start_mark *armed; /* handoffs whose ticks came, waiting for the holder's event */
    uint32_t armed_count;
    pending_flow *pending; /* started flows waiting for their lane's next run */
    uint32_t pending_count;
    uint32_t *lanes;
    uint32_t lane_count;
    uint64_t next_id;
};

static int by_at(const void *a, const void *b)
{
    const start_mark *x = a, *y = b;
    return x->at < y->at ? -1 : x->at > y->at;
}

static int by_release(const void *a, const void *b)
{
    const trx_path_slice *x = a, *y = b;
    return x->release_index < y->release_index ? -1 : x->release_index > y->release_index;
}

static int by_end_index(const void *a, const void *b)
{
    const end_mark *x = a, *y = b;
    return x->end_index < y->end_index ? -1 : x->end_index > y->end_index;
}

/* `v` with thousands separators: 205661 -> "205,661". */
static void grouped(uint64_t v, char *buf, size_t size)
{
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v);
    size_t o = 0;
    for (int i = 0; i < n && o + 1 < size; i++) {
        if (i && (n - i) % 3 == 0 && o + 2 < size)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = 0;
}

static bool grow(void **array, uint32_t count, uint32_t *cap, size_t item)
{
    if (count < *cap)
        return true;
    uint32_t n = *cap ? *cap * 2 : 16;
    void *p = realloc(*array, (size_t)n * item);
    if (!p)
        return false;
    *array = p;
    *cap = n;
    return true;
}

typedef struct builder {
    trx_path_flows *f;
    uint32_t slice_cap, wake_cap, handoff_cap, lane_cap;
} builder;

static bool add_lane(builder *b, uint32_t lane)
{
    trx_path_flows *f = b->f;
    for (uint32_t i = 0; i < f->lane_count; i++)
        if (f->lanes[i] == lane)
            return true;
    if (!grow((void **)&f->lanes, f->lane_count, &b->lane_cap, sizeof *f->lanes))
        return false;
    f->lanes[f->lane_count++] = lane;
    return true;
}

/* The slice and flows of one computed path. */
static bool add_path(builder *b, const trx_trace *t, const trx_latency_row *row, const trx_path *p,
                     const trx_path_view *v)
{
    trx_path_flows *f = b->f;
    uint32_t lane = trx_lane_of(t, p->thread);
    if (!grow((void **)&f->slices, f->slice_count, &b->slice_cap, sizeof *f->slices) ||
        !add_lane(b, lane))
        return false;
    trx_path_slice *s = &f->slices[f->slice_count++];
    memset(s, 0, sizeof *s);
    s->lane = lane;
    s->release_index = p->instance.release_index;
    s->end_index = p->instance.end_index;
    s->release_ticks = p->instance.release_ticks;
    s->end_ticks = p->instance.end_ticks;
    s->number = p->instance.number;
    s->response_ticks = p->instance.response_ticks;
    char name[TRX_NAME_MAX + 32], ticks[32];
    trx_latency_row_name(t, row, name, sizeof name);
    grouped(p->instance.response_ticks, ticks, sizeof ticks);
    snprintf(s->name, sizeof s->name, "%s #%llu (%s ticks)", name,
             (unsigned long long)p->instance.number, ticks);
    trx_path_story(t, p, v, s->story, sizeof s->story);

    /* the wake-up: the releasing event -> the thread's next run */
    if (!grow((void **)&f->wakes, f->wake_count, &b->wake_cap, sizeof *f->wakes))
        return false;
    f->wakes[f->wake_count++] =
        (start_mark){p->released_index, f->next_id++, trx_lane_of(t, p->released_by), lane};

    /* each handoff: the holder at the wait's end -> the waiter's next run
     * (the waiter of a nested segment is the holder one level up) */
    uint32_t *waiter = malloc((p->segment_count + 1) * sizeof *waiter);
    if (!waiter)
        return false;
    for (uint32_t i = 0; i < p->segment_count; i++)
        waiter[i] = p->thread;
    for (uint32_t i = 0; i < p->segment_count; i++) {
        const trx_segment *g = &p->segments[i];
        for (uint32_t k = 0; k < g->child_count && g->first_child + k < p->segment_count; k++)
            waiter[g->first_child + k] = g->holder;
    }
    bool ok = true;
    for (uint32_t i = 0; i < p->segment_count && ok; i++) {
        const trx_segment *g = &p->segments[i];
        if (g->state != TRX_SEG_BLOCKED || !g->holder)
            continue;
        ok = grow((void **)&f->handoffs, f->handoff_count, &b->handoff_cap, sizeof *f->handoffs);
        if (ok)
            f->handoffs[f->handoff_count++] = (start_mark){
                g->end_ticks, f->next_id++, trx_lane_of(t, g->holder), trx_lane_of(t, waiter[i])};
    }
    free(waiter);
    return ok;
}

trx_path_flows *trx_path_flows_new(trx_trace *t, uint64_t ticks_per_second)
{
    trx_path_flows *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->next_id = TRX_PATH_FLOW_BASE;
    builder b = {f, 0, 0, 0, 0};
    trx_latency l;
    if (trx_report_latency_compute(t, &l) != 0) {
        trx_latency_free(&l);
        free(f);
        return NULL;
    }
    bool ok = true;
    uint32_t paths_left = trx_report_path_budget(t);
    for (uint32_t r = 0; r < l.row_count && ok; r++) {
        const trx_latency_row *row = &l.rows[r];
        trx_path_view v = {ticks_per_second, row->response.p50};
        for (uint32_t k = 0; k < row->worst_count && paths_left && ok; k++, paths_left--) {
            trx_latency_options o = {0};
            trx_path p;
            int rc = trx_path_compute(t, &o, row->address, row->worst[k].number, 0, 0, &p);
            if (rc < 0)
                ok = false;
            else if (rc == 0)
                ok = add_path(&b, t, row, &p, &v);
            trx_path_free(&p);
        }
    }
    trx_latency_free(&l);
    if (ok && f->slice_count && !(f->by_end = malloc(f->slice_count * sizeof *f->by_end)))
        ok = false;
    if (ok && f->handoff_count && (!(f->armed = malloc(f->handoff_count * sizeof *f->armed))))
        ok = false;
    uint32_t flows = f->wake_count + f->handoff_count;
    if (ok && flows && !(f->pending = malloc(flows * sizeof *f->pending)))
        ok = false;
    if (!ok) {
        trx_path_flows_free(f);
        return NULL;
    }
    if (f->slice_count) {
        qsort(f->slices, f->slice_count, sizeof *f->slices, by_release);
        for (uint32_t i = 0; i < f->slice_count; i++)
            f->by_end[i] = (end_mark){f->slices[i].end_index, i};
        qsort(f->by_end, f->slice_count, sizeof *f->by_end, by_end_index);
    }
    if (f->wake_count)
        qsort(f->wakes, f->wake_count, sizeof *f->wakes, by_at);
    if (f->handoff_count)
        qsort(f->handoffs, f->handoff_count, sizeof *f->handoffs, by_at);
    return f;
}

void trx_path_flows_free(trx_path_flows *f)
{
    if (!f)
        return;
    free(f->slices);
    free(f->by_end);
    free(f->wakes);
    free(f->handoffs);
    free(f->armed);
    free(f->pending);
    free(f->lanes);
    free(f);
}

uint32_t trx_path_flows_lanes(const trx_path_flows *f, const uint32_t **lanes)
{
    *lanes = f->lanes;
    return f->lane_count;
}

const trx_path_slice *trx_path_flows_begin_at(trx_path_flows *f, uint64_t index)
{
    while (f->begin_next < f->slice_count && f->slices[f->begin_next].release_index < index)
        f->begin_next++; /* never seen (cannot happen: the paths came from these events) */
    if (f->begin_next < f->slice_count && f->slices[f->begin_next].release_index == index)
        return &f->slices[f->begin_next++];
    return NULL;
}

const trx_path_slice *trx_path_flows_end_at(trx_path_flows *f, uint64_t index)
{
    while (f->end_next < f->slice_count && f->by_end[f->end_next].end_index < index)
        f->end_next++;
    if (f->end_next < f->slice_count && f->by_end[f->end_next].end_index == index)
        return &f->slices[f->by_end[f->end_next++].slot];
    return NULL;
}

static void start_flow(trx_path_flows *f, const start_mark *m, uint64_t *ids, int *n, int max)
{
    if (*n >= max)
        return; /* no room on this event: the flow is left out whole */
    ids[(*n)++] = m->id;
    f->pending[f->pending_count++] = (pending_flow){m->id, m->to_lane};
}

int trx_path_flows_on_event(trx_path_flows *f, const trx_event *ev, uint32_t lane, uint64_t *ids,
                            int max)
{
    int n = 0;
    while (f->wake_next < f->wake_count && f->wakes[f->wake_next].at < ev->index)
        f->wake_next++;
    while (f->wake_next < f->wake_count && f->wakes[f->wake_next].at == ev->index)
        start_flow(f, &f->wakes[f->wake_next++], ids, &n, max);
    while (f->handoff_next < f->handoff_count && f->handoffs[f->handoff_next].at <= ev->ticks)
        f->armed[f->armed_count++] = f->handoffs[f->handoff_next++];
    for (uint32_t i = 0; i < f->armed_count;) {
        if (f->armed[i].from_lane == lane) {
            start_flow(f, &f->armed[i], ids, &n, max);
            f->armed[i] = f->armed[--f->armed_count];
        } else {
            i++;
        }
    }
    return n;
}

int trx_path_flows_on_run(trx_path_flows *f, uint32_t lane, uint64_t *ids, int max)
{
    int n = 0;
    for (uint32_t i = 0; i < f->pending_count && n < max;) {
        if (f->pending[i].lane == lane) {
            ids[n++] = f->pending[i].id;
            f->pending[i] = f->pending[--f->pending_count];
        } else {
            i++;
        }
    }
    return n;
}
