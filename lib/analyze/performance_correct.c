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

/* A thread's value in trx_correct_performance.suspended: two state bits,
 * then 1 + its slot in unknown_lookups (0: none yet). */
#define STATE_SUSPENDED 1u
#define STATE_KNOWN 2u
#define STATE_BITS 3u
#define SLOT_SHIFT 2

/* Counts a preemption test of `was` whose state is unknown here (`v`: its
 * value, NULL when absent): the walk from the start may know it suspended. */
static void note_unknown_lookup(trx_correct_performance *a, uint32_t was, uint32_t *v)
{
    if (v && *v >> SLOT_SHIFT) {
        a->unknown_lookups[(*v >> SLOT_SHIFT) - 1]++;
        return;
    }
    if (a->unknown_count == a->unknown_cap) {
        uint32_t cap = a->unknown_cap ? a->unknown_cap * 2 : 16;
        uint64_t *n = cap > a->unknown_cap && cap < (UINT32_MAX >> SLOT_SHIFT)
                          ? realloc(a->unknown_lookups, (size_t)cap * sizeof *n)
                          : NULL;
        if (!n) {
            a->oom = 1;
            return;
        }
        a->unknown_lookups = n;
        a->unknown_cap = cap;
    }
    uint32_t value = (a->unknown_count + 1) << SLOT_SHIFT;
    if (v)
        *v |= value;
    else if (trx_address_map_put(&a->suspended, was, value) < 0) {
        a->oom = 1;
        return;
    }
    a->unknown_lookups[a->unknown_count++] = 1;
}

int trx_correct_performance_init(trx_correct_performance *a, const trx_trace *t)
{
    memset(a, 0, sizeof *a);
    bool failed;
    a->per_core = trx_per_core_new(t, sizeof *a->per_core, &a->cores, &failed);
    return failed ? -1 : 0;
}

/* The preemption test of a switch away from thread `was` (not idle, not
 * after a time slice or relinquish): it is preempted unless suspended. */
static __attribute__((noinline)) void switched_away(trx_correct_performance *a, uint32_t was)
{
    uint32_t *v = trx_address_map_find(&a->suspended, was);
    if (v && (*v & STATE_KNOWN)) {
        a->preemptions += !(*v & STATE_SUSPENDED);
        return;
    }
    a->preemptions++; /* never suspended here: not suspended, as far as is known */
    if (a->part_way)
        note_unknown_lookup(a, was, v);
}

/* The kinds the feed treats on their own (bits of a uint64_t; every other
 * kind, and any >= 64, is a plain event). */
#define KIND_BIT(k) (1ull << (k))
#define SPECIAL_KINDS                                                                              \
    (KIND_BIT(TRX_KIND_RESUME) | KIND_BIT(TRX_KIND_SUSPEND) | KIND_BIT(TRX_KIND_TIME_SLICE) |      \
     KIND_BIT(TRX_KIND_YIELD) | KIND_BIT(TRX_KIND_ISR_ENTER) | KIND_BIT(TRX_KIND_ISR_EXIT) |       \
     KIND_BIT(TRX_KIND_SWI_BEGIN) | KIND_BIT(TRX_KIND_SWI_END))

static bool is_special(uint32_t kind)
{
    return kind < 64 && (SPECIAL_KINDS >> kind & 1);
}

/* The interrupt state after `ev`, an event of no interrupt's start or end:
 * an interrupt-context event outside ENTER/EXIT, or a thread's. */
static inline void outside_interrupts(trx_correct_performance *a, trx_performance_core *c,
                                      uint32_t ctx)
{
    if (ctx == TRX_CONTEXT_ISR) {
        if (c->nesting == 0 && !c->orphan_run) {
            a->interrupts++; /* interrupt events without a recorded ENTER */
            c->orphan_run = true;
        }
    } else {
        c->nesting = 0; /* a thread runs: any unclosed ISR has ended */
        c->orphan_run = false;
    }
}

/* Switches of the running thread at `ev`. */
static inline void follow_switch(trx_correct_performance *a, trx_performance_core *c,
                                 const trx_event *ev)
{
    uint32_t n = ev->next_context, kind = ev->kind;
    if (!is_switchable(n))
        return;
    if (!c->have_running) { /* a recorded switch (SYS/BIOS's first LM_switch) counts */
        c->have_running = true;
        c->running = n;
        a->switches += kind == TRX_KIND_SWITCH;
        return;
    }
    if (n == c->running) {
        if (ev->context == n && kind != TRX_KIND_TIME_SLICE && kind != TRX_KIND_YIELD)
            c->yielding = false; /* the running thread went on: no switch came */
        return;
    }
    a->switches++;
    uint32_t was = c->running;
    bool yielded = c->yielding;
    c->running = n;
    c->yielding = false;
    if (was != TRX_CONTEXT_IDLE && !yielded)
        switched_away(a, was);
}

/* The feed of an event of SPECIAL_KINDS after its thread state (if any)
 * is noted. */
static inline void special_rest(trx_correct_performance *a, trx_performance_core *c,
                                const trx_event *ev)
{
    uint32_t kind = ev->kind;
    if (kind == TRX_KIND_TIME_SLICE) {
        a->time_slices++;
        c->yielding = true; /* the switch it causes comes at the ISR's end */
    } else if (kind == TRX_KIND_YIELD && c->have_running && ev->context == c->running) {
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
    } else {
        outside_interrupts(a, c, ev->context);
    }
    follow_switch(a, c, ev);
}

/* special_event for a RESUME or SUSPEND of a thread first seen here. */
static __attribute__((noinline)) void
special_new_thread(trx_correct_performance *a, trx_performance_core *c, const trx_event *ev)
{
    uint32_t state = STATE_KNOWN | (ev->kind == TRX_KIND_SUSPEND);
    if (trx_address_map_put(&a->suspended, ev->subject, state) < 0)
        a->oom = 1;
    special_rest(a, c, ev);
}

