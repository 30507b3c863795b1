/*
 * bench_clock.h - a per-thread event counter used as TX_TRACE_TIME_SOURCE by
 * the "per-core timer" benchmark variant: it models a hardware timer that
 * each core reads without a shared read-modify-write.
 */
#ifndef TRX_BENCH_CLOCK_H
#define TRX_BENCH_CLOCK_H

#include "trx/tx_trace.h"

extern _Thread_local ULONG trx_bench_thread_clock;

#endif
