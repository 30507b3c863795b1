/* timeline_runs.c - run slices: the time between two events of a core
 * belongs to the first one's next context, exactly as the execution profile
 * counts it. */
#include <stdlib.h>
#include <string.h>

#include "output/timeline.h"
#include "util/per_core.h"

int trx_run_init(trx_run_tracker *r, const trx_trace *t)
{
    memset(r, 0, sizeof *r);
    bool failed;
    r->per_core = trx_per_core_new(t, sizeof *r->per_core, &r->cores, &failed);
    return failed ? -1 : 0;
}

void trx_run_free(trx_run_tracker *r)
{
    free(r->per_core);
    r->per_core = NULL;
}

bool trx_run_open(const trx_run_tracker *r, uint32_t i, trx_run_slice *out)
{
    if (!r->per_core) {
        *out = r->cur;
        return i == 0 && r->have;
    }
    *out = r->per_core[i].cur;
    return i < r->cores && r->per_core[i].have;
}

uint32_t trx_run_busy_cores(const trx_run_tracker *r, const trx_trace *t)
{
    uint32_t idle = t->thread_count + TRX_LANE_IDLE, n = 0;
    if (!r->per_core)
        return r->have && r->cur.lane != idle;
    for (uint32_t i = 0; i < r->cores; i++)
        n += r->per_core[i].have && r->per_core[i].cur.lane != idle;
    return n;
}

int trx_run_feed(trx_run_tracker *r, const trx_trace *t, const trx_event *ev, trx_run_slice *closed)
{
    trx_run_core *c = NULL;
    if (r->per_core) { /* this core's slice is the current one */
        c = &r->per_core[ev->core < r->cores ? ev->core : 0];
        r->have = c->have;
        r->cur = c->cur;
    }
    uint32_t lane = trx_lane_of_event(t, ev, ev->next_context);
    int out = 0;
    if (!r->have || lane != r->cur.lane) {
        bool had = r->have;
        if (had) {
            *closed = r->cur;
            closed->end = ev->ticks > r->cur.start ? ev->ticks : r->cur.start;
        }
        r->have = true;
        r->cur.lane = lane;
        r->cur.start = ev->ticks;
        r->cur.end = ev->ticks;
        r->cur.first_event = ev->index;
        out = had ? TRX_RUN_CLOSED | TRX_RUN_STARTED : TRX_RUN_STARTED;
    }
    if (ev->ticks > r->cur.end) /* the open slice reaches the core's last event */
        r->cur.end = ev->ticks;
    if (c) {
        c->have = r->have;
        c->cur = r->cur;
    }
    return out;
}
