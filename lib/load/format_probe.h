/*
 * format_probe.h - the early check of a stream that is still being read:
 * whether its first bytes can begin a trace dump in the given (or detected)
 * format, so that reading an endless or foreign stream stops at once.
 */
#ifndef TRX_LOAD_FORMAT_PROBE_H
#define TRX_LOAD_FORMAT_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "trx/trx.h"

/* Bytes of a stream read before it is probed (its first MiB). */
#define TRX_PROBE_WINDOW ((size_t)1 << 20)

/* 0 when the `size` first bytes of a longer input can start a dump in
 * `format` (AUTO: the detected one); else -1 with `err` saying what was
 * expected and that reading stopped. */
int trx_probe_format(const uint8_t *bytes, size_t size, trx_input_format format, trx_error *err);

#endif /* TRX_LOAD_FORMAT_PROBE_H */
