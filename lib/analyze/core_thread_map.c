/* core_thread_map.c - (core, thread) -> counts: dense entries and an
 * open-addressing index over them (see core_thread_map.h). */
#include "analyze/core_thread_map.h"

#include <stdlib.h>
#include <string.h>

static uint32_t hash_of(uint32_t core, int32_t thread)
{
    uint64_t k = ((uint64_t)(uint32_t)thread << 8 | core) * 0x9E3779B97F4A7C15ull;
    return (uint32_t)(k >> 32);
}

static uint32_t entry_hash(const void *ctx, uint32_t e)
{
    const trx_core_thread *v = &((const trx_core_thread_map *)ctx)->entries[e];
    return hash_of(v->core, v->thread);
}

static int grow_entries(trx_core_thread_map *m)
{
    uint32_t cap = m->cap ? m->cap + m->cap / 2 : 64;
    trx_core_thread *n = cap > m->cap ? realloc(m->entries, (size_t)cap * sizeof *n) : NULL;
    if (!n)
        return -1;
    m->entries = n;
    m->cap = cap;
    m->generation++;
    return 0;
}

/* Grows core 0's array to `want` entries (at least). -1 when out of memory. */
static int core0_grow(trx_core_thread_map *m, uint64_t want)
{
    if (want <= m->core0_cap)
        return 0;
    if (want > UINT32_MAX)
        return -1;
    trx_core_thread *n = realloc(m->core0, (size_t)want * sizeof *n);
    if (!n)
        return -1;
    for (uint64_t i = m->core0_cap; i < want; i++)
        n[i].thread = -1;
    m->core0 = n;
    m->core0_cap = (uint32_t)want;
    m->generation++;
    return 0;
}

int trx_core_thread_map_reserve(trx_core_thread_map *m, uint32_t threads)
{
    return core0_grow(m, threads ? threads : 1);
}

/* Core 0's entry of `thread`, growing the array to hold it. */
static trx_core_thread *core0_get(trx_core_thread_map *m, int32_t thread)
{
    uint32_t th = (uint32_t)thread;
    if (th >= m->core0_cap) {
        uint64_t want = (uint64_t)m->core0_cap + m->core0_cap / 2 + 64;
        if (want <= th)
            want = (uint64_t)th + 1;
        if (core0_grow(m, want) < 0)
            return NULL;
    }
    trx_core_thread *v = &m->core0[th];
    if (v->thread < 0)
        *v = (trx_core_thread){0, thread, 0, 0, 0};
    return v;
}

trx_core_thread *trx_core_thread_map_get(trx_core_thread_map *m, uint32_t core, int32_t thread)
{
    if (m->oom)
        return NULL;
    if (core == 0) {
        trx_core_thread *v = core0_get(m, thread);
        if (!v)
            m->oom = true;
        return v;
    }
    if (trx_entry_index_reserve(&m->index, m->count, entry_hash, m) < 0) {
        m->oom = true;
        return NULL;
    }
    uint32_t mask = m->index.cap - 1, s = hash_of(core, thread) & mask;
    for (uint32_t e; (e = m->index.slots[s]) != 0; s = (s + 1) & mask) {
        trx_core_thread *v = &m->entries[e - 1];
        if (v->thread == thread && v->core == core)
            return v;
    }
    if (m->count == m->cap && grow_entries(m) < 0) {
        m->oom = true;
        return NULL;
    }
    trx_core_thread *v = &m->entries[m->count];
    *v = (trx_core_thread){core, thread, 0, 0, 0};
    m->index.slots[s] = ++m->count;
    return v;
}

void trx_core_thread_map_clear(trx_core_thread_map *m)
{
    for (uint32_t th = 0; th < m->core0_cap; th++)
        m->core0[th].thread = -1;
    if (m->index.slots)
        memset(m->index.slots, 0, (size_t)m->index.cap * sizeof *m->index.slots);
    m->count = 0;
    m->generation++;
}

/* Adds `v`'s counts to its pair in `dst`. */
static int add_pair(trx_core_thread_map *dst, const trx_core_thread *v)
{
    trx_core_thread *d = trx_core_thread_map_get(dst, v->core, v->thread);
    if (!d)
        return -1;
    d->events += v->events;
    d->ticks += v->ticks;
    return 0;
}

int trx_core_thread_map_add_all(trx_core_thread_map *dst, const trx_core_thread_map *src)
{
    if (src->oom)
        dst->oom = true;
    for (uint32_t th = 0; th < src->core0_cap; th++)
        if (src->core0[th].thread >= 0 && add_pair(dst, &src->core0[th]) < 0)
            return -1;
    for (uint32_t e = 0; e < src->count; e++)
        if (add_pair(dst, &src->entries[e]) < 0)
            return -1;
    return dst->oom ? -1 : 0;
}

static int by_core_then_thread(const void *a, const void *b)
{
    const trx_core_thread *x = a, *y = b;
    if (x->core != y->core)
        return x->core < y->core ? -1 : 1;
    return (x->thread > y->thread) - (x->thread < y->thread);
}

int trx_core_thread_map_finish(trx_core_thread_map *m, trx_core_thread **out, uint32_t *count)
{
    *out = NULL;
    *count = 0;
    trx_entry_index_free(&m->index);
    trx_core_thread *core0 = m->core0;
    int rc = m->oom ? -1 : 0;
    uint64_t total = m->count;
    for (uint32_t th = 0; th < m->core0_cap; th++)
        total += core0[th].thread >= 0;
    trx_core_thread *v = NULL;
    if (rc == 0 && total < UINT32_MAX) {
        bool sorted = true; /* mostly so: threads are numbered as they appear */
        for (uint32_t e = 1; e < m->count && sorted; e++)
            sorted = by_core_then_thread(&m->entries[e - 1], &m->entries[e]) < 0;
        if (!sorted)
            qsort(m->entries, m->count, sizeof *m->entries, by_core_then_thread);
        /* core 0's array compacts in place when the others fit in it */
        v = core0 && total <= m->core0_cap ? core0
                                           : malloc((size_t)(total ? total : 1) * sizeof *v);
    }
    if (v) {
        uint32_t k = 0; /* core 0's pairs in thread order, then the others */
        for (uint32_t th = 0; th < m->core0_cap; th++)
            if (core0[th].thread >= 0)
                v[k++] = core0[th]; /* k <= th: safe in place */
        if (m->count)
            memcpy(v + k, m->entries, (size_t)m->count * sizeof *v);
        if (v == core0) {
            core0 = NULL;
            trx_core_thread *fit = total ? realloc(v, (size_t)total * sizeof *v) : NULL;
            if (fit)
                v = fit;
        }
        *out = v;
        *count = (uint32_t)total;
    } else {
        rc = -1;
    }
    free(core0);
    free(m->entries);
    memset(m, 0, sizeof *m);
    return rc;
}
