/*
 * protobuf_writer.h - just enough of the protobuf wire format to write
 * messages: varints, fixed64, doubles and length-delimited fields, built
 * bottom-up in fixed-size buffers (a nested message is built in its own
 * buffer, then appended). A buffer that would overflow keeps what fit and
 * sets `overflow`, which writers check.
 */
#ifndef TRX_PROTOBUF_WRITER_H
#define TRX_PROTOBUF_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TRX_PB_BUFFER_SIZE 8192

typedef struct trx_pb {
    size_t len;
    bool overflow;
    uint8_t data[TRX_PB_BUFFER_SIZE];
} trx_pb;

/* Empties `b`. */
void trx_pb_reset(trx_pb *b);

/* Field `field` as a varint (wire type 0): uint32/64, int32/64 (>= 0), bool, enum. */
void trx_pb_varint(trx_pb *b, uint32_t field, uint64_t v);

/* Field `field` as fixed64 (wire type 1). */
void trx_pb_fixed64(trx_pb *b, uint32_t field, uint64_t v);

/* Field `field` as a double (wire type 1). */
void trx_pb_double(trx_pb *b, uint32_t field, double v);

/* Field `field` as bytes / string / nested message (wire type 2). */
void trx_pb_bytes(trx_pb *b, uint32_t field, const void *p, size_t n);

/* Field `field` as a NUL-terminated string. */
void trx_pb_string(trx_pb *b, uint32_t field, const char *s);

/* Field `field` as a string from trace bytes: valid UTF-8 kept, other bytes
 * read as Latin-1 (protobuf strings must be UTF-8); at most 1 KiB is kept. */
void trx_pb_text(trx_pb *b, uint32_t field, const char *s);

/* Field `field` holding the message built in `m`. */
void trx_pb_message(trx_pb *b, uint32_t field, const trx_pb *m);

/* Writes a varint into `out` (room for 10 bytes); returns its length. */
size_t trx_pb_encode_varint(uint8_t *out, uint64_t v);

#endif
