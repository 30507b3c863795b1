/*
 * trace_context.c - what a trace can tell about who ran: TXTB entries carry
 * the running thread (or ISR / initialization) in every entry; UIA records
 * carry none that trx reads yet, so every figure built on thread or
 * interrupt context (switches, profile, load, stacks, inversions, ISR
 * durations, latencies) is unavailable for them rather than zero.
 */
#include "trx/trx.h"

const char *trx_trace_context_missing(const trx_trace *t)
{
    if (t->format == TRX_TRACE_UIA)
        return "UIA records carry no thread or interrupt context that trx reads (only event "
               "counts, sequence numbers and time)";
    return NULL;
}
