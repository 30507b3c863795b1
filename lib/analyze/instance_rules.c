/* instance_rules.c - the rules of instance_rules.h: thread states from
 * RESUME / SUSPEND, lock waits, and what runs on each core slot. */
#include <stdlib.h>
#include <string.h>

#include "analyze/analyses.h"
#include "analyze/core_tracker.h"
#include "analyze/instance_rules.h"

#define STATE_MUTEX_WAIT 13u    /* ThreadX's TX_MUTEX_SUSP (the FreeRTOS glue records it too) */
#define STATE_SEMAPHORE_WAIT 6u /* TX_SEMAPHORE_SUSP */
#define TRX_EVENT_RESUME_ID 1u  /* TXTB internal RESUME: info 4 the core's next thread */
#define TRX_EVENT_SUSPEND_ID 2u /* internal SUSPEND: likewise */
#define TRX_EVENT_RELINQUISH_ID 109u /* tx_thread_relinquish: info 2 the next thread */

int trx_instance_rules_init(trx_instance_rules *r, const trx_trace *t, const trx_latency_options *o)
{
    return trx_instance_rules_init_as(r, t, o, -1);
}

int trx_instance_rules_init_as(trx_instance_rules *r, const trx_trace *t,
                               const trx_latency_options *o, int txtb_smp)
{
    memset(r, 0, sizeof *r);
    r->trace = t;
    if (o)
        r->options = *o;
    if (r->options.lock_count > TRX_LATENCY_MAX_LOCKS)
        r->options.lock_count = TRX_LATENCY_MAX_LOCKS;
    r->thread_count = t->thread_count;
    r->threads = calloc(t->thread_count ? t->thread_count : 1, sizeof *r->threads);
    r->slots = calloc(TRX_INSTANCE_SLOTS, sizeof *r->slots);
    r->txtb_smp = txtb_smp < 0 ? trx_txtb_multi_core(t) : txtb_smp != 0; /* one scan */
    r->per_core = trx_trace_context_cores(t) > 1 || r->txtb_smp;
    if (!r->threads || !r->slots) {
        trx_instance_rules_free(r);
        return -1;
    }
    for (uint32_t k = 0; k < TRX_INSTANCE_SLOTS; k++)
        r->slots[k].thread = -1;
    return 0;
}

void trx_instance_rules_free(trx_instance_rules *r)
{
    free(r->threads);
    free(r->slots);
    r->threads = NULL;
    r->slots = NULL;
}

int32_t trx_rules_thread_of(const trx_instance_rules *r, uint32_t context)
{
    if (!trx_is_threadish(context))
        return -1;
    int32_t th = trx_trace_first_thread_at(r->trace, context);
    return th >= 0 && (uint32_t)th < r->thread_count ? th : -1;
}

/* The configured lock `object` is (its index), or -1. */
static int lock_index(const trx_instance_rules *r, uint32_t object)
{
    for (uint32_t k = 0; k < r->options.lock_count; k++)
        if (r->options.locks[k] == object)
            return (int)k;
    return -1;
}

/* The thread of the event's own context, -1 if none. */
static int32_t own_thread(const trx_instance_rules *r, const trx_event *ev)
{
    if (ev->thread >= 0 && (uint32_t)ev->thread < r->thread_count && !ev->synthetic)
        return trx_event_first_thread(r->trace, ev);
    return -1;
}

#define TXTB_EVENT_FLAGS_SET 36u /* TX_TRACE_EVENT_FLAGS_SET: info1 the group */

/* Services that name an object a thread asks for (remembered for its next
 * SUSPEND), and the objects any context names last (what a waker posted). */
