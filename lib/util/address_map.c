/* address_map.c - open-addressing (linear probing) map from address to value. */
#include <stdlib.h>
#include <string.h>

#include "util/address_map.h"

static uint32_t mix(uint32_t a)
{
    a ^= a >> 16;
    a *= 0x7FEB352Du;
    a ^= a >> 15;
    a *= 0x846CA68Bu;
    a ^= a >> 16;
    return a;
}

/* Index of `key`'s slot: where it is, or the empty slot where it would go. */
static uint32_t find_slot(const trx_address_map *m, uint32_t key)
{
    uint32_t mask = m->cap - 1;
    uint32_t h = mix(key) & mask;
    while (m->used[h] && m->keys[h] != key)
        h = (h + 1) & mask;
    return h;
}

bool trx_address_map_get(const trx_address_map *m, uint32_t key, uint32_t *value)
{
    if (!m->cap)
        return false;
    uint32_t h = find_slot(m, key);
    if (!m->used[h])
        return false;
    *value = m->values[h];
    return true;
}

uint32_t *trx_address_map_find(const trx_address_map *m, uint32_t key)
{
    if (!m->cap)
        return NULL;
    uint32_t h = find_slot(m, key);
    return m->used[h] ? &m->values[h] : NULL;
}

static int grow(trx_address_map *m)
{
    uint32_t cap = m->cap ? m->cap * 2 : 64;
    if (cap < m->cap)
        return -1;
    trx_address_map n = {malloc((size_t)cap * sizeof(uint32_t)),
                         malloc((size_t)cap * sizeof(uint32_t)), calloc(cap, 1), cap, m->count};
    if (!n.keys || !n.values || !n.used) {
        free(n.keys);
        free(n.values);
        free(n.used);
        return -1;
    }
    for (uint32_t i = 0; i < m->cap; i++)
        if (m->used[i]) {
            uint32_t h = find_slot(&n, m->keys[i]);
            n.used[h] = 1;
            n.keys[h] = m->keys[i];
            n.values[h] = m->values[i];
        }
    trx_address_map_free(m);
    *m = n;
    return 0;
}

uint32_t *trx_address_map_slot(trx_address_map *m, uint32_t key, uint32_t initial, bool *added)
{
    if ((uint64_t)(m->count + 1) * 2 > m->cap && grow(m) < 0)
        return NULL;
    uint32_t h = find_slot(m, key);
    *added = !m->used[h];
    if (*added) {
        m->used[h] = 1;
        m->keys[h] = key;
        m->values[h] = initial;
        m->count++;
    }
    return &m->values[h];
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
    free(m->keys);
    free(m->values);
    free(m->used);
    memset(m, 0, sizeof *m);
}
