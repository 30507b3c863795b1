/* performance_correct.c - the performance counts as they happened (correct
 * mode, docs/analyses.md): context switches are changes of the running
 * thread (idle included, interrupts not), and a core's first switch when the
 * trace records it (SYS/BIOS's LM_switch out of initialization; TXTB has no
 * switch records: its first running thread is no switch); a preemption is a switch away from
 * a thread that is still ready, other than at a time slice or its own
 * relinquish (the switch that follows a TIME_SLICE or RELINQUISH event); time slices are the
 * TIME_SLICE events; an interrupt is an ISR ENTER, or a run of interrupt-context events outside any
 * ENTER/EXIT pair; a nested interrupt is an ISR ENTER inside another. A
 * software interrupt (SWI_BEGIN / END) is interrupt context but no
 * interrupt. Traces whose cores carry contexts of their own follow each
 * core's running thread on its own; the counts are the sums. */
#include <stdlib.h>
#include <string.h>

#include "analyze/analyses.h"
#include "util/per_core.h"
#include "analyze/segment_units.h"

static bool is_switchable(uint32_t ctx)
{
    return ctx != TRX_CONTEXT_ISR && ctx != TRX_CONTEXT_INIT;
}

int trx_correct_performance_init(trx_correct_performance *a, const trx_trace *t)
{
    memset(a, 0, sizeof *a);
    bool failed;
    a->per_core = trx_per_core_new(t, sizeof *a->per_core, &a->cores, &failed);
    return failed ? -1 : 0;
}

void trx_correct_performance_feed(trx_correct_performance *a, const trx_event *ev)
{
    uint32_t kind = ev->kind, ctx = ev->context;
    trx_performance_core *c = a->per_core ? &a->per_core[trx_core_slot(a->cores, ev)] : &a->one;
    /* which threads are suspended (affects the preemption test below) */
    if ((kind == TRX_KIND_RESUME || kind == TRX_KIND_SUSPEND) && ev->subject != 0) {
        uint32_t *v = trx_address_map_find(&a->suspended, ev->subject);
        if (v)
            *v = kind == TRX_KIND_SUSPEND;
        else if (trx_address_map_put(&a->suspended, ev->subject, kind == TRX_KIND_SUSPEND) < 0)
            a->oom = 1;
    }
    if (kind == TRX_KIND_TIME_SLICE) {
        a->time_slices++;
        c->yielding = true; /* the switch it causes comes at the ISR's end */
    } else if (kind == TRX_KIND_YIELD && c->have_running && ctx == c->running) {
        c->yielding = true; /* tx_thread_relinquish */
    }
    /* interrupts */
    if (kind == TRX_KIND_ISR_ENTER) {
        a->interrupts++;
        a->nested += c->nesting > 0;
        c->nesting++;
        c->orphan_run = false;
    } else if (kind == TRX_KIND_SWI_BEGIN) {
        c->nesting++;
        c->orphan_run = false;
    } else if (kind == TRX_KIND_ISR_EXIT || kind == TRX_KIND_SWI_END) {
        if (c->nesting > 0)
            c->nesting--;
    } else if (ctx == TRX_CONTEXT_ISR) {
        if (c->nesting == 0 && !c->orphan_run) {
            a->interrupts++; /* interrupt events without a recorded ENTER */
            c->orphan_run = true;
        }
    } else {
        c->nesting = 0; /* a thread runs: any unclosed ISR has ended */
        c->orphan_run = false;
    }
    /* switches of the running thread */
    uint32_t n = ev->next_context;
    if (!is_switchable(n))
        return;
    if (!c->have_running) { /* a recorded switch (SYS/BIOS's first LM_switch) counts */
        c->have_running = true;
        c->running = n;
        a->switches += kind == TRX_KIND_SWITCH;
        return;
    }
    if (n == c->running) {
        if (ctx == n && kind != TRX_KIND_TIME_SLICE && kind != TRX_KIND_YIELD)
            c->yielding = false; /* the running thread went on: no switch came */
        return;
    }
    a->switches++;
    uint32_t was = c->running, susp = 0;
    bool yielded = c->yielding;
    c->running = n;
    c->yielding = false;
    if (was == TRX_CONTEXT_IDLE || yielded)
        return;
    trx_address_map_get(&a->suspended, was, &susp);
    a->preemptions += susp == 0;
}

void trx_correct_performance_finish(trx_correct_performance *a, trx_stats *s)
{
    s->context_switches = a->switches;
    s->preemptions = a->preemptions;
    s->time_slices = a->time_slices;
    s->interrupts = a->interrupts;
    s->nested_interrupts = a->nested;
    trx_address_map_free(&a->suspended);
    free(a->per_core);
    a->per_core = NULL;
}

/* Segments (segment_units.h): not mergeable yet, so every segment of the
 * trace is walked again from the state before it. */
void trx_correct_performance_fingerprint(const trx_correct_performance *a, const trx_trace *t,
                                         trx_fingerprint *f, uint64_t base)
{
    (void)a;
    (void)t;
    (void)base;
    trx_fp_unmergeable(f);
}

void trx_correct_performance_clear_results(trx_correct_performance *a)
{
    (void)a;
}

int trx_correct_performance_merge(trx_correct_performance *later, trx_correct_performance *earlier,
                                  const trx_trace *t, uint64_t offset)
{
    (void)later;
    (void)earlier;
    (void)t;
    (void)offset;
    return -1;
}

void trx_correct_performance_discard(trx_correct_performance *a)
{
    trx_stats s = {0};
    trx_correct_performance_finish(a, &s);
}
