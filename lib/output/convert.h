/*
 * convert.h - `trx convert`: a trace rewritten in another format.
 *   TXTB -> UIA: a UIAPacket file (packets of up to 1024 records, sender 0,
 *     logger 0, payload in the TXTB byte order); each stored TXTB entry (oldest first)
 *     becomes a HdrType 1 record of 8 argument words: info1..info4, context,
 *     priority, the id word as stored, and the marker 0x54585442 ("TXTB"),
 *     event word = (id & 0xFFFF) << 16 | module 0; its 64-bit timestamp is the
 *     stored one with the count of up-counting wraps in the high word.
 *   UIA -> TXTB: a TXTB buffer in the byte order of the records, never
 *     wrapped (an empty entry after the last), its registry the last whole
 *     registry snapshot of a TXTB drain (else one free entry, no objects),
 *     its timer mask and reserved3/4 (the RTOS profile) from that snapshot's
 *     file / line / format words, with one entry per record in event order
 *     (registry snapshots excepted): a record carrying a
 *     TXTB entry (the marker above) gives that entry back byte for byte;
 *     any other record becomes context Initialization, id = event id
 *     (stream in bits 24-31 when there are several), timestamp = low 32 bits
 *     of its timestamp (its index when it has none), info1..4 = its first
 *     four argument words. Every lost-event gap becomes a user event
 *     TRX_LOST_EVENTS_ID before the record after it: info1 = events lost,
 *     info2 = stream, info3/info4 = low 32 bits of the sequence numbers
 *     around the gap.
 *   Image re-encoding (bin, ihex, srec): the loaded image at its address.
 */
#ifndef TRX_CONVERT_H
#define TRX_CONVERT_H

#include "output/out_buffer.h"
#include "trx/trx.h"

#define TRX_LOST_EVENTS_ID 0xFFF0u  /* user event: a lost-event gap (TRX_STREAM_LOST_EVENTS_ID) */
#define TRX_TXTB_IN_UIA 0x54585442u /* 8th argument of a record carrying a TXTB entry */

/* Writes `t` as TXTB / UIA bytes to `o` (TXTB: a UIA trace, or a stream read
 * as the TXTB trace it carries, rebuilt from its records); 0, or -1 when out
 * of memory. */
int trx_convert_to_txtb(trx_trace *t, trx_out *o);
int trx_convert_to_uia(trx_trace *t, trx_out *o);

/* Writes the image of `t` as Intel HEX or S-records at its base address. */
void trx_write_ihex(const trx_image *img, trx_out *o);
void trx_write_srec(const trx_image *img, trx_out *o);

#endif
