/*
 * core_tracker.c - which thread every core runs, from the events each core
 * logged (see trx/cores.h for the results):
 *   - an event a thread logs on core c means c runs that thread now (and no
 *     other core does: a core it ran on before is then "unknown" until it
 *     logs again);
 *   - a thread suspending itself on c hands c to the "next thread" of the
 *     event (info 4; ThreadX SMP writes the logging core's next thread there,
 *     0 = idle); a resume or relinquish naming another next thread (info 4,
 *     info 2) preempts the logging thread on c;
 *   - ISR_ENTER / ISR_EXIT logged on c nest an interrupt on c; a next thread
 *     named by a resume or suspend inside it takes c when the nesting ends
 *     (at once when the port logs no ISR_ENTER, as ThreadX SMP's Linux port);
 *   - initialization events put c in initialization.
 * Time between a core's state changes goes to that state; the time with two
 * or more cores running a thread is the parallel time.
 * A single-core TXTB trace follows the event model instead (one trace, one
 * truth): after each event the core runs that event's next context, the rule
 * of the execution profile, which the demo's simulated kernel confirms tick
 * for tick; the rules above are for SMP ports, whose events name the next
 * thread per core and log a switch late. A trace whose cores carry contexts
 * of their own (trx_trace_context_cores: SYS/BIOS in a UIA capture, whose
 * scheduler logs every switch on its core) follows the event model per
 * core: after each event its core runs the event's next context.
 */
#include "analyze/core_tracker.h"

#include <stdlib.h>
#include <string.h>

#include "analyze/analyses.h"
#include "analyze/core_thread_map.h"
#include "decode/entry_read.h"
#include "decode/object_table.h"
#include "decode/txtb_scan.h"
#include "util/address_map.h"
#include "analyze/segment_units.h"
#include "util/inline_hints.h"

enum { STATE_UNKNOWN, STATE_IDLE, STATE_THREAD, STATE_INIT };

typedef struct core_state {
    uint8_t state;
    bool seen;
    bool have_pending;     /* a next thread named inside an interrupt */
    uint32_t nesting;      /* ISR nesting on this core */
    uint32_t context;      /* running thread's address (STATE_THREAD) */
    int32_t thread;        /* its index, -1 if not a known thread */
    uint32_t pending;      /* the next thread after the interrupt (0 = idle) */
    uint64_t since;        /* ticks when the current interval began */
    uint64_t last_event;   /* ticks of its latest event (following the event model) */
    trx_core_thread *slot; /* the map entry of (core, thread), while slot_gen = map.generation */
    uint32_t slot_gen;
} core_state;

struct trx_core_tracker {
    const trx_trace *trace;
    trx_core_stats out;
    core_state core[TRX_MAX_CORES];
    /* the SMP rules' state (NULL when following the event model: one core) */
    int32_t *last_core;  /* per thread: core of its last own event, -1 */
    int32_t *running_on; /* per thread: core running it now, -1 */
    uint64_t *ready_at;  /* per thread: when a resume made it ready, UINT64_MAX: not */
    /* a segment's tracker (trx_core_tracker_clear_results): per thread whose
     * last_core was -1 at the segment's start, the core and event number of
     * its first own event after it (-1: none yet), for the migration there */
    int32_t *entry_core;
    uint64_t *entry_index;
    uint64_t start_since[TRX_MAX_CORES]; /* a segment's tracker: `since` at its start */
    trx_core_thread_map map;
    bool started;
    uint64_t first_ticks, last_ticks;
    trx_core_switch_fn listener; /* told about switches, or NULL */
    void *listener_ctx;
    bool blocking;         /* the switch being made is a thread suspending itself */
    bool follow_next;      /* each event's next context runs on its core after it */
    uint32_t follow_cores; /* following: the cores of the trace's contexts (1: core 0 only,
                              whose pairs come from the per-thread figures) */
    bool oom;              /* a per-thread core row could not be added */
    bool init_unknown;     /* initialization is unknown time (UIA: before the first switch) */
    bool one_core;         /* pairs_from_threads: follow_one_core */
    uint32_t busy;         /* cores running a thread now */
    uint64_t busy_since;   /* when `busy` last changed */
    /* recent trx_trace_first_thread_at look-ups of next contexts (address 0:
     * none), by hash, while the trace has first_objects / first_threads */
    struct {
        uint32_t address;
        int32_t thread;
    } first_cache[16];
    uint32_t first_objects, first_threads;
};

/* True when no stored entry names a core other than 0 (id bits 24-31): the
 * byte holding them, or-ed over the entries in any order (without an order
 * of the view's own, trx_entry_phys maps [0, used) onto [0, used) when
 * oldest <= used), by the open's pass when it did (trx_open_options). */
static bool single_core(const trx_trace *t)
{
    if (trx_open_counts_fit(t))
        return t->open_counts_->core_bits == 0;
    const uint8_t *p = t->entries + (t->header.big_endian ? 8 : 11);
    uint8_t cores = 0; /* in blocks of 256 entries: a multi-core trace ends it early (trx serve
                          makes a tracker per window) */
    if (!(t->order_ && !t->view_is_tracex_) && t->oldest <= t->used) {
        for (uint32_t i = 0; i < t->used && !cores; i += 256)
            for (uint32_t k = i; k < i + 256 && k < t->used; k++)
                cores |= p[(size_t)k * TRX_ENTRY_SIZE];
    } else {
        for (uint32_t i = 0; i < t->used && !cores; i += 256)
            for (uint32_t k = i; k < i + 256 && k < t->used; k++)
                cores |= p[(size_t)trx_entry_phys(t, k) * TRX_ENTRY_SIZE];
    }
    return cores == 0;
}

