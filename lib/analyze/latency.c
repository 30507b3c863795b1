/* latency.c - every instance of every thread (include/trx/latency.h): one
 * pass over the events with the rules of instance_rules.h; per thread its
 * open instance (release, execution so far), the response and execution
 * distributions and the worst instances. User intervals (--from/--to) use
 * the same accounting with their own start and end events. */
#include <stdlib.h>
#include <string.h>

#include "analyze/instance_rules.h"
#include "util/address_map.h"
#include "util/log_histogram.h"

#define MAX_OPEN_KEYS 4096u /* paired user intervals open at once (more: incomplete) */

/* A thread's instance in progress. */
typedef struct open_instance {
    bool open;       /* released (or started), not ended */
    bool incomplete; /* crossed a gap */
    uint64_t number;
    uint64_t release_index, release_ticks;
    uint64_t execution;
} open_instance;

/* A paired user interval in progress (keyed by its field's value). */
typedef struct open_key {
    int32_t thread;
    uint64_t index, ticks;
    uint64_t gap_mark; /* gaps seen when it started */
} open_key;

struct trx_latency_state {
    trx_instance_rules rules;
    open_instance *open;   /* per thread */
    trx_latency_row *rows; /* per thread (compacted at the end) */
    uint64_t gaps_seen;
    trx_address_map keys; /* paired intervals: field value -> open_keys index + 1 */
    open_key *open_keys;
    uint32_t open_key_count, free_count;
};

static void dist_add(trx_latency_dist *d, uint64_t v)
{
    trx_log_hist_add(&d->hist_, &d->count, &d->sum, &d->min, &d->max, v);
}

static void dist_finish(trx_latency_dist *d)
{
    d->p50 = trx_log_hist_percentile(d->hist_, d->count, 50, d->min, d->max);
    d->p90 = trx_log_hist_percentile(d->hist_, d->count, 90, d->min, d->max);
    d->p99 = trx_log_hist_percentile(d->hist_, d->count, 99, d->min, d->max);
    /* the equal bins of the page's histogram, from the log-linear buckets */
    memset(d->bins, 0, sizeof d->bins);
    d->bin_width = d->count ? (d->max - d->min) / TRX_LATENCY_BINS + 1 : 0;
    for (uint32_t b = 0; d->hist_ && b < TRX_LOG_HIST_BUCKETS; b++) {
        if (!d->hist_[b])
            continue;
        uint64_t top = trx_log_hist_top(b);
        top = top > d->max ? d->max : top < d->min ? d->min : top;
        d->bins[(top - d->min) / d->bin_width] += d->hist_[b];
    }
    free(d->hist_);
    d->hist_ = NULL;
}

/* Keeps `in` among the row's `keep` worst (longest response first; ties:
 * the earlier instance first). */
static void keep_worst(trx_latency_row *row, uint32_t keep, const trx_instance *in)
{
    if (!keep || !row->worst)
        return;
    uint32_t n = row->worst_count;
    if (n == keep && row->worst[n - 1].response_ticks >= in->response_ticks)
        return;
    uint32_t at = n < keep ? n : keep - 1;
    while (at > 0 && row->worst[at - 1].response_ticks < in->response_ticks) {
        row->worst[at] = row->worst[at - 1];
        at--;
    }
    row->worst[at] = *in;
    if (n < keep)
        row->worst_count++;
}

/* Charges the time since the slot's last switch to its thread's open
 * instance (from its release on). */
static void charge(struct trx_latency_state *s, const trx_rule_slot *slot, uint64_t now)
{
    if (slot->thread < 0)
        return;
    open_instance *oi = &s->open[slot->thread];
    if (!oi->open)
        return;
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
    trx_latency_row *row = &s->rows[th];
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
    row->instances++;
    dist_add(&row->response, in.response_ticks);
    dist_add(&row->execution, in.execution_ticks);
    keep_worst(row, s->rules.options.worst, &in);
}

/* A free place among the open keys (1-based), 0 when all are taken. */
static uint32_t free_key(struct trx_latency_state *s)
{
    if (s->open_key_count < MAX_OPEN_KEYS)
        return ++s->open_key_count;
    if (!s->free_count)
        return 0;
    for (uint32_t k = 0; k < s->open_key_count; k++)
        if (s->open_keys[k].index == UINT64_MAX) {
            s->free_count--;
            return k + 1;
        }
    return 0;
}

/* Drops the values of ended intervals from the map, so that it grows with
 * the intervals open at once, not with every value ever seen. */
static void forget_ended(struct trx_latency_state *s)
{
    trx_address_map kept;
    memset(&kept, 0, sizeof kept);
    for (uint32_t i = 0; i < s->keys.cap; i++) {
        const trx_address_slot *e = &s->keys.slots[i];
        bool added;
        if (e->used && e->value && !trx_address_map_slot(&kept, e->key, e->value, &added)) {
            trx_address_map_free(&kept);
            return; /* out of memory: keep the old map */
        }
    }
    trx_address_map_free(&s->keys);
    s->keys = kept;
}

