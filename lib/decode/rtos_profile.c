/* rtos_profile.c - the RTOS profile of a TXTB trace (see rtos_profile.h): the
 * FreeRTOS integration marks the header's reserved3, which ThreadX fills
 * with 0xBBBBBBBB and TraceX reads without using. */
#include "decode/rtos_profile.h"

void trx_rtos_profile_detect(trx_trace *t)
{
    uint32_t r3 = t->header.reserved3;
    t->rtos = TRX_RTOS_THREADX;
    t->rtos_priorities = 0;
    if (t->format == TRX_TRACE_TXTB && r3 >> 16 == TRX_RTOS_MARK_FREERTOS && (r3 & 0xFFFFu)) {
        t->rtos = TRX_RTOS_FREERTOS;
        t->rtos_priorities = r3 & 0xFFFFu;
    }
}

uint32_t trx_shown_priority(const trx_trace *t, uint32_t recorded)
{
    if (t->rtos != TRX_RTOS_FREERTOS || t->mode == TRX_MODE_TRACEX ||
        recorded >= t->rtos_priorities)
        return recorded;
    return t->rtos_priorities - 1 - recorded;
}

const char *trx_rtos_name(const trx_trace *t)
{
    return t->rtos == TRX_RTOS_FREERTOS ? "FreeRTOS" : "ThreadX";
}
