/* latency.c - every instance of every thread (include/trx/latency.h): one
 * pass over the events with the rules of instance_rules.h; per thread its
 * open instance (release, execution so far), and its results in the
 * interval engine (analyze/intervals.h: response and execution
 * distributions, the worst instances). User intervals (--from/--to) use the
 * same accounting with their own start and end events; paired by a field,
 * the engine's matcher pairs them. */
#include <stdlib.h>
#include <string.h>

#include "analyze/instance_rules.h"
#include "analyze/latency_segments.h"
#include "trx/cores.h"
#include "analyze/intervals.h"

#define MAX_OPEN_KEYS 4096u /* paired user intervals open at once (more: incomplete) */

/* A thread's instance in progress. */
typedef struct open_instance {
    bool open;       /* released (or started), not ended */
    bool incomplete; /* crossed a gap */
    uint64_t number;
    uint64_t release_index, release_ticks;
    uint64_t execution;
} open_instance;

/* A later segment (instances, not user intervals): each thread's instance
 * open at the segment's first event is the part before's, unknown here;
 * what the segment adds to it is kept until the merge settles it. */
enum { PENDING_NONE = 0, PENDING_OPEN, PENDING_ENDED, PENDING_RELEASED };
typedef struct pending_instance {
    uint8_t state;        /* PENDING_*: still unknown, then how it went */
    bool gap;             /* a gap came while it was unknown */
    bool charged;         /* first_since / first_length hold the first charge */
    uint64_t execution;   /* charged while it was unknown (from each since) */
    uint64_t first_since; /* the first charge: from, and its length */
    uint64_t first_length;
    uint32_t first_slot;           /* ... on that core slot, */
    bool first_at_start;           /* ... from the slot's last switch before the segment */
    uint64_t end_index, end_ticks; /* PENDING_ENDED: where it ended */
} pending_instance;

/* A later segment: a thread its warm-up did not touch (its rule state
 * unknown, nothing asked) starts from the part before's state, unknown
 * here; its first RESUME or SUSPEND decides as from "unknown", and the
 * merge checks that the part before's state decides the same. */
typedef struct deferred_thread {
    uint8_t what;           /* TRX_CHANGE_* of that first RESUME / SUSPEND (0: none yet) */
    bool asked_before;      /* it asked for an object in the segment before it */
    uint32_t suspend_state; /* a SUSPEND's state word (info 2) */
} deferred_thread;

struct trx_latency_state {
    trx_instance_rules rules;
    open_instance *open;       /* per thread */
    pending_instance *pending; /* per thread in a later segment, else NULL */
    trx_rule_thread *at_start; /* per thread in a later segment: its rule state there */
    deferred_thread *deferred; /* per thread in a later segment */
    /* per core slot in a later segment: it switched since the segment
     * began (else its `since` is the warm-up's guess of the last switch) */
    bool *switched;
    trx_interval_result *results; /* per thread */
    trx_interval_matcher paired;  /* paired user intervals: by their field's value */
    /* per core: its last event's ticks; a step back (a broken time source)
     * is a gap in time: what is open across it gets no figure */
    uint64_t last_ticks[TRX_MAX_CORES];
    bool have_last[TRX_MAX_CORES];
};

/* Charges the time since the slot's last switch to its thread's open
 * instance (from its release on). */
static void charge(struct trx_latency_state *s, const trx_rule_slot *slot, uint64_t now)
{
    if (slot->thread < 0)
        return;
    open_instance *oi = &s->open[slot->thread];
    if (!oi->open) {
        pending_instance *p = s->pending ? &s->pending[slot->thread] : NULL;
        uint32_t k = (uint32_t)(slot - s->rules.slots);
        /* a slot that has not switched in the segment ran its thread from a
         * switch its warm-up may not have seen: the merge moves the start
         * of that charge (the thread's first: it ran there since) back */
        bool at_start = s->switched && !s->switched[k];
        if (p && p->state == PENDING_OPEN && (now > slot->since || (at_start && !p->charged))) {
            if (!p->charged) { /* the part before's release may come after its start */
                p->charged = true;
                p->first_since = slot->since;
                p->first_length = now - slot->since;
                p->first_slot = k;
                p->first_at_start = at_start;
            }
            p->execution += now - slot->since;
        }
        return;
    }
    uint64_t from = slot->since > oi->release_ticks ? slot->since : oi->release_ticks;
    if (now > from)
        oi->execution += now - from;
}

