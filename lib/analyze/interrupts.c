/* interrupts.c - TraceX's interrupt and nested-interrupt counts: ISR enters,
 * plus interrupt-context events seen outside any enter/exit pair. */
#include "analyze/analyses.h"
#include "analyze/segment_units.h"

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

/* Segments (segment_units.h). The state is the nesting depth (any thread
 * event resets it, so it settles); the results are the two counts. */
#define FP_INTERRUPTS_NESTING 0x49524e45u

void trx_interrupts_fingerprint(const trx_interrupt_counter *a, const trx_trace *t,
                                trx_fingerprint *f, uint64_t base)
{
    (void)t;
    (void)base;
    trx_fp_word(f, FP_INTERRUPTS_NESTING, a->nesting);
}

void trx_interrupts_clear_results(trx_interrupt_counter *a)
{
    a->interrupts = a->nested = 0;
}

int trx_interrupts_merge(trx_interrupt_counter *later, trx_interrupt_counter *earlier,
                         const trx_trace *t, uint64_t offset)
{
    (void)t;
    (void)offset;
    later->interrupts += earlier->interrupts;
    later->nested += earlier->nested;
    return 0;
}
