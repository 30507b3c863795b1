/* lookahead_index.h - where each address next appears, from any position:
 * the index the event cursor switches to when its forward look-aheads (the
 * interrupt RESUME rule, a RUNNING event's priority) have scanned more than a
 * few times the trace, so that hostile traces stay linear. Built in two
 * passes; 8 bytes per entry plus a map of the distinct addresses. */
#ifndef TRX_LOOKAHEAD_INDEX_H
#define TRX_LOOKAHEAD_INDEX_H

#include <stdint.h>

#include "trx/trx.h"

typedef struct trx_lookahead trx_lookahead;

/* Indexes every raw entry of `t`; NULL when out of memory. */
trx_lookahead *trx_lookahead_build(const trx_trace *t);

/* First raw index >= from whose context is `address`, or UINT32_MAX. */
uint32_t trx_lookahead_next_context(const trx_lookahead *x, uint32_t address, uint32_t from);

/* First raw index >= from that tells `address`'s priority: an event of that
 * context other than a stored RUNNING, or a THREAD_CREATE (id 100) of it;
 * UINT32_MAX when none. */
uint32_t trx_lookahead_next_priority(const trx_lookahead *x, uint32_t address, uint32_t from);

/* Releases the index; NULL is fine. */
void trx_lookahead_free(trx_lookahead *x);

#endif
