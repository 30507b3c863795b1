/*
 * diff_rows.c - builds the rows of `trx diff` from two traces' statistics:
 * summary, performance, execution profile, stack usage, inversions per lock
 * (threads and locks matched by name, the k-th of a name with the k-th).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_rows.h"

static diff_row *add(diff_rows *d, const char *section, const char *name, const char *field)
{
    if (d->count == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 64;
        diff_row *n = realloc(d->rows, cap * sizeof *n);
        if (!n) {
            d->oom = true;
            return NULL;
        }
        d->rows = n;
        d->cap = cap;
    }
    diff_row *r = &d->rows[d->count++];
    memset(r, 0, sizeof *r);
    r->section = section;
    r->name = name;
    r->field = field;
    return r;
}

static void figure(diff_rows *d, const char *section, const char *name, uint64_t a, uint64_t b)
{
    diff_row *r = add(d, section, name, "");
    if (r) {
        r->has_a = r->has_b = true;
        r->a = a;
        r->b = b;
    }
}

/* ----------------------------------------------------- name matching */

typedef struct named {
    const char *name;
    size_t index, rank;
} named;

static int by_name_index(const void *x, const void *y)
{
    const named *p = x, *q = y;
    int c = strcmp(p->name, q->name);
    return c ? c : (p->index > q->index) - (p->index < q->index);
}

static int by_name_rank(const void *x, const void *y)
{
    const named *p = x, *q = y;
    int c = strcmp(p->name, q->name);
    return c ? c : (p->rank > q->rank) - (p->rank < q->rank);
}

static named *ranked(const char *const *names, size_t n)
{
    named *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return NULL;
    for (size_t i = 0; i < n; i++)
        v[i] = (named){names[i], i, 0};
    qsort(v, n, sizeof *v, by_name_index);
    for (size_t i = 1; i < n; i++)
        if (strcmp(v[i].name, v[i - 1].name) == 0)
            v[i].rank = v[i - 1].rank + 1;
    return v;
}

int diff_match_names(const char *const *a, size_t na, const char *const *b, size_t nb,
                     int64_t *a_to_b, bool *b_used)
{
    named *va = ranked(a, na), *vb = ranked(b, nb);
    if (!va || !vb) {
        free(va);
        free(vb);
        return -1;
    }
    for (size_t j = 0; j < nb; j++)
        b_used[j] = false;
    for (size_t i = 0; i < na; i++) {
        const named *m = bsearch(&va[i], vb, nb, sizeof *vb, by_name_rank);
        a_to_b[va[i].index] = m ? (int64_t)m->index : -1;
        if (m)
            b_used[m->index] = true;
    }
    free(va);
    free(vb);
    return 0;
}

/* ---------------------------------------------------- per-item tables */

/* A table of named items with `fields` values each (has = known):
 * values[item * fields + field]. ISRs are named by their number. */
typedef struct items {
    const char **names;
    char (*owned)[16];  /* names written here (ISR numbers) */
    uint32_t *isr;      /* the ISR numbers (ISR tables), else NULL */
    uint32_t *isr_core; /* with isr: each one's core (AMP), else TRX_UNKNOWN */
    uint64_t *values;
    bool *has;
    size_t count, fields;
} items;

static void items_free(items *it)
{
    free(it->names);
    free(it->owned);
    free(it->isr);
    free(it->isr_core);
    free(it->values);
    free(it->has);
}

static int items_alloc(items *it, size_t n, size_t fields)
{
    size_t cells = n * fields > 0 ? n * fields : 1;
    it->count = n;
    it->fields = fields;
    it->names = malloc((n ? n : 1) * sizeof *it->names);
    it->values = calloc(cells, sizeof *it->values);
    it->has = calloc(cells, sizeof *it->has);
    return it->names && it->values && it->has ? 0 : -1;
}

static void put(items *it, size_t item, size_t field, uint64_t v, bool has)
{
    it->values[item * it->fields + field] = v;
    it->has[item * it->fields + field] = has;
}

/* One row per field of item `i` of A (with its match `j` in B, or -1) or,
 * when `i` < 0, of item `j` of B alone. */
