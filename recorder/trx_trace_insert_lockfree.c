/*
 * trx_trace_insert_lockfree.c - inserts for TRX_RECORDER_LOCKFREE=1: several
 * cores or threads insert at once without a critical section (C11 atomics).
 *
 * Protocol: a writer claims the entry the header's current (oldest) word
 * points at by a compare-and-swap of that word to the next entry, so the
 * header always names the oldest entry and every claim is unique. It then
 * zeroes the entry's thread word, writes the other seven words (the id word
 * with the check value of TRX_RECORDER_ENTRY_CHECK) and stores the thread
 * word last with release order: an entry whose thread word is non-zero is
 * complete, and one that mixes two writers' words fails its check. The
 * writer whose claim moves the word from the last entry to entry 0 calls the
 * full-notify callback, after its own entry is complete: once per wrap, but
 * callbacks of successive wraps may run at the same time on several cores
 * (see recorder.h). Each insert runs under TRX_DISABLE, which on a port
 * masks interrupts of the inserting core only (no global lock).
 */
#include "trx_recorder_internal.h"

#if TRX_RECORDER_LOCKFREE

#ifndef TX_TRACE_TIME_SOURCE
#define TX_TRACE_TIME_SOURCE                                                                       \
    (atomic_fetch_add_explicit(TRX_ATOMIC_WORD(&trx_trace_simulated_time), 1UL,                    \
                               memory_order_relaxed) +                                             \
     1UL)
#endif

/* Claims the oldest entry and writes it; `active` already checked. */
static inline VOID trx_lockfree_put(trx_recorder_state *r, ULONG ctx, ULONG prio, ULONG event_id,
                                    ULONG info_1, ULONG info_2, ULONG info_3, ULONG info_4)
{
    trx_txtb_header *h = r->header;
    _Atomic ULONG *current = TRX_ATOMIC_WORD(&h->buffer_current);
    const ULONG start_word = TRX_ADDRESS_WORD(r->start);
    const ULONG capacity = r->capacity;
    ULONG old = atomic_load_explicit(current, memory_order_relaxed);
    ULONG index, next_index, ts, id_word;
    _Atomic ULONG *w;

    do {
        index = (ULONG)(old - start_word) / 32UL; /* modulo 2^32: fine across any base */
        if (TRX_UNLIKELY(index >= capacity)) {
            index = 0; /* a corrupted word: restart at entry 0 rather than write outside */
        }
        next_index = index + 1UL;
        if (TRX_UNLIKELY(next_index == capacity)) {
            next_index = 0;
        }
    } while (!atomic_compare_exchange_weak_explicit(current, &old, start_word + next_index * 32UL,
                                                    memory_order_relaxed, memory_order_relaxed));

    TRX_HALT_POINT_(); /* 1: claimed */

    ts = (ULONG)(TX_TRACE_TIME_SOURCE);
    id_word = TRX_EVENT_ID_WORD_(event_id);
    w = TRX_ATOMIC_WORD(&r->start[index]);
    atomic_store_explicit(&w[0], 0UL, memory_order_relaxed);
    atomic_thread_fence(memory_order_release); /* "incomplete" before any new field */
    TRX_HALT_POINT_();                         /* 2 */
    atomic_store_explicit(&w[1], prio, memory_order_relaxed);
    TRX_HALT_POINT_(); /* 3-9 */
    atomic_store_explicit(&w[2],
                          TRX_ID_WORD_(ctx, prio, id_word, ts, info_1, info_2, info_3, info_4),
                          memory_order_relaxed);
    TRX_HALT_POINT_();
    atomic_store_explicit(&w[3], ts, memory_order_relaxed);
    TRX_HALT_POINT_();
    atomic_store_explicit(&w[4], info_1, memory_order_relaxed);
    TRX_HALT_POINT_();
    atomic_store_explicit(&w[5], info_2, memory_order_relaxed);
    TRX_HALT_POINT_();
    atomic_store_explicit(&w[6], info_3, memory_order_relaxed);
    TRX_HALT_POINT_();
    atomic_store_explicit(&w[7], info_4, memory_order_relaxed);
    TRX_HALT_POINT_();
    atomic_store_explicit(&w[0], ctx, memory_order_release); /* 10: complete */
    TRX_HALT_POINT_();

    if (TRX_UNLIKELY(next_index == 0UL) && r->full_notify != NULL) {
        r->full_notify((VOID *)h);
    }
}

/* Inserts an event with the context from the hooks. */
VOID trx_trace_insert(ULONG event_id, ULONG info_1, ULONG info_2, ULONG info_3, ULONG info_4,
                      ULONG group)
{
    trx_recorder_state *r = &trx_recorder_state_;
    if (TRX_LIKELY(trx_recorder_load_(&r->active_bits) & group)) {
        ULONG ctx, prio;
        TRX_INTERRUPT_SAVE_AREA
        TRX_DISABLE /* this core only: the writer is not preempted mid-entry */
#if defined(TRX_PORT_SYSTEM_STATE)
            TRX_CONTEXT_GET_(ctx, prio);
#else
            ctx = atomic_load_explicit(TRX_ATOMIC_WORD(&r->context_word), memory_order_relaxed);
        prio = atomic_load_explicit(TRX_ATOMIC_WORD(&r->priority_word), memory_order_relaxed);
#endif
        trx_lockfree_put(r, ctx, prio, event_id, info_1, info_2, info_3, info_4);
        TRX_RESTORE
    }
}

/* Inserts with the given thread and priority words instead of the hooks. */
VOID trx_trace_insert_with_context(ULONG thread_word, ULONG priority_word, ULONG event_id,
                                   ULONG info_1, ULONG info_2, ULONG info_3, ULONG info_4,
                                   ULONG group)
{
    trx_recorder_state *r = &trx_recorder_state_;
    if (TRX_LIKELY(trx_recorder_load_(&r->active_bits) & group)) {
        TRX_INTERRUPT_SAVE_AREA
        TRX_DISABLE
        trx_lockfree_put(r, thread_word, priority_word, event_id, info_1, info_2, info_3, info_4);
        TRX_RESTORE
    }
}

#else
typedef int trx_trace_insert_lockfree_unused_in_critical_section_mode;
#endif
