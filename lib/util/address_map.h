/* address_map.h - an open-addressing hash map from a 32-bit target address
 * to a 32-bit value, growing as needed: the O(1) look-up the decoder and the
 * analyses use wherever a per-event linear search would make them quadratic. */
#ifndef TRX_ADDRESS_MAP_H
#define TRX_ADDRESS_MAP_H

#include <stdbool.h>
#include <stdint.h>

typedef struct trx_address_map {
    uint32_t *keys, *values;
    uint8_t *used;
    uint32_t cap, count; /* cap: a power of two, or 0 */
} trx_address_map;

/* The value stored for `key` in *value; false when absent. */
bool trx_address_map_get(const trx_address_map *m, uint32_t key, uint32_t *value);

/* A pointer to the value stored for `key`, or NULL when absent (never allocates). */
uint32_t *trx_address_map_find(const trx_address_map *m, uint32_t key);

/* A pointer to the value of `key`, inserted with `initial` when new (*added
 * says which); NULL when out of memory. Valid until the next insertion. */
uint32_t *trx_address_map_slot(trx_address_map *m, uint32_t key, uint32_t initial, bool *added);

/* Sets `key` to `value`; 0, or -1 when out of memory. */
int trx_address_map_put(trx_address_map *m, uint32_t key, uint32_t value);

/* Releases the map (it may be reused empty afterwards). */
void trx_address_map_free(trx_address_map *m);

#endif
