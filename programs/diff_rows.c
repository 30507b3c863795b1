/*
 * diff_rows.c - builds the rows of `trx diff` from two traces' statistics:
 * summary, performance, execution profile, stack usage, inversions per lock
 * (threads and locks matched by name, the k-th of a name with the k-th).
 */
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
    size_t len = strlen(name);
    if (len >= sizeof r->name)
        len = sizeof r->name - 1;
    memcpy(r->name, name, len);
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

/* A table of named items with one value each (has = known). */
typedef struct items {
    const char **names;
    uint64_t *values;
    bool *has;
    size_t count;
} items;

static void items_free(items *it)
{
    free(it->names);
    free(it->values);
    free(it->has);
}

static int items_alloc(items *it, size_t n)
{
    it->count = n;
    it->names = malloc((n ? n : 1) * sizeof *it->names);
    it->values = calloc(n ? n : 1, sizeof *it->values);
    it->has = calloc(n ? n : 1, sizeof *it->has);
    return it->names && it->values && it->has ? 0 : -1;
}

/* Rows of `section`/`field` for items of A (in A's order, matched ones
 * with B's value) then those only in B. */
static void matched_rows(diff_rows *d, const char *section, const char *field, const items *a,
                         const items *b)
{
    int64_t *a_to_b = malloc((a->count ? a->count : 1) * sizeof *a_to_b);
    bool *b_used = malloc(b->count ? b->count : 1);
    if (!a_to_b || !b_used ||
        diff_match_names(a->names, a->count, b->names, b->count, a_to_b, b_used) != 0) {
        d->oom = true;
    } else {
        for (size_t i = 0; i < a->count; i++) {
            diff_row *r = add(d, section, a->names[i], field);
            if (!r)
                break;
            r->has_a = a->has[i];
            r->a = a->values[i];
            if (a_to_b[i] >= 0) {
                r->has_b = b->has[a_to_b[i]];
                r->b = b->values[a_to_b[i]];
            }
        }
        for (size_t j = 0; j < b->count; j++) {
            if (b_used[j])
                continue;
            diff_row *r = add(d, section, b->names[j], field);
            if (!r)
                break;
            r->has_b = b->has[j];
            r->b = b->values[j];
        }
    }
    free(a_to_b);
    free(b_used);
}

static const char *thread_name(const trx_trace *t, uint32_t i)
{
    return t->objects[t->threads[i].object_index].name;
}

/* Execution profile: ticks per thread, then Interrupt, Idle System and
 * Initialization (the rest of the span), as trx stats lists them. */
static int profile_items(const diff_side *s, items *it)
{
    const trx_trace *t = s->trace;
    if (items_alloc(it, t->thread_count + 3) != 0)
        return -1;
    uint64_t counted = s->stats->interrupt_ticks + s->stats->idle_ticks;
    for (uint32_t i = 0; i < t->thread_count; i++) {
        it->names[i] = thread_name(t, i);
        it->values[i] = s->stats->threads[i].execution_ticks;
        it->has[i] = true;
        counted += it->values[i];
    }
    size_t k = t->thread_count;
    it->names[k] = "Interrupt";
    it->values[k] = s->stats->interrupt_ticks;
    it->names[k + 1] = "Idle System";
    it->values[k + 1] = s->stats->idle_ticks;
    it->names[k + 2] = "Initialization";
    it->values[k + 2] = counted < t->max_ticks ? t->max_ticks - counted : 0;
    it->has[k] = it->has[k + 1] = it->has[k + 2] = true;
    return 0;
}

/* Stack usage: the least free bytes per thread (unknown without a sample). */
static int stack_items(const diff_side *s, items *it)
{
    const trx_trace *t = s->trace;
    if (items_alloc(it, t->thread_count) != 0)
        return -1;
    for (uint32_t i = 0; i < t->thread_count; i++) {
        it->names[i] = thread_name(t, i);
        it->values[i] = s->stats->threads[i].stack_min_available;
        it->has[i] = it->values[i] < t->threads[i].stack_size;
    }
    return 0;
}

static int by_lock(const void *x, const void *y)
{
    const trx_inversion *p = x, *q = y;
    return (p->lock > q->lock) - (p->lock < q->lock);
}

/* Inversions per lock: count (unbounded: how many of them unbounded). */
static int lock_items(const diff_side *s, items *count, items *unbounded)
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
    if (items_alloc(count, locks) != 0 || items_alloc(unbounded, locks) != 0) {
        free(v);
        return -1;
    }
    size_t k = 0;
    for (uint32_t i = 0; i < st->inversion_count; i++) {
        if (i > 0 && v[i].lock == v[i - 1].lock) {
            count->values[k - 1]++;
            unbounded->values[k - 1] += v[i].unbounded;
            continue;
        }
        int32_t o = trx_trace_find_object(s->trace, v[i].lock);
        count->names[k] = unbounded->names[k] = o >= 0 ? s->trace->objects[o].name : "?";
        count->values[k] = 1;
        unbounded->values[k] = v[i].unbounded;
        count->has[k] = unbounded->has[k] = true;
        k++;
    }
    free(v);
    return 0;
}

typedef int (*items_fn)(const diff_side *s, items *it);

static void item_section(diff_rows *d, const char *section, const char *field, items_fn fn,
                         const diff_side *a, const diff_side *b)
{
    items ia = {0}, ib = {0};
    if (fn(a, &ia) != 0 || fn(b, &ib) != 0)
        d->oom = true;
    else
        matched_rows(d, section, field, &ia, &ib);
    items_free(&ia);
    items_free(&ib);
}

static void inversion_section(diff_rows *d, const diff_side *a, const diff_side *b)
{
    items ca = {0}, ua = {0}, cb = {0}, ub = {0};
    if (lock_items(a, &ca, &ua) != 0 || lock_items(b, &cb, &ub) != 0) {
        d->oom = true;
    } else {
        matched_rows(d, "inversions", "count", &ca, &cb);
        matched_rows(d, "inversions", "unbounded", &ua, &ub);
    }
    items_free(&ca);
    items_free(&ua);
    items_free(&cb);
    items_free(&ub);
}

int diff_rows_build(diff_rows *d, const diff_side *a, const diff_side *b)
{
    memset(d, 0, sizeof *d);
    const trx_trace *ta = a->trace, *tb = b->trace;
    const trx_stats *sa = a->stats, *sb = b->stats;
    figure(d, "summary", "events", ta->total_events, tb->total_events);
    figure(d, "summary", "span_ticks", ta->max_ticks, tb->max_ticks);
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
    item_section(d, "execution_profile", "ticks", profile_items, a, b);
    item_section(d, "stack_usage", "min_available", stack_items, a, b);
    inversion_section(d, a, b);
    return d->oom ? -1 : 0;
}

void diff_rows_free(diff_rows *d)
{
    free(d->rows);
    memset(d, 0, sizeof *d);
}
