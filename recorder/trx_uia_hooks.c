/*
 * trx_uia_hooks.c - the RTOS hooks that are functions, for UIA builds
 * (TRX_RECORDER_FORMAT_UIA=1): ISR ENTER / EXIT with the TXTB recorder's
 * info words, and user events, written to TRX_UIA_HOOK_LOGGER().
 */
#include "trx/uia_recorder.h"

#if defined(TX_ENABLE_EVENT_TRACE)

/* The system state word of ISR events: the nesting level. */
static ULONG trx_uia_isr_state(trx_uia_logger *lg)
{
#if defined(TRX_PORT_SYSTEM_STATE)
    (void)lg;
    return (ULONG)(TRX_PORT_SYSTEM_STATE());
#else
    return lg->isr_nesting;
#endif
}

#endif

VOID trx_uia_isr_enter_insert(ULONG isr_id)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    trx_uia_logger *lg = TRX_UIA_HOOK_LOGGER();
    TRX_INTERRUPT_SAVE_AREA
    TRX_DISABLE
#if !defined(TRX_PORT_SYSTEM_STATE)
    lg->isr_nesting++;
#endif
    if (lg->active_bits & TX_TRACE_INTERNAL_EVENTS) {
        trx_uia_hook_locked(lg, TX_TRACE_ISR_ENTER, TRX_PORT_STACK_POINTER(), isr_id,
                            trx_uia_isr_state(lg), (ULONG)(TRX_PORT_PREEMPT_DISABLE()));
    }
    TRX_RESTORE
#else
    (void)isr_id;
#endif
}

VOID trx_uia_isr_exit_insert(ULONG isr_id)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    trx_uia_logger *lg = TRX_UIA_HOOK_LOGGER();
    TRX_INTERRUPT_SAVE_AREA
    TRX_DISABLE
    if (lg->active_bits & TX_TRACE_INTERNAL_EVENTS) {
        trx_uia_hook_locked(lg, TX_TRACE_ISR_EXIT, TRX_PORT_STACK_POINTER(), isr_id,
                            trx_uia_isr_state(lg), (ULONG)(TRX_PORT_PREEMPT_DISABLE()));
    }
#if !defined(TRX_PORT_SYSTEM_STATE)
    if (lg->isr_nesting != 0UL) {
        lg->isr_nesting--;
    }
#endif
    TRX_RESTORE
#else
    (void)isr_id;
#endif
}

UINT trx_uia_user_event_insert(ULONG event_id, ULONG info_1, ULONG info_2, ULONG info_3,
                               ULONG info_4)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    trx_uia_logger *lg = TRX_UIA_HOOK_LOGGER();
    UINT status = TX_NOT_DONE;
    TRX_INTERRUPT_SAVE_AREA
    TRX_DISABLE
    if (lg->enabled != 0UL) {
        if (lg->active_bits & TX_TRACE_USER_EVENTS) {
            trx_uia_hook_locked(lg, event_id, info_1, info_2, info_3, info_4);
        }
        status = TX_SUCCESS;
    }
    TRX_RESTORE
    return status;
#else
    (void)event_id;
    (void)info_1;
    (void)info_2;
    (void)info_3;
    (void)info_4;
    return TX_FEATURE_NOT_ENABLED;
#endif
}
