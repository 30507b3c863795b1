/*
 * trx_recorder_internal.h - private helpers shared by the recorder's source
 * files: byte fills without libc, the context-word refresh, and the atomic
 * accessors used in lock-free mode.
 */
#ifndef TRX_RECORDER_INTERNAL_H
#define TRX_RECORDER_INTERNAL_H

#include "trx/recorder.h"

#if TRX_RECORDER_LOCKFREE
#include <stdatomic.h>
/* The buffer and the state are plain memory; in lock-free mode they are
 * accessed through these 32-bit atomic views (same size and alignment). */
#define TRX_ATOMIC_WORD(p) ((_Atomic ULONG *)(p))
#endif

/* Fills `n` bytes at `p` with `value` (no libc in the recorder). */
VOID trx_recorder_fill_(UCHAR *p, ULONG n, UCHAR value);

/* Recomputes the default hooks' context and priority words from the thread
 * word, its priority word and the ISR nesting level. */
VOID trx_recorder_context_refresh_(VOID);

/* Reads / sets the recorded groups and the enabled flag (atomically in
 * lock-free mode). */
static inline ULONG trx_recorder_load_(ULONG *word)
{
#if TRX_RECORDER_LOCKFREE
    return atomic_load_explicit(TRX_ATOMIC_WORD(word), memory_order_acquire);
#else
    return *word;
#endif
}

static inline VOID trx_recorder_store_(ULONG *word, ULONG value)
{
#if TRX_RECORDER_LOCKFREE
    atomic_store_explicit(TRX_ATOMIC_WORD(word), value, memory_order_release);
#else
    *word = value;
#endif
}

#endif /* TRX_RECORDER_INTERNAL_H */
