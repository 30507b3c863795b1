/*
 * trace_context.c - what a trace can tell about who ran: TXTB entries carry
 * the running thread (or ISR / initialization) in every entry; UIA records
 * carry it when the names given at open said which events are SYS/BIOS's
 * scheduler's (sysbios_model.c). Without either, every figure built on
 * thread or interrupt context (switches, profile, load, stacks, inversions,
 * ISR durations, latencies) is unavailable rather than zero.
 */
#include "decode/uia_internal.h"

const char *trx_trace_context_missing(const trx_trace *t)
{
    if (t->format != TRX_TRACE_UIA || (t->uia && t->uia->sysbios))
        return NULL;
    return "UIA records carry no thread or interrupt context that trx reads (only event "
           "counts, sequence numbers and time; TI metadata naming SYS/BIOS's Task, Hwi and "
           "Swi events gives them)";
}

uint32_t trx_trace_context_cores(const trx_trace *t)
{
    return t->format == TRX_TRACE_UIA && t->uia && t->uia->context_cores ? t->uia->context_cores
                                                                         : 1;
}

bool trx_trace_per_core_instances(const trx_trace *t)
{
    return t->format == TRX_TRACE_UIA && t->uia && t->uia->amp;
}

const char *trx_trace_load_missing(const trx_trace *t)
{
    const char *missing = trx_trace_context_missing(t);
    if (missing || t->format != TRX_TRACE_UIA || t->idle_threads)
        return missing;
    return "the Idle task is not identified, so idle time cannot be told from busy time: pass "
           "--elf FIRMWARE (its Idle task runs ti_sysbios_knl_Idle_loop) or --idle TASK (the "
           "Idle task's name or handle)";
}

uint64_t trx_trace_time_backwards(const trx_trace *t, uint64_t *first_offset)
{
    const struct trx_uia *u = t->format == TRX_TRACE_UIA ? t->uia : NULL;
    if (first_offset)
        *first_offset = u ? u->info.first_backwards_offset : 0;
    return u ? u->info.time_backwards : 0;
}
