/* performance_correct.c - the performance counts as they happened (correct
 * mode, docs/analyses.md): context switches are changes of the running
 * thread (idle included, interrupts not); a preemption is a switch away from
 * a thread that is still ready, other than at a time slice or its own
 * relinquish (the switch that follows a TIME_SLICE or RELINQUISH event); time slices are the
 * TIME_SLICE events; an interrupt is an ISR ENTER, or a run of interrupt-context events outside any
 * ENTER/EXIT pair; a nested interrupt is an ISR ENTER inside another. */
#include <stdlib.h>

#include "analyze/analyses.h"

static bool is_switchable(uint32_t ctx)
{
    return ctx != TRX_CONTEXT_ISR && ctx != TRX_CONTEXT_INIT;
}

void trx_correct_performance_feed(trx_correct_performance *a, const trx_event *ev)
{
    uint32_t kind = ev->kind, ctx = ev->context;
    /* which threads are suspended (affects the preemption test below) */
    if ((kind == TRX_KIND_RESUME || kind == TRX_KIND_SUSPEND) && ev->subject != 0) {
        if (trx_address_map_put(&a->suspended, ev->subject, kind == TRX_KIND_SUSPEND) < 0)
            a->oom = 1;
    }
    if (kind == TRX_KIND_TIME_SLICE) {
        a->time_slices++;
        a->yielding = true; /* the switch it causes comes at the ISR's end */
    } else if (kind == TRX_KIND_YIELD && a->have_running && ctx == a->running) {
        a->yielding = true; /* tx_thread_relinquish */
    }
    /* interrupts */
    if (kind == TRX_KIND_ISR_ENTER) {
        a->interrupts++;
        a->nested += a->nesting > 0;
        a->nesting++;
        a->orphan_run = false;
    } else if (kind == TRX_KIND_ISR_EXIT) {
        if (a->nesting > 0)
            a->nesting--;
    } else if (ctx == TRX_CONTEXT_ISR) {
        if (a->nesting == 0 && !a->orphan_run) {
            a->interrupts++; /* interrupt events without a recorded ENTER */
            a->orphan_run = true;
        }
    } else {
        a->nesting = 0; /* a thread runs: any unclosed ISR has ended */
        a->orphan_run = false;
    }
    /* switches of the running thread */
    uint32_t n = ev->next_context;
    if (!is_switchable(n))
        return;
    if (!a->have_running) {
        a->have_running = true;
        a->running = n;
        return;
    }
    if (n == a->running) {
        if (ctx == n && kind != TRX_KIND_TIME_SLICE && kind != TRX_KIND_YIELD)
            a->yielding = false; /* the running thread went on: no switch came */
        return;
    }
    a->switches++;
    uint32_t was = a->running, susp = 0;
    bool yielded = a->yielding;
    a->running = n;
    a->yielding = false;
    if (was == TRX_CONTEXT_IDLE || yielded)
        return;
    trx_address_map_get(&a->suspended, was, &susp);
    a->preemptions += susp == 0;
}

void trx_correct_performance_finish(trx_correct_performance *a, trx_stats *s)
{
    s->context_switches = a->switches;
    s->preemptions = a->preemptions;
    s->time_slices = a->time_slices;
    s->interrupts = a->interrupts;
    s->nested_interrupts = a->nested;
    trx_address_map_free(&a->suspended);
}
