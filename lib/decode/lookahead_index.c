/* lookahead_index.c - per address, the sorted raw indices where it appears as
 * a context and where it is given a priority (compressed lists, one array
 * each); queries are a binary search. */
#include <stdlib.h>

#include "decode/lookahead_index.h"
#include "util/address_map.h"

#define NONE UINT32_MAX
#define ID_RUNNING 6u
#define ID_THREAD_CREATE 100u

/* Lists of raw indices keyed by address: list k is at[start[k] .. start[k+1]). */
typedef struct index_lists {
    trx_address_map ids; /* address -> list number */
    uint32_t *start;     /* list count + 1 */
    uint32_t *at;
    uint32_t lists;
} index_lists;

struct trx_lookahead {
    index_lists context, priority;
};

static bool thread_context(uint32_t ctx)
{
    return ctx != TRX_CONTEXT_ISR && ctx != TRX_CONTEXT_INIT;
}

/* Up to two addresses entry `e` is listed under, for each kind of list. */
static int keys_of(const trx_entry *e, bool priority, uint32_t key[2])
{
    int n = 0;
    uint32_t id = e->id & 0xFFFFu;
    if (!priority) {
        if (thread_context(e->context))
            key[n++] = e->context;
        return n;
    }
    if (thread_context(e->context) && id != ID_RUNNING)
        key[n++] = e->context;
    if (id == ID_THREAD_CREATE && (n == 0 || e->info[0] != key[0]))
        key[n++] = e->info[0];
    return n;
}

/* Counts, then fills, the lists of one kind. 0 or -1 (out of memory). */
static int build_lists(const trx_trace *t, bool priority, index_lists *l)
{
    uint32_t cap = 0, *count = NULL;
    trx_entry e;
    uint32_t key[2];
    uint64_t total = 0;
    for (uint32_t j = 0; j < t->used; j++) {
        trx_trace_entry(t, j, &e);
        int n = keys_of(&e, priority, key);
        for (int k = 0; k < n; k++) {
            bool added;
            uint32_t *id = trx_address_map_slot(&l->ids, key[k], l->lists, &added);
            if (!id)
                goto fail;
            if (added) {
                if (l->lists == cap) {
                    uint32_t ncap = cap ? cap * 2 : 64;
                    uint32_t *nc = realloc(count, (size_t)ncap * sizeof *nc);
                    if (!nc)
                        goto fail;
                    count = nc;
                    cap = ncap;
                }
                count[l->lists++] = 0;
            }
            count[*id]++;
            total++;
        }
    }
    l->start = malloc(((size_t)l->lists + 1) * sizeof *l->start);
    l->at = malloc((total ? total : 1) * sizeof *l->at);
    if (!l->start || !l->at)
        goto fail;
    uint32_t sum = 0;
    for (uint32_t k = 0; k < l->lists; k++) {
        l->start[k] = sum;
        sum += count[k];
        count[k] = l->start[k]; /* now the fill position */
    }
    l->start[l->lists] = sum;
    for (uint32_t j = 0; j < t->used; j++) {
        trx_trace_entry(t, j, &e);
        int n = keys_of(&e, priority, key);
        for (int k = 0; k < n; k++) {
            uint32_t id = 0; /* always present: counted above */
            trx_address_map_get(&l->ids, key[k], &id);
            l->at[count[id]++] = j;
        }
    }
    free(count);
    return 0;
fail:
    free(count);
    return -1;
}

static void free_lists(index_lists *l)
{
    trx_address_map_free(&l->ids);
    free(l->start);
    free(l->at);
}

trx_lookahead *trx_lookahead_build(const trx_trace *t)
{
    trx_lookahead *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    if (build_lists(t, false, &x->context) < 0 || build_lists(t, true, &x->priority) < 0) {
        trx_lookahead_free(x);
        return NULL;
    }
    return x;
}

/* First index >= from in `address`'s list. */
static uint32_t next_in(const index_lists *l, uint32_t address, uint32_t from)
{
    uint32_t id;
    if (!trx_address_map_get(&l->ids, address, &id))
        return NONE;
    uint32_t lo = l->start[id], hi = l->start[id + 1];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (l->at[mid] < from)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < l->start[id + 1] ? l->at[lo] : NONE;
}

uint32_t trx_lookahead_next_context(const trx_lookahead *x, uint32_t address, uint32_t from)
{
    return next_in(&x->context, address, from);
}

uint32_t trx_lookahead_next_priority(const trx_lookahead *x, uint32_t address, uint32_t from)
{
    return next_in(&x->priority, address, from);
}

void trx_lookahead_free(trx_lookahead *x)
{
    if (!x)
        return;
    free_lists(&x->context);
    free_lists(&x->priority);
    free(x);
}
