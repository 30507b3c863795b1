/*
 * report_cores.c - the report's per-core data: which thread (or interrupt)
 * every core runs, from the core tracker (trx/cores.h), as the JSON member
 * "cores": a flat list of runs [core, first event, last event, lane] (event
 * numbers as the report's events; lane as the report's lanes). The page
 * draws a lane per core with them ("CPU n") and marks migrations.
 */
#include <stdlib.h>

#include "analyze/core_tracker.h"
#include "output/report.h"
#include "output/timeline.h"

typedef struct core_runs {
    trx_trace *t;
    trx_out *w;
    uint64_t index;                  /* the event being fed */
    uint64_t since[TRX_MAX_CORES];   /* where the core's current run began */
    uint32_t running[TRX_MAX_CORES]; /* its context, 0 = none */
    uint64_t runs;
    uint64_t first, last; /* the runs told: those overlapping events [first, last], cut to them */
} core_runs;

static void run_out(core_runs *r, uint32_t core, uint64_t end)
{
    if (!r->running[core] || end < r->first || r->since[core] > r->last)
        return;
    uint64_t since = r->since[core] > r->first ? r->since[core] : r->first;
    trx_out_printf(r->w, "%s[%u,%llu,%llu,%u]", r->runs++ ? "," : "", core,
                   (unsigned long long)since, (unsigned long long)(end < r->last ? end : r->last),
                   trx_lane_of(r->t, r->running[core]));
}

static void on_switch(void *ctx, uint32_t core, uint64_t ticks, uint32_t prev, int32_t prev_thread,
                      uint32_t next, int32_t next_thread, bool blocked)
{
    (void)ticks, (void)prev, (void)prev_thread, (void)next_thread, (void)blocked;
    core_runs *r = ctx;
    run_out(r, core, r->index);
    r->running[core] = next;
    r->since[core] = r->index;
}

/* The runs of events [first, last] from cursor `c` on (it is freed): what
 * the cores run from c's event on, told where it overlaps [first, last]. */
static int runs_from(trx_trace *t, trx_cursor *c, uint64_t first, uint64_t last, trx_out *w)
{
    core_runs *r = calloc(1, sizeof *r);
    trx_core_tracker *k = trx_core_tracker_new(t);
    if (!r || !k) {
        free(r);
        trx_core_tracker_discard(k);
        trx_cursor_free(c);
        return -1;
    }
    r->t = t;
    r->w = w;
    r->first = first;
    r->last = last;
    trx_core_tracker_listen(k, on_switch, r);
    trx_out_str(w, ",\n\"cores\":[");
    const trx_event *ev;
    while ((ev = trx_cursor_next_ref(c)) != NULL && ev->index <= last) {
        r->index = ev->index;
        trx_core_tracker_feed(k, ev);
    }
    trx_cursor_free(c);
    for (uint32_t core = 0; core < TRX_MAX_CORES; core++)
        run_out(r, core, r->index);
    trx_out_char(w, ']');
    trx_core_tracker_discard(k);
    free(r);
    return 0;
}

int trx_report_core_runs(trx_trace *t, trx_out *w)
{
    trx_cursor c;
    if (trx_cursor_init(&c, t) < 0)
        return -1;
    return runs_from(t, &c, 0, UINT64_MAX, w);
}

int trx_report_core_runs_window(trx_trace *t, trx_cursor *c, uint64_t first, uint64_t last,
                                trx_out *w)
{
    return runs_from(t, c, first, last, w);
}
