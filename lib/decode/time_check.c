/* time_check.c - is the trace's time source plausible? Finds time stamps that
 * never change (a timer that does not run), spans made mostly of steps of
 * more than half the timer range (a counter that does not wrap at the mask,
 * such as SysTick's value with a reload below TX_TRACE_TIME_MASK) and a
 * timer started after tracing (time_steps.h). One pass over the stamps. */
#include "decode/entry_read.h"
#include "decode/time_steps.h"

void trx_trace_time_check(const trx_trace *t, trx_time_check *out)
{
    trx_time_steps s;
    trx_time_steps_begin(&s, t);
    const bool be = t->header.big_endian;
    for (uint32_t i = 0; i < t->used; i++)
        trx_time_steps_add(
            &s, trx_rd32(t->entries + (size_t)trx_entry_phys(t, i) * TRX_ENTRY_SIZE + 12, be));
    trx_time_steps_end(&s, out);
}
