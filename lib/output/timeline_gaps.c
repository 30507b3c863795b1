/* timeline_gaps.c - the model's lost-event gaps, met in event order by the outputs. */
#include "output/timeline.h"

const trx_gap *trx_gap_before(const trx_trace *t, const trx_event *ev, uint64_t *at)
{
    if (!ev->lost_before)
        return NULL;
    while (*at < t->gap_count && t->gaps[*at].index < ev->index)
        (*at)++;
    return *at < t->gap_count && t->gaps[*at].index == ev->index ? &t->gaps[*at] : NULL;
}