/* Charges the thread's running time up to `now` if it runs on some slot. */
static void charge_thread(struct trx_latency_state *s, int32_t th, uint64_t now)
{
    const trx_instance_rules *r = &s->rules;
    uint32_t n = r->per_core ? TRX_INSTANCE_SLOTS : 1u;
    for (uint32_t k = 0; k < n; k++)
        if (r->slots[k].seen && r->slots[k].thread == th) {
            charge(s, &r->slots[k], now);
            if (!r->per_core)
                break;
        }
}

static void begin(struct trx_latency_state *s, int32_t th, const trx_event *ev)
{
    open_instance *oi = &s->open[th];
    if (s->pending && s->pending[th].state == PENDING_OPEN)
        s->pending[th].state = PENDING_RELEASED; /* the part before's instance is dropped */
    oi->open = true;
    oi->incomplete = false;
    oi->number++;
    oi->release_index = ev->index;
    oi->release_ticks = ev->ticks;
    oi->execution = 0;
}

static void end(trx_latency *l, int32_t th, const trx_event *ev)
{
    struct trx_latency_state *s = l->state_;
    open_instance *oi = &s->open[th];
    trx_interval_result *row = &s->results[th];
    pending_instance *p = s->pending ? &s->pending[th] : NULL;
    if (p && p->state == PENDING_OPEN) { /* the part before's instance, if any, ends */
        charge_thread(s, th, ev->ticks);
        p->state = PENDING_ENDED;
        p->end_index = ev->index;
        p->end_ticks = ev->ticks;
        return;
    }
    if (!oi->open) { /* begun before the trace */
        row->incomplete++;
        return;
    }
    charge_thread(s, th, ev->ticks);
    oi->open = false;
    if (oi->incomplete) {
        row->incomplete++;
        return;
    }
    trx_instance in = {oi->number,        oi->release_index, ev->index,
                       oi->release_ticks, ev->ticks,         ev->ticks - oi->release_ticks,
                       oi->execution};
    trx_interval_result_add(row, &in, true);
}

/* User intervals keyed by a field: start, or end the matching one. */
static void paired(trx_latency *l, const trx_event *ev, int32_t th)
{
    struct trx_latency_state *s = l->state_;
    const trx_latency_options *o = &s->rules.options;
    trx_open_interval iv;
    if (ev->id == o->from.id && !ev->synthetic) {
        uint32_t key = ev->info[o->from.field & 3];
        int rc = trx_interval_start(&s->paired, key, th, TRX_INTERVAL_ALL_LANES, ev->index,
                                    ev->ticks, &iv);
        if (rc == TRX_INTERVAL_RESTARTED && iv.owner >= 0) /* the first never completes */
            s->results[iv.owner].incomplete++;
        else if (rc == TRX_INTERVAL_FULL && th >= 0)
            s->results[th].incomplete++;
        return;
    }
    if (ev->id != o->to.id || ev->synthetic)
        return;
    uint32_t key = ev->info[(o->to.field >= 0 ? o->to.field : o->from.field) & 3];
    if (trx_interval_stop(&s->paired, key, TRX_INTERVAL_ALL_LANES, ev->index, ev->ticks, &iv) !=
            1 ||
        iv.owner < 0)
        return;
    trx_interval_result *row = &s->results[iv.owner];
    if (trx_interval_crossed_gap(&s->paired, &iv)) {
        row->incomplete++;
        return;
    }
    trx_instance in = {row->complete + row->incomplete + 1,
                       iv.start_index,
                       ev->index,
                       iv.start_ticks,
                       ev->ticks,
                       ev->ticks - iv.start_ticks,
                       0};
    trx_interval_result_add(row, &in, false);
}

