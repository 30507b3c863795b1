/* address_map.h - an open-addressing hash map from a 32-bit target address
 * to a 32-bit value, growing as needed: the O(1) look-up the decoder and the
 * analyses use wherever a per-event linear search would make them quadratic.
 * Look-ups are inline (the analyses make several per event); each slot keeps
 * key, value and its used mark together, so a look-up touches one cache line. */
#ifndef TRX_ADDRESS_MAP_H
#define TRX_ADDRESS_MAP_H

#include <stdbool.h>
#include <stdint.h>

/* One slot: `used` is 0 for an empty slot. */
typedef struct trx_address_slot {
    uint32_t key, value, used;
} trx_address_slot;

typedef struct trx_address_map {
    trx_address_slot *slots;
    uint32_t cap, count; /* cap: a power of two, or 0 */
} trx_address_map;

/* The slot of `key` in a map with cap > 0: where it is, or the empty slot
 * where it would go (linear probing on a multiplicative hash). */
static inline trx_address_slot *trx_address_map_probe_(const trx_address_map *m, uint32_t key)
{
    uint32_t mask = m->cap - 1, a = key;
    a ^= a >> 16;
    a *= 0x7FEB352Du;
    a ^= a >> 15;
    a *= 0x846CA68Bu;
    a ^= a >> 16;
    uint32_t h = a & mask;
    while (m->slots[h].used && m->slots[h].key != key)
        h = (h + 1) & mask;
    return &m->slots[h];
}

/* A pointer to the value stored for `key`, or NULL when absent (never allocates). */
static inline uint32_t *trx_address_map_find(const trx_address_map *m, uint32_t key)
{
    if (!m->cap)
        return 0;
    trx_address_slot *s = trx_address_map_probe_(m, key);
    return s->used ? &s->value : 0;
}

/* The value stored for `key` in *value; false when absent. */
static inline bool trx_address_map_get(const trx_address_map *m, uint32_t key, uint32_t *value)
{
    const uint32_t *v = trx_address_map_find(m, key);
    if (!v)
        return false;
    *value = *v;
    return true;
}

/* A pointer to the value of `key`, inserted with `initial` when new (*added
 * says which); NULL when out of memory. Valid until the next insertion. */
uint32_t *trx_address_map_slot(trx_address_map *m, uint32_t key, uint32_t initial, bool *added);

/* Sets `key` to `value`; 0, or -1 when out of memory. */
int trx_address_map_put(trx_address_map *m, uint32_t key, uint32_t value);

/* Releases the map (it may be reused empty afterwards). */
void trx_address_map_free(trx_address_map *m);

#endif
