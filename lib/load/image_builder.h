/*
 * image_builder.h - collects the (address, bytes) records of a text dump
 * (Intel HEX, S-record) into one contiguous heap image: the lowest address
 * becomes the image base, holes are zero-filled, records may overlap only
 * where they agree (the same byte at the same address; anything else is an
 * error naming both records' lines), and the image may span at most
 * TRX_IMAGE_MAX_SPAN bytes.
 *
 * Loaders decode a record's data straight into image_builder_reserve()'s
 * space and then image_builder_commit() it; adjacent records are merged into
 * one run, so the usual sorted, gap-free dump needs no copy at the end.
 */
#ifndef TRX_LOAD_IMAGE_BUILDER_H
#define TRX_LOAD_IMAGE_BUILDER_H

#include <stddef.h>
#include <stdint.h>

#include "trx/trx.h"

/* Largest image (highest address + 1 - lowest address) a text dump may make:
 * 1 GiB. The fuzz build lowers it so that sparse inputs stay fast. */
#ifndef TRX_IMAGE_MAX_SPAN
#define TRX_IMAGE_MAX_SPAN ((uint64_t)1 << 30)
#endif

/* Consecutive committed bytes at consecutive target addresses. */
typedef struct image_run {
    uint64_t address; /* target address of the first byte */
    size_t start;     /* offset of the first byte in the builder's data */
    size_t length;
} image_run;

/* Where one committed record came from: its offset in the input and the
 * offset of its first byte in the builder's data. */
typedef struct image_record {
    uint64_t input_offset;
    size_t start;
} image_record;

typedef struct image_builder {
    const char *format_name; /* for messages, e.g. "Intel HEX" */
    uint8_t *data;           /* committed bytes, in input order */
    size_t length, capacity;
    image_run *runs;
    size_t run_count, run_capacity;
    image_record *records; /* in input order */
    size_t record_count, record_capacity;
    uint64_t low, high; /* address range committed so far: [low, high) */
} image_builder;

/* Starts an empty builder; `expected_bytes` sizes the first allocation (the
 * loaders pass an upper bound so that it never has to grow). */
int image_builder_init(image_builder *b, const char *format_name, size_t expected_bytes,
                       trx_error *err);

/* Space for `n` more data bytes (valid until the next reserve); NULL with
 * `err` set when out of memory. */
uint8_t *image_builder_reserve(image_builder *b, size_t n, uint64_t input_offset, trx_error *err);

/* Adds the `n` bytes last written into the reserved space as the data of
 * target address `address`; `input_offset` (where the record starts in the
 * input) is named in the error when the image would exceed its span limit. */
int image_builder_commit(image_builder *b, uint64_t address, size_t n, uint64_t input_offset,
                         trx_error *err);

/* Turns the records into `img` (base = lowest address, owned heap memory)
 * and releases the builder. With no data committed it fails with "no data
 * records" at `end_offset`; where records overlap with different bytes it
 * fails at the later record, naming both records' lines in `input`. */
int image_builder_finish(image_builder *b, trx_image *img, uint64_t end_offset,
                         const uint8_t *input, size_t input_size, trx_error *err);

/* Releases the builder's memory (after an error); safe to call twice. */
void image_builder_discard(image_builder *b);

#endif /* TRX_LOAD_IMAGE_BUILDER_H */