int trx_latency_start(trx_latency *l, trx_trace *t, const trx_latency_options *o)
{
    return trx_latency_start_as(l, t, o, -1);
}

int trx_latency_start_as(trx_latency *l, trx_trace *t, const trx_latency_options *o, int txtb_smp)
{
    memset(l, 0, sizeof *l);
    struct trx_latency_state *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    l->state_ = s;
    trx_latency_options opts;
    memset(&opts, 0, sizeof opts);
    if (o)
        opts = *o;
    if (!o)
        opts.worst = 5;
    if (opts.worst > TRX_LATENCY_MAX_WORST)
        opts.worst = TRX_LATENCY_MAX_WORST;
    uint32_t n = t->thread_count ? t->thread_count : 1;
    if (trx_instance_rules_init_as(&s->rules, t, &opts, txtb_smp) < 0 ||
        !(s->open = calloc(n, sizeof *s->open)) || !(s->results = calloc(n, sizeof *s->results)) ||
        trx_interval_matcher_init(&s->paired, MAX_OPEN_KEYS, false) < 0) {
        trx_latency_free(l);
        return -1;
    }
    for (uint32_t i = 0; i < t->thread_count; i++)
        if (trx_interval_result_init(&s->results[i], opts.worst) < 0) {
            trx_latency_free(l);
            return -1;
        }
    return 0;
}

/* Whether a thread's rule state says nothing: never touched by the rules. */
static bool untouched(const trx_rule_thread *rt)
{
    return rt->state == TRX_TS_UNKNOWN && !rt->asked_any;
}

/* A later segment: the first change of a thread untouched where it began. */
static void note_deferred(struct trx_latency_state *s, const trx_event *ev,
                          const trx_instance_change *ch)
{
    deferred_thread *d = &s->deferred[ch->thread];
    if (!untouched(&s->at_start[ch->thread]) || d->what)
        return;
    d->what = ch->what;
    d->asked_before = s->rules.threads[ch->thread].asked_any;
    d->suspend_state = ev->info[1];
}

void trx_latency_feed(trx_latency *l, const trx_event *ev)
{
    struct trx_latency_state *s = l->state_;
    trx_instance_rules *r = &s->rules;
    uint32_t core = ev->core < TRX_MAX_CORES ? ev->core : 0;
    bool back = s->have_last[core] && ev->ticks < s->last_ticks[core];
    s->last_ticks[core] = ev->ticks;
    s->have_last[core] = true;
    if (ev->lost_before || back) { /* every open instance crosses the gap */
        trx_interval_gap(&s->paired, TRX_INTERVAL_ALL_LANES);
        for (uint32_t i = 0; i < r->thread_count; i++) {
            if (s->open[i].open)
                s->open[i].incomplete = true;
            if (s->pending && s->pending[i].state == PENDING_OPEN)
                s->pending[i].gap = true;
        }
    }
    const trx_latency_options *o = &r->options;
    if (o->intervals) {
        int32_t th = ev->thread >= 0 && !ev->synthetic ? trx_rules_thread_of(r, ev->context) : -1;
        if (o->from.field >= 0)
            paired(l, ev, th);
        else if (th >= 0 && ev->id == o->from.id && !ev->synthetic && !s->open[th].open)
            begin(s, th, ev);
        else if (th >= 0 && ev->id == o->to.id && !ev->synthetic)
            end(l, th, ev);
    } else {
        trx_instance_change ch;
        trx_rules_apply(r, ev, &ch);
        if (s->deferred && ch.what != TRX_CHANGE_NONE && ch.before == TRX_TS_UNKNOWN)
            note_deferred(s, ev, &ch);
        if (ch.what == TRX_CHANGE_RELEASE)
            begin(s, ch.thread, ev);
        else if (ch.what == TRX_CHANGE_END)
            end(l, ch.thread, ev);
    }
    int32_t moved = trx_rules_moved_from(r, ev);
    if (moved >= 0) { /* SMP: the thread left that core when it logs on this one */
        charge(s, &r->slots[moved], ev->ticks);
        trx_rules_vacate(r, (uint32_t)moved, ev->ticks);
        if (s->switched)
            s->switched[moved] = true;
    }
    if (trx_rules_switches(r, ev)) {
        uint32_t k = trx_rules_slot_of(r, ev);
        const trx_rule_slot *slot = &r->slots[k];
        if (slot->seen)
            charge(s, slot, ev->ticks);
        trx_rules_run(r, ev);
        if (s->switched)
            s->switched[k] = true;
    } else
        trx_rules_run(r, ev);
}

