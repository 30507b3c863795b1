/* self_consistency.h - the checks of the differential test on one buffer:
 * `trx dump` of the binary equals the dump of the same buffer as Intel HEX,
 * S-record and in the other byte order (up to the Trace ID line), and
 * `trx events --format jsonl` agrees with the dump on every event's index,
 * id, context and relative ticks. Every load of a structurally valid buffer
 * must succeed, and so must the correct mode's statistics. */
#ifndef TRX_TEST_SELF_CONSISTENCY_H
#define TRX_TEST_SELF_CONSISTENCY_H

#include <stddef.h>
#include <stdint.h>

/* Runs every check on `bytes` (a binary TXTB buffer image). Returns NULL when
 * all hold, else a description of the first failure (a static buffer).
 * `*events` gets the number of events of the dump. */
const char *consistency_check(const uint8_t *bytes, size_t size, uint64_t *events);

#endif
