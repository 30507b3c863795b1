/* time_check.c - is the trace's time source plausible? Finds time stamps that
 * never change (a timer that does not run) and spans made mostly of steps of
 * more than half the timer range (a counter that does not wrap at the mask,
 * such as SysTick's value with a reload below TX_TRACE_TIME_MASK). One pass. */
#include "trx/trx.h"

void trx_trace_time_check(const trx_trace *t, trx_time_check *out)
{
    const uint32_t m = t->header.timer_mask;
    trx_time_check r = {TRX_TIME_OK, 0, 0, 0, 0, 0};
    uint32_t prev = 0;
    trx_entry e;
    for (uint32_t i = 0; i < t->used; i++) {
        trx_trace_entry(t, i, &e);
        uint32_t ts = e.timestamp & m;
        if (i > 0) {
            uint64_t step;
            if (t->counts_up)
                step = ts >= prev ? (uint64_t)(ts - prev) : (uint64_t)(m - prev) + ts + 1;
            else
                step = ts <= prev ? (uint64_t)(prev - ts) : (uint64_t)(m - ts) + prev + 1;
            r.steps++;
            r.span += step;
            if (step != 0)
                r.changes++;
            if (step > (uint64_t)m / 2) {
                r.large_steps++;
                r.large_span += step;
            }
        }
        prev = ts;
    }
    if (r.steps >= 2 && r.changes == 0)
        r.verdict = TRX_TIME_CONSTANT;
    else if (r.large_steps >= 2 && r.large_span > r.span / 2)
        r.verdict = TRX_TIME_IMPLAUSIBLE;
    *out = r;
}
