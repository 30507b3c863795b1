/* durations.c - UIABenchmark start / stop pairs per (core, name) through the
 * interval engine (see durations.h). */
#include "analyze/durations.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trx/elf.h"
#include "trx/uia_names.h"

bool trx_durations_init(trx_durations *d, const trx_trace *t, uint32_t keep)
{
    memset(d, 0, sizeof *d);
    d->keep = keep;
    /* first touches kept (a stop without a start is unmatched only once no
     * earlier part of the trace can have opened it): the state merges */
    trx_interval_matcher_init(&d->open, 0, true);
    const trx_uia_names *n = t->uia_names;
    for (uint32_t i = 0; n && t->format == TRX_TRACE_UIA && i < n->event_count; i++) {
        if (trx_uia_name_is(&n->events[i], "UIABenchmark.start") && d->start_n < 8)
            d->start_ids[d->start_n++] = n->events[i].event;
        else if (trx_uia_name_is(&n->events[i], "UIABenchmark.stop") && d->stop_n < 8)
            d->stop_ids[d->stop_n++] = n->events[i].event;
    }
    return d->start_n && d->stop_n;
}

static bool among(const uint32_t *ids, uint32_t n, uint32_t id)
{
    for (uint32_t k = 0; k < n; k++)
        if (ids[k] == id)
            return true;
    return false;
}

/* The row of (core, address), made on first use; NULL when out of memory. */
static trx_duration_row *row_for(trx_durations *d, uint32_t core, uint32_t address)
{
    uint64_t key = (uint64_t)core << 32 | address;
    trx_key_slot *e = trx_key_map_find(&d->row_of, key);
    if (e)
        return &d->rows[e->value];
    if (d->row_count == d->row_cap) {
        uint32_t cap = d->row_cap ? d->row_cap * 2u : 8u;
        trx_duration_row *p = realloc(d->rows, (size_t)cap * sizeof *p);
        if (!p)
            return NULL;
        d->rows = p;
        d->row_cap = cap;
    }
    trx_duration_row *r = &d->rows[d->row_count];
    memset(r, 0, sizeof *r);
    if (trx_interval_result_init(&r->r, d->keep) < 0 ||
        !trx_key_map_put(&d->row_of, key, d->row_count)) {
        trx_interval_result_free(&r->r);
        return NULL;
    }
    r->core = core;
    r->address = address;
    d->row_count++;
    return r;
}

void trx_durations_feed(trx_durations *d, const trx_event *ev)
{
    if (!d->start_n)
        return;
    if (ev->lost_before) /* what was lost was of this event's core */
        trx_interval_gap(&d->open, ev->core);
    bool start = among(d->start_ids, d->start_n, ev->id);
    if ((!start && !among(d->stop_ids, d->stop_n, ev->id)) || ev->synthetic)
        return;
    trx_duration_row *row = row_for(d, ev->core, ev->info[0]);
    if (!row) {
        d->failed = true;
        return;
    }
    int64_t owner = row - d->rows;
    uint64_t key = (uint64_t)ev->core << 32 | ev->info[0];
    trx_open_interval iv;
    if (start) {
        int rc = trx_interval_start(&d->open, key, owner, ev->core, ev->index, ev->ticks, &iv);
        if (rc == TRX_INTERVAL_RESTARTED) /* the earlier one never completes */
            row->r.incomplete++;
        else if (rc < 0)
            d->failed = true;
        return;
    }
    uint32_t orphans = d->open.orphan_count;
    int rc = trx_interval_stop(&d->open, key, ev->core, ev->index, ev->ticks, &iv);
    if (rc == 0) { /* none open: unmatched (a first touch: at the end, if still) */
        if (d->open.orphan_count == orphans)
            row->unmatched_stops++;
    } else if (rc < 0)
        d->failed = true;
    else if (trx_interval_crossed_gap(&d->open, &iv))
        row->r.incomplete++;
    else {
        trx_instance in = {row->r.complete + row->r.incomplete + 1,
                           iv.start_index,
                           ev->index,
                           iv.start_ticks,
                           ev->ticks,
                           ev->ticks - iv.start_ticks,
                           0};
        trx_interval_result_add(&row->r, &in, false);
    }
}

static int by_name_then_core(const void *a, const void *b)
{
    const trx_duration_row *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c)
        return c;
    return x->core < y->core ? -1 : x->core > y->core;
}

/* The row of `key` (one was made when its event came). */
static trx_duration_row *row_of_key(trx_durations *d, uint64_t key)
{
    return row_for(d, (uint32_t)(key >> 32), (uint32_t)key);
}

