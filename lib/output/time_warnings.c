/* time_warnings.c - the time-source warnings (see time_warnings.h): a timer
 * that never runs, steps that do not fit the mask, a timer started after
 * tracing began. Each says where, how much and what to do. */
#include "output/time_warnings.h"

static void hex(trx_out *o, uint32_t v)
{
    trx_out_str(o, "0x");
    trx_out_hex32(o, v);
}

static void dec(trx_out *o, uint64_t v)
{
    trx_out_u64_pad(o, v, 0, ' ');
}

void trx_time_warnings_write(const trx_trace *t, const trx_time_check *tc, const char *prefix,
                             trx_out *o)
{
    const trx_header *h = &t->header;
    if (tc->verdict == TRX_TIME_CONSTANT) {
        trx_out_str(o, prefix);
        trx_out_str(o, "the time stamps never change (all 0x");
        trx_entry e;
        trx_trace_entry(t, 0, &e);
        trx_out_hex32(o, e.timestamp & h->timer_mask);
        trx_out_str(o, "): the time source does not run (DWT CYCCNT not enabled? "
                       "SysTick stopped?); times and durations are meaningless\n");
    } else if (tc->verdict == TRX_TIME_IMPLAUSIBLE) {
        trx_out_str(o, prefix);
        dec(o, tc->large_steps);
        trx_out_str(o, " of ");
        dec(o, tc->steps);
        trx_out_str(o, " steps between entries exceed half the timer range (mask ");
        hex(o, h->timer_mask);
        trx_out_str(o, ") and make up ");
        dec(o, tc->span ? tc->large_span * 100 / tc->span : 0);
        trx_out_str(o, "% of the span: the time source does not seem to wrap at the mask "
                       "(a SysTick value with a reload below it? use a composed counter); "
                       "times are likely wrong\n");
    }
    if (tc->late_start) {
        trx_out_str(o, prefix);
        trx_out_str(o, "the first ");
        dec(o, tc->leading_same);
        trx_out_str(o, " events (up to event ");
        dec(o, tc->leading_same - 1);
        trx_out_str(o, ") all carry the time stamp ");
        hex(o, tc->first_stamp);
        trx_out_str(o, ", what a timer holds before it runs: the time source started after "
                       "tracing did, so times and durations up to event ");
        dec(o, tc->leading_same);
        trx_out_str(o, " are wrong (start the time source before tx_trace_enable)\n");
    }
}
