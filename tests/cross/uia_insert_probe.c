/*
 * uia_insert_probe.c - what a UIA record costs: one function that writes a
 * 2-argument record with a 64-bit timestamp (PrevLen type 10) to the default
 * UIA logger through the recorder's inline writer, under the port's critical
 * section. tools/cross_build.sh compiles it for Cortex-M4 -O2 and counts the
 * instructions of its path when the record is written and the buffer does
 * not wrap. TRX_UIA_PROBE_TIME64=1: the time source is a 64-bit counter
 * (no extension of a 32-bit one).
 */
#define TX_ENABLE_EVENT_TRACE 1
#if defined(TRX_UIA_PROBE_TIME64) && TRX_UIA_PROBE_TIME64
#include <stdint.h>
extern volatile uint64_t trx_probe_time64;
#define TRX_UIA_TIME_SOURCE64 (trx_probe_time64)
#endif
#include "trx/uia_recorder.h"

/* Writes event 0x0010 of module 0x0001 with two argument words. */
void trx_probe_uia_write2(ULONG a1, ULONG a2);

void trx_probe_uia_write2(ULONG a1, ULONG a2)
{
    trx_uia_write2(&trx_uia_default_logger, 0x00100001UL, a1, a2, TX_TRACE_INTERNAL_EVENTS);
}
