/* timeline_lanes.c - lanes of the time line: one per thread address, then ISR, init, idle, unknown.
 */
#include "output/timeline.h"

uint32_t trx_lane_count(const trx_trace *t)
{
    return t->thread_count + 4u;
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
    default:
        return "Unknown context";
    }
}
