/* timeline_lanes.c - lanes of the time line: one per thread address, then ISR, init, idle, unknown.
 */
#include "output/timeline.h"

/* The cores with an interrupt lane each (0: one Interrupt lane). */
static uint32_t isr_lanes(const trx_trace *t)
{
    uint32_t n = trx_trace_context_cores(t);
    return n > 1 ? n : 0;
}

uint32_t trx_lane_count(const trx_trace *t)
{
    return t->thread_count + TRX_LANE_CORE_ISR + isr_lanes(t);
}

uint32_t trx_lane_of_event(const trx_trace *t, const trx_event *ev, uint32_t context)
{
    uint32_t n;
    if (context == TRX_CONTEXT_ISR && (n = isr_lanes(t)) > 0)
        return t->thread_count + TRX_LANE_CORE_ISR + (ev->core < n ? ev->core : 0);
    return trx_lane_of(t, context);
}

uint32_t trx_lane_of(const trx_trace *t, uint32_t context)
{
    switch (trx_context_kind_of(context)) {
    case TRX_CTX_ISR:
        return t->thread_count + TRX_LANE_ISR;
    case TRX_CTX_INIT:
        return t->thread_count + TRX_LANE_INIT;
    case TRX_CTX_IDLE:
        return t->thread_count + TRX_LANE_IDLE;
    default: {
        int32_t i = trx_trace_first_thread_at(t, context);
        return i >= 0 ? (uint32_t)i : t->thread_count + TRX_LANE_UNKNOWN;
    }
    }
}

bool trx_lane_is_used_thread(const trx_trace *t, uint32_t l)
{
    /* the RTOS's idle task is the idle lane (trx_context_is_idle_task) */
    return l < t->thread_count && trx_thread_first_at_its_address(t, l) == l &&
           !trx_context_is_idle_task(t, t->threads[l].address);
}

const char *trx_lane_name(const trx_trace *t, uint32_t l)
{
    if (l < t->thread_count)
        return t->objects[t->threads[l].object_index].name;
    switch (l - t->thread_count) {
    case TRX_LANE_ISR:
        return "Interrupt";
    case TRX_LANE_INIT:
        return "Initialization";
    case TRX_LANE_IDLE:
        return "Idle";
    case TRX_LANE_UNKNOWN:
        return "Unknown context";
    default: { /* a core's interrupts */
        static const char *const names[] = {
            "Interrupt core 0", "Interrupt core 1", "Interrupt core 2", "Interrupt core 3",
            "Interrupt core 4", "Interrupt core 5", "Interrupt core 6", "Interrupt core 7"};
        uint32_t core = l - t->thread_count - TRX_LANE_CORE_ISR;
        return core < 8 ? names[core] : "Interrupt core 8+";
    }
    }
}
