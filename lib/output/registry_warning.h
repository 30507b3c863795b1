/* registry_warning.h - a full object registry, in words: the warning of
 * `trx info` (stdout), `trx stats` (stderr) and the check rule's evidence. */
#ifndef TRX_REGISTRY_WARNING_H
#define TRX_REGISTRY_WARNING_H

#include <stddef.h>

#include "output/out_buffer.h"
#include "trx/trx.h"

/* The sentence for a full registry into buf (empty when it is not full):
 * "the object registry is full (N of N entries in use): ...". `unregistered`:
 * thread contexts no entry names, or -1 when not known. */
void trx_registry_warning_text(const trx_trace *t, int64_t unregistered, char *buf, size_t size);

/* One line, `prefix` first, when the registry is full; nothing otherwise. */
void trx_registry_warning_write(const trx_trace *t, int64_t unregistered, const char *prefix,
                                trx_out *o);

#endif
