/*
 * trx_recorder_context.c - the recorder's state object and its default
 * running-context hooks: which thread runs, at what priority, how deep the
 * ISR nesting is, and the entry words these give.
 */
#include "trx_recorder_internal.h"

trx_recorder_state trx_recorder_state_ = {
    0UL,                         /* active_bits: disabled */
    NULL,                        /* current */
    NULL,                        /* end */
    NULL,                        /* header */
    TX_TRACE_CONTEXT_INITIALIZE, /* context_word: no thread yet */
    0UL,                         /* priority_word */
    NULL,                        /* start */
    0UL,                         /* thread_word */
    0UL,                         /* thread_priority_word */
    0UL,                         /* isr_nesting */
    0xFFFFFFFFUL,                /* filter_bits */
    0UL,                         /* enabled */
    0UL,                         /* capacity */
    NULL,                        /* registry */
    0UL,                         /* registry_entries */
    NULL,                        /* full_notify */
    NULL                         /* enable_callback */
};

ULONG trx_trace_simulated_time;

/* Fills `n` bytes at `p` with `value`. */
VOID trx_recorder_fill_(UCHAR *p, ULONG n, UCHAR value)
{
    volatile UCHAR *q = p; /* volatile: keep the compiler from calling memset */
    ULONG i;
    for (i = 0; i < n; i++) {
        q[i] = value;
    }
}

/* Recomputes context_word / priority_word as the ThreadX entry rules say. */
VOID trx_recorder_context_refresh_(VOID)
{
    trx_recorder_state *r = &trx_recorder_state_;
    ULONG ctx, prio;
    if (r->isr_nesting != 0UL) {
        ctx = TX_TRACE_CONTEXT_ISR;
        prio = r->thread_word; /* the interrupted thread, 0 if none */
    } else if (r->thread_word != 0UL) {
        ctx = r->thread_word;
        prio = r->thread_priority_word;
    } else {
        ctx = TX_TRACE_CONTEXT_INITIALIZE;
        prio = 0UL;
    }
#if TRX_RECORDER_LOCKFREE
    atomic_store_explicit(TRX_ATOMIC_WORD(&r->context_word), ctx, memory_order_relaxed);
    atomic_store_explicit(TRX_ATOMIC_WORD(&r->priority_word), prio, memory_order_relaxed);
#else
    r->context_word = ctx;
    r->priority_word = prio;
#endif
}

/* Records which thread now runs (NULL: none) and its priorities. */
VOID trx_recorder_thread_set(VOID *thread_ptr, UINT priority, UINT preemption_threshold)
{
    TRX_INTERRUPT_SAVE_AREA
    TRX_DISABLE
    trx_recorder_state_.thread_word = TRX_ADDRESS_WORD(thread_ptr);
    trx_recorder_state_.thread_priority_word =
        (ULONG)priority | TRX_THREAD_PRIORITY_FLAG | ((ULONG)preemption_threshold << 16);
    trx_recorder_context_refresh_();
    TRX_RESTORE
}

/* The system state: ISR nesting if any, else thread (0) or initialization. */
ULONG trx_recorder_system_state(VOID)
{
#if defined(TRX_PORT_SYSTEM_STATE)
    return (ULONG)(TRX_PORT_SYSTEM_STATE());
#else
    const trx_recorder_state *r = &trx_recorder_state_;
    if (r->isr_nesting != 0UL) {
        return r->isr_nesting;
    }
    return r->thread_word != 0UL ? 0UL : TX_TRACE_CONTEXT_INITIALIZE;
#endif
}

/* Sets the function tx_trace_enable calls to register existing objects. */
VOID trx_recorder_enable_callback(VOID (*callback)(VOID))
{
    trx_recorder_state_.enable_callback = callback;
}
