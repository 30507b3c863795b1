/*
 * trx_port_cortex_m.h - recorder port for Cortex-M3 / M4 / M7 / M33
 * (ARMv7-M, ARMv8-M Mainline). No CMSIS or vendor header needed. Use it with
 *   -I <trx>/recorder/port -DTRX_RECORDER_PORT_HEADER="trx_port_cortex_m.h"
 * for the recorder sources and every file that includes trx/recorder.h.
 *
 * Critical section: PRIMASK (saved, cpsid i, restored: nests). In lock-free
 * mode (TRX_RECORDER_LOCKFREE=1) the same PRIMASK section only keeps one
 * core's writer from being interrupted mid-entry; the claim itself is a C11
 * compare-and-swap, which GCC compiles to LDREX/STREX on these cores.
 * Time source, chosen at build time:
 *   default               DWT CYCCNT, the 32-bit cycle counter; call
 *                         trx_port_cyccnt_init() once before tx_trace_enable
 *                         (it enables DEMCR.TRCENA and DWT_CTRL.CYCCNTENA and
 *                         returns 0 when the core has no cycle counter);
 *   TRX_PORT_TIME_SYSTICK=1  the composed SysTick counter
 *                         (trx_port_cortex_m_common.h) for cores or emulators
 *                         without a DWT: SysTick runs and its handler calls
 *                         trx_port_systick_tick().
 */
#ifndef TRX_PORT_CORTEX_M_H
#define TRX_PORT_CORTEX_M_H

#include "trx_port_cortex_m_common.h"

#if defined(__ARM_ARCH_6M__) || defined(__ARM_ARCH_8M_BASE__)
#error                                                                                             \
    "trx_port_cortex_m.h: this core has no DWT cycle counter or LDREX/STREX; use trx_port_cortex_m0.h"
#endif

#define TRX_PORT_DEMCR                                                                             \
    (*(volatile uint32_t *)0xE000EDFCUL) /* debug exception and monitor control */
#define TRX_PORT_DWT_CTRL (*(volatile uint32_t *)0xE0001000UL)   /* DWT control */
#define TRX_PORT_DWT_CYCCNT (*(volatile uint32_t *)0xE0001004UL) /* cycle counter */
#define TRX_PORT_DWT_LAR (*(volatile uint32_t *)0xE0001FB0UL)    /* lock access (Cortex-M7) */
#define TRX_PORT_DEMCR_TRCENA (1UL << 24)
#define TRX_PORT_DWT_CTRL_CYCCNTENA (1UL << 0)
#define TRX_PORT_DWT_CTRL_NOCYCCNT (1UL << 25)

/* Starts the DWT cycle counter from 0: 1 when it runs, 0 when the core has
 * none (then build with TRX_PORT_TIME_SYSTICK=1). A debugger may also have
 * enabled it; calling this again is harmless. */
static inline int trx_port_cyccnt_init(void)
{
    uint32_t before;
    TRX_PORT_DEMCR |= TRX_PORT_DEMCR_TRCENA;
    TRX_PORT_DWT_LAR = 0xC5ACCE55UL; /* unlocks the DWT on a Cortex-M7; ignored elsewhere */
    if ((TRX_PORT_DWT_CTRL & TRX_PORT_DWT_CTRL_NOCYCCNT) != 0UL) {
        return 0;
    }
    TRX_PORT_DWT_CYCCNT = 0UL;
    TRX_PORT_DWT_CTRL |= TRX_PORT_DWT_CTRL_CYCCNTENA;
    before = TRX_PORT_DWT_CYCCNT;
    __asm__ volatile("nop\n\tnop\n\tnop\n\tnop");
    return TRX_PORT_DWT_CYCCNT != before;
}

#if defined(TRX_PORT_TIME_SYSTICK) && TRX_PORT_TIME_SYSTICK
#define TRX_PORT_SYSTICK_COMPOSED 1
#define TX_TRACE_TIME_SOURCE trx_port_systick_time()
#else
#define TX_TRACE_TIME_SOURCE TRX_PORT_DWT_CYCCNT
#endif
#define TX_TRACE_TIME_MASK 0xFFFFFFFFUL

#endif /* TRX_PORT_CORTEX_M_H */
