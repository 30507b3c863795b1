/* same_address.c - threads that share an address (a thread deleted and
 * created again at the same control block) all get the figures of the
 * events of that address, as TraceX counts them. The analyses credit only
 * the first thread at an address (one update per event, whatever the number
 * of threads there); this copies its figures to the others once at the end. */
#include <stdlib.h>
#include <string.h>

#include "analyze/analyses.h"

int trx_same_address_spread(const trx_trace *t, trx_stats *s)
{
    int rc = 0;
    for (uint32_t i = 0; i < t->thread_count && i < s->thread_count; i++) {
        int32_t f = trx_trace_first_thread_at(t, t->threads[i].address);
        if (f < 0 || (uint32_t)f == i)
            continue;
        const trx_thread_stats *from = &s->threads[f];
        trx_thread_stats *to = &s->threads[i];
        to->total_events = from->total_events;
        to->suspensions = from->suspensions;
        to->resumptions = from->resumptions;
        to->execution_ticks = from->execution_ticks;
        free(to->services);
        to->services = NULL;
        to->service_count = to->service_cap = 0;
        if (from->service_count) {
            to->services = malloc(from->service_count * sizeof *to->services);
            if (!to->services) {
                rc = -1;
                continue;
            }
            memcpy(to->services, from->services, from->service_count * sizeof *to->services);
            to->service_count = to->service_cap = from->service_count;
        }
    }
    return rc;
}
