/* image_builder.c - merging address records into one zero-filled image (see
 * image_builder.h for the rules), and finding records that overlap with
 * different data. */
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
    b->record_capacity = 16;
    b->records = malloc(b->record_capacity * sizeof *b->records);
    if (!b->data || !b->runs || !b->records) {
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
    if (b->record_count == b->record_capacity) {
        image_record *r = realloc(b->records, 2 * b->record_capacity * sizeof *r);
        if (!r)
            return trx_error_set(err, input_offset, "out of memory reading %s", b->format_name);
        b->records = r;
        b->record_capacity *= 2;
    }
    b->records[b->record_count++] = (image_record){input_offset, b->length};
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

/* Orders runs by address (then input order, for a stable result). */
static int compare_runs(const void *pa, const void *pb)
{
    const image_run *a = pa, *b = pb;
    if (a->address != b->address)
        return a->address < b->address ? -1 : 1;
    return a->start < b->start ? -1 : a->start > b->start;
}

/* Whether any two runs share an address: O(runs log runs). -1 when out of memory. */
static int runs_overlap(const image_builder *b)
{
    image_run *sorted = malloc(b->run_count * sizeof *sorted);
    if (!sorted)
        return -1;
    memcpy(sorted, b->runs, b->run_count * sizeof *sorted);
    qsort(sorted, b->run_count, sizeof *sorted, compare_runs);
    int overlap = 0;
    uint64_t end = 0;
    for (size_t i = 0; i < b->run_count && !overlap; i++) {
        if (i > 0 && sorted[i].address < end)
            overlap = 1;
        if (sorted[i].address + sorted[i].length > end)
            end = sorted[i].address + sorted[i].length;
    }
    free(sorted);
    return overlap;
}

/* The record that committed data byte `at` (records are in data order). */
static const image_record *record_of(const image_builder *b, size_t at)
{
    size_t lo = 0, hi = b->record_count; /* last record with start <= at */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->records[mid].start <= at)
            lo = mid;
        else
            hi = mid;
    }
    return &b->records[lo];
}

/* 1-based line number of `offset` in `in` (LF, CR LF or CR line ends). */
static uint64_t line_of(const uint8_t *in, size_t size, uint64_t offset)
{
    uint64_t line = 1;
    for (size_t i = 0; i < size && i < offset; i++)
        if (in[i] == '\n' || (in[i] == '\r' && (i + 1 >= size || in[i + 1] != '\n')))
            line++;
    return line;
}

/* The error for run `i`'s byte `k`, which differs from what an earlier run wrote. */
static int overlap_error(const image_builder *b, size_t i, size_t k, uint8_t before,
                         const uint8_t *in, size_t size, trx_error *err)
{
    const image_run *r = &b->runs[i];
    uint64_t address = r->address + k;
    const image_record *later = record_of(b, r->start + k), *earlier = NULL;
    for (size_t j = i; j-- > 0 && !earlier;) /* the last earlier run holding the address */
        if (b->runs[j].address <= address && address - b->runs[j].address < b->runs[j].length)
            earlier = record_of(b, b->runs[j].start + (size_t)(address - b->runs[j].address));
    uint64_t earlier_line = earlier ? line_of(in, size, earlier->input_offset) : 0;
    return trx_error_set(err, later->input_offset,
                         "%s: the record on line %llu writes 0x%02X at address 0x%llX, where the "
                         "record on line %llu wrote 0x%02X (overlapping records disagree)",
                         b->format_name, (unsigned long long)line_of(in, size, later->input_offset),
                         b->data[r->start + k], (unsigned long long)address,
                         (unsigned long long)earlier_line, before);
}

/* Copies the runs into `out` in input order; where a byte was written
 * before (bitmap `seen`), the new one must be the same. */
static int merge_checked(const image_builder *b, uint8_t *out, uint8_t *seen, const uint8_t *in,
                         size_t size, trx_error *err)
{
    for (size_t i = 0; i < b->run_count; i++) {
        const image_run *r = &b->runs[i];
        size_t at = (size_t)(r->address - b->low);
        for (size_t k = 0; k < r->length; k++, at++) {
            uint8_t v = b->data[r->start + k], bit = (uint8_t)(1u << (at & 7));
            if ((seen[at >> 3] & bit) && out[at] != v)
                return overlap_error(b, i, k, out[at], in, size, err);
            out[at] = v;
            seen[at >> 3] |= bit;
        }
    }
    return 0;
}

int image_builder_finish(image_builder *b, trx_image *img, uint64_t end_offset,
                         const uint8_t *input, size_t input_size, trx_error *err)
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
        int overlap = runs_overlap(b);
        out = overlap >= 0 ? calloc(span, 1) : NULL;
        uint8_t *seen = overlap > 0 && out ? calloc(span / 8 + 1, 1) : NULL;
        if (!out || (overlap > 0 && !seen)) {
            free(out);
            image_builder_discard(b);
            return trx_error_set(err, end_offset, "out of memory: %s image of %zu bytes",
                                 b->format_name, span);
        }
        if (overlap > 0) {
            int rc = merge_checked(b, out, seen, input, input_size, err);
            free(seen);
            if (rc) {
                free(out);
                image_builder_discard(b);
                return -1;
            }
        } else {
            for (size_t i = 0; i < b->run_count; i++)
                memcpy(out + (b->runs[i].address - b->low), b->data + b->runs[i].start,
                       b->runs[i].length);
        }
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
    free(b->records);
    b->data = NULL;
    b->runs = NULL;
    b->records = NULL;
    b->length = b->capacity = b->run_count = b->run_capacity = 0;
    b->record_count = b->record_capacity = 0;
}