static void item_rows(diff_rows *d, const char *section, const char *const *fields, const items *a,
                      int64_t i, const items *b, int64_t j)
{
    for (size_t f = 0; f < a->fields; f++) {
        const items *named = i >= 0 ? a : b;
        int64_t k = i >= 0 ? i : j;
        diff_row *r = add(d, section, named->isr ? NULL : named->names[k], fields[f]);
        if (!r)
            return;
        if (named->isr) {
            r->isr = named->isr[k];
            r->isr_core = named->isr_core[k];
        }
        if (i >= 0) {
            r->has_a = a->has[(size_t)i * a->fields + f];
            r->a = a->values[(size_t)i * a->fields + f];
        }
        if (j >= 0) {
            r->has_b = b->has[(size_t)j * b->fields + f];
            r->b = b->values[(size_t)j * b->fields + f];
        }
    }
}

/* Rows of `section` for the items of A (in A's order, matched ones with
 * B's values) then those only in B; `fields` names each value. */
static void matched_rows(diff_rows *d, const char *section, const char *const *fields,
                         const items *a, const items *b)
{
    int64_t *a_to_b = malloc((a->count ? a->count : 1) * sizeof *a_to_b);
    bool *b_used = malloc(b->count ? b->count : 1);
    if (!a_to_b || !b_used ||
        diff_match_names(a->names, a->count, b->names, b->count, a_to_b, b_used) != 0) {
        d->oom = true;
    } else {
        for (size_t i = 0; i < a->count; i++)
            item_rows(d, section, fields, a, (int64_t)i, b, a_to_b[i]);
        for (size_t j = 0; j < b->count; j++)
            if (!b_used[j])
                item_rows(d, section, fields, a, -1, b, (int64_t)j);
    }
    free(a_to_b);
    free(b_used);
}

static const char *thread_name(const trx_trace *t, uint32_t i)
{
    return t->objects[t->threads[i].object_index].name;
}

/* Execution profile: ticks per thread, then Interrupt, the idle row
 * (trx_idle_name) and Initialization (the rest of the span), as trx stats
 * lists them. */
static int profile_items(const diff_side *s, items *it)
{
    const trx_trace *t = s->trace;
    if (items_alloc(it, t->thread_count + 3, 1) != 0)
        return -1;
    uint64_t counted = s->stats->interrupt_ticks + s->stats->idle_ticks;
    for (uint32_t i = 0; i < t->thread_count; i++) {
        it->names[i] = thread_name(t, i);
        put(it, i, 0, s->stats->threads[i].execution_ticks, true);
        counted += s->stats->threads[i].execution_ticks;
    }
    size_t k = t->thread_count;
    it->names[k] = "Interrupt";
    put(it, k, 0, s->stats->interrupt_ticks, true);
    it->names[k + 1] = trx_idle_name(t);
    put(it, k + 1, 0, s->stats->idle_ticks, true);
    it->names[k + 2] = "Initialization";
    put(it, k + 2, 0, counted < t->max_ticks ? t->max_ticks - counted : 0, true);
    return 0;
}

/* Stack usage: the least free bytes per thread (unknown without a sample). */
static int stack_items(const diff_side *s, items *it)
{
    const trx_trace *t = s->trace;
    if (items_alloc(it, t->thread_count, 1) != 0)
        return -1;
    for (uint32_t i = 0; i < t->thread_count; i++) {
        it->names[i] = thread_name(t, i);
        uint32_t v = s->stats->threads[i].stack_min_available;
        put(it, i, 0, v, v < t->threads[i].stack_size);
    }
    return 0;
}

static int by_lock(const void *x, const void *y)
{
    const trx_inversion *p = x, *q = y;
    return (p->lock > q->lock) - (p->lock < q->lock);
}

