/* context_switches.c - TraceX's context-switch count: every change of the
 * next context away from the thread believed running (idle counts, and
 * consecutive idle next contexts count again). */
#include "analyze/analyses.h"
#include "analyze/segment_units.h"

void trx_switches_feed(trx_switch_counter *a, const trx_event *ev)
{
    uint32_t n = ev->next_context;
    if (a->cur == 0 && ev->context != TRX_CONTEXT_ISR && ev->context != TRX_CONTEXT_INIT)
        a->cur = ev->context;
    if (a->cur != 0 && n != TRX_CONTEXT_ISR && n != TRX_CONTEXT_INIT && n != a->cur)
        a->switches++;
    if (trx_is_threadish(n))
        a->cur = n;
}

/* Segments (segment_units.h): not mergeable yet, so every segment of the
 * trace is walked again from the state before it. */
void trx_switches_fingerprint(const trx_switch_counter *a, const trx_trace *t, trx_fingerprint *f,
                              uint64_t base)
{
    (void)a;
    (void)t;
    (void)base;
    trx_fp_unmergeable(f);
}

void trx_switches_clear_results(trx_switch_counter *a)
{
    (void)a;
}

int trx_switches_merge(trx_switch_counter *later, trx_switch_counter *earlier, const trx_trace *t,
                       uint64_t offset)
{
    (void)later;
    (void)earlier;
    (void)t;
    (void)offset;
    return -1;
}
