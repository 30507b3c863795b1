/* execution_profile.c - TraceX's execution profile: the ticks between two
 * events go to the first one's next context (a thread, interrupt or idle;
 * initialization time is not summed). Threads sharing an address get the
 * same ticks: only the first is credited here, same_address.c copies them. */
#include "analyze/analyses.h"

void trx_profile_feed(trx_profile *a, const trx_trace *t, const trx_event *ev, int32_t first,
                      trx_stats *s)
{
    if (a->have_prev) {
        uint64_t d = ev->ticks - a->prev_ticks;
        uint32_t n = a->prev_next;
        if (n == TRX_CONTEXT_ISR) {
            s->interrupt_ticks += d;
        } else if (n == TRX_CONTEXT_IDLE) {
            s->idle_ticks += d;
        } else if (n != TRX_CONTEXT_INIT) {
            /* mostly the thread of the last event: its look-up is done */
            int32_t i = n == a->last_context ? a->last_first : trx_trace_first_thread_at(t, n);
            if (i >= 0)
                s->threads[i].execution_ticks += d;
        }
    }
    a->have_prev = true;
    a->last_context = first >= 0 ? ev->context : TRX_CONTEXT_INIT;
    a->last_first = first;
    a->prev_next = ev->next_context;
    a->prev_ticks = ev->ticks;
}
