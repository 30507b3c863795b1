/*
 * trx_uia_internal.h - private helpers shared by the UIA logger's source
 * files: the sequence number held in the header low half, the dropped-count
 * record's size, and the slow paths (wrap, stop, drop).
 */
#ifndef TRX_UIA_INTERNAL_H
#define TRX_UIA_INTERNAL_H

#include "trx/uia_recorder.h"

/* The stop policy's dropped-count record: head words and one argument. */
#define TRX_UIA_MARKER_WORDS (TRX_UIA_HEAD_WORDS + 1UL)

/* The 16-bit sequence number of the next record. */
static inline ULONG trx_uia_seq16_(ULONG low)
{
#if TRX_UIA_PREVLEN
    return low >> 16;
#else
    return low & 0xFFFFUL;
#endif
}

/* Wrap policy: the pass that ended at `next` (its terminator) is closed in the
 * packet header and the next record goes to the start. */
VOID trx_uia_wrap_(trx_uia_logger *lg, ULONG *next);

/* Stop policy: writes the dropped-count record at `next` and sends every
 * later record to the scratch area. */
VOID trx_uia_stop_(trx_uia_logger *lg, ULONG *next);

/* Counts one dropped record (and updates the count in the buffer). */
VOID trx_uia_count_drop_(trx_uia_logger *lg);

#endif /* TRX_UIA_INTERNAL_H */
