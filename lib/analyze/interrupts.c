/* interrupts.c - TraceX's interrupt and nested-interrupt counts: ISR enters,
 * plus interrupt-context events seen outside any enter/exit pair. */
#include "analyze/analyses.h"

void trx_interrupts_feed(trx_interrupt_counter *a, const trx_event *ev)
{
    if (ev->kind == TRX_KIND_ISR_ENTER) {
        a->interrupts++;
        if (a->nesting > 0)
            a->nested++;
        a->nesting++;
    } else if (ev->kind == TRX_KIND_ISR_EXIT) {
        if (a->nesting > 0)
            a->nesting--;
    } else if (ev->context == TRX_CONTEXT_ISR) {
        if (a->nesting == 0)
            a->interrupts++;
    } else {
        a->nesting = 0;
    }
}
