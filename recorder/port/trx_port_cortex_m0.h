/*
 * trx_port_cortex_m0.h - recorder port for Cortex-M0 / M0+ (ARMv6-M).
 * No CMSIS or vendor header needed. Use it with
 *   -I <trx>/recorder/port -DTRX_RECORDER_PORT_HEADER="trx_port_cortex_m0.h"
 * for the recorder sources and every file that includes trx/recorder.h.
 *
 * Critical section: PRIMASK (saved, cpsid i, restored: nests).
 * Time source: ARMv6-M has no cycle counter, so the time stamp is the
 * composed SysTick counter (trx_port_cortex_m_common.h): SysTick must run
 * (it usually is the OS tick) and its handler calls trx_port_systick_tick().
 * Lock-free mode is not available: ARMv6-M has no LDREX/STREX.
 */
#ifndef TRX_PORT_CORTEX_M0_H
#define TRX_PORT_CORTEX_M0_H

#include "trx_port_cortex_m_common.h"

#if defined(TRX_RECORDER_LOCKFREE) && TRX_RECORDER_LOCKFREE
#error "trx_port_cortex_m0.h: Cortex-M0/M0+ have no LDREX/STREX; use TRX_RECORDER_LOCKFREE=0"
#endif

#define TRX_PORT_SYSTICK_COMPOSED 1
#define TX_TRACE_TIME_SOURCE trx_port_systick_time()
#define TX_TRACE_TIME_MASK 0xFFFFFFFFUL

#endif /* TRX_PORT_CORTEX_M0_H */
