/* time_check.c - is the trace's time source plausible? Finds time stamps that
 * never change (a timer that does not run), spans made mostly of steps of
 * more than half the timer range (a counter that does not wrap at the mask,
 * such as SysTick's value with a reload below TX_TRACE_TIME_MASK) and a
 * timer started after tracing (time_steps.h). One pass over the stamps, or
 * none when the open's pass counted the figures (trx_open_options). */
#include "decode/entry_read.h"
#include "decode/time_steps.h"
#include "decode/txtb_scan.h"

/* Adds the stamps of the physical entries [from, to). */
static void add_stamps(trx_time_steps *s, const trx_trace *t, uint32_t from, uint32_t to)
{
    const uint8_t *p = t->entries + (size_t)from * TRX_ENTRY_SIZE + 12;
    const bool be = t->header.big_endian;
    for (uint32_t i = from; i < to; i++, p += TRX_ENTRY_SIZE)
        trx_time_steps_add(s, trx_rd32(p, be));
}

void trx_trace_time_check(const trx_trace *t, trx_time_check *out)
{
    if (trx_open_counts_fit(t)) { /* counted by the open's pass */
        trx_time_both_check(&t->open_counts_->time, t, out);
        return;
    }
    trx_time_steps s;
    trx_time_steps_begin(&s, t);
    if (!(t->order_ && !t->view_is_tracex_) && t->oldest <= t->used) {
        /* no order of the view's own: trx_entry_phys reads [oldest, used), then [0, oldest) */
        add_stamps(&s, t, t->oldest, t->used);
        add_stamps(&s, t, 0, t->oldest);
    } else {
        const bool be = t->header.big_endian;
        for (uint32_t i = 0; i < t->used; i++)
            trx_time_steps_add(
                &s, trx_rd32(t->entries + (size_t)trx_entry_phys(t, i) * TRX_ENTRY_SIZE + 12, be));
    }
    trx_time_steps_end(&s, out);
}
