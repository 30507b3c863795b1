/* image_builder.c - merging address records into one zero-filled image (see
 * image_builder.h for the rules). */
#include <stdlib.h>
#include <string.h>

#include "load/image_builder.h"

int image_builder_init(image_builder *b, const char *format_name, size_t expected_bytes,
                       trx_error *err)
{
    memset(b, 0, sizeof *b);
    b->format_name = format_name;
    b->capacity = expected_bytes < 64 ? 64 : expected_bytes;
    b->data = malloc(b->capacity);
    b->run_capacity = 16;
    b->runs = malloc(b->run_capacity * sizeof *b->runs);
    if (!b->data || !b->runs) {
        image_builder_discard(b);
        return trx_error_set(err, 0, "out of memory reading %s", format_name);
    }
    return 0;
}

uint8_t *image_builder_reserve(image_builder *b, size_t n, uint64_t input_offset, trx_error *err)
{
    if (n <= b->capacity - b->length)
        return b->data + b->length;
    size_t cap = b->capacity;
    while (n > cap - b->length) {
        if (cap > SIZE_MAX / 2) {
            trx_error_set(err, input_offset, "%s: too much data", b->format_name);
            return NULL;
        }
        cap *= 2;
    }
    uint8_t *p = realloc(b->data, cap);
    if (!p) {
        trx_error_set(err, input_offset, "out of memory reading %s", b->format_name);
        return NULL;
    }
    b->data = p;
    b->capacity = cap;
    return b->data + b->length;
}

int image_builder_commit(image_builder *b, uint64_t address, size_t n, uint64_t input_offset,
                         trx_error *err)
{
    if (n == 0)
        return 0;
    uint64_t end = address + n;
    uint64_t low = b->run_count && b->low < address ? b->low : address;
    uint64_t high = b->run_count && b->high > end ? b->high : end;
    if (high - low > TRX_IMAGE_MAX_SPAN)
        return trx_error_set(
            err, input_offset,
            "%s: record at address 0x%llX would make the image span %llu bytes, "
            "more than the limit of %llu MiB (lowest address 0x%llX)",
            b->format_name, (unsigned long long)address, (unsigned long long)(high - low),
            (unsigned long long)(TRX_IMAGE_MAX_SPAN >> 20), (unsigned long long)low);
    b->low = low;
    b->high = high;
    image_run *last = b->run_count ? &b->runs[b->run_count - 1] : NULL;
    if (last && last->address + last->length == address) {
        last->length += n; /* data is appended, so the bytes are adjacent too */
    } else {
        if (b->run_count == b->run_capacity) {
            image_run *r = realloc(b->runs, 2 * b->run_capacity * sizeof *r);
            if (!r)
                return trx_error_set(err, input_offset, "out of memory reading %s", b->format_name);
            b->runs = r;
            b->run_capacity *= 2;
        }
        b->runs[b->run_count++] = (image_run){address, b->length, n};
    }
    b->length += n;
    return 0;
}

int image_builder_finish(image_builder *b, trx_image *img, uint64_t end_offset, trx_error *err)
{
    if (b->run_count == 0) {
        image_builder_discard(b);
        return trx_error_set(err, end_offset, "%s: no data records", b->format_name);
    }
    size_t span = (size_t)(b->high - b->low);
    uint8_t *out;
    if (b->run_count == 1) {
        /* One run: the collected bytes are the image already. */
        out = b->data;
        if (b->capacity > span) {
            uint8_t *shrunk = realloc(out, span);
            if (shrunk)
                out = shrunk;
        }
        b->data = NULL;
    } else {
        out = calloc(span, 1);
        if (!out) {
            image_builder_discard(b);
            return trx_error_set(err, end_offset, "out of memory: %s image of %zu bytes",
                                 b->format_name, span);
        }
        for (size_t i = 0; i < b->run_count; i++) /* in input order: later wins */
            memcpy(out + (b->runs[i].address - b->low), b->data + b->runs[i].start,
                   b->runs[i].length);
    }
    img->data = out;
    img->size = span;
    img->base = b->low;
    img->owned_ = out;
    image_builder_discard(b);
    return 0;
}

void image_builder_discard(image_builder *b)
{
    free(b->data);
    free(b->runs);
    b->data = NULL;
    b->runs = NULL;
    b->length = b->capacity = b->run_count = b->run_capacity = 0;
}
