/* thread_services.c - each thread's popular services as TraceX's per-thread
 * popularity lists them: counts per event id of the events whose context is
 * the thread (RUNNING included), in first-seen order, then TraceX's
 * exchange sort. A hash of (thread, id) finds a counter in O(1); a thread's
 * recent slots (one per id's low bits, for the first TRX_TPOP_RECENT_THREADS
 * threads) find the one counted last without it. Threads
 * sharing an address have the same list: only the first is counted here,
 * same_address.c copies it. */
#include <stdlib.h>
#include <string.h>

#include "analyze/analyses.h"
#include "analyze/segment_units.h"

static uint32_t entry_hash(const void *ctx, uint32_t e)
{
    const struct trx_thread_service *v = &((const trx_thread_popularity *)ctx)->entries[e];
    return trx_thread_service_hash(v->thread, v->id);
}

/* A new entry (th, id) at count n: its index + 1, or 0 when out of memory. */
static uint32_t new_entry(trx_thread_popularity *p, uint32_t th, uint32_t id, uint64_t n)
{
    if (p->entry_count == p->entry_cap) {
        uint32_t cap = p->entry_cap ? p->entry_cap + p->entry_cap / 2 : 256;
        struct trx_thread_service *v =
            cap > p->entry_cap ? realloc(p->entries, (size_t)cap * sizeof *v) : NULL;
        if (!v)
            return 0;
        p->entries = v;
        p->entry_cap = cap;
    }
    p->entries[p->entry_count] = (struct trx_thread_service){th, id, n};
    return ++p->entry_count;
}

/* Counts `n` events `id` for thread `th`: a thread's first id needs no hash
 * (most threads of a hostile trace have one), the others go through it.
 * The counter's entry + 1, or 0 when out of memory (then p->oom is set). */
static uint32_t count_entry(trx_thread_popularity *p, uint32_t th, uint32_t id, uint64_t n)
{
    if (th >= p->first_cap) {
        uint64_t cap = (uint64_t)p->first_cap + p->first_cap / 2 + 64;
        if (cap <= th)
            cap = (uint64_t)th + 1;
        uint32_t *f = cap <= UINT32_MAX ? realloc(p->first, (size_t)cap * sizeof *f) : NULL;
        if (!f) {
            p->oom = 1;
            return 0;
        }
        memset(f + p->first_cap, 0, (size_t)(cap - p->first_cap) * sizeof *f);
        p->first = f;
        p->first_cap = (uint32_t)cap;
    }
    uint32_t e = p->first[th];
    if (!e) {
        if (!(p->first[th] = e = new_entry(p, th, id, n)))
            p->oom = 1;
        return e;
    }
    if (p->entries[e - 1].id == id) {
        p->entries[e - 1].count += n;
        return e;
    }
    uint32_t mask = p->hash.cap - 1, h = trx_thread_service_hash(th, id) & mask;
    for (; p->hash.cap && (e = p->hash.slots[h]) != 0; h = (h + 1) & mask) {
        struct trx_thread_service *v = &p->entries[e - 1];
        if (v->thread == th && v->id == id) {
            v->count += n;
            return e;
        }
    }
    /* a new counter: room for it first (which may move the slots) */
    if ((uint64_t)(p->hashed + 1) * 2 > p->hash.cap) {
        if (trx_entry_index_reserve(&p->hash, p->hashed, entry_hash, p) < 0) {
            p->oom = 1;
            return 0;
        }
        mask = p->hash.cap - 1;
        for (h = trx_thread_service_hash(th, id) & mask; p->hash.slots[h] != 0; h = (h + 1) & mask)
            ;
    }
    if (!(p->hash.slots[h] = e = new_entry(p, th, id, n))) {
        p->oom = 1;
        return 0;
    }
    p->hashed++;
    return e;
}

/* Makes thread `th` (below TRX_TPOP_RECENT_THREADS) one with recent slots:
 * false when out of memory (it goes on without: they are a cache). */
static bool grow_recent(trx_thread_popularity *p, uint32_t th)
{
    uint32_t n = p->recent_threads * 2 > th + 1 ? p->recent_threads * 2 : th + 1;
    if (n < 16)
        n = 16;
    if (n > TRX_TPOP_RECENT_THREADS)
        n = TRX_TPOP_RECENT_THREADS;
    size_t slots = (size_t)1 << TRX_TPOP_RECENT_BITS;
    uint32_t *r = realloc(p->recent, (size_t)n * slots * sizeof *r);
    if (!r)
        return false;
    memset(r + (size_t)p->recent_threads * slots, 0,
           (size_t)(n - p->recent_threads) * slots * sizeof *r);
    p->recent = r;
    p->recent_threads = n;
    return true;
}

