/*
 * export.h - target-side export of a memory region (typically the trace
 * buffer given to tx_trace_enable) as Intel HEX or Motorola S-record text,
 * one character at a time through a put-char callback (a UART, a semihosting
 * channel, a RAM log). Freestanding C99: no libc, no malloc, no stdio; the
 * only state is on the caller's stack, so it is reentrant.
 *
 * The text is what `objcopy -I ihex|srec -O binary` and trx's own loaders
 * read back byte for byte, at the given load address:
 *
 *   Intel HEX   type 04 (extended linear address) record whenever the upper
 *               16 address bits differ from the last ones emitted (the
 *               implicit start value is 0, so no 04 record for a region
 *               below 64 KiB); type 00 data records of 16 bytes (32 with
 *               TRX_EXPORT_RECORD_32), split so that none crosses a 64 KiB
 *               boundary; type 01 end-of-file record ":00000001FF".
 *   S-record    S0 header (the text "trx"), then data and terminator records
 *               of the smallest address width that holds the whole region:
 *               S1/S9 (16-bit) when the region ends at or below 0x10000,
 *               S2/S8 (24-bit) below 0x1000000, otherwise S3/S7 (32-bit);
 *               TRX_EXPORT_SREC_S3 forces S3/S7. The terminator's start
 *               address is the load address. 16 (or 32) data bytes a record.
 *
 * Hex digits are upper case; lines end with "\n", or "\r\n" with
 * TRX_EXPORT_CRLF. With TRX_EXPORT_MARKERS the records are framed by the
 * lines TRX_EXPORT_BEGIN and TRX_EXPORT_END.
 */
#ifndef TRX_EXPORT_H
#define TRX_EXPORT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Receives the text, one character at a time. */
typedef void (*trx_export_put_fn)(void *ctx, char c);

/* Option bits for the `flags` argument. */
#define TRX_EXPORT_CRLF 0x1u      /* end lines with CR LF instead of LF */
#define TRX_EXPORT_RECORD_32 0x2u /* 32 data bytes per record instead of 16 */
#define TRX_EXPORT_SREC_S3 0x4u   /* S-record: always 32-bit addresses (S3/S7) */
#define TRX_EXPORT_MARKERS 0x8u   /* a TRX_EXPORT_BEGIN line before, TRX_EXPORT_END after */

/* The marker lines (TRX_EXPORT_MARKERS): they let a script cut the export out
 * of a console log; trx's loaders skip them like any line that is not a record. */
#define TRX_EXPORT_BEGIN "--- trx export begin ---"
#define TRX_EXPORT_END "--- trx export end ---"

/* Return values. */
#define TRX_EXPORT_OK 0
#define TRX_EXPORT_BAD_ARGUMENT (-1)  /* put is NULL, or data NULL with size > 0 */
#define TRX_EXPORT_ADDRESS_RANGE (-2) /* load_address + size exceeds 2^32 */

/* Writes `size` bytes at `data` as Intel HEX loading at `load_address`. */
int trx_export_ihex(const void *data, uint32_t size, uint32_t load_address, unsigned flags,
                    trx_export_put_fn put, void *ctx);

/* Writes `size` bytes at `data` as Motorola S-records loading at `load_address`. */
int trx_export_srec(const void *data, uint32_t size, uint32_t load_address, unsigned flags,
                    trx_export_put_fn put, void *ctx);

#ifdef __cplusplus
}
#endif
#endif /* TRX_EXPORT_H */
