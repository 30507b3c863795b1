/* context_switches.c - TraceX's context-switch count: every change of the
 * next context away from the thread believed running (idle counts, and
 * consecutive idle next contexts count again). */
#include "analyze/analyses.h"

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