int trx_latency_finish(trx_latency *l)
{
    struct trx_latency_state *s = l->state_;
    const trx_trace *t = s->rules.trace;
    uint32_t n = 0;
    trx_latency_row *rows = calloc(t->thread_count ? t->thread_count : 1, sizeof *rows);
    if (!rows)
        return -1;
    for (uint32_t i = 0; i < t->thread_count; i++) {
        trx_interval_result *r = &s->results[i];
        r->incomplete += s->open[i].open; /* still open at the end */
        trx_interval_result_finish(r);
        if (!r->complete && !r->incomplete) {
            trx_interval_result_free(r);
            continue;
        }
        rows[n++] = (trx_latency_row){(int32_t)i,    t->threads[i].address, r->complete,
                                      r->incomplete, r->duration,           r->work,
                                      r->worst,      r->worst_count};
        memset(r, 0, sizeof *r); /* the row owns its worst list now */
    }
    l->rows = rows;
    l->row_count = n;
    return 0;
}

int trx_latency_compute(trx_trace *t, const trx_latency_options *o, trx_latency *out)
{
    int seg = trx_latency_compute_parallel(t, o, out);
    if (seg != TRX_LATENCY_ONE_WALK)
        return seg;
    trx_trace_prepare(t);
    if (trx_latency_start(out, t, o) < 0)
        return -1;
    trx_cursor c;
    if (trx_cursor_init(&c, t) < 0) {
        trx_latency_free(out);
        return -1;
    }
    const trx_event *ev;
    while ((ev = trx_cursor_next_ref(&c)) != NULL)
        trx_latency_feed(out, ev);
    return trx_latency_finish(out);
}

void trx_latency_free(trx_latency *l)
{
    struct trx_latency_state *s = l->state_;
    if (s) {
        if (s->results) {
            uint32_t n = s->rules.trace ? s->rules.trace->thread_count : 0;
            for (uint32_t i = 0; i < n; i++)
                trx_interval_result_free(&s->results[i]);
            free(s->results);
        }
        trx_instance_rules_free(&s->rules);
        free(s->open);
        free(s->pending);
        free(s->at_start);
        free(s->deferred);
        free(s->switched);
        trx_interval_matcher_free(&s->paired);
        free(s);
    }
    for (uint32_t i = 0; i < l->row_count; i++)
        free(l->rows[i].worst);
    free(l->rows);
    memset(l, 0, sizeof *l);
}

/* ---- segments (latency_segments.h) ---- */

/* Fingerprint tags: which part of the state an entry is. */
enum { FP_SLOT = 2, FP_SLOTS_USED, FP_LOCKS, FP_OBJECTS, FP_OPEN, FP_LAST_TICKS, FP_PAIRED };

