/* reencode.h - the same trace buffer in another form, for the differential
 * test: Intel HEX and Motorola S-record text at a given load address (the
 * other byte order is tests/golden/txtb_swap.h). */
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

#endif