bool trx_txtb_multi_core(const trx_trace *t)
{
    return t->format == TRX_TRACE_TXTB && !single_core(t);
}

/* Following one core: its (core, thread) pairs are the per-thread figures. */
static bool pairs_from_threads(const trx_core_tracker *k)
{
    return k->follow_next && k->follow_cores == 1;
}

trx_core_tracker *trx_core_tracker_new(const trx_trace *t)
{
    return trx_core_tracker_new_known(t, -1);
}

trx_core_tracker *trx_core_tracker_new_known(const trx_trace *t, int single)
{
    trx_core_tracker *k = calloc(1, sizeof *k);
    size_t n = t->thread_count ? t->thread_count : 1;
    if (!k)
        return NULL;
    k->trace = t;
    k->out.thread_count = t->thread_count;
    k->out.core_count = 1;
    k->follow_cores = trx_trace_context_cores(t);
    k->init_unknown = t->format == TRX_TRACE_UIA;
    /* TXTB on one core; UIA whose scheduler events give each core's contexts */
    k->follow_next = t->format != TRX_TRACE_TXTB ? !trx_trace_context_missing(t)
                     : single >= 0               ? single != 0
                                                 : single_core(t);
    k->one_core = pairs_from_threads(k);
    k->out.threads = calloc(n, sizeof *k->out.threads);
    /* core 0's pairs: one per thread at most (no growth, no slack); following
     * the event model (one core), they come from the per-thread figures */
    bool ok = k->out.threads &&
              (pairs_from_threads(k) || trx_core_thread_map_reserve(&k->map, t->thread_count) == 0);
    if (ok && !k->follow_next) {
        k->last_core = malloc(n * sizeof *k->last_core);
        k->running_on = malloc(n * sizeof *k->running_on);
        k->ready_at = malloc(n * sizeof *k->ready_at);
        ok = k->last_core && k->running_on && k->ready_at;
        for (size_t i = 0; ok && i < n; i++) {
            k->last_core[i] = k->running_on[i] = -1;
            k->ready_at[i] = UINT64_MAX;
        }
    }
    if (!ok) {
        trx_core_tracker_discard(k);
        return NULL;
    }
    return k;
}

static bool is_busy(const core_state *c)
{
    return c->state == STATE_THREAD && c->nesting == 0;
}

/* The map entry of (core, its running thread); the thread must be known. */
static TRX_NOINLINE trx_core_thread *look_up_slot(trx_core_tracker *k, uint32_t core)
{
    core_state *c = &k->core[core];
    c->slot = trx_core_thread_map_get(&k->map, core, c->thread);
    c->slot_gen = k->map.generation;
    return c->slot;
}

static inline trx_core_thread *current_slot(trx_core_tracker *k, uint32_t core)
{
    core_state *c = &k->core[core];
    if (c->slot && c->slot_gen == k->map.generation)
        return c->slot;
    return look_up_slot(k, core);
}

/* Adds `d` ticks to what core `core` does in state `c` (the core's own
 * state, or, following one core, any: its pairs are not in the map then). */
static inline void charge(trx_core_tracker *k, uint32_t core, const core_state *c, uint64_t d)
{
    trx_core_profile *p = &k->out.cores[core];
    if (c->nesting > 0) {
        p->interrupt_ticks += d;
        return;
    }
    switch (c->state) {
    case STATE_THREAD:
        p->thread_ticks += d;
        if (c->thread >= 0) {
            k->out.threads[c->thread].run_ticks += d;
            trx_core_thread *ct = pairs_from_threads(k) ? NULL : current_slot(k, core);
            if (ct)
                ct->ticks += d;
        }
        break;
    case STATE_IDLE:
        p->idle_ticks += d;
        break;
    case STATE_INIT:
        if (k->init_unknown) /* SYS/BIOS: what ran before the first switch is unknown */
            p->unknown_ticks += d;
        else
            p->init_ticks += d; /* ThreadX: the kernel's own initialization state */
        break;
    default:
        p->unknown_ticks += d;
        break;
    }
}

/* Adds the time since the core's last change to the state it was in. */
static TRX_ALWAYS_INLINE void account(trx_core_tracker *k, uint32_t core, uint64_t now)
{
    core_state *c = &k->core[core];
    uint64_t d = now - c->since;
    c->since = now;
    if (d != 0)
        charge(k, core, c, d);
}

/* Counts the parallel time up to `now` before the number of busy cores changes. */
static TRX_ALWAYS_INLINE void busy_changes(trx_core_tracker *k, uint64_t now, bool was, bool is)
{
    if (was == is)
        return;
    if (k->busy >= 2)
        k->out.parallel_ticks += now - k->busy_since;
    k->busy_since = now;
    k->busy = is ? k->busy + 1 : k->busy - 1;
    if (k->busy > k->out.max_parallel)
        k->out.max_parallel = k->busy;
}

/* The row of thread `th`'s cores 64 and up (added, empty, when new), or
 * NULL when out of memory (then `oom` is set). */
static uint64_t *high_row(trx_core_tracker *k, int32_t th)
{
    trx_core_stats *s = &k->out;
    if (!s->high_cores_ && !(s->high_cores_ = calloc(1, sizeof *s->high_cores_))) {
        k->oom = true;
        return NULL;
    }
    bool added;
    uint32_t *row = trx_address_map_slot(s->high_cores_, (uint32_t)th, s->high_count_, &added);
    if (!row) {
        k->oom = true;
        return NULL;
    }
    if (added) {
        if (s->high_count_ == s->high_cap_) {
            uint32_t cap = s->high_cap_ ? s->high_cap_ * 2 : 16;
            void *n = realloc(s->high_masks_, (size_t)cap * sizeof *s->high_masks_);
            if (!n) {
                k->oom = true;
                return NULL;
            }
            s->high_masks_ = n;
            s->high_cap_ = cap;
        }
        memset(s->high_masks_[s->high_count_++], 0, sizeof *s->high_masks_);
    }
    return s->high_masks_[*row];
}

