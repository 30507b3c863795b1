/*
 * trx_trace_insert.c - the out-of-line parts of an insert in critical-section
 * mode: the full-notify callback after the last entry and inserts with an
 * explicit context.
 */
#include "trx_recorder_internal.h"

#if !TRX_RECORDER_LOCKFREE

/* The entry just written was the last one (the insert already moved the
 * header's pointer back to entry 0): tell the application, which may disable
 * or re-enable tracing. Runs inside the insert's critical section. */
VOID trx_recorder_wrap_(VOID)
{
    trx_recorder_state *r = &trx_recorder_state_;
    if (r->full_notify != NULL) {
        r->full_notify((VOID *)r->header);
    }
}

/* Inserts with the given thread and priority words instead of the hooks. */
VOID trx_trace_insert_with_context(ULONG thread_word, ULONG priority_word, ULONG event_id,
                                   ULONG info_1, ULONG info_2, ULONG info_3, ULONG info_4,
                                   ULONG group)
{
    trx_recorder_state *r = &trx_recorder_state_;
    TRX_INTERRUPT_SAVE_AREA
    TRX_DISABLE
    if (r->active_bits & group) {
        trx_recorder_put_(r, thread_word, priority_word, event_id, info_1, info_2, info_3, info_4);
    }
    TRX_RESTORE
}

#else
typedef int trx_trace_insert_unused_in_lockfree_mode;
#endif
