/* uia_test_port.h - the recorder port of the UIA recorder tests: one
 * context (no critical section) and a clock the tests set and step. */
#ifndef UIA_TEST_PORT_H
#define UIA_TEST_PORT_H

#include <stdint.h>

extern uint32_t uia_test_clock; /* the time source: advanced by uia_test_step per read */
extern uint32_t uia_test_step;

#define TRX_SINGLE_CONTEXT 1
#define TRX_UIA_TIME_SOURCE (uia_test_clock += uia_test_step)
#define TRX_PORT_STACK_POINTER() 0x20001000UL

#endif