/* mark_core for cores 64 and up: a row of their own, for the few threads
 * that run there. */
static void mark_high_core(trx_core_tracker *k, int32_t th, uint32_t core)
{
    uint64_t *row = high_row(k, th);
    uint32_t c = core - 64;
    if (row)
        row[c / 64] |= 1ull << (c % 64);
}

/* Notes that thread `th` ran on or logged on core `core`. */
static inline void mark_core(trx_core_tracker *k, int32_t th, uint32_t core)
{
    if (core < 64)
        k->out.threads[th].core_mask |= 1ull << core;
    else
        mark_high_core(k, th, core);
}

bool trx_core_stats_thread_has(const trx_core_stats *s, uint32_t thread, uint32_t core)
{
    if (thread >= s->thread_count || core >= TRX_MAX_CORES)
        return false;
    if (core < 64)
        return (s->threads[thread].core_mask >> core) & 1u;
    uint32_t row, c = core - 64;
    return s->high_cores_ && trx_address_map_get(s->high_cores_, thread, &row) &&
           ((s->high_masks_[row][c / 64] >> (c % 64)) & 1u);
}

uint32_t trx_core_stats_thread_next_core(const trx_core_stats *s, uint32_t thread, uint32_t from)
{
    if (thread >= s->thread_count)
        return TRX_MAX_CORES;
    if (from < 64) {
        uint64_t low = s->threads[thread].core_mask >> from;
        if (low)
            return from + (uint32_t)__builtin_ctzll(low);
        from = 64;
    }
    uint32_t row;
    if (from >= TRX_MAX_CORES || !s->high_cores_ ||
        !trx_address_map_get(s->high_cores_, thread, &row))
        return TRX_MAX_CORES;
    for (uint32_t c = from - 64; c < TRX_MAX_CORES - 64; c = (c / 64 + 1) * 64) {
        uint64_t bits = s->high_masks_[row][c / 64] >> (c % 64);
        if (bits)
            return 64 + c + (uint32_t)__builtin_ctzll(bits);
    }
    return TRX_MAX_CORES;
}

/* Puts core `core` into `state` at `now`; for STATE_THREAD, running the
 * thread at `context` whose index is `thread` (-1: not a known thread). A
 * thread made ready by a resume took the core when it was resumed, or when
 * the core's last state began if later: the switch is dated back to then (not
 * before the last change of the busy-core count, which is already counted). */
static void set_state(trx_core_tracker *k, uint32_t core, uint8_t state, uint32_t context,
                      int32_t thread, uint64_t now)
{
    core_state *c = &k->core[core];
    if (thread >= (int32_t)k->out.thread_count)
        thread = -1; /* a thread added after the tracker started: not tracked per thread */
    if (now < c->since)
        now = c->since; /* a switch dated back to before this core's last change */
    if (c->state == state && (state != STATE_THREAD || c->context == context))
        return;
    if (thread >= 0 && k->ready_at && k->ready_at[thread] != UINT64_MAX) {
        uint64_t from = k->ready_at[thread];
        if (from < c->since)
            from = c->since;
        if (from < k->busy_since)
            from = k->busy_since;
        if (from < now)
            now = from;
        k->ready_at[thread] = UINT64_MAX;
    }
    bool was = is_busy(c);
    account(k, core, now);
    if (k->listener && c->nesting == 0 && (c->state == STATE_THREAD || state == STATE_THREAD))
        k->listener(k->listener_ctx, core, now, c->state == STATE_THREAD ? c->context : 0,
                    c->state == STATE_THREAD ? c->thread : -1, state == STATE_THREAD ? context : 0,
                    state == STATE_THREAD ? thread : -1, k->blocking);
    if (c->state == STATE_THREAD && c->thread >= 0 && k->running_on &&
        k->running_on[c->thread] == (int32_t)core)
        k->running_on[c->thread] = -1;
    if (state == STATE_THREAD)
        k->out.cores[core].switches++;
    c->state = state;
    c->context = context;
    c->thread = thread;
    c->slot = NULL;
    if (thread >= 0 && k->running_on) {
        int32_t other = k->running_on[thread];
        if (other >= 0 && other != (int32_t)core)
            set_state(k, (uint32_t)other, STATE_UNKNOWN, 0, -1, now); /* it left that core */
        k->running_on[thread] = (int32_t)core;
    }
    if (thread >= 0)
        mark_core(k, thread, core);
    busy_changes(k, now, was, is_busy(c));
}

/* Core `core` goes to the thread at `next` (0: idle). */
static void hand_over(trx_core_tracker *k, uint32_t core, uint32_t next, uint64_t now)
{
    if (next == TRX_CONTEXT_IDLE)
        set_state(k, core, STATE_IDLE, 0, -1, now);
    else if (next != TRX_CONTEXT_ISR && next != TRX_CONTEXT_INIT)
        set_state(k, core, STATE_THREAD, next, trx_thread_for_context(k->trace, next), now);
}

