/* mutator.h - seeded, deterministic mutations of trace entries for the
 * differential test: one to three fields (context, priority word, id, time
 * stamp, information words) of entries of a valid TXTB buffer get values a
 * real trace could hold (registered threads and other objects, unknown
 * addresses, ISR/initialization contexts, model-relevant ids, nearby time
 * stamps, plain random words). Header and registry are never touched, so the
 * buffer stays structurally valid. */
#ifndef TRX_TEST_MUTATOR_H
#define TRX_TEST_MUTATOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trx/trx.h"

/* splitmix64: small, seedable, the same sequence everywhere. */
typedef struct mut_rng {
    uint64_t state;
} mut_rng;

void mut_rng_seed(mut_rng *r, uint64_t seed);
uint64_t mut_rng_next(mut_rng *r);
/* Uniform in [0, n) (n > 0). */
uint32_t mut_rng_below(mut_rng *r, uint32_t n);

/* What mutations need to know of the original buffer. */
typedef struct mut_layout {
    size_t entries_offset; /* file offset of physical entry 0 */
    uint32_t capacity, used;
    bool big_endian;
    uint32_t *threads, thread_count; /* registered thread addresses */
    uint32_t *others, other_count;   /* registered non-thread object addresses */
} mut_layout;

/* Reads the layout from an opened (unprepared) trace whose image starts at
 * file offset 0. 0, or -1 when out of memory. */
int mut_layout_init(mut_layout *l, const trx_trace *t);
void mut_layout_free(mut_layout *l);

/* One field change, for messages. */
typedef struct mut_change {
    uint32_t entry; /* physical entry index */
    int field;      /* 0 context, 1 priority, 2 id, 3 time stamp, 4..7 info1..4 */
    uint32_t old_value, new_value;
} mut_change;

#define MUT_MAX_CHANGES 4

/* Mutates `bytes` (a copy of the original) with `rng`; fills `changes` and
 * returns how many. */
int mut_apply(const mut_layout *l, mut_rng *rng, uint8_t *bytes, mut_change *changes);

/* "context", "priority", "id", "timestamp", "info1".."info4". */
const char *mut_field_name(int field);

#endif