/* User intervals paired by a field: the matcher's open intervals are state
 * like a thread's open instance (a segment whose warm-up saw them all
 * start merges; one that began inside an interval walks again). */
static bool paired_by_field(const trx_latency_options *o)
{
    return o->intervals && o->from.field >= 0;
}

void trx_latency_fingerprint(const trx_latency *l, trx_fingerprint *f, uint64_t base)
{
    const struct trx_latency_state *s = l->state_;
    const trx_instance_rules *r = &s->rules;
    /* each thread's rule state: compared by the merge (a thread the
     * segment's warm-up did not touch is deferred: trx_latency_merge) */
    for (uint32_t i = 0; i < r->thread_count; i++) {
        const open_instance *oi = &s->open[i];
        /* its number is shifted at the merge, not compared; instances (not
         * user intervals): a later segment takes the part before's open
         * instance at the merge, whatever it is (trx_latency_clear_results) */
        if (oi->open && r->options.intervals) {
            const uint64_t w[5] = {i, oi->incomplete, oi->release_index - base, oi->release_ticks,
                                   oi->execution};
            trx_fp_add(f, FP_OPEN, w, 5);
        }
    }
    for (uint32_t k = 0; k < TRX_INSTANCE_SLOTS; k++) {
        const trx_rule_slot *sl = &r->slots[k];
        if (!sl->seen && !sl->context && sl->thread < 0 && !sl->since && !sl->isr_depth &&
            !sl->after_isr)
            continue;
        /* the ISR nesting: its depth and the innermost (latency reads no
         * more of it; entries beyond the depth are stale) */
        uint32_t depth = sl->isr_depth;
        bool in_isr = depth > 0 && depth <= TRX_INSTANCE_ISR_NEST;
        const uint64_t w[8] = {k,
                               sl->context,
                               (uint32_t)sl->thread,
                               0, /* `since`: compared at the merge (switched) */
                               in_isr ? sl->isr[depth - 1] : 0,
                               in_isr ? (sl->isr_swi >> (depth - 1) & 1u) : 0,
                               (uint64_t)depth << 32 | sl->after_isr,
                               sl->seen};
        trx_fp_add(f, FP_SLOT, w, 8);
    }
    trx_fp_word(f, FP_SLOTS_USED, r->slots_used);
    for (uint32_t k = 0; k < TRX_LATENCY_MAX_LOCKS; k++)
        if (r->lock_owner[k]) {
            const uint64_t w[2] = {k, r->lock_owner[k]};
            trx_fp_add(f, FP_LOCKS, w, 2);
        }
    for (uint32_t k = 0; k < TRX_INSTANCE_SLOTS; k++)
        if (r->last_object[k] || r->last_object_by[k]) {
            const uint64_t w[3] = {k, r->last_object[k], r->last_object_by[k]};
            trx_fp_add(f, FP_OBJECTS, w, 3);
        }
    for (uint32_t c = 0; c < TRX_MAX_CORES; c++)
        if (s->have_last[c]) {
            const uint64_t w[2] = {c, s->last_ticks[c]};
            trx_fp_add(f, FP_LAST_TICKS, w, 2);
        }
    const trx_interval_matcher *m = &s->paired;
    for (uint32_t k = 0; paired_by_field(&r->options) && k < m->pool_size; k++) {
        const trx_open_interval *iv = &m->open[k];
        if (!iv->used)
            continue;
        const uint64_t w[5] = {iv->key, (uint64_t)iv->owner, iv->start_index - base,
                               iv->start_ticks, trx_interval_crossed_gap(m, iv)};
        trx_fp_add(f, FP_PAIRED, w, 5);
    }
}