/* The feed of an event of SPECIAL_KINDS (out of the common path; no calls
 * but tail calls, so no stack frame). */
static __attribute__((noinline)) void special_event(trx_correct_performance *a,
                                                    trx_performance_core *c, const trx_event *ev)
{
    uint32_t kind = ev->kind;
    /* which threads are suspended (before the preemption test: a thread
     * suspending itself is switched away from at its SUSPEND) */
    if ((kind == TRX_KIND_RESUME || kind == TRX_KIND_SUSPEND) && ev->subject != 0) {
        uint32_t *v = trx_address_map_find(&a->suspended, ev->subject);
        if (!v) {
            special_new_thread(a, c, ev);
            return;
        }
        uint32_t state = STATE_KNOWN | (kind == TRX_KIND_SUSPEND);
        *v = (*v & ~STATE_BITS) | state; /* its unknown_lookups slot stays */
    }
    special_rest(a, c, ev);
}

void trx_correct_performance_feed(trx_correct_performance *a, const trx_event *ev)
{
    uint32_t kind = ev->kind;
    trx_performance_core *c = a->per_core ? &a->per_core[trx_core_slot(a->cores, ev)] : &a->one;
    if (is_special(kind)) {
        special_event(a, c, ev);
        return;
    }
    /* the common path: no calls but the preemption test's (a tail call) */
    outside_interrupts(a, c, ev->context);
    follow_switch(a, c, ev);
}

void trx_correct_performance_finish(trx_correct_performance *a, trx_stats *s)
{
    s->context_switches = a->switches;
    s->preemptions = a->preemptions;
    s->time_slices = a->time_slices;
    s->interrupts = a->interrupts;
    s->nested_interrupts = a->nested;
    trx_address_map_free(&a->suspended);
    free(a->unknown_lookups);
    a->unknown_lookups = NULL;
    a->unknown_count = a->unknown_cap = 0;
    free(a->per_core);
    a->per_core = NULL;
}

/* Segments (segment_units.h). The state is each core's (running thread,
 * nesting, yielding, orphan run) and which threads are suspended. The latter
 * goes back as far as a thread's last SUSPEND or RESUME, so it is left out
 * of the fingerprint and made exact at the merge instead: a thread the
 * segment switched away from before it knew its state was counted as
 * preempted (unknown_lookups), and is not, if the part before left it
 * suspended. */
enum { FP_CORE = 0x50455243u, FP_ONE = 0x5045524fu };

static void fingerprint_core(trx_fingerprint *f, uint64_t tag, uint64_t slot,
                             const trx_performance_core *c)
{
    uint64_t w[6] = {slot, c->have_running, c->orphan_run, c->yielding, c->running, c->nesting};
    trx_fp_add(f, tag, w, 6);
}

void trx_correct_performance_fingerprint(const trx_correct_performance *a, const trx_trace *t,
                                         trx_fingerprint *f, uint64_t base)
{
    (void)t;
    (void)base; /* no event numbers in the state */
    if (!a->per_core)
        fingerprint_core(f, FP_ONE, 0, &a->one);
    for (uint32_t i = 0; a->per_core && i < a->cores; i++)
        fingerprint_core(f, FP_CORE, i, &a->per_core[i]);
}

void trx_correct_performance_clear_results(trx_correct_performance *a)
{
    a->switches = a->preemptions = a->time_slices = a->interrupts = a->nested = 0;
    for (uint32_t i = 0; i < a->unknown_count; i++)
        a->unknown_lookups[i] = 0; /* the warm-up's were counted in its results */
}

int trx_correct_performance_merge(trx_correct_performance *later, trx_correct_performance *earlier,
                                  const trx_trace *t, uint64_t offset)
{
    (void)t;
    (void)offset; /* no event numbers */
    /* preemptions of threads the part before left suspended: none (the
     * counts are of the tests before the segment knew the thread's state) */
    for (uint32_t i = 0; i < later->suspended.cap; i++) {
        const trx_address_slot *sl = &later->suspended.slots[i];
        uint32_t slot = sl->value >> SLOT_SHIFT, before = 0;
        if (sl->used && slot && later->unknown_lookups[slot - 1] &&
            trx_address_map_get(&earlier->suspended, sl->key, &before) &&
            (before & STATE_SUSPENDED))
            later->preemptions -= later->unknown_lookups[slot - 1];
    }
    /* the states the segment did not see are the part before's */
    for (uint32_t i = 0; i < earlier->suspended.cap; i++) {
        const trx_address_slot *sl = &earlier->suspended.slots[i];
        if (!sl->used || (sl->value & STATE_KNOWN) == 0)
            continue;
        uint32_t *v = trx_address_map_find(&later->suspended, sl->key);
        if (v && (*v & STATE_KNOWN))
            continue;
        uint32_t state = sl->value & STATE_BITS;
        if (v)
            *v = (*v & ~STATE_BITS) | state;
        else if (trx_address_map_put(&later->suspended, sl->key, state) < 0)
            return -1;
    }
    for (uint32_t i = 0; i < later->unknown_count; i++)
        later->unknown_lookups[i] = 0; /* the owner's state is the walk's from the start */
    later->switches += earlier->switches;
    later->preemptions += earlier->preemptions;
    later->time_slices += earlier->time_slices;
    later->interrupts += earlier->interrupts;
    later->nested += earlier->nested;
    later->oom |= earlier->oom;
    return 0;
}

void trx_correct_performance_discard(trx_correct_performance *a)
{
    trx_stats s = {0};
    trx_correct_performance_finish(a, &s);
}
