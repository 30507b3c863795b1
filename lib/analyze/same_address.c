/* same_address.c - threads that share an address (a thread deleted and
 * created again at the same control block) all get the figures of the
 * events of that address, as TraceX counts them. The analyses credit only
 * the first thread at an address (one update per event, whatever the number
 * of threads there); this copies its figures to the others once at the end
 * (their service lists are the first thread's, shared in the pool). */
#include <stdlib.h>
#include <string.h>

#include "analyze/analyses.h"

int trx_same_address_spread(const trx_trace *t, trx_stats *s)
{
    for (uint32_t i = 0; i < t->thread_count && i < s->thread_count; i++) {
        uint32_t f = trx_thread_first_at_its_address(t, i);
        if (f == i)
            continue;
        const trx_thread_stats *from = &s->threads[f];
        trx_thread_stats *to = &s->threads[i];
        to->total_events = from->total_events;
        to->suspensions = from->suspensions;
        to->resumptions = from->resumptions;
        to->execution_ticks = from->execution_ticks;
        to->services = from->services; /* the pool's list, shared */
        to->service_count = from->service_count;
    }
    return 0;
}
