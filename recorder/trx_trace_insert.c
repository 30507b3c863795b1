/*
 * trx_trace_insert.c - the out-of-line parts of an insert in critical-section
 * mode: the wrap at the end of the buffer (with the full-notify callback) and
 * inserts with an explicit context.
 */
#include "trx_recorder_internal.h"

#if !TRX_RECORDER_LOCKFREE

/* The entry just written was the last one: go back to entry 0, publish it
 * in the header, then tell the application (it may disable or re-enable). */
VOID trx_recorder_wrap_(VOID)
{
    trx_recorder_state *r = &trx_recorder_state_;
    r->current = r->start;
    r->header->buffer_current = TRX_ADDRESS_WORD(r->start);
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
