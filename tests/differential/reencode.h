/* reencode.h - the same trace buffer in another form, for the differential
 * test: Intel HEX and Motorola S-record text at a given load address, and the
 * other byte order (as a big-endian target would have written it). */
#ifndef TRX_TEST_REENCODE_H
#define TRX_TEST_REENCODE_H

#include <stddef.h>
#include <stdint.h>

/* Intel HEX text of `bytes` loaded at `address` (32-byte data records, an
 * extended linear address record wherever the upper 16 bits change, an end
 * record). Heap string; *len gets its length. NULL when out of memory. */
char *reencode_ihex(const uint8_t *bytes, size_t size, uint32_t address, size_t *len);

/* Motorola S-record text (S0 header, S3 data records of 32 bytes, S7 end). */
char *reencode_srec(const uint8_t *bytes, size_t size, uint32_t address, size_t *len);

/* Rewrites a TXTB buffer in place in the other byte order: the header words
 * (its two 16-bit fields as such), the address and parameter words of each
 * registry entry and every word of each trace entry. Returns NULL, or what
 * is wrong with the buffer's layout. */
const char *reencode_swap_byte_order(uint8_t *bytes, size_t size);

#endif