int trx_durations_finish(trx_durations *d, const trx_trace *t)
{
    for (uint32_t i = 0; i < d->open.pool_size; i++) {
        trx_duration_row *r;
        if (d->open.open[i].used) { /* still open at the end */
            if ((r = row_of_key(d, d->open.open[i].key)) != NULL)
                r->r.incomplete++;
            else
                d->failed = true;
        }
    }
    for (uint32_t i = 0; i < d->open.orphan_count; i++) { /* nothing before opened them */
        trx_duration_row *r = row_of_key(d, d->open.orphans[i].key);
        if (r)
            r->unmatched_stops++;
        else
            d->failed = true;
    }
    for (uint32_t i = 0; i < d->row_count; i++) {
        trx_duration_row *r = &d->rows[i];
        trx_interval_result_finish(&r->r);
        if (!t->elf || !trx_elf_string_at(t->elf, r->address, r->name, sizeof r->name))
            snprintf(r->name, sizeof r->name, "0x%08x", r->address);
    }
    if (d->row_count)
        qsort(d->rows, d->row_count, sizeof *d->rows, by_name_then_core);
    trx_interval_matcher_free(&d->open);
    trx_key_map_free(&d->row_of);
    return d->failed ? -1 : 0;
}

void trx_durations_clear(trx_durations *d)
{
    for (uint32_t i = 0; i < d->row_count; i++)
        trx_interval_result_free(&d->rows[i].r);
    d->row_count = 0;
    trx_interval_matcher_free(&d->open);
    trx_interval_matcher_init(&d->open, 0, true);
    trx_key_map_free(&d->row_of);
    memset(&d->row_of, 0, sizeof d->row_of);
    d->failed = false;
}

/* An interval open at the end of the earlier part that the later part's
 * first touch of its key resolves: closed by `stop` (complete) or never
 * (NULL: started again, or a gap between). */
static void resolve(void *ctx, const trx_open_interval *start, const trx_orphan_stop *stop)
{
    trx_durations *d = ctx;
    trx_duration_row *row = row_of_key(d, start->key);
    if (!row) {
        d->failed = true;
        return;
    }
    if (!stop) {
        row->r.incomplete++;
        return;
    }
    trx_instance in = {row->r.complete + row->r.incomplete + 1,
                       start->start_index,
                       stop->stop_index,
                       start->start_ticks,
                       stop->stop_ticks,
                       stop->stop_ticks - start->start_ticks,
                       0};
    trx_interval_result_add(&row->r, &in, false);
}

int trx_durations_merge(trx_durations *earlier, trx_durations *later, uint64_t offset)
{
    trx_durations *a = earlier, *b = later;
    if (b->failed)
        a->failed = true;
    /* the later part's event numbers, as the whole trace's */
    for (uint32_t i = 0; i < b->open.pool_size; i++)
        if (b->open.open[i].used)
            b->open.open[i].start_index += offset;
    for (uint32_t i = 0; i < b->open.orphan_count; i++)
        b->open.orphans[i].stop_index += offset;
    /* a later stop without a start whose key the earlier part touched and
     * left closed: unmatched (one the earlier left open: closed by it, below;
     * one the earlier never touched: still an orphan of both) */
    for (uint32_t i = 0; i < b->open.orphan_count; i++) {
        uint64_t key = b->open.orphans[i].key;
        if (!trx_key_map_find(&a->open.by_key, key) && trx_key_map_find(&a->open.touched, key)) {
            trx_duration_row *row = row_of_key(a, key);
            if (!row)
                return -1;
            row->unmatched_stops++;
        }
    }
    /* then what the later part's first touches close of the earlier's, then
     * its own intervals, numbered after the earlier's of their row */
    if (trx_interval_matcher_merge(&a->open, &b->open, resolve, a) < 0)
        return -1;
    for (uint32_t i = 0; i < b->row_count; i++) {
        trx_duration_row *from = &b->rows[i], *into = row_for(a, from->core, from->address);
        if (!into)
            return -1;
        uint64_t before = into->r.complete + into->r.incomplete;
        for (uint32_t k = 0; k < from->r.worst_count; k++) {
            trx_instance *w = &from->r.worst[k];
            w->number += before;
            w->release_index += offset;
            w->end_index += offset;
        }
        if (trx_interval_result_merge(&into->r, &from->r) < 0)
            return -1;
        into->unmatched_stops += from->unmatched_stops;
    }
    return a->failed ? -1 : 0;
}

int trx_durations_compute(trx_trace *t, uint32_t keep, trx_durations *out)
{
    if (!trx_durations_init(out, t, keep))
        return 0;
    trx_cursor c;
    if (trx_cursor_init(&c, t) < 0) {
        trx_durations_free(out);
        return -1;
    }
    const trx_event *ev;
    while ((ev = trx_cursor_next_ref(&c)) != NULL)
        trx_durations_feed(out, ev);
    if (trx_durations_finish(out, t) < 0) {
        trx_durations_free(out);
        return -1;
    }
    return 0;
}

void trx_durations_free(trx_durations *d)
{
    for (uint32_t i = 0; i < d->row_count; i++)
        trx_interval_result_free(&d->rows[i].r);
    free(d->rows);
    trx_interval_matcher_free(&d->open);
    trx_key_map_free(&d->row_of);
    memset(d, 0, sizeof *d);
}
