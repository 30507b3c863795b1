/* entry_index.h - an open-addressing index over a caller's dense array of
 * entries: each slot holds an entry's position + 1 (0 = empty), so a table
 * of (key, counts) records costs its records and about 12 bytes of index
 * each. The caller hashes and compares its own keys; this keeps the slots
 * at most half full. */
#ifndef TRX_ENTRY_INDEX_H
#define TRX_ENTRY_INDEX_H

#include <stdint.h>

typedef struct trx_entry_index {
    uint32_t *slots; /* entry + 1, 0 = empty */
    uint32_t cap;    /* a power of two, or 0 */
} trx_entry_index;

/* The hash of entry `e` of the caller's array, any 32 bits. */
typedef uint32_t (*trx_entry_hash_fn)(const void *ctx, uint32_t e);

/* Makes room for `count` + 1 entries (doubling and re-inserting the entries
 * the slots hold, hashed by `hash`). 0, or -1 when out of memory. */
int trx_entry_index_reserve(trx_entry_index *x, uint32_t count, trx_entry_hash_fn hash,
                            const void *ctx);

/* Frees the slots. */
void trx_entry_index_free(trx_entry_index *x);

#endif
