/* core_counts.c - the out-of-line half of the per-(core, context) counting
 * (core_counts.h): the map, a cached key's spill, flush and merge. */
#include <stdlib.h>

#include "decode/core_counts.h"
#include "trx/trx.h"

static uint32_t slot_of(uint64_t key, uint32_t mask)
{
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & mask;
}

trx_context_slot *trx_context_get(trx_context_map *m, uint64_t key, uint32_t index)
{
    if (m->used * 2 >= m->cap) { /* keep the table at most half full */
        uint32_t cap = m->cap ? m->cap * 2 : 64;
        trx_context_slot *n = calloc(cap, sizeof *n);
        if (!n)
            return NULL;
        for (uint32_t i = 0; i < m->cap; i++) {
            if (!m->slots[i].key)
                continue;
            uint32_t h = slot_of(m->slots[i].key, cap - 1);
            while (n[h].key)
                h = (h + 1) & (cap - 1);
            n[h] = m->slots[i];
        }
        free(m->slots);
        m->slots = n;
        m->cap = cap;
    }
    uint32_t h = slot_of(key, m->cap - 1);
    while (m->slots[h].key && m->slots[h].key != key)
        h = (h + 1) & (m->cap - 1);
    if (!m->slots[h].key) {
        m->slots[h].key = key;
        m->slots[h].first = index;
        m->used++;
    }
    return &m->slots[h];
}

/* Adds a cached key's count to the per-core figures and, for a thread
 * context, to the map. */
static void count_cached(trx_core_counts *c, const trx_cached_key *k)
{
    uint32_t core = (uint32_t)((k->key - 1) >> 32), ctx = (uint32_t)(k->key - 1);
    c->events[core] += k->events;
    if (core > c->max_core)
        c->max_core = core;
    if (ctx == TRX_CONTEXT_ISR || ctx == TRX_CONTEXT_INIT) {
        c->other_events[core] += k->events;
        return;
    }
    trx_context_slot *p = trx_context_get(&c->pairs, k->key, k->first);
    if (!p) {
        c->rc = -1;
        return;
    }
    p->events += k->events;
    if (k->first < p->first)
        p->first = k->first;
}

void trx_core_counts_spill(trx_core_counts *c, trx_cached_key *k, uint64_t key, uint32_t index)
{
    if (k->key)
        count_cached(c, k);
    *k = (trx_cached_key){key, 1, index};
}

void trx_core_counts_flush(trx_core_counts *c)
{
    for (uint32_t k = 0; k < TRX_COUNT_CACHE_SLOTS; k++)
        if (c->cache[k].key) {
            count_cached(c, &c->cache[k]);
            c->cache[k].key = 0;
        }
}

void trx_core_counts_merge(trx_core_counts *a, const trx_core_counts *b)
{
    for (uint32_t k = 0; k < TRX_MAX_CORES; k++) {
        a->events[k] += b->events[k];
        a->other_events[k] += b->other_events[k];
    }
    if (b->max_core > a->max_core)
        a->max_core = b->max_core;
    if (b->rc < 0)
        a->rc = -1;
    for (uint32_t i = 0; i < b->pairs.cap && a->rc == 0; i++) {
        const trx_context_slot *q = &b->pairs.slots[i];
        if (!q->key)
            continue;
        trx_context_slot *p = trx_context_get(&a->pairs, q->key, q->first);
        if (!p) {
            a->rc = -1;
            break;
        }
        p->events += q->events;
        if (q->first < p->first)
            p->first = q->first;
    }
}

void trx_core_counts_free(trx_core_counts *c)
{
    free(c->pairs.slots);
    c->pairs = (trx_context_map){0};
}
