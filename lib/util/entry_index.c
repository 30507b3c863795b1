/* entry_index.c - growing an index over a dense array of entries (see entry_index.h). */
#include "util/entry_index.h"

#include <stdlib.h>

int trx_entry_index_reserve(trx_entry_index *x, uint32_t count, trx_entry_hash_fn hash,
                            const void *ctx)
{
    if ((uint64_t)(count + 1) * 2 <= x->cap)
        return 0;
    uint32_t cap = x->cap ? x->cap * 2 : 64;
    uint32_t *slots = cap > x->cap ? calloc(cap, sizeof *slots) : NULL;
    if (!slots)
        return -1;
    for (uint32_t i = 0; i < x->cap; i++) {
        uint32_t e = x->slots[i];
        if (!e)
            continue;
        uint32_t h = hash(ctx, e - 1) & (cap - 1);
        while (slots[h])
            h = (h + 1) & (cap - 1);
        slots[h] = e;
    }
    free(x->slots);
    x->slots = slots;
    x->cap = cap;
    return 0;
}

void trx_entry_index_free(trx_entry_index *x)
{
    free(x->slots);
    x->slots = NULL;
    x->cap = 0;
}