int trx_latency_clear_results(trx_latency *l, uint64_t *numbers)
{
    struct trx_latency_state *s = l->state_;
    uint32_t keep = s->rules.options.worst;
    bool defer = !s->rules.options.intervals;
    size_t n = s->rules.thread_count ? s->rules.thread_count : 1;
    if (defer && !s->pending && !(s->pending = calloc(n, sizeof *s->pending)))
        return -1;
    if (defer &&
        ((!s->at_start && !(s->at_start = calloc(n, sizeof *s->at_start))) ||
         (!s->deferred && !(s->deferred = calloc(n, sizeof *s->deferred))) ||
         (!s->switched && !(s->switched = calloc(TRX_INSTANCE_SLOTS, sizeof *s->switched)))))
        return -1;
    if (defer)
        memset(s->switched, 0, TRX_INSTANCE_SLOTS * sizeof *s->switched);
    for (uint32_t i = 0; defer && i < s->rules.thread_count; i++) {
        s->at_start[i] = s->rules.threads[i];
        s->rules.threads[i].asked_any = false; /* from here: asked in the segment */
        memset(&s->deferred[i], 0, sizeof s->deferred[i]);
    }
    for (uint32_t i = 0; i < s->rules.thread_count; i++) {
        numbers[i] = s->open[i].number;
        trx_interval_result_free(&s->results[i]);
        if (trx_interval_result_init(&s->results[i], keep) < 0)
            return -1;
        if (defer) { /* the warm-up's open instance: the part before knows the real one */
            s->open[i].open = false;
            memset(&s->pending[i], 0, sizeof s->pending[i]);
            s->pending[i].state = PENDING_OPEN;
        }
    }
    return 0;
}

/* Settles thread i's instance open where `later` (a segment with pending
 * instances) begins, from `earlier`'s open instance `e`: as one walk would
 * have ended, dropped or carried it on. */
static void settle_pending(struct trx_latency_state *es, const pending_instance *pending,
                           uint32_t i, uint64_t offset)
{
    open_instance *e = &es->open[i];
    pending_instance moved = *pending, *p = &moved;
    /* a first charge from its slot's last switch before the segment: from
     * the part before's, which saw that switch */
    uint64_t truth = es->rules.slots[p->first_slot].since;
    if (p->charged && p->first_at_start && truth < p->first_since) {
        p->execution += p->first_since - truth;
        p->first_length += p->first_since - truth;
        p->first_since = truth;
    }
    if (p->state == PENDING_RELEASED) /* as begin: an instance open is dropped (under */
        return;                       /* the rules none is: a release finds it waiting) */
    if (!e->open) { /* no instance open before: an end of one begun before the trace */
        if (p->state == PENDING_ENDED)
            es->results[i].incomplete++;
        return;
    }
    /* the segment charged from each start; the first may have begun before the release */
    uint64_t execution = p->execution;
    if (p->charged && e->release_ticks > p->first_since) {
        uint64_t over = e->release_ticks - p->first_since;
        execution -= over < p->first_length ? over : p->first_length;
    }
    e->execution += execution;
    e->incomplete = e->incomplete || p->gap;
    if (p->state == PENDING_OPEN) /* still open at the segment's end */
        return;
    e->open = false;
    if (e->incomplete) {
        es->results[i].incomplete++;
        return;
    }
    trx_instance in = {e->number,        e->release_index, p->end_index + offset,
                       e->release_ticks, p->end_ticks,     p->end_ticks - e->release_ticks,
                       e->execution};
    trx_interval_result_add(&es->results[i], &in, true);
}

/* Whether thread i's rule state where `ls` (a later segment) began agrees
 * with `tr`, the part before's at its end: the same, or untouched there
 * and its first change in the segment the one `tr` makes. */
