/*
 * fuzz_check.h - what every loader fuzz target asserts about a load result:
 * a loaded image is non-empty, within TRX_IMAGE_MAX_SPAN unless binary, and readable end
 * to end; a failed load leaves the image zeroed and its error names an
 * offset inside the input with a one-line message; and, for the decoder
 * targets, the same of a failed trace open.
 */
#ifndef TRX_TESTS_FUZZ_CHECK_H
#define TRX_TESTS_FUZZ_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "load/image_builder.h"
#include "trx/trx.h"

/* Loads `data` as `format`, checks the result, frees it. */
static inline void fuzz_load_and_check(const uint8_t *data, size_t size, trx_input_format format)
{
    trx_image img;
    trx_error err;
    memset(&err, 0, sizeof err);
    if (trx_image_load_memory(&img, data, size, format, &err) == 0) {
        if (!img.data || img.size == 0 || img.format == TRX_FORMAT_AUTO)
            __builtin_trap();
        if (img.format != TRX_FORMAT_BIN && img.size > TRX_IMAGE_MAX_SPAN)
            __builtin_trap();
        if (format != TRX_FORMAT_AUTO && img.format != format)
            __builtin_trap();
        volatile uint8_t sink = img.data[0] ^ img.data[img.size - 1]; /* ends readable */
        (void)sink;
    } else {
        if (img.data || img.size || img.owned_ || img.mapping_)
            __builtin_trap();
        if (err.offset > size || err.message[0] == '\0' || strchr(err.message, '\n'))
            __builtin_trap();
    }
    trx_image_free(&img);
}

/* Opens `data` as a binary buffer forced to `format` with `endian`; true
 * when it opened (close `t` then). A failed open must leave a one-line error
 * naming an offset inside the input. */
static inline bool fuzz_open_trace_counted(trx_trace *t, const uint8_t *data, size_t size,
                                           trx_trace_format format, trx_endian endian,
                                           const struct trx_uia_names *names, bool time_counts)
{
    trx_image img;
    trx_error err;
    memset(&err, 0, sizeof err);
    if (trx_image_load_memory(&img, data, size, TRX_FORMAT_BIN, &err) != 0)
        return false;
    trx_open_options o;
    memset(&o, 0, sizeof o);
    o.input_format = TRX_FORMAT_BIN;
    o.force_format = true;
    o.trace_format = format;
    o.endian = endian;
    o.uia_names = names;
    o.time_counts = time_counts;
    if (trx_trace_open_image_with(t, &img, "fuzz-input", &o, &err) != 0) {
        if (err.message[0] == '\0' || strchr(err.message, '\n') || err.offset > size)
            __builtin_trap();
        return false;
    }
    return true;
}

static inline bool fuzz_open_trace_named(trx_trace *t, const uint8_t *data, size_t size,
                                         trx_trace_format format, trx_endian endian,
                                         const struct trx_uia_names *names)
{
    return fuzz_open_trace_counted(t, data, size, format, endian, names, false);
}

static inline bool fuzz_open_trace(trx_trace *t, const uint8_t *data, size_t size,
                                   trx_trace_format format, trx_endian endian)
{
    return fuzz_open_trace_named(t, data, size, format, endian, NULL);
}

#endif /* TRX_TESTS_FUZZ_CHECK_H */