/* Changes the core's ISR nesting (the interval is closed first). */
static void set_nesting(trx_core_tracker *k, uint32_t core, uint32_t nesting, uint64_t now)
{
    core_state *c = &k->core[core];
    bool was = is_busy(c);
    account(k, core, now);
    if (k->listener && (c->nesting == 0) != (nesting == 0)) { /* the interrupt starts or ends */
        uint32_t ctx = c->state == STATE_THREAD ? c->context : 0;
        int32_t th = c->state == STATE_THREAD ? c->thread : -1;
        if (nesting > 0)
            k->listener(k->listener_ctx, core, now, ctx, th, TRX_CONTEXT_ISR, -1, false);
        else
            k->listener(k->listener_ctx, core, now, TRX_CONTEXT_ISR, -1, ctx, th, false);
    }
    c->nesting = nesting;
    busy_changes(k, now, was, is_busy(c));
}

/* A RESUME makes its thread ready: it may run on any core from now on. */
static void note_resume(trx_core_tracker *k, const trx_event *ev)
{
    if (ev->kind != TRX_KIND_RESUME || trx_is_priority_change(ev))
        return;
    int32_t th = trx_thread_for_context(k->trace, ev->subject);
    if (th >= 0 && th < (int32_t)k->out.thread_count && k->running_on[th] < 0)
        k->ready_at[th] = ev->ticks;
}

static void thread_event(trx_core_tracker *k, uint32_t core, const trx_event *ev)
{
    uint64_t now = ev->ticks;
    core_state *c = &k->core[core];
    int32_t th = ev->thread < (int32_t)k->out.thread_count ? ev->thread : -1;
    if (th >= 0) {
        trx_thread_cores *tc = &k->out.threads[th];
        int32_t last = k->last_core[th];
        if (last >= 0) {
            if (last != (int32_t)core && tc->migrations++ == 0)
                tc->first_migration = ev->index;
        } else if (k->entry_core) { /* its first own event in a segment */
            k->entry_core[th] = (int32_t)core;
            k->entry_index[th] = ev->index;
        }
        k->last_core[th] = (int32_t)core;
    }
    if (c->nesting > 0) /* a thread logs: any interrupt on this core is over */
        set_nesting(k, core, 0, now);
    c->have_pending = false;
    if (c->state != STATE_THREAD || c->context != ev->context) /* else set_state changes nothing */
        set_state(k, core, STATE_THREAD, ev->context, th, now);
    if (th >= 0) { /* the core runs it now */
        trx_core_thread *ct = current_slot(k, core);
        if (ct)
            ct->events++;
    }
    note_resume(k, ev);
    switch (ev->kind) {
    case TRX_KIND_SUSPEND:
        if (ev->subject == ev->context) {
            k->blocking = true;
            hand_over(k, core, ev->info[3], now);
            k->blocking = false;
        }
        break;
    case TRX_KIND_RESUME:
        if (ev->info[3] != 0 && ev->info[3] != ev->context)
            hand_over(k, core, ev->info[3], now);
        break;
    case TRX_KIND_YIELD:
        if (ev->info[1] != 0 && ev->info[1] != ev->context)
            hand_over(k, core, ev->info[1], now);
        break;
    default:
        break;
    }
}

static void isr_event(trx_core_tracker *k, uint32_t core, const trx_event *ev)
{
    core_state *c = &k->core[core];
    uint64_t now = ev->ticks;
    note_resume(k, ev);
    switch (ev->kind) {
    case TRX_KIND_ISR_ENTER:
        set_nesting(k, core, c->nesting + 1, now);
        break;
    case TRX_KIND_ISR_EXIT:
        if (c->nesting > 0) {
            set_nesting(k, core, c->nesting - 1, now);
            if (c->nesting == 0 && c->have_pending) {
                c->have_pending = false;
                hand_over(k, core, c->pending, now);
            }
        }
        break;
    case TRX_KIND_RESUME:
    case TRX_KIND_SUSPEND:
        if (ev->info[3] == TRX_CONTEXT_ISR || ev->info[3] == TRX_CONTEXT_INIT)
            break;
        if (c->nesting > 0) {
            c->have_pending = true;
            c->pending = ev->info[3];
        } else if (ev->info[3] != 0) {
            hand_over(k, core, ev->info[3], now); /* no ISR_ENTER/EXIT framing (SMP ports) */
        }
        break;
    default:
        break;
    }
}

/* follow_event once the core's counts are done: the core goes to the
 * event's next context (an interrupt's nesting, or a thread's, idle's or
 * initialization's state). `own`: the first thread at the event's context. */
static void follow_change(trx_core_tracker *k, core_state *c, uint32_t core, const trx_event *ev,
                          uint64_t now, int32_t own)
{
    uint32_t n = ev->next_context;
    if (n == TRX_CONTEXT_ISR) {
        if (c->nesting == 0)
            set_nesting(k, core, 1, now);
        return;
    }
    if (c->nesting > 0)
        set_nesting(k, core, 0, now);
    if (c->state == STATE_THREAD ? c->context == n
        : c->state == STATE_IDLE ? n == TRX_CONTEXT_IDLE
                                 : c->state == STATE_INIT && n == TRX_CONTEXT_INIT)
        return; /* the core goes on as it is: set_state would change nothing */
    k->blocking = ev->kind == TRX_KIND_SUSPEND && ev->subject == ev->context && n != ev->context;
    if (n == TRX_CONTEXT_IDLE)
        set_state(k, core, STATE_IDLE, 0, -1, now);
    else if (n == TRX_CONTEXT_INIT)
        set_state(k, core, STATE_INIT, 0, -1, now);
    else
        set_state(k, core, STATE_THREAD, n,
                  n == ev->context && own >= 0 ? own : trx_trace_first_thread_at(k->trace, n), now);
    k->blocking = false;
}

