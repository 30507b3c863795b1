/*
 * insert_probe.c - what an RTOS hook costs: one function that records an
 * internal RESUME event through the recorder's inline insert, exactly as a
 * kernel's resume path would. tools/cross_build.sh compiles it for Cortex-M4
 * -O2 and counts the instructions of its path when the event is recorded and
 * the buffer does not wrap.
 */
#define TX_ENABLE_EVENT_TRACE 1
#include "trx/recorder.h"

/* Records TX_TRACE_THREAD_RESUME (thread, previous state, stack pointer, next thread). */
void trx_probe_thread_resume(ULONG thread, ULONG previous_state, ULONG stack_ptr, ULONG next);

void trx_probe_thread_resume(ULONG thread, ULONG previous_state, ULONG stack_ptr, ULONG next)
{
    TRX_TRACE_EVENT(TX_TRACE_THREAD_RESUME, thread, previous_state, stack_ptr, next,
                    TX_TRACE_INTERNAL_EVENTS);
}
