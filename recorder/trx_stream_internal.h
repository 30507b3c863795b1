/*
 * trx_stream_internal.h - private pieces shared by the stream recorder's
 * files: putting a whole packet in a ring, closing a packet that has news.
 */
#ifndef TRX_STREAM_INTERNAL_H
#define TRX_STREAM_INTERNAL_H

#include "trx/stream_recorder.h"

/* Copies `bytes` (a multiple of 4) from `words` into `ring` if all of them
 * fit, then publishes them (write offset stored after the data). 1 when
 * put, 0 when the ring had no room (nothing written). */
int trx_stream_ring_put_(trx_stream_ring *ring, const ULONG *words, ULONG bytes);

/* Closes a stream logger's packet if it holds an event or news of events
 * dropped since the last packet in the ring (critical section held). */
VOID trx_stream_close_pending_(trx_uia_logger *lg);

#endif /* TRX_STREAM_INTERNAL_H */