/* Whether core c, following the event model, goes on as it is after an
 * event whose next context is `n`. */
static inline bool follow_goes_on(const core_state *c, uint32_t n)
{
    return n == TRX_CONTEXT_ISR ? c->nesting > 0
                                : c->nesting == 0 && c->state == STATE_THREAD && c->context == n;
}

/* Following the event model: the time from this event on goes to its next
 * context on its core (as the execution profile has it); synthetic RUNNING
 * events change the state too. */
static TRX_NOINLINE void follow_event(trx_core_tracker *k, const trx_event *ev)
{
    uint32_t core = trx_core_slot(k->follow_cores, ev);
    core_state *c = &k->core[core];
    uint64_t now = ev->ticks;
    if (c->seen && now < c->since)
        now = c->since; /* time that ran back (UIA): nothing is counted twice */
    if (!k->started) {
        k->started = true;
        k->first_ticks = k->busy_since = now;
    }
    if (!c->seen) { /* unknown from the start of the trace until now */
        c->seen = true;
        c->since = k->first_ticks;
        if (core >= k->out.core_count)
            k->out.core_count = core + 1;
    }
    if (now > k->last_ticks)
        k->last_ticks = now;
    c->last_event = now;
    int32_t own = ev->thread >= 0 ? trx_event_first_thread(k->trace, ev) : -1;
    if (!ev->synthetic) {
        k->out.cores[core].events++;
        if (ev->thread >= 0 && ev->thread < (int32_t)k->out.thread_count && own >= 0) {
            mark_core(k, own, core); /* its own event: counted on the core */
            if (pairs_from_threads(k)) {
                k->out.threads[own].first_migration++; /* see core0_profile */
            } else if (c->state == STATE_THREAD && c->thread == own) {
                trx_core_thread *ct = current_slot(k, core);
                if (ct)
                    ct->events++;
            }
        }
    }
    if (!follow_goes_on(c, ev->next_context))
        follow_change(k, c, core, ev, now, own);
}

/* set_state of core 0 following one core without a listener (no per-thread
 * SMP state then: ready_at and running_on are NULL), for a state that
 * differs from the core's, with no interrupt running: inline in
 * follow_change_at. */
static TRX_ALWAYS_INLINE void set_state_one(trx_core_tracker *k, uint8_t state, uint32_t context,
                                            int32_t thread, uint64_t now)
{
    core_state *c = &k->core[0];
    if (thread >= (int32_t)k->out.thread_count)
        thread = -1; /* a thread added after the tracker started: not tracked per thread */
    if (now < c->since)
        now = c->since;
    bool was = c->state == STATE_THREAD;
    account(k, 0, now);
    if (state == STATE_THREAD)
        k->out.cores[0].switches++;
    c->state = state;
    c->context = context;
    c->thread = thread;
    c->slot = NULL;
    if (thread >= 0)
        k->out.threads[thread].core_mask |= 1u;
    busy_changes(k, now, was, state == STATE_THREAD);
}

/* trx_trace_first_thread_at(k->trace, n) for a thread context `n` (not 0),
 * through a cache of recent look-ups (emptied when the trace's objects or
 * threads change). */
static inline int32_t first_thread_cached(trx_core_tracker *k, uint32_t n)
{
    const trx_trace *t = k->trace;
    if (k->first_objects != t->object_count || k->first_threads != t->thread_count) {
        memset(k->first_cache, 0, sizeof k->first_cache);
        k->first_objects = t->object_count;
        k->first_threads = t->thread_count;
    }
    uint32_t h = (n ^ n >> 5 ^ n >> 11) & 15;
    if (k->first_cache[h].address != n) {
        k->first_cache[h].address = n;
        k->first_cache[h].thread = trx_trace_first_thread_at(t, n);
    }
    return k->first_cache[h].thread;
}

/* follow_event's change of state following one core (core 0), out of line:
 * follow_change's steps with the core a constant and no listener (set_state_one),
 * else follow_change itself. */
static TRX_NOINLINE void follow_change_at(trx_core_tracker *k, const trx_event *ev, uint64_t now,
                                          int32_t own)
{
    core_state *c = &k->core[0];
    if (k->listener) { /* (one core: following, so no SMP arrays) */
        follow_change(k, c, 0, ev, now, own);
        return;
    }
    uint32_t n = ev->next_context;
    if (n == TRX_CONTEXT_ISR) { /* (follow_goes_on: not nested yet) */
        bool was = is_busy(c);
        account(k, 0, now);
        c->nesting = 1;
        busy_changes(k, now, was, false);
        return;
    }
    if (c->nesting > 0) {
        account(k, 0, now);
        c->nesting = 0;
        busy_changes(k, now, false, c->state == STATE_THREAD);
    }
    if (c->state == STATE_THREAD ? c->context == n
        : c->state == STATE_IDLE ? n == TRX_CONTEXT_IDLE
                                 : c->state == STATE_INIT && n == TRX_CONTEXT_INIT)
        return; /* the core goes on as it is */
    if (n == TRX_CONTEXT_IDLE)
        set_state_one(k, STATE_IDLE, 0, -1, now);
    else if (n == TRX_CONTEXT_INIT)
        set_state_one(k, STATE_INIT, 0, -1, now);
    else
        set_state_one(k, STATE_THREAD, n,
                      n == ev->context && own >= 0 ? own : first_thread_cached(k, n), now);
}

/* follow_event following one core (core 0, whose pairs are the per-thread
 * figures: pairs_from_threads) for a core already seen and an event that is
 * no synthetic one of a trace whose addresses are each one object's (the
 * cursor's ev->thread is the first thread at the context): inline, only
 * tail calls. Else follow_event. `no_shared` (a constant): the trace has no
 * such address (trx_core_tracker_feed_unshared). */
