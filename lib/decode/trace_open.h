/* trace_open.h - the format decoders behind trx_trace_open (trace_open.c
 * picks one by content or by option). */
#ifndef TRX_TRACE_OPEN_H
#define TRX_TRACE_OPEN_H

#include "trx/trx.h"

/* Decodes t->image as TXTB (header, registry, entry order); `o` (or NULL)
 * gives the threads of its pass and whether it also counts for `trx info`.
 * 0 or -1 with `err`. */
int trx_txtb_open(trx_trace *t, const trx_open_options *o, trx_error *err);

#endif
