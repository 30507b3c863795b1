/* key_map.h - an open-addressing hash map from a 64-bit key to a 32-bit
 * value, with removal (backward-shift deletion: no tombstones, so the table
 * stays as large as the keys held at once, never as the keys ever seen).
 * The interval engine keys its open intervals and its groups with it. */
#ifndef TRX_KEY_MAP_H
#define TRX_KEY_MAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct trx_key_slot {
    uint64_t key;
    uint32_t value, used;
} trx_key_slot;

typedef struct trx_key_map {
    trx_key_slot *slots;
    uint32_t cap, count; /* cap: a power of two, or 0 */
} trx_key_map;

/* The home slot of `key` in a table of `cap` slots. */
static inline uint32_t trx_key_map_home_(uint64_t key, uint32_t cap)
{
    key ^= key >> 33;
    key *= 0xFF51AFD7ED558CCDull;
    key ^= key >> 33;
    return (uint32_t)key & (cap - 1u);
}

/* The slot holding `key`, or NULL. */
static inline trx_key_slot *trx_key_map_find(const trx_key_map *m, uint64_t key)
{
    if (!m->cap)
        return NULL;
    for (uint32_t h = trx_key_map_home_(key, m->cap);; h = (h + 1u) & (m->cap - 1u)) {
        if (!m->slots[h].used)
            return NULL;
        if (m->slots[h].key == key)
            return &m->slots[h];
    }
}

/* Doubles the table (at least 16 slots); false when out of memory. */
static inline bool trx_key_map_grow_(trx_key_map *m)
{
    uint32_t cap = m->cap ? m->cap * 2u : 16u;
    trx_key_slot *s = (trx_key_slot *)calloc(cap, sizeof *s);
    if (!s)
        return false;
    for (uint32_t i = 0; i < m->cap; i++) {
        if (!m->slots[i].used)
            continue;
        uint32_t h = trx_key_map_home_(m->slots[i].key, cap);
        while (s[h].used)
            h = (h + 1u) & (cap - 1u);
        s[h] = m->slots[i];
    }
    free(m->slots);
    m->slots = s;
    m->cap = cap;
    return true;
}

/* Sets key -> value (adding or replacing); false when out of memory. */
static inline bool trx_key_map_put(trx_key_map *m, uint64_t key, uint32_t value)
{
    trx_key_slot *e = trx_key_map_find(m, key);
    if (e) {
        e->value = value;
        return true;
    }
    if ((m->count + 1u) * 2u > m->cap && !trx_key_map_grow_(m))
        return false;
    uint32_t h = trx_key_map_home_(key, m->cap);
    while (m->slots[h].used)
        h = (h + 1u) & (m->cap - 1u);
    m->slots[h] = (trx_key_slot){key, value, 1u};
    m->count++;
    return true;
}

/* Removes `key` (nothing when absent), shifting the entries after it back. */
static inline void trx_key_map_remove(trx_key_map *m, uint64_t key)
{
    trx_key_slot *e = trx_key_map_find(m, key);
    if (!e)
        return;
    uint32_t mask = m->cap - 1u, hole = (uint32_t)(e - m->slots);
    for (uint32_t i = (hole + 1u) & mask; m->slots[i].used; i = (i + 1u) & mask) {
        uint32_t home = trx_key_map_home_(m->slots[i].key, m->cap);
        /* the entry may move to the hole when its home is not in (hole, i] */
        if (((i - home) & mask) >= ((i - hole) & mask)) {
            m->slots[hole] = m->slots[i];
            hole = i;
        }
    }
    m->slots[hole].used = 0;
    m->count--;
}

static inline void trx_key_map_free(trx_key_map *m)
{
    free(m->slots);
    memset(m, 0, sizeof *m);
}

#endif
