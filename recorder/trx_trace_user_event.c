/*
 * trx_trace_user_event.c - tx_trace_user_event_insert: application events.
 * Like ThreadX, the id is not range-checked (4096..65535 is the convention).
 */
#include "trx_recorder_internal.h"

/* Inserts a user event (group TX_TRACE_USER_EVENTS); TX_NOT_DONE when
 * tracing is not enabled. A filtered-out event still returns TX_SUCCESS. */
UINT tx_trace_user_event_insert(ULONG event_id, ULONG info_field_1, ULONG info_field_2,
                                ULONG info_field_3, ULONG info_field_4)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    UINT status = TX_NOT_DONE;
    TRX_INTERRUPT_SAVE_AREA
    TRX_DISABLE
    if (trx_recorder_load_(&trx_recorder_state_.enabled) != 0UL) {
        trx_trace_insert_locked(event_id, info_field_1, info_field_2, info_field_3, info_field_4,
                                TX_TRACE_USER_EVENTS);
        status = TX_SUCCESS;
    }
    TRX_RESTORE
    return status;
#else
    (void)event_id;
    (void)info_field_1;
    (void)info_field_2;
    (void)info_field_3;
    (void)info_field_4;
    return TX_FEATURE_NOT_ENABLED;
#endif
}
