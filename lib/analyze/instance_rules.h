/* instance_rules.h - where instances (jobs) of threads begin and end, and
 * what runs on each core: the rules trx latency and trx why share
 * (include/trx/latency.h), so that both see the same instances.
 *
 * Per thread (trace->threads index) a state: unknown, waiting for a
 * trigger, ready (its instance open), blocked on a lock inside its
 * instance. An event changes a state:
 *   RESUME of T (not a priority change): waiting/unknown -> ready: a
 *     release; blocked -> ready: the lock was granted;
 *   SUSPEND of T (not a priority change): a lock wait (TXTB state 13, a
 *     mutex; or the last object T asked for is a configured lock) ->
 *     blocked; anything else ends T's instance -> waiting.
 * Per core slot (the cores that carry contexts of their own; one slot for
 * single-core TXTB) what runs: the next context of the slot's last event,
 * and the ISRs nested there. A ThreadX SMP trace (TXTB from several cores)
 * has a slot per core too, following the core tracker's rules: a thread's
 * event on core c means c runs it (and no other core: trx_rules_moved_from);
 * its RESUME or SUSPEND names c's next thread in info 4 (a relinquish in
 * info 2); after an ISR the thread a RESUME / SUSPEND inside it named, or
 * the one it interrupted. */
#ifndef TRX_INSTANCE_RULES_H
#define TRX_INSTANCE_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "trx/latency.h"
#include "trx/trx.h"

#define TRX_INSTANCE_SLOTS 256u /* core slots (trx_event.core is 8 bits for TXTB) */
#define TRX_INSTANCE_ISR_NEST 32u

enum { TRX_TS_UNKNOWN = 0, TRX_TS_WAITING, TRX_TS_READY, TRX_TS_BLOCKED };

/* What an event did to one thread's instance. */
enum {
    TRX_CHANGE_NONE = 0,
    TRX_CHANGE_RELEASE, /* `thread` became ready after waiting: its instance begins */
    TRX_CHANGE_END,     /* `thread` waits for a trigger: its instance ends */
    TRX_CHANGE_BLOCK,   /* `thread` waits for lock `lock` held by `holder` */
    TRX_CHANGE_GRANT    /* `thread` got the lock it waited for: ready again */
};

typedef struct trx_instance_change {
    uint8_t what;
    uint8_t before; /* the thread's state before */
    int32_t thread;
    uint32_t lock, holder;
} trx_instance_change;

/* Per-thread facts the rules keep. */
typedef struct trx_rule_thread {
    uint8_t state;
    bool asked_any;        /* `asked` set since the rules began (or the caller cleared it) */
    uint32_t asked;        /* the object it last asked for (lock get, semaphore get, pend) */
    uint32_t asked_holder; /* the holder a mutex get named (TXTB info 3), else 0 */
} trx_rule_thread;

/* One core slot: what runs there since `since`. */
typedef struct trx_rule_slot {
    uint32_t context; /* next context of its last event (0: nothing, idle) */
    int32_t thread;   /* its thread index, -1 when not a thread */
    uint64_t since;
    uint32_t isr[TRX_INSTANCE_ISR_NEST]; /* ISR numbers (Swi handles) entered and not left */
    uint32_t isr_swi;                    /* bit k: isr[k] is a software interrupt (SYS/BIOS Swi) */
    uint32_t isr_depth;
    uint32_t after_isr; /* SMP TXTB: what runs when the ISR nesting ends */
    bool seen;
} trx_rule_slot;

typedef struct trx_instance_rules {
    const trx_trace *trace;
    trx_latency_options options;
    trx_rule_thread *threads;
    uint32_t thread_count;
    trx_rule_slot *slots; /* TRX_INSTANCE_SLOTS */
    bool per_core;        /* slots by trx_event.core (cores with contexts of their own) */
    bool txtb_smp;        /* ThreadX SMP: per core, by the SMP rules (see the top) */
    uint32_t slots_used;  /* slots 0 .. slots_used - 1 seen an event (txtb_smp) */
    uint32_t lock_owner[TRX_LATENCY_MAX_LOCKS];  /* configured locks: the thread that took it */
    uint32_t last_object[TRX_INSTANCE_SLOTS];    /* per slot: the object its last service named */
    uint32_t last_object_by[TRX_INSTANCE_SLOTS]; /* ... and the context that named it (an
                                                    interrupt's entry forgets both) */
} trx_instance_rules;

/* 0, or -1 when out of memory. */
int trx_instance_rules_init(trx_instance_rules *r, const trx_trace *t,
                            const trx_latency_options *o);
void trx_instance_rules_free(trx_instance_rules *r);

/* The same when the caller knows whether `t` is a ThreadX SMP trace
 * (txtb_smp 0 or 1, as an earlier init found it: finding out is a scan of
 * every entry, which a path computed from a saved state must not pay
 * again); txtb_smp < 0: find out. */
int trx_instance_rules_init_as(trx_instance_rules *r, const trx_trace *t,
                               const trx_latency_options *o, int txtb_smp);

/* The core slot of an event. */
static inline uint32_t trx_rules_slot_of(const trx_instance_rules *r, const trx_event *ev)
{
    return r->per_core ? (ev->core & (TRX_INSTANCE_SLOTS - 1)) : 0u;
}

/* Applies the state rules to `ev` (before trx_rules_run): at most one
 * thread's instance changes. */
void trx_rules_apply(trx_instance_rules *r, const trx_event *ev, trx_instance_change *out);

/* Whether a SUSPEND with TXTB state word `suspend_state` (info 2) of a
 * thread that last asked for `asked` is a lock wait (blocked inside its
 * instance) rather than the end of its instance, unless it was waiting. */
bool trx_rules_lock_wait(const trx_instance_rules *r, uint32_t asked, uint32_t suspend_state);

/* What the event's core slot runs after `ev`: its next context, or by
 * the SMP rules for ThreadX SMP. */
uint32_t trx_rules_next_context(const trx_instance_rules *r, const trx_event *ev);

/* After trx_rules_apply: the slot's running context becomes the event's
 * next context. Returns true when it changed (the slot's old context ran
 * from slot->since to ev->ticks: the caller charges it before). */
static inline bool trx_rules_switches(const trx_instance_rules *r, const trx_event *ev)
{
    const trx_rule_slot *s = &r->slots[trx_rules_slot_of(r, ev)];
    return !s->seen || s->context != trx_rules_next_context(r, ev);
}

/* SMP TXTB: the other slot that ran the thread of `ev` until now (it logs
 * on another core: it moved), or that runs the thread this event's core
 * runs next (a thread runs on one core at a time), -1 when none. The caller charges that slot to
 * ev->ticks and then calls trx_rules_vacate. */
int32_t trx_rules_moved_from(const trx_instance_rules *r, const trx_event *ev);

/* Slot `slot` runs nothing known from `ticks` on. */
void trx_rules_vacate(trx_instance_rules *r, uint32_t slot, uint64_t ticks);

/* Moves the slot of `ev` to its next context from ev->ticks on (ISR and
 * Swi nesting followed too). */
void trx_rules_run(trx_instance_rules *r, const trx_event *ev);

/* The thread index of a context word (-1: no thread). */
int32_t trx_rules_thread_of(const trx_instance_rules *r, uint32_t context);

#endif
