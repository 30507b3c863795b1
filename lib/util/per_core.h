/* per_core.h - the per-core state of an analysis that follows "what runs
 * now": one state for a trace whose events are one stream of contexts, an
 * array of one per core when several cores carry contexts of their own
 * (trx_trace_context_cores). */
#ifndef TRX_PER_CORE_H
#define TRX_PER_CORE_H

#include <stdlib.h>

#include "trx/trx.h"

/* *cores = t's context cores; an array of that many zeroed states of `size`
 * bytes when more than one (NULL: out of memory, *failed set), else NULL. */
static inline void *trx_per_core_new(const trx_trace *t, size_t size, uint32_t *cores, bool *failed)
{
    *cores = trx_trace_context_cores(t);
    void *p = *cores > 1 ? calloc(*cores, size) : NULL;
    *failed = *cores > 1 && !p;
    return p;
}

#endif