/* Inversions per lock: count, unbounded. */
static int lock_items(const diff_side *s, items *it)
{
    const trx_stats *st = s->stats;
    trx_inversion *v = malloc((st->inversion_count ? st->inversion_count : 1) * sizeof *v);
    if (!v)
        return -1;
    if (st->inversion_count)
        memcpy(v, st->inversion_list, st->inversion_count * sizeof *v);
    qsort(v, st->inversion_count, sizeof *v, by_lock);
    size_t locks = 0;
    for (uint32_t i = 0; i < st->inversion_count; i++)
        locks += i == 0 || v[i].lock != v[i - 1].lock;
    if (items_alloc(it, locks, 2) != 0) {
        free(v);
        return -1;
    }
    size_t k = 0;
    for (uint32_t i = 0; i < st->inversion_count; i++) {
        if (i == 0 || v[i].lock != v[i - 1].lock) {
            int32_t o = trx_trace_find_object(s->trace, v[i].lock);
            it->names[k++] = o >= 0 ? s->trace->objects[o].name : "?";
            put(it, k - 1, 0, 0, true);
            put(it, k - 1, 1, 0, true);
        }
        it->values[(k - 1) * 2] += 1;
        it->values[(k - 1) * 2 + 1] += v[i].unbounded;
    }
    free(v);
    return 0;
}

/* ISR durations by ISR number (AMP: by core and number): count, min, p99,
 * max (inclusive of nested ISRs), max exclusive. */
static int isr_items(const diff_side *s, items *it)
{
    const trx_stats *st = s->stats;
    if (items_alloc(it, st->isr_count, 5) != 0)
        return -1;
    it->owned = malloc((st->isr_count ? st->isr_count : 1) * sizeof *it->owned);
    it->isr = malloc((st->isr_count ? st->isr_count : 1) * sizeof *it->isr);
    it->isr_core = malloc((st->isr_count ? st->isr_count : 1) * sizeof *it->isr_core);
    if (!it->owned || !it->isr || !it->isr_core)
        return -1;
    for (uint32_t i = 0; i < st->isr_count; i++) {
        const trx_keyed_duration *k = &st->isr[i];
        if (k->core != TRX_UNKNOWN) /* AMP: matched by core and number */
            snprintf(it->owned[i], sizeof it->owned[i], "%u/%u", k->core, k->key);
        else
            snprintf(it->owned[i], sizeof it->owned[i], "%u", k->key);
        it->names[i] = it->owned[i];
        it->isr[i] = k->key;
        it->isr_core[i] = k->core;
        put(it, i, 0, k->d.count, true);
        put(it, i, 1, k->d.min, k->d.count > 0);
        put(it, i, 2, k->d.p99, k->d.count > 0);
        put(it, i, 3, k->d.max, k->d.count > 0);
        put(it, i, 4, k->max_excl, k->d.count > 0);
    }
    return 0;
}

/* A per-thread duration table (latency or response): count, min, p99, max. */
static int thread_duration_items(const diff_side *s, items *it, const trx_keyed_duration *v,
                                 uint32_t n)
{
    if (items_alloc(it, n, 4) != 0)
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        const char *name = trx_context_name(s->trace, v[i].key);
        it->names[i] = name ? name : "?";
        put(it, i, 0, v[i].d.count, true);
        put(it, i, 1, v[i].d.min, v[i].d.count > 0);
        put(it, i, 2, v[i].d.p99, v[i].d.count > 0);
        put(it, i, 3, v[i].d.max, v[i].d.count > 0);
    }
    return 0;
}

static int latency_items(const diff_side *s, items *it)
{
    return thread_duration_items(s, it, s->stats->latency, s->stats->latency_count);
}

static int response_items(const diff_side *s, items *it)
{
    return thread_duration_items(s, it, s->stats->response, s->stats->response_count);
}

/* Instance responses per thread (trx latency): instances, p50, p90, p99, max. */
static int responses_items(const diff_side *s, items *it)
{
    const trx_latency *l = s->latency;
    uint32_t n = l ? l->row_count : 0;
    if (items_alloc(it, n, 5) != 0)
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        const trx_latency_row *r = &l->rows[i];
        const char *name = trx_context_name(s->trace, r->address);
        const trx_latency_dist *d = &r->response;
        it->names[i] = name ? name : "?";
        put(it, i, 0, r->instances, true);
        put(it, i, 1, d->p50, d->count > 0);
        put(it, i, 2, d->p90, d->count > 0);
        put(it, i, 3, d->p99, d->count > 0);
        put(it, i, 4, d->max, d->count > 0);
    }
    return 0;
}

typedef int (*items_fn)(const diff_side *s, items *it);

