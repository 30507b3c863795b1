/* thread_services.c - each thread's popular services as TraceX's per-thread
 * popularity lists them: counts per event id of the events whose context is
 * the thread (RUNNING included), in first-seen order, then TraceX's
 * exchange sort. A hash of (thread, id) finds a counter in O(1). Threads
 * sharing an address have the same list: only the first is counted here,
 * same_address.c copies it. */
#include <stdlib.h>
#include <string.h>

#include "analyze/analyses.h"

static uint32_t slot_of(uint64_t key, uint32_t cap)
{
    key ^= key >> 29;
    key *= 0xBF58476D1CE4E5B9ull;
    key ^= key >> 32;
    return (uint32_t)key & (cap - 1);
}

static int grow_table(trx_thread_popularity *p)
{
    uint32_t cap = p->cap ? p->cap * 2 : 256;
    uint64_t *keys = calloc(cap, sizeof *keys);
    uint32_t *values = malloc(cap * sizeof *values);
    if (!keys || !values) {
        free(keys);
        free(values);
        return -1;
    }
    for (uint32_t i = 0; i < p->cap; i++) {
        if (!p->keys[i])
            continue;
        uint32_t h = slot_of(p->keys[i], cap);
        while (keys[h])
            h = (h + 1) & (cap - 1);
        keys[h] = p->keys[i];
        values[h] = p->values[i];
    }
    free(p->keys);
    free(p->values);
    p->keys = keys;
    p->values = values;
    p->cap = cap;
    return 0;
}

/* Counts event `id` for thread `th`. */
static void count(trx_thread_popularity *p, trx_thread_stats *ts, uint32_t th, uint32_t id)
{
    if ((p->used + 1) * 2 > p->cap && grow_table(p) < 0) {
        p->oom = 1;
        return;
    }
    uint64_t key = ((uint64_t)th + 1) << 16 | id;
    uint32_t h = slot_of(key, p->cap);
    while (p->keys[h] && p->keys[h] != key)
        h = (h + 1) & (p->cap - 1);
    if (p->keys[h]) {
        ts->services[p->values[h]].count++;
        return;
    }
    if (ts->service_count == ts->service_cap) {
        uint32_t cap = ts->service_cap ? ts->service_cap * 2 : 8;
        trx_service_count *v = realloc(ts->services, cap * sizeof *v);
        if (!v) {
            p->oom = 1;
            return;
        }
        ts->services = v;
        ts->service_cap = cap;
    }
    p->keys[h] = key;
    p->values[h] = ts->service_count;
    p->used++;
    ts->services[ts->service_count++] = (trx_service_count){id, 1};
}

void trx_thread_popularity_feed(trx_thread_popularity *p, const trx_trace *t, const trx_event *ev,
                                trx_stats *s)
{
    if (ev->context == TRX_CONTEXT_ISR || ev->context == TRX_CONTEXT_INIT ||
        ev->context == TRX_CONTEXT_IDLE)
        return;
    int32_t i = trx_trace_first_thread_at(t, ev->context);
    if (i >= 0)
        count(p, &s->threads[i], (uint32_t)i, ev->id);
}

int trx_thread_popularity_finish(trx_thread_popularity *p, trx_stats *s)
{
    for (uint32_t i = 0; i < s->thread_count; i++)
        if (trx_services_sort(s->threads[i].services, s->threads[i].service_count,
                              p->tracex_order) < 0)
            p->oom = 1;
    free(p->keys);
    free(p->values);
    int oom = p->oom;
    memset(p, 0, sizeof *p);
    return oom ? -1 : 0;
}