/* User intervals keyed by a field: start, or end the matching one. */
static void paired(trx_latency *l, const trx_event *ev, int32_t th)
{
    struct trx_latency_state *s = l->state_;
    const trx_latency_options *o = &s->rules.options;
    if (ev->id == o->from.id && !ev->synthetic) {
        uint32_t key = ev->info[o->from.field & 3];
        bool added;
        uint32_t *slot = trx_address_map_slot(&s->keys, key, 0, &added);
        if (!slot)
            return;
        if (!added && *slot) { /* started again before it ended: the first never completes */
            open_key *k = &s->open_keys[*slot - 1];
            if (k->thread >= 0)
                s->rows[k->thread].incomplete++;
        } else if ((*slot = free_key(s)) == 0) {
            *slot = 0;
            if (th >= 0)
                s->rows[th].incomplete++;
            return;
        }
        if (*slot)
            s->open_keys[*slot - 1] = (open_key){th, ev->index, ev->ticks, s->gaps_seen};
        return;
    }
    if (ev->id != o->to.id || ev->synthetic)
        return;
    uint32_t *slot = trx_address_map_find(
        &s->keys, ev->info[(o->to.field >= 0 ? o->to.field : o->from.field) & 3]);
    if (!slot || !*slot)
        return;
    open_key *k = &s->open_keys[*slot - 1];
    if (k->thread >= 0) {
        trx_latency_row *row = &s->rows[k->thread];
        if (k->gap_mark != s->gaps_seen)
            row->incomplete++;
        else {
            trx_instance in = {row->instances + row->incomplete + 1,
                               k->index,
                               ev->index,
                               k->ticks,
                               ev->ticks,
                               ev->ticks - k->ticks,
                               0};
            row->instances++;
            dist_add(&row->response, in.response_ticks);
            keep_worst(row, o->worst, &in);
        }
    }
    k->thread = -1; /* ended: its place is free again */
    k->index = UINT64_MAX;
    *slot = 0;
    s->free_count++;
    if (s->keys.count > 4 * MAX_OPEN_KEYS)
        forget_ended(s);
}

int trx_latency_start(trx_latency *l, trx_trace *t, const trx_latency_options *o)
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
    if (trx_instance_rules_init(&s->rules, t, &opts) < 0 ||
        !(s->open = calloc(n, sizeof *s->open)) || !(s->rows = calloc(n, sizeof *s->rows)) ||
        (opts.intervals && opts.from.field >= 0 &&
         !(s->open_keys = calloc(MAX_OPEN_KEYS, sizeof *s->open_keys)))) {
        trx_latency_free(l);
        return -1;
    }
    for (uint32_t i = 0; i < t->thread_count; i++) {
        s->rows[i].thread = (int32_t)i;
        s->rows[i].address = t->threads[i].address;
        if (opts.worst && !(s->rows[i].worst = calloc(opts.worst, sizeof(trx_instance)))) {
            trx_latency_free(l);
            return -1;
        }
    }
    return 0;
}

void trx_latency_feed(trx_latency *l, const trx_event *ev)
{
    struct trx_latency_state *s = l->state_;
    trx_instance_rules *r = &s->rules;
    if (ev->lost_before) { /* every open instance crosses the gap */
        s->gaps_seen++;
        for (uint32_t i = 0; i < r->thread_count; i++)
            if (s->open[i].open)
                s->open[i].incomplete = true;
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
        if (ch.what == TRX_CHANGE_RELEASE)
            begin(s, ch.thread, ev);
        else if (ch.what == TRX_CHANGE_END)
            end(l, ch.thread, ev);
    }
    int32_t moved = trx_rules_moved_from(r, ev);
    if (moved >= 0) { /* SMP: the thread left that core when it logs on this one */
        charge(s, &r->slots[moved], ev->ticks);
        trx_rules_vacate(r, (uint32_t)moved, ev->ticks);
    }
    if (trx_rules_switches(r, ev)) {
        const trx_rule_slot *slot = &r->slots[trx_rules_slot_of(r, ev)];
        if (slot->seen)
            charge(s, slot, ev->ticks);
        trx_rules_run(r, ev);
    } else
        trx_rules_run(r, ev);
}

int trx_latency_finish(trx_latency *l)
{
    struct trx_latency_state *s = l->state_;
    const trx_trace *t = s->rules.trace;
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->thread_count; i++) {
        trx_latency_row *row = &s->rows[i];
        row->incomplete += s->open[i].open; /* still open at the end */
        dist_finish(&row->response);
        dist_finish(&row->execution);
        if (row->instances || row->incomplete)
            s->rows[n++] = *row;
        else
            free(row->worst);
    }
    l->rows = s->rows;
    l->row_count = n;
    s->rows = NULL;
    return 0;
}

int trx_latency_compute(trx_trace *t, const trx_latency_options *o, trx_latency *out)
{
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
        if (s->rows) {
            uint32_t n = s->rules.trace ? s->rules.trace->thread_count : 0;
            for (uint32_t i = 0; i < n; i++) {
                free(s->rows[i].worst);
                free(s->rows[i].response.hist_);
                free(s->rows[i].execution.hist_);
            }
            free(s->rows);
        }
        trx_instance_rules_free(&s->rules);
        free(s->open);
        free(s->open_keys);
        trx_address_map_free(&s->keys);
        free(s);
    }
    for (uint32_t i = 0; i < l->row_count; i++)
        free(l->rows[i].worst);
    free(l->rows);
    memset(l, 0, sizeof *l);
}
