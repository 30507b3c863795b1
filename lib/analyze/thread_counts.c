/* thread_counts.c - per-thread event totals (RUNNING events included) and the
 * suspensions and resumptions each thread performed, plus the system-wide
 * suspension and resumption counts. Threads sharing an address get the same
 * counts: only the first is counted here, same_address.c copies them. */
#include "analyze/analyses.h"

void trx_thread_counts_feed(const trx_event *ev, int32_t i, trx_stats *s)
{
    s->suspensions += ev->kind == TRX_KIND_SUSPEND;
    s->resumptions += ev->kind == TRX_KIND_RESUME;
    if (i >= 0) {
        s->threads[i].total_events++;
        s->threads[i].suspensions += ev->kind == TRX_KIND_SUSPEND;
        s->threads[i].resumptions += ev->kind == TRX_KIND_RESUME;
    }
}
