/* address_map.c - open-addressing (linear probing) map from address to value:
 * insertion and growth (look-ups are inline in address_map.h). */
#include <stdlib.h>
#include <string.h>

#include "util/address_map.h"

static int grow(trx_address_map *m)
{
    uint32_t cap = m->cap ? m->cap * 2 : 64;
    if (cap < m->cap)
        return -1;
    trx_address_map n = {calloc(cap, sizeof(trx_address_slot)), cap, m->count};
    if (!n.slots)
        return -1;
    for (uint32_t i = 0; i < m->cap; i++)
        if (m->slots[i].used)
            *trx_address_map_probe_(&n, m->slots[i].key) = m->slots[i];
    trx_address_map_free(m);
    *m = n;
    return 0;
}

uint32_t *trx_address_map_slot(trx_address_map *m, uint32_t key, uint32_t initial, bool *added)
{
    if ((uint64_t)(m->count + 1) * 2 > m->cap && grow(m) < 0)
        return NULL;
    trx_address_slot *s = trx_address_map_probe_(m, key);
    *added = !s->used;
    if (*added) {
        *s = (trx_address_slot){key, initial, 1};
        m->count++;
    }
    return &s->value;
}

int trx_address_map_put(trx_address_map *m, uint32_t key, uint32_t value)
{
    bool added;
    uint32_t *v = trx_address_map_slot(m, key, value, &added);
    if (!v)
        return -1;
    *v = value;
    return 0;
}

void trx_address_map_free(trx_address_map *m)
{
    free(m->slots);
    memset(m, 0, sizeof *m);
}