static TRX_ALWAYS_INLINE void follow_one_core(trx_core_tracker *k, const trx_event *ev,
                                              const bool no_shared)
{
    core_state *c = &k->core[0];
    if (!c->seen || ev->synthetic || (!no_shared && k->trace->first_thread_map_)) {
        follow_event(k, ev);
        return;
    }
    uint64_t now = ev->ticks;
    if (now < c->since)
        now = c->since; /* time that ran back (UIA): nothing is counted twice */
    if (now > k->last_ticks)
        k->last_ticks = now;
    c->last_event = now;
    k->out.cores[0].events++;
    int32_t own = ev->thread;
    if (own >= 0 && own < (int32_t)k->out.thread_count) {
        k->out.threads[own].core_mask |= 1u;   /* its own event: counted on the core */
        k->out.threads[own].first_migration++; /* see core0_profile */
    }
    if (!follow_goes_on(c, ev->next_context))
        follow_change_at(k, ev, now, own);
}

/* The SMP rules' feed: per core, from the events each core logged. */
static TRX_NOINLINE void smp_event(trx_core_tracker *k, const trx_event *ev)
{
    if (ev->synthetic)
        return;
    if (ev->core >= TRX_MAX_CORES) {
        k->out.beyond++;
        return;
    }
    uint32_t core = ev->core;
    if (!k->started) {
        k->started = true;
        k->first_ticks = k->busy_since = ev->ticks;
    }
    k->last_ticks = ev->ticks;
    core_state *c = &k->core[core];
    if (!c->seen) { /* unknown from the start of the trace until now */
        c->seen = true;
        c->since = k->first_ticks;
        if (core >= k->out.core_count)
            k->out.core_count = core + 1;
    }
    k->out.cores[core].events++;
    if (ev->context == TRX_CONTEXT_ISR)
        isr_event(k, core, ev);
    else if (ev->context == TRX_CONTEXT_INIT)
        set_state(k, core, STATE_INIT, 0, -1, ev->ticks);
    else
        thread_event(k, core, ev);
}

/* The feed, `unshared` a constant of each caller (folded into its own copy). */
static TRX_ALWAYS_INLINE void feed_as(trx_core_tracker *k, const trx_event *ev, bool unshared)
{
    if (k->one_core)
        follow_one_core(k, ev, unshared);
    else if (k->follow_next)
        follow_event(k, ev);
    else
        smp_event(k, ev);
}

void trx_core_tracker_feed(trx_core_tracker *k, const trx_event *ev)
{
    feed_as(k, ev, false);
}

void trx_core_tracker_feed_unshared(trx_core_tracker *k, const trx_event *ev)
{
    feed_as(k, ev, true);
}

/* Following the event model (one core), core 0's (core, thread) pairs are
 * the threads' own figures: run_ticks, and their own events, counted in
 * first_migration meanwhile (no migration on one core; reset here). A pair
 * exists for a thread that ran ticks or logged an event, as in the map. */
static int core0_profile(trx_core_tracker *k)
{
    trx_core_stats *s = &k->out;
    uint32_t n = 0;
    for (uint32_t th = 0; th < s->thread_count; th++)
        n += s->threads[th].run_ticks || s->threads[th].first_migration;
    s->profile = malloc((size_t)(n ? n : 1) * sizeof *s->profile);
    if (!s->profile)
        return -1;
    s->profile_count = n;
    n = 0;
    for (uint32_t th = 0; th < s->thread_count; th++) {
        trx_thread_cores *tc = &s->threads[th];
        if (tc->run_ticks || tc->first_migration)
            s->profile[n++] =
                (trx_core_thread){0, (int32_t)th, tc->first_migration, tc->run_ticks, 0};
        tc->first_migration = 0;
    }
    return 0;
}

int trx_core_tracker_finish(trx_core_tracker *k, trx_core_stats *out)
{
    k->listener = NULL; /* its users' outputs are closed by now: the ends below are not switches */
    for (uint32_t core = 0; k->started && core < k->out.core_count; core++) {
        core_state *c = &k->core[core];
        if (!c->seen)
            c->since = k->first_ticks;
        if (k->follow_next && k->init_unknown && c->seen) {
            /* UIA: after the core's last event nothing says what ran */
            if (c->nesting > 0)
                set_nesting(k, core, 0, c->last_event);
            set_state(k, core, STATE_UNKNOWN, 0, -1, c->last_event);
        }
        account(k, core, k->last_ticks);
    }
    if (k->busy >= 2)
        k->out.parallel_ticks += k->last_ticks - k->busy_since;
    k->out.span_ticks = k->last_ticks - k->first_ticks;
    int rc = pairs_from_threads(k)
                 ? core0_profile(k)
                 : trx_core_thread_map_finish(&k->map, &k->out.profile, &k->out.profile_count);
    *out = k->out;
    bool k_oom = k->oom;
    free(k->last_core);
    free(k->running_on);
    free(k->ready_at);
    free(k->entry_core);
    free(k->entry_index);
    free(k);
    if (rc < 0 || k_oom || !out->threads) {
        trx_core_stats_free(out);
        return -1;
    }
    return 0;
}

void trx_core_tracker_listen(trx_core_tracker *k, trx_core_switch_fn fn, void *ctx)
{
    k->listener = fn;
    k->listener_ctx = ctx;
}

void trx_core_tracker_discard(trx_core_tracker *k)
{
    if (!k)
        return;
    trx_core_stats junk;
    trx_core_tracker_finish(k, &junk);
    trx_core_stats_free(&junk);
}

