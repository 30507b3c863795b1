/* timeline_runs.c - run slices: the time between two events belongs to the
 * first one's next context, exactly as the execution profile counts it. */
#include "output/timeline.h"

int trx_run_feed(trx_run_tracker *r, const trx_trace *t, const trx_event *ev, trx_run_slice *closed)
{
    uint32_t lane = trx_lane_of(t, ev->next_context);
    if (r->have && lane == r->cur.lane)
        return 0;
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
    return had ? TRX_RUN_CLOSED | TRX_RUN_STARTED : TRX_RUN_STARTED;
}
