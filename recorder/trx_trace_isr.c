/*
 * trx_trace_isr.c - ISR enter / exit events. With the default context hooks
 * they also count the ISR nesting: the level is raised before the enter event
 * is written and lowered after the exit event, so both are in ISR context.
 */
#include "trx_recorder_internal.h"

/* First call in an ISR: raises the nesting level, then records ISR ENTER. */
VOID tx_trace_isr_enter_insert(ULONG isr_id)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    TRX_INTERRUPT_SAVE_AREA
    TRX_DISABLE
#if !defined(TRX_PORT_SYSTEM_STATE)
    trx_recorder_state_.isr_nesting++;
    trx_recorder_context_refresh_();
#endif
    trx_trace_insert_locked(TX_TRACE_ISR_ENTER, TRX_PORT_STACK_POINTER(), isr_id,
                            trx_recorder_system_state(), (ULONG)(TRX_PORT_PREEMPT_DISABLE()),
                            TX_TRACE_INTERNAL_EVENTS);
    TRX_RESTORE
#else
    (void)isr_id;
#endif
}

/* Last call in an ISR: records ISR EXIT, then lowers the nesting level. */
VOID tx_trace_isr_exit_insert(ULONG isr_id)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    TRX_INTERRUPT_SAVE_AREA
    TRX_DISABLE
    trx_trace_insert_locked(TX_TRACE_ISR_EXIT, TRX_PORT_STACK_POINTER(), isr_id,
                            trx_recorder_system_state(), (ULONG)(TRX_PORT_PREEMPT_DISABLE()),
                            TX_TRACE_INTERNAL_EVENTS);
#if !defined(TRX_PORT_SYSTEM_STATE)
    if (trx_recorder_state_.isr_nesting != 0UL) {
        trx_recorder_state_.isr_nesting--;
        trx_recorder_context_refresh_();
    }
#endif
    TRX_RESTORE
#else
    (void)isr_id;
#endif
}