void trx_thread_popularity_count(trx_thread_popularity *p, uint32_t th, uint32_t id, uint64_t n)
{
    uint32_t e = count_entry(p, th, id, n);
    if (e && th >= p->recent_threads && th < TRX_TPOP_RECENT_THREADS)
        grow_recent(p, th);
    if (e && th < p->recent_threads)
        p->recent[(size_t)th << TRX_TPOP_RECENT_BITS | (id & ((1u << TRX_TPOP_RECENT_BITS) - 1))] =
            e;
}

/* Lays every thread's counters out in one array, each thread's in first-seen
 * order (a counting sort by thread), then sorts each list. */
int trx_thread_popularity_finish(trx_thread_popularity *p, trx_stats *s)
{
    trx_entry_index_free(&p->hash);
    free(p->first);
    p->first = NULL;
    free(p->recent);
    p->recent = NULL;
    int oom = p->oom;
    trx_service_count *pool = NULL;
    if (!oom && p->entry_count) {
        pool = malloc((size_t)p->entry_count * sizeof *pool);
        if (!pool)
            oom = 1;
    }
    if (pool) {
        for (uint32_t e = 0; e < p->entry_count; e++)
            if (p->entries[e].thread < s->thread_count)
                s->threads[p->entries[e].thread].service_count++;
        uint32_t at = 0;
        for (uint32_t i = 0; i < s->thread_count; i++) {
            trx_thread_stats *ts = &s->threads[i];
            ts->services = pool + at;
            at += ts->service_count;
            ts->service_count = 0;
        }
        for (uint32_t e = 0; e < p->entry_count; e++) {
            const struct trx_thread_service *v = &p->entries[e];
            if (v->thread < s->thread_count) {
                trx_thread_stats *ts = &s->threads[v->thread];
                ts->services[ts->service_count++] = (trx_service_count){v->id, v->count};
            }
        }
        for (uint32_t i = 0; i < s->thread_count; i++) {
            if (!s->threads[i].service_count)
                s->threads[i].services = NULL;
            else if (trx_services_sort(s->threads[i].services, s->threads[i].service_count,
                                       p->tracex_order) < 0)
                oom = 1;
        }
        s->thread_services_ = pool;
    }
    free(p->entries);
    memset(p, 0, sizeof *p);
    return oom ? -1 : 0;
}

/* Segments (segment_units.h). No state: the counters and their first-seen
 * order are results. */
void trx_thread_popularity_fingerprint(const trx_thread_popularity *p, const trx_trace *t,
                                       trx_fingerprint *f, uint64_t base)
{
    (void)p;
    (void)t;
    (void)f;
    (void)base;
}

void trx_thread_popularity_clear_results(trx_thread_popularity *p)
{
    /* a count lost to memory in the warm-up was the warm-up's */
    bool tracex_order = p->tracex_order;
    trx_entry_index_free(&p->hash);
    free(p->first);
    free(p->recent);
    free(p->entries);
    memset(p, 0, sizeof *p);
    p->tracex_order = tracex_order;
}

int trx_thread_popularity_merge(trx_thread_popularity *later, trx_thread_popularity *earlier,
                                const trx_trace *t, uint64_t offset)
{
    (void)t;
    (void)offset; /* no event numbers */
    /* into earlier's table (its counters first, then the later part's new
     * ones in their order: each thread's list stays in first-seen order),
     * which later then takes over */
    for (uint32_t e = 0; e < later->entry_count && !earlier->oom; e++) {
        const struct trx_thread_service *v = &later->entries[e];
        trx_thread_popularity_count(earlier, v->thread, v->id, v->count);
    }
    if (earlier->oom)
        return -1;
    trx_thread_popularity merged = *earlier;
    merged.oom = later->oom;
    *earlier = *later;
    *later = merged;
    return 0;
}

void trx_thread_popularity_discard(trx_thread_popularity *a)
{
    trx_stats s = {0};
    trx_thread_popularity_finish(a, &s);
    trx_stats_free(&s);
}
