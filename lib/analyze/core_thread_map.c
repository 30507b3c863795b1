/* core_thread_map.c - (core, thread) -> counts, open addressing (see core_thread_map.h). */
#include "analyze/core_thread_map.h"

#include <stdlib.h>
#include <string.h>

static uint32_t slot_of(uint32_t core, int32_t thread, uint32_t cap)
{
    uint64_t k = ((uint64_t)(uint32_t)thread << 8 | core) * 0x9E3779B97F4A7C15ull;
    return (uint32_t)(k >> 32) & (cap - 1);
}

static int grow(trx_core_thread_map *m)
{
    uint32_t cap = m->cap ? m->cap * 2 : 64;
    trx_core_thread *n = malloc((size_t)cap * sizeof *n);
    if (!n || cap < m->cap)
        return free(n), -1;
    for (uint32_t i = 0; i < cap; i++)
        n[i].thread = -1;
    for (uint32_t i = 0; i < m->cap; i++) {
        if (m->slots[i].thread < 0)
            continue;
        uint32_t s = slot_of(m->slots[i].core, m->slots[i].thread, cap);
        while (n[s].thread >= 0)
            s = (s + 1) & (cap - 1);
        n[s] = m->slots[i];
    }
    free(m->slots);
    m->slots = n;
    m->cap = cap;
    return 0;
}

trx_core_thread *trx_core_thread_map_get(trx_core_thread_map *m, uint32_t core, int32_t thread)
{
    if (m->oom)
        return NULL;
    if ((m->used + 1) * 2 > m->cap && grow(m) < 0) {
        m->oom = true;
        return NULL;
    }
    uint32_t s = slot_of(core, thread, m->cap);
    while (m->slots[s].thread >= 0) {
        if (m->slots[s].thread == thread && m->slots[s].core == core)
            return &m->slots[s];
        s = (s + 1) & (m->cap - 1);
    }
    m->slots[s] = (trx_core_thread){core, thread, 0, 0, 0};
    m->used++;
    return &m->slots[s];
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
    int rc = m->oom ? -1 : 0;
    trx_core_thread *v = rc == 0 ? malloc((m->used ? m->used : 1) * sizeof *v) : NULL;
    if (rc == 0 && !v)
        rc = -1;
    uint32_t n = 0;
    for (uint32_t i = 0; v && i < m->cap; i++)
        if (m->slots[i].thread >= 0)
            v[n++] = m->slots[i];
    if (v) {
        qsort(v, n, sizeof *v, by_core_then_thread);
        *out = v;
        *count = n;
    }
    free(m->slots);
    memset(m, 0, sizeof *m);
    return rc;
}
