/*
 * trx_stream_internal.h - private pieces shared by the stream recorder's
 * files: putting a whole packet in a ring.
 */
#ifndef TRX_STREAM_INTERNAL_H
#define TRX_STREAM_INTERNAL_H

#include "trx/stream_recorder.h"

/* Copies `bytes` (a multiple of 4) from `words` into `ring` if all of them
 * fit, then publishes them (write offset stored after the data). 1 when
 * put, 0 when the ring had no room (nothing written). */
int trx_stream_ring_put_(trx_stream_ring *ring, const ULONG *words, ULONG bytes);

#endif /* TRX_STREAM_INTERNAL_H */