int trx_core_stats_compute(trx_trace *t, trx_core_stats *s)
{
    memset(s, 0, sizeof *s);
    trx_trace_prepare(t);
    trx_core_tracker *k = trx_core_tracker_new(t);
    trx_cursor c;
    trx_event ev;
    if (!k)
        return -1;
    if (trx_cursor_init(&c, t) < 0) {
        trx_core_tracker_discard(k);
        return -1;
    }
    while (trx_cursor_next(&c, &ev))
        trx_core_tracker_feed(k, &ev);
    return trx_core_tracker_finish(k, s);
}

void trx_core_stats_free(trx_core_stats *s)
{
    free(s->profile);
    free(s->threads);
    if (s->high_cores_)
        trx_address_map_free(s->high_cores_);
    free(s->high_cores_);
    free(s->high_masks_);
    memset(s, 0, sizeof *s);
}

/* ---- Segments (segment_units.h) ----
 * State: every core's (what it runs, its ISR nesting, the pending next
 * thread, when its interval began), the busy-core count and when it
 * changed, and per thread the core running it and when a resume made it
 * ready. Intervals are charged when they end, so an interval open at a
 * segment's start is charged once, by the segment. Two pieces of state are
 * made to settle instead of hashed: a thread's last core (migrations) is
 * known to the segment only once the thread logged in it - the migration
 * of its first own event after the start is counted at the merge from the
 * part before's last core; the ticks of the trace's first event (where a
 * core first seen later starts its unknown time) are looked up from the
 * trace. */

enum { FP_TRACKER = 0x43524B31u, FP_CORE, FP_RUNNING_ON, FP_READY_AT };

/* Events looked at for the trace's first counted event. */
#define FIRST_SCAN 65536u

/* A UIA trace without contexts: every event is initialization (context and
 * next context), so a core's state changes once, at its first event. */
static bool all_init(const trx_core_tracker *k)
{
    return k->trace->format == TRX_TRACE_UIA && !k->follow_next;
}

/* Whether a core's `since` only dates its open interval (and so settles
 * instead of being hashed): following one core of a TXTB trace, whose ticks
 * never run back (no clamp to `since`) and whose switches are not dated back
 * (no SMP rules); or a trace of initialization only (its one change is
 * clamped to the trace's first ticks only). The segment then may know a
 * shorter run of the same state than the part before: the difference is
 * charged at the merge (to a state whose thread's pairs, if any, are the
 * per-thread figures). */
static bool since_settles(const trx_core_tracker *k)
{
    return (pairs_from_threads(k) && k->trace->format == TRX_TRACE_TXTB) || all_init(k);
}

/* The ticks of the first event the one walk of the trace counts
 * (first_ticks): its first event, following the event model; else its first
 * stored event on a core below TRX_MAX_CORES. False when out of memory or
 * none is among the first FIRST_SCAN events. */
static bool walk_first_ticks(const trx_core_tracker *k, uint64_t *ticks)
{
    trx_cursor c;
    if (trx_cursor_init(&c, (trx_trace *)k->trace) < 0)
        return false;
    bool found = false;
    const trx_event *ev;
    for (uint32_t i = 0; !found && i < FIRST_SCAN && (ev = trx_cursor_next_ref(&c)) != NULL; i++) {
        if (k->follow_next || (!ev->synthetic && ev->core < TRX_MAX_CORES)) {
            *ticks = ev->ticks;
            found = true;
        }
    }
    trx_cursor_free(&c);
    return found;
}

void trx_core_tracker_fingerprint(const trx_core_tracker *k, const trx_trace *t, trx_fingerprint *f,
                                  uint64_t base)
{
    (void)t;
    (void)base; /* no event numbers in the state */
    uint64_t first;
    if (k->started && !walk_first_ticks(k, &first)) {
        trx_fp_unmergeable(f);
        return;
    }
    /* when the busy count last changed: the start of parallel time (two or
     * more busy), and the SMP rules' earliest date of a switch */
    bool busy_since_counts = k->busy >= 2 || (k->ready_at && !all_init(k));
    const uint64_t g[3] = {k->started, k->busy, busy_since_counts ? k->busy_since : 0};
    trx_fp_add(f, FP_TRACKER, g, 3);
    bool last_event_counts = k->follow_next && k->init_unknown;
    for (uint32_t core = 0; core < TRX_MAX_CORES; core++) {
        const core_state *c = &k->core[core];
        if (!c->seen && c->state == STATE_UNKNOWN && c->nesting == 0 && c->since == 0 &&
            !c->have_pending)
            continue;                         /* as a new tracker has it */
        bool runs = c->state == STATE_THREAD; /* context and thread matter then only */
        const uint64_t w[10] = {core,
                                c->state,
                                c->seen,
                                c->nesting,
                                runs ? c->context : 0,
                                runs ? (uint64_t)(int64_t)c->thread : 0,
                                c->have_pending,
                                c->have_pending ? c->pending : 0,
                                since_settles(k) ? 0 : c->since,
                                last_event_counts ? c->last_event : 0};
        trx_fp_add(f, FP_CORE, w, 10);
    }
    for (uint32_t th = 0; k->running_on && th < k->out.thread_count; th++) {
        if (k->running_on[th] >= 0) {
            const uint64_t w[2] = {th, (uint64_t)k->running_on[th]};
            trx_fp_add(f, FP_RUNNING_ON, w, 2);
        }
        if (k->ready_at[th] != UINT64_MAX) {
            const uint64_t w[2] = {th, k->ready_at[th]};
            trx_fp_add(f, FP_READY_AT, w, 2);
        }
    }
}

