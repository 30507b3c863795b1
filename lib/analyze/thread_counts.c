/* thread_counts.c - per-thread event totals (RUNNING events included) and the
 * suspensions and resumptions each thread performed, plus the system-wide
 * suspension and resumption counts. */
#include "analyze/analyses.h"

void trx_thread_counts_feed(const trx_trace *t, const trx_event *ev, trx_stats *s)
{
    s->suspensions += ev->id == 2;
    s->resumptions += ev->id == 1;
    if (ev->context == TRX_CONTEXT_ISR || ev->context == TRX_CONTEXT_INIT ||
        ev->context == TRX_CONTEXT_IDLE)
        return;
    for (int32_t i = trx_trace_first_thread_at(t, ev->context); i >= 0;
         i = t->threads[i].next_same_address) {
        s->threads[i].total_events++;
        s->threads[i].suspensions += ev->id == 2;
        s->threads[i].resumptions += ev->id == 1;
    }
}
