/* trace_builder.h - builds small TXTB buffers in memory for decoder tests. */
#ifndef TRX_TEST_TRACE_BUILDER_H
#define TRX_TEST_TRACE_BUILDER_H

#include <stdbool.h>
#include <stdint.h>

#include "trx/trx.h"

typedef struct test_trace {
    uint8_t bytes[64 * 1024];
    uint32_t size;
    uint32_t base, registry_slots, capacity, name_size;
    bool big_endian;
    uint32_t written; /* entries appended */
} test_trace;

/* Lays out header, `registry_slots` free registry entries and `capacity` zeroed entries. */
void tb_init(test_trace *b, uint32_t registry_slots, uint32_t capacity, bool big_endian);

/* Fills registry slot `slot` (priority goes in the reserved bytes for threads). */
void tb_object(test_trace *b, uint32_t slot, uint8_t type, uint32_t address, const char *name,
               uint32_t p1, uint32_t p2, uint32_t priority);

/* Appends an entry at the next physical position. */
void tb_event(test_trace *b, uint32_t context, uint32_t priority, uint32_t id, uint32_t ts,
              uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4);

/* Sets the header's oldest pointer to physical entry `index`. */
void tb_oldest(test_trace *b, uint32_t index);

/* Overwrites word `word` (0 = thread word .. 7 = info 4) of entry `index`. */
void tb_entry_word(test_trace *b, uint32_t index, unsigned word, uint32_t value);

/* Sets the header's timer mask. */
void tb_timer_mask(test_trace *b, uint32_t mask);

/* Opens the built bytes as a trace (asserts success). */
void tb_open(test_trace *b, trx_trace *t);

#endif
