/*
 * trx_port_systick.c - the composed SysTick time source of the Cortex-M
 * ports (trx_port_cortex_m0.h, and trx_port_cortex_m.h with
 * TRX_PORT_TIME_SYSTICK=1): SysTick's 24-bit down-counter plus a software
 * count of its reloads, as one monotonic 32-bit up-counter. Compiles to
 * nothing for other ports and host builds.
 */
#include "trx/recorder.h"

#if defined(TRX_PORT_SYSTICK_COMPOSED)

/* Counts at the last reload seen, plus one period (see below). */
static uint32_t trx_port_systick_base;

/* SysTick counts VAL = R, R-1, ..., 1, 0, R, ... (R = reload) and sets
 * COUNTFLAG when it reaches 0. Taking "remaining" as VAL, or the period
 * P = R + 1 when VAL is 0, makes it fall P, P-1, ..., 1 and jump back to P
 * exactly when COUNTFLAG is set, so time = base - remaining with base += P
 * at each flag is continuous. VAL is read before and after SYST_CSR: if the
 * reload happened between the two reads (remaining grew), the flag tells on
 * which side of the SYST_CSR read, and the matching VAL is used. */
uint32_t trx_port_systick_time(void)
{
    uint32_t primask = trx_port_irq_save();
    uint32_t period = (TRX_PORT_SYST_RVR & 0x00FFFFFFUL) + 1UL;
    uint32_t v1 = TRX_PORT_SYST_CVR & 0x00FFFFFFUL;
    uint32_t csr = TRX_PORT_SYST_CSR;
    uint32_t v2 = TRX_PORT_SYST_CVR & 0x00FFFFFFUL;
    uint32_t r1 = v1 != 0UL ? v1 : period;
    uint32_t r2 = v2 != 0UL ? v2 : period;
    uint32_t remaining = r2;
    uint32_t now;

    if ((csr & TRX_PORT_SYST_CSR_COUNTFLAG) != 0UL) {
        trx_port_systick_base += period;
    } else if (r2 > r1) {
        remaining = r1; /* reloaded after the SYST_CSR read: counted next time */
    }
    now = trx_port_systick_base - remaining;
    trx_port_irq_restore(primask);
    return now;
}

#else
typedef int trx_port_systick_unused_without_composed_systick;
#endif