void trx_core_tracker_clear_results(trx_core_tracker *k)
{
    trx_core_stats *s = &k->out;
    uint64_t first;
    if (k->started) { /* a core first seen from now on starts its unknown time as the walk's */
        if (walk_first_ticks(k, &first))
            k->first_ticks = first;
        else
            k->oom = true; /* found by the fingerprint a moment ago: out of memory now */
    }
    for (uint32_t core = 0; core < TRX_MAX_CORES; core++)
        k->start_since[core] = k->core[core].since;
    memset(s->cores, 0, sizeof s->cores);
    for (uint32_t th = 0; th < s->thread_count; th++)
        s->threads[th] = (trx_thread_cores){0, 0, 0, 0};
    if (s->high_cores_)
        trx_address_map_free(s->high_cores_);
    free(s->high_cores_);
    free(s->high_masks_);
    s->high_cores_ = NULL;
    s->high_masks_ = NULL;
    s->high_count_ = s->high_cap_ = 0;
    s->parallel_ticks = s->max_parallel = s->beyond = 0;
    trx_core_thread_map_clear(&k->map);
    if (k->last_core && !k->entry_core) {
        size_t n = s->thread_count ? s->thread_count : 1;
        k->entry_core = malloc(n * sizeof *k->entry_core);
        k->entry_index = malloc(n * sizeof *k->entry_index);
        if (!k->entry_core || !k->entry_index) {
            free(k->entry_core);
            free(k->entry_index);
            k->entry_core = NULL;
            k->entry_index = NULL;
            k->oom = true;
        }
    }
    for (uint32_t th = 0; k->entry_core && th < s->thread_count; th++)
        k->entry_core[th] = -1;
}

/* Joins thread th's migrations: earlier's, the one at later's first own
 * event of the thread (from earlier's last core), later's. */
static void merge_migrations(trx_core_tracker *later, const trx_core_tracker *earlier, uint32_t th,
                             uint64_t offset)
{
    trx_thread_cores *l = &later->out.threads[th];
    const trx_thread_cores *e = &earlier->out.threads[th];
    uint64_t n = e->migrations, first = e->first_migration;
    int32_t before = earlier->last_core[th];
    if (later->entry_core && later->entry_core[th] >= 0 && before >= 0 &&
        before != later->entry_core[th] && n++ == 0)
        first = later->entry_index[th] + offset;
    if (l->migrations && n == 0)
        first = l->first_migration + offset;
    n += l->migrations;
    l->migrations = n;
    l->first_migration = n ? first : 0;
    if (later->last_core[th] < 0)
        later->last_core[th] = before;
}

int trx_core_tracker_merge(trx_core_tracker *later, trx_core_tracker *earlier, const trx_trace *t,
                           uint64_t offset)
{
    (void)t;
    trx_core_stats *l = &later->out;
    const trx_core_stats *e = &earlier->out;
    later->oom |= earlier->oom;
    if (earlier->started) {
        /* later started too (the states matched); its last event is the walk's
         * (in the segment, or the warm-up's last: earlier's), following: the
         * latest of all */
        later->first_ticks = earlier->first_ticks;
        if (later->follow_next && earlier->last_ticks > later->last_ticks)
            later->last_ticks = earlier->last_ticks;
    }
    /* the state at the start began at earlier's `since`, the segment knew it
     * from start_since on: the ticks between go where its interval goes */
    for (uint32_t core = 0; since_settles(later) && core < TRX_MAX_CORES; core++)
        if (earlier->core[core].seen)
            charge(later, core, &earlier->core[core],
                   later->start_since[core] - earlier->core[core].since);
    if (e->core_count > l->core_count)
        l->core_count = e->core_count;
    for (uint32_t core = 0; core < TRX_MAX_CORES; core++) {
        trx_core_profile *lp = &l->cores[core];
        const trx_core_profile *ep = &e->cores[core];
        lp->events += ep->events;
        lp->thread_ticks += ep->thread_ticks;
        lp->interrupt_ticks += ep->interrupt_ticks;
        lp->idle_ticks += ep->idle_ticks;
        lp->init_ticks += ep->init_ticks;
        lp->unknown_ticks += ep->unknown_ticks;
        lp->switches += ep->switches;
    }
    for (uint32_t th = 0; th < l->thread_count; th++) {
        trx_thread_cores *lt = &l->threads[th];
        const trx_thread_cores *et = &e->threads[th];
        lt->run_ticks += et->run_ticks;
        lt->core_mask |= et->core_mask;
        if (pairs_from_threads(later))
            lt->first_migration += et->first_migration; /* own events meanwhile (core0_profile) */
        else if (later->last_core)
            merge_migrations(later, earlier, th, offset);
        uint32_t row;
        if (e->high_cores_ && trx_address_map_get(e->high_cores_, th, &row)) {
            uint64_t *to = high_row(later, (int32_t)th);
            if (!to)
                return -1;
            for (size_t w = 0; w < sizeof *e->high_masks_ / sizeof(uint64_t); w++)
                to[w] |= e->high_masks_[row][w];
        }
    }
    l->parallel_ticks += e->parallel_ticks;
    if (e->max_parallel > l->max_parallel)
        l->max_parallel = e->max_parallel;
    l->beyond += e->beyond;
    if (!pairs_from_threads(later) && trx_core_thread_map_add_all(&later->map, &earlier->map) < 0)
        return -1;
    free(later->entry_core); /* the segment's start is behind */
    free(later->entry_index);
    later->entry_core = NULL;
    later->entry_index = NULL;
    return 0;
}
