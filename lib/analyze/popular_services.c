/* popular_services.c - TraceX's popular services: event counts per id in
 * first-seen order (RUNNING excluded), ordered by TraceX's exchange sort,
 * which is not stable: equal counts keep the order that sort leaves. */
#include <stdlib.h>

#include "analyze/analyses.h"

void trx_services_sort(trx_service_count *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++)
            if (v[i].count < v[j].count) {
                trx_service_count x = v[i];
                v[i] = v[j];
                v[j] = x;
            }
}

int trx_popularity_init(trx_popularity *p)
{
    p->count = calloc(65536, sizeof *p->count);
    p->order = malloc(65536 * sizeof *p->order);
    p->distinct = 0;
    if (!p->count || !p->order) {
        free(p->count);
        free(p->order);
        return -1;
    }
    return 0;
}

void trx_popularity_feed(trx_popularity *p, const trx_event *ev)
{
    if (ev->id == TRX_EVENT_RUNNING)
        return;
    if (p->count[ev->id]++ == 0)
        p->order[p->distinct++] = ev->id;
}

int trx_popularity_finish(trx_popularity *p, trx_stats *s)
{
    trx_service_count *out = malloc((p->distinct ? p->distinct : 1) * sizeof *out);
    if (out) {
        for (uint32_t i = 0; i < p->distinct; i++)
            out[i] = (trx_service_count){p->order[i], p->count[p->order[i]]};
        trx_services_sort(out, p->distinct);
        s->services = out;
        s->service_count = p->distinct;
    }
    free(p->count);
    free(p->order);
    return out ? 0 : -1;
}
