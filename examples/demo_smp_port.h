/* demo_smp_port.h - the recorder's port for the simulated 2-core demo
 * (trx_demo_smp): the core running the code, the thread each core runs and
 * the simulated clock come from the simulation, through the recorder's port
 * hooks, as an SMP RTOS port provides them (TRX_PORT_CORE_ID writes the core
 * in id bits 24-31, like ThreadX SMP). One host thread runs the simulation,
 * so no critical section is needed (TRX_SINGLE_CONTEXT). */
#ifndef TRX_DEMO_SMP_PORT_H
#define TRX_DEMO_SMP_PORT_H

#include <stdint.h>

extern uint32_t demo_smp_core;         /* the core whose code runs now */
extern uint32_t demo_smp_time;         /* its clock (cycles) */
extern uint32_t demo_smp_initializing; /* 1 until the scheduler starts */
uint32_t demo_smp_current(void);       /* thread address on that core, 0: none */
uint32_t demo_smp_priority(uint32_t thread);

#define TRX_PORT_CORE_ID() demo_smp_core
#define TX_TRACE_TIME_SOURCE demo_smp_time
#define TRX_PORT_THREAD_TYPE uint32_t
#define TRX_PORT_SYSTEM_STATE() (demo_smp_initializing ? 0xF0F0F0F0UL : 0UL)
#define TRX_PORT_CURRENT_THREAD() demo_smp_current()
#define TRX_PORT_THREAD_PRIORITY(t) demo_smp_priority(t)
#define TRX_PORT_THREAD_PREEMPT_THRESHOLD(t) demo_smp_priority(t)

#endif
