/* demo_port.h - the recorder's port configuration for the simulated demo:
 * ISR events record the simulated stack pointer, so demo.trx is the same
 * bytes on every run and every host. */
#ifndef TRX_DEMO_PORT_H
#define TRX_DEMO_PORT_H

#include <stdint.h>

uint32_t sim_stack_pointer(void); /* ULONG in sim_kernel.h */
#define TRX_PORT_STACK_POINTER() sim_stack_pointer()

#endif
