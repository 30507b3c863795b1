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

/* Segments (segment_units.h). The state is the thread believed running
 * (it settles at the first thread event); the result is the count. */
#define FP_SWITCHES_CUR 0x53574355u

void trx_switches_fingerprint(const trx_switch_counter *a, const trx_trace *t, trx_fingerprint *f,
                              uint64_t base)
{
    (void)t;
    (void)base;
    trx_fp_word(f, FP_SWITCHES_CUR, a->cur);
}

void trx_switches_clear_results(trx_switch_counter *a)
{
    a->switches = 0;
}

int trx_switches_merge(trx_switch_counter *later, trx_switch_counter *earlier, const trx_trace *t,
                       uint64_t offset)
{
    (void)t;
    (void)offset;
    later->switches += earlier->switches;
    return 0;
}
