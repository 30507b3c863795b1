/* txtb_swap.h - test helper: a TXTB trace buffer in the other byte order. */
#ifndef TRX_TEST_TXTB_SWAP_H
#define TRX_TEST_TXTB_SWAP_H

#include <stddef.h>
#include <stdint.h>

/* Rewrites the TXTB buffer `d` (`size` bytes) in place in the other byte
 * order: every 32-bit header word, the two 16-bit header fields, the 32-bit
 * words of each registry entry (offsets 4, 8, 12) and every 32-bit word of
 * each trace entry; registry bytes 0-3 and names are untouched. The layout
 * comes from the header pointers minus the base address. Returns NULL, or
 * what is wrong with the buffer's layout (then `d` is unchanged). */
const char *txtb_swap_byte_order(uint8_t *d, size_t size);

#endif