static void item_section(diff_rows *d, const char *section, const char *const *fields, items_fn fn,
                         const diff_side *a, const diff_side *b)
{
    items ia = {0}, ib = {0};
    if (fn(a, &ia) != 0 || fn(b, &ib) != 0)
        d->oom = true;
    else
        matched_rows(d, section, fields, &ia, &ib);
    items_free(&ia);
    items_free(&ib);
}

const char diff_context_sections[] = "threads, performance, execution_profile, stack_usage, "
                                     "inversions, isr, interrupt_to_thread_latency, response_time, "
                                     "responses";

int diff_rows_build(diff_rows *d, const diff_side *a, const diff_side *b)
{
    static const char *const ticks[] = {"ticks"}, *const free_bytes[] = {"min_available"},
                             *const lock_fields[] = {"count", "unbounded"},
                             *const isr_fields[] = {"count", "min", "p99", "max", "max_exclusive"},
                             *const duration_fields[] = {"count", "min", "p99", "max"},
                             *const response_fields[] = {"instances", "p50", "p90", "p99", "max"};
    memset(d, 0, sizeof *d);
    const trx_trace *ta = a->trace, *tb = b->trace;
    const trx_stats *sa = a->stats, *sb = b->stats;
    figure(d, "summary", "events", ta->total_events, tb->total_events);
    figure(d, "summary", "span_ticks", ta->max_ticks, tb->max_ticks);
    const char *ma = trx_trace_context_missing(ta), *mb = trx_trace_context_missing(tb);
    if (ma || mb) { /* no zeros for what a trace cannot say */
        figure(d, "summary", "lost_events", ta->lost_events, tb->lost_events);
        d->unavailable_in = ma && mb ? "A and B" : ma ? "A" : "B";
        d->unavailable_reason = ma ? ma : mb;
        return d->oom ? -1 : 0;
    }
    figure(d, "summary", "threads", ta->thread_count, tb->thread_count);
    figure(d, "summary", "lost_events", ta->lost_events, tb->lost_events);
    figure(d, "performance", "context_switches", sa->context_switches, sb->context_switches);
    figure(d, "performance", "thread_preemptions", sa->preemptions, sb->preemptions);
    figure(d, "performance", "time_slices", sa->time_slices, sb->time_slices);
    figure(d, "performance", "thread_suspensions", sa->suspensions, sb->suspensions);
    figure(d, "performance", "thread_resumptions", sa->resumptions, sb->resumptions);
    figure(d, "performance", "interrupts", sa->interrupts, sb->interrupts);
    figure(d, "performance", "nested_interrupts", sa->nested_interrupts, sb->nested_interrupts);
    uint64_t ua = sa->bad_inversions, ub = sb->bad_inversions;
    figure(d, "performance", "priority_inversions", sa->inversions, sb->inversions);
    figure(d, "performance", "priority_inversions_bounded",
           sa->inversions > ua ? sa->inversions - ua : 0,
           sb->inversions > ub ? sb->inversions - ub : 0);
    figure(d, "performance", "priority_inversions_unbounded", ua, ub);
    item_section(d, "execution_profile", ticks, profile_items, a, b);
    item_section(d, "stack_usage", free_bytes, stack_items, a, b);
    item_section(d, "inversions", lock_fields, lock_items, a, b);
    item_section(d, "isr", isr_fields, isr_items, a, b);
    item_section(d, "interrupt_to_thread_latency", duration_fields, latency_items, a, b);
    item_section(d, "response_time", duration_fields, response_items, a, b);
    if (a->latency && b->latency)
        item_section(d, "responses", response_fields, responses_items, a, b);
    return d->oom ? -1 : 0;
}

const char *diff_row_name(const diff_row *r, const char *irq, char *buf, size_t size)
{
    if (r->name)
        return r->name;
    if (r->isr_core != TRX_UNKNOWN) /* AMP: "1/Hwi 16" */
        snprintf(buf, size, "%u/%s %u", r->isr_core, irq, r->isr);
    else
        snprintf(buf, size, "%u", r->isr);
    return buf;
}

void diff_rows_free(diff_rows *d)
{
    free(d->rows);
    memset(d, 0, sizeof *d);
}