static bool thread_agrees(const struct trx_latency_state *ls, uint32_t i, const trx_rule_thread *tr)
{
    const trx_rule_thread *st = &ls->at_start[i];
    if (!untouched(st))
        return st->state == tr->state && st->asked == tr->asked &&
               st->asked_holder == tr->asked_holder;
    const deferred_thread *d = &ls->deferred[i];
    if (d->what == TRX_CHANGE_RELEASE) /* a RESUME: from waiting or unknown only */
        return tr->state == TRX_TS_UNKNOWN || tr->state == TRX_TS_WAITING;
    if (d->what == TRX_CHANGE_BLOCK || d->what == TRX_CHANGE_END) { /* a SUSPEND */
        bool lock = d->asked_before ? d->what == TRX_CHANGE_BLOCK
                                    : trx_rules_lock_wait(&ls->rules, tr->asked, d->suspend_state);
        return (lock && tr->state != TRX_TS_WAITING) == (d->what == TRX_CHANGE_BLOCK);
    }
    return true; /* no change: the part before's state goes on */
}

/* After the merge took the later's rules: each thread untouched where the
 * later began keeps the part before's state `tr` until the later changed it. */
static void carry_deferred(const struct trx_latency_state *ls, trx_rule_thread *m,
                           const trx_rule_thread *tr, uint32_t i)
{
    if (!untouched(&ls->at_start[i]))
        return;
    if (!ls->deferred[i].what)
        m->state = tr->state;
    if (!m->asked_any) {
        m->asked = tr->asked;
        m->asked_holder = tr->asked_holder;
    }
}

int trx_latency_merge(trx_latency *later, trx_latency *earlier, const uint64_t *later_numbers,
                      uint64_t offset)
{
    struct trx_latency_state *ls = later->state_, *es = earlier->state_;
    for (uint32_t i = 0; ls->at_start && i < ls->rules.thread_count; i++)
        if (!thread_agrees(ls, i, &es->rules.threads[i]))
            return TRX_MERGE_REFUSED; /* nothing changed: walked again */
    const bool paired = paired_by_field(&ls->rules.options);
    for (uint32_t i = 0; i < ls->rules.thread_count; i++) {
        const pending_instance *p = ls->pending ? &ls->pending[i] : NULL;
        if (p)
            settle_pending(es, p, i, offset);
        /* instances are numbered by their release; paired intervals by
         * their row's count when they end (the later's from 1) */
        uint64_t shift = paired ? es->results[i].complete + es->results[i].incomplete
                                : es->open[i].number - later_numbers[i];
        trx_interval_result *r = &ls->results[i];
        for (uint32_t w = 0; w < r->worst_count; w++) {
            r->worst[w].number += shift;
            r->worst[w].release_index += offset;
            r->worst[w].end_index += offset;
        }
        if (trx_interval_result_merge(&es->results[i], r) < 0)
            return -1;
        open_instance oi = ls->open[i];
        oi.number += shift;
        if (oi.open)
            oi.release_index += offset;
        if (!p || p->state != PENDING_OPEN) /* else: the earlier's, carried on */
            es->open[i] = oi;
    }
    /* the rules' state: the later's (same sizes; swapped so that each is freed once) */
    trx_instance_rules tmp = es->rules;
    es->rules = ls->rules;
    ls->rules = tmp;
    for (uint32_t i = 0; ls->at_start && i < es->rules.thread_count; i++)
        carry_deferred(ls, &es->rules.threads[i], &ls->rules.threads[i], i);
    for (uint32_t k = 0; ls->switched && k < TRX_INSTANCE_SLOTS; k++)
        if (!ls->switched[k]) /* its last switch: the part before's */
            es->rules.slots[k].since = ls->rules.slots[k].since;
    memcpy(es->last_ticks, ls->last_ticks, sizeof es->last_ticks);
    memcpy(es->have_last, ls->have_last, sizeof es->have_last);
    /* the paired intervals open: the later's (the fingerprints matched:
     * the same ones were open where it began), numbered as the trace's */
    for (uint32_t k = 0; k < ls->paired.pool_size; k++)
        if (ls->paired.open[k].used)
            ls->paired.open[k].start_index += offset;
    trx_interval_matcher m = es->paired;
    es->paired = ls->paired;
    ls->paired = m;
    return 0;
}
