/*
 * trx_uia_internal.h - private helpers shared by the UIA logger's source
 * files: the dropped-count record's size and the slow paths (wrap, stop,
 * drop).
 */
#ifndef TRX_UIA_INTERNAL_H
#define TRX_UIA_INTERNAL_H

#include "trx/uia_recorder.h"

/* The stop policy's dropped-count record: head words and one argument. */
#define TRX_UIA_MARKER_WORDS (TRX_UIA_HEAD_WORDS + 1UL)

/* Header word of a terminator that precedes the first record (PrevLen 0, seq 0). */
#define TRX_UIA_FIRST_TERMINATOR (TRX_UIA_HDR_PREVLEN << 27)

/* Wrap policy: the pass that ended at `next` (its terminator) is closed in the
 * packet header and the next record goes to the start. */
VOID trx_uia_wrap_(trx_uia_logger *lg, ULONG *next);

/* Stop policy: writes the dropped-count record at `next` and sends every
 * later record to the scratch area. */
VOID trx_uia_stop_(trx_uia_logger *lg, ULONG *next);

/* Packet header word 1 (EventPkt, byte order, `bytes`) and word 2 (packet
 * sequence, first record's sequence `seq16`). */
VOID trx_uia_set_length_(trx_uia_logger *lg, ULONG bytes);
VOID trx_uia_set_sequences_(trx_uia_logger *lg, ULONG seq16);

/* Counts one dropped record (and updates the count in the buffer). */
VOID trx_uia_count_drop_(trx_uia_logger *lg);

#endif /* TRX_UIA_INTERNAL_H */
