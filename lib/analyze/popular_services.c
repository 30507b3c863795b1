/* popular_services.c - TraceX's popular services: event counts per id in
 * first-seen order (RUNNING excluded), ordered by TraceX's exchange sort,
 * which is not stable: equal counts keep the order that sort leaves. */
#include <stdlib.h>

#include "analyze/analyses.h"
#include "analyze/segment_units.h"

/* A service count with its first-seen position, for the stable order. */
typedef struct ranked {
    trx_service_count s;
    uint32_t pos;
} ranked;

static int by_count_then_position(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->s.count != y->s.count)
        return x->s.count > y->s.count ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Most frequent first, equal counts in their first-seen (input) order. */
static int stable_sort(trx_service_count *v, uint32_t n)
{
    ranked *r = malloc((size_t)n * sizeof *r);
    if (!r)
        return -1;
    for (uint32_t i = 0; i < n; i++)
        r[i] = (ranked){v[i], i};
    qsort(r, n, sizeof *r, by_count_then_position);
    for (uint32_t i = 0; i < n; i++)
        v[i] = r[i].s;
    free(r);
    return 0;
}

/* A max-segment-tree over the counts: finds the first position after `pos`
 * whose count exceeds a value in O(log n). */
typedef struct count_tree {
    uint64_t *max; /* 2 * size nodes, leaves at size .. 2 * size - 1 */
    uint32_t size;
} count_tree;

static void tree_set(count_tree *t, uint32_t i, uint64_t v)
{
    uint32_t k = t->size + i;
    t->max[k] = v;
    for (k /= 2; k >= 1; k /= 2)
        t->max[k] = t->max[2 * k] > t->max[2 * k + 1] ? t->max[2 * k] : t->max[2 * k + 1];
}

/* First leaf index > pos whose count is > v, or UINT32_MAX. */
static uint32_t tree_next_greater(const count_tree *t, uint32_t pos, uint64_t v)
{
    /* Climb from the leaf until a right sibling holds a larger count, then
     * descend to its leftmost such leaf. */
    uint32_t k = t->size + pos;
    while (k > 1) {
        if ((k & 1) == 0 && t->max[k + 1] > v) {
            k++;
            while (k < t->size)
                k = t->max[2 * k] > v ? 2 * k : 2 * k + 1;
            return k - t->size;
        }
        k /= 2;
    }
    return UINT32_MAX;
}

/* TraceX's exchange sort (for each i, for each j > i: swap when v[i] < v[j]),
 * doing only the swaps: each pass follows the chain of larger counts with the
 * tree, so equal counts cost nothing and the result is the same. */
static int exchange_sort(trx_service_count *v, uint32_t n)
{
    count_tree t = {NULL, 1};
    while (t.size < n)
        t.size *= 2;
    t.max = calloc(2 * (size_t)t.size, sizeof *t.max);
    if (!t.max)
        return -1;
    for (uint32_t i = 0; i < n; i++)
        t.max[t.size + i] = v[i].count;
    for (uint32_t k = t.size - 1; k >= 1; k--)
        t.max[k] = t.max[2 * k] > t.max[2 * k + 1] ? t.max[2 * k] : t.max[2 * k + 1];
    for (uint32_t i = 0; i < n; i++) {
        uint32_t pos = i;
        for (uint32_t j; (j = tree_next_greater(&t, pos, v[i].count)) != UINT32_MAX; pos = j) {
            trx_service_count x = v[i];
            v[i] = v[j];
            v[j] = x;
            tree_set(&t, j, x.count);
        }
        tree_set(&t, i, 0); /* never looked at again */
    }
    free(t.max);
    return 0;
}

int trx_services_sort(trx_service_count *v, uint32_t n, bool tracex_order)
{
    if (n < 2)
        return 0;
    return tracex_order ? exchange_sort(v, n) : stable_sort(v, n);
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

int trx_popularity_finish(trx_popularity *p, trx_stats *s)
{
    trx_service_count *out = malloc((p->distinct ? p->distinct : 1) * sizeof *out);
    if (out) {
        for (uint32_t i = 0; i < p->distinct; i++)
            out[i] = (trx_service_count){p->order[i], p->count[p->order[i]]};
        if (trx_services_sort(out, p->distinct, p->tracex_order) < 0) {
            free(out);
            out = NULL;
        }
        s->services = out;
        s->service_count = out ? p->distinct : 0;
    }
    free(p->count);
    free(p->order);
    return out ? 0 : -1;
}

/* Segments (segment_units.h). No state: the counts and their first-seen
 * order are results. */
void trx_popularity_fingerprint(const trx_popularity *p, const trx_trace *t, trx_fingerprint *f,
                                uint64_t base)
{
    (void)p;
    (void)t;
    (void)f;
    (void)base;
}

void trx_popularity_clear_results(trx_popularity *p)
{
    for (uint32_t i = 0; i < p->distinct; i++)
        p->count[p->order[i]] = 0;
    p->distinct = 0;
}

int trx_popularity_merge(trx_popularity *later, trx_popularity *earlier, const trx_trace *t,
                         uint64_t offset)
{
    (void)t;
    (void)offset; /* no event numbers */
    /* into earlier's tables (its ids first, then the later part's new ones,
     * in their order), which later then takes over */
    for (uint32_t i = 0; i < later->distinct; i++) {
        uint32_t id = later->order[i];
        if (earlier->count[id] == 0)
            earlier->order[earlier->distinct++] = id;
        earlier->count[id] += later->count[id];
    }
    trx_popularity merged = *earlier;
    merged.tracex_order = later->tracex_order;
    *earlier = *later;
    *later = merged;
    return 0;
}

void trx_popularity_discard(trx_popularity *a)
{
    trx_stats s = {0};
    trx_popularity_finish(a, &s);
    trx_stats_free(&s);
}
