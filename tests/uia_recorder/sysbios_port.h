/* sysbios_port.h - the recorder port of sysbios_shaped.c: one context (no
 * critical section) and a clock the simulation sets before every record
 * (the recording core's timer). */
#ifndef SYSBIOS_PORT_H
#define SYSBIOS_PORT_H

#include <stdint.h>

extern uint32_t sysbios_sim_clock;

#define TRX_SINGLE_CONTEXT 1
#define TRX_UIA_TIME_SOURCE (sysbios_sim_clock)
#define TRX_PORT_STACK_POINTER() 0x20001000UL

#endif