static void note_objects(trx_instance_rules *r, const trx_event *ev)
{
    uint32_t object = 0;
    switch (ev->kind) {
    case TRX_KIND_LOCK_GET:
    case TRX_KIND_SEM_GET:
    case TRX_KIND_PEND: {
        object = ev->kind == TRX_KIND_PEND ? ev->subject : ev->info[0];
        int32_t th = own_thread(r, ev);
        if (th >= 0) {
            r->threads[th].asked = object;
            r->threads[th].asked_any = true;
            r->threads[th].asked_holder = ev->kind == TRX_KIND_LOCK_GET ? ev->info[2] : 0;
            int k = lock_index(r, object);
            if (k >= 0 && ev->kind != TRX_KIND_LOCK_GET)
                r->lock_owner[k] = ev->context; /* taken (a wait blocks: see below) */
        }
        break;
    }
    case TRX_KIND_LOCK_PUT:
    case TRX_KIND_SEM_PUT:
    case TRX_KIND_QUEUE_SEND:
    case TRX_KIND_QUEUE_RECEIVE:
        object = ev->info[0];
        break;
    case TRX_KIND_POST:
        object = ev->subject;
        break;
    default:
        if (r->trace->format == TRX_TRACE_TXTB && ev->id == TXTB_EVENT_FLAGS_SET)
            object = ev->info[0]; /* the group its flags were set in (a waker's post) */
        break;
    }
    if (object) {
        r->last_object[trx_rules_slot_of(r, ev)] = object;
        r->last_object_by[trx_rules_slot_of(r, ev)] = ev->context;
    }
}

bool trx_rules_lock_wait(const trx_instance_rules *r, uint32_t asked, uint32_t suspend_state)
{
    bool txtb = r->trace->format == TRX_TRACE_TXTB;
    int k = lock_index(r, asked);
    return (txtb && suspend_state == STATE_MUTEX_WAIT) ||
           (k >= 0 && (!txtb || suspend_state == STATE_SEMAPHORE_WAIT));
}

void trx_rules_apply(trx_instance_rules *r, const trx_event *ev, trx_instance_change *out)
{
    out->what = TRX_CHANGE_NONE;
    note_objects(r, ev);
    if ((ev->kind != TRX_KIND_RESUME && ev->kind != TRX_KIND_SUSPEND) || ev->priority_change ||
        ev->synthetic)
        return;
    int32_t th = trx_rules_thread_of(r, ev->subject);
    if (th < 0)
        return;
    trx_rule_thread *rt = &r->threads[th];
    out->thread = th;
    out->before = rt->state;
    if (ev->kind == TRX_KIND_RESUME) {
        if (rt->state == TRX_TS_BLOCKED) {
            out->what = TRX_CHANGE_GRANT;
            int k = lock_index(r, rt->asked);
            if (k >= 0)
                r->lock_owner[k] = ev->subject; /* the semaphore passed to it */
        } else if (rt->state != TRX_TS_READY)
            out->what = TRX_CHANGE_RELEASE;
        rt->state = TRX_TS_READY;
        return;
    }
    /* SUSPEND: a lock wait keeps the instance open */
    int k = lock_index(r, rt->asked);
    if (trx_rules_lock_wait(r, rt->asked, ev->info[1]) && rt->state != TRX_TS_WAITING) {
        out->what = TRX_CHANGE_BLOCK;
        out->lock = rt->asked;
        out->holder = rt->asked_holder ? rt->asked_holder : k >= 0 ? r->lock_owner[k] : 0;
        rt->state = TRX_TS_BLOCKED;
        return;
    }
    out->what = TRX_CHANGE_END;
    rt->state = TRX_TS_WAITING;
}

