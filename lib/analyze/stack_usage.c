/* stack_usage.c - TraceX's stack usage: the smallest free stack a thread's
 * own events show, from the information field that holds the stack pointer
 * for each event id (tracex.md 2.11). */
#include "analyze/analyses.h"

/* Which info field (1-4) carries the stack pointer for event `id`; 0: none. */
static int stack_field(uint32_t id)
{
    switch (id) {
    case 3:
    case 4:
    case 109:
        return 1;
    case 12:
    case 22:
    case 30:
    case 31:
    case 40:
    case 51:
    case 61:
    case 62:
    case 82:
    case 101:
    case 120:
    case 125:
    case 127:
        return 2;
    case 1:
    case 2:
    case 16:
    case 26:
    case 50:
    case 56:
    case 67:
    case 81:
    case 87:
    case 100:
    case 102:
    case 111:
    case 112:
    case 114:
    case 115:
    case 117:
        return 3;
    case 17:
    case 21:
    case 57:
    case 83:
    case 88:
        return 4;
    default:
        return 0;
    }
}

void trx_stack_usage_init(const trx_trace *t, trx_stats *s)
{
    for (uint32_t i = 0; i < t->thread_count; i++) {
        s->threads[i].stack_min_available = t->threads[i].stack_size;
        s->threads[i].stack_min_event = 0;
    }
}

void trx_stack_usage_feed(const trx_trace *t, const trx_event *ev, trx_stats *s)
{
    int f = stack_field(ev->id);
    if (!f || ev->thread < 0)
        return;
    uint32_t sp = ev->info[f - 1];
    for (int32_t i = trx_trace_first_thread_at(t, ev->context); i >= 0;
         i = t->threads[i].next_same_address) {
        const trx_thread *th = &t->threads[i];
        trx_thread_stats *ts = &s->threads[i];
        if (sp < th->stack_start) {
            ts->stack_min_available = 0;
            ts->stack_min_event = ev->index;
        } else if (sp - th->stack_start < ts->stack_min_available) {
            ts->stack_min_available = sp - th->stack_start;
            ts->stack_min_event = ev->index;
        }
    }
}
