/* uia_test_port_smp.h - the port of the per-core UIA test: each host thread
 * plays one core with its own logger and its own clock, as a firmware gives
 * each core its logger (TRX_UIA_HOOK_LOGGER) and a per-core timer. */
#ifndef UIA_TEST_PORT_SMP_H
#define UIA_TEST_PORT_SMP_H

#include <stdint.h>

struct trx_uia_logger;
extern _Thread_local struct trx_uia_logger *uia_test_core_logger;
extern _Thread_local uint32_t uia_test_core_clock;

#define TRX_SINGLE_CONTEXT 1 /* per core: one context records (no ISR in the test) */
#define TRX_UIA_TIME_SOURCE (++uia_test_core_clock)
#define TRX_UIA_HOOK_LOGGER() (uia_test_core_logger)

#endif