uint32_t trx_rules_next_context(const trx_instance_rules *r, const trx_event *ev)
{
    if (!r->txtb_smp)
        return ev->next_context;
    const trx_rule_slot *s = &r->slots[trx_rules_slot_of(r, ev)];
    uint32_t ctx = ev->context;
    if (ev->synthetic) /* TraceX's RUNNING guesses are core-blind */
        return s->seen ? s->context : ev->next_context;
    if (ctx == TRX_CONTEXT_INIT)
        return TRX_CONTEXT_INIT;
    if (ctx == TRX_CONTEXT_ISR)
        return ev->kind == TRX_KIND_ISR_EXIT && s->isr_depth <= 1 ? s->after_isr : TRX_CONTEXT_ISR;
    if (ev->id == TRX_EVENT_RESUME_ID && ev->info[3])
        return ev->info[3]; /* preempted on its core by the thread it made ready */
    if (ev->id == TRX_EVENT_SUSPEND_ID && ev->info[0] == ctx)
        return ev->info[3]; /* its core's next thread, 0: idle */
    if (ev->id == TRX_EVENT_RELINQUISH_ID && ev->info[1])
        return ev->info[1];
    return ctx;
}

/* The slot other than `here` that runs `thread` now, -1 when none. */
static int32_t other_slot_running(const trx_instance_rules *r, uint32_t here, uint32_t thread)
{
    for (uint32_t k = 0; k < r->slots_used; k++)
        if (k != here && r->slots[k].seen && r->slots[k].context == thread &&
            r->slots[k].isr_depth == 0)
            return (int32_t)k;
    return -1;
}

int32_t trx_rules_moved_from(const trx_instance_rules *r, const trx_event *ev)
{
    if (!r->txtb_smp || ev->synthetic)
        return -1;
    uint32_t here = trx_rules_slot_of(r, ev);
    if (trx_is_threadish(ev->context)) { /* it logs here: it left the other core */
        int32_t k = other_slot_running(r, here, ev->context);
        if (k >= 0)
            return k;
    }
    /* this core runs it next: a thread runs on one core at a time */
    uint32_t next = trx_rules_next_context(r, ev);
    return trx_is_threadish(next) && next != ev->context ? other_slot_running(r, here, next) : -1;
}

void trx_rules_vacate(trx_instance_rules *r, uint32_t slot, uint64_t ticks)
{
    trx_rule_slot *s = &r->slots[slot];
    s->context = TRX_CONTEXT_IDLE;
    s->thread = -1;
    s->since = ticks;
}

void trx_rules_run(trx_instance_rules *r, const trx_event *ev)
{
    uint32_t k = trx_rules_slot_of(r, ev);
    trx_rule_slot *s = &r->slots[k];
    uint32_t next = trx_rules_next_context(r, ev);
    if (r->txtb_smp && !ev->synthetic) {
        if (k >= r->slots_used)
            r->slots_used = k + 1;
        if (ev->kind == TRX_KIND_ISR_ENTER && s->isr_depth == 0)
            s->after_isr = s->seen ? s->context : TRX_CONTEXT_IDLE;
        else if (ev->context == TRX_CONTEXT_ISR &&
                 (ev->id == TRX_EVENT_RESUME_ID || ev->id == TRX_EVENT_SUSPEND_ID))
            s->after_isr = ev->info[3]; /* the core's next thread when the ISR returns */
    }
    bool swi = ev->kind == TRX_KIND_SWI_BEGIN || ev->kind == TRX_KIND_SWI_END;
    if ((ev->kind == TRX_KIND_ISR_ENTER || ev->kind == TRX_KIND_SWI_BEGIN) &&
        s->isr_depth < TRX_INSTANCE_ISR_NEST) {
        s->isr_swi = swi ? s->isr_swi | 1u << s->isr_depth : s->isr_swi & ~(1u << s->isr_depth);
        s->isr[s->isr_depth++] = ev->subject;
        r->last_object[trx_rules_slot_of(r, ev)] = 0; /* it has named nothing yet */
    } else if ((ev->kind == TRX_KIND_ISR_EXIT || ev->kind == TRX_KIND_SWI_END) && s->isr_depth > 0)
        s->isr_depth--;
    if (s->seen && s->context == next)
        return;
    s->seen = true;
    s->context = next;
    s->thread = trx_rules_thread_of(r, next);
    s->since = ev->ticks;
}
