/* intervals.c - the interval engine (intervals.h): the results of a group
 * (distributions in log-linear histograms, the worst intervals) and the
 * matcher of open intervals by key, with gaps per lane and segment merging. */
#include "analyze/intervals.h"

#include <stdlib.h>
#include <string.h>

#include "util/log_histogram.h"

/* --------------------------------------------------------------- results */

static void dist_add(trx_latency_dist *d, uint64_t v)
{
    trx_log_hist_add(&d->hist_, &d->count, &d->sum, &d->min, &d->max, v);
}

static int dist_merge(trx_latency_dist *into, const trx_latency_dist *from)
{
    if (!from->count)
        return 0;
    if (!into->hist_ && !(into->hist_ = calloc(TRX_LOG_HIST_BUCKETS, sizeof *into->hist_)))
        return -1;
    if (!into->count || from->min < into->min)
        into->min = from->min;
    if (from->max > into->max)
        into->max = from->max;
    into->count += from->count;
    into->sum += from->sum;
    for (uint32_t b = 0; from->hist_ && b < TRX_LOG_HIST_BUCKETS; b++)
        into->hist_[b] += from->hist_[b];
    return 0;
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

/* Keeps `in` among the `keep` worst (longest first; ties: the earlier
 * interval first, so an equal newcomer goes after). */
static void keep_worst(trx_interval_result *r, const trx_instance *in)
{
    if (!r->keep || !r->worst)
        return;
    uint32_t n = r->worst_count;
    if (n == r->keep && r->worst[n - 1].response_ticks >= in->response_ticks)
        return;
    uint32_t at = n < r->keep ? n : r->keep - 1;
    while (at > 0 && r->worst[at - 1].response_ticks < in->response_ticks) {
        r->worst[at] = r->worst[at - 1];
        at--;
    }
    r->worst[at] = *in;
    if (n < r->keep)
        r->worst_count++;
}

int trx_interval_result_init(trx_interval_result *r, uint32_t keep)
{
    memset(r, 0, sizeof *r);
    r->keep = keep;
    if (keep && !(r->worst = calloc(keep, sizeof *r->worst)))
        return -1;
    return 0;
}

void trx_interval_result_add(trx_interval_result *r, const trx_instance *in, bool with_work)
{
    r->complete++;
    dist_add(&r->duration, in->response_ticks);
    if (with_work)
        dist_add(&r->work, in->execution_ticks);
    keep_worst(r, in);
}

int trx_interval_result_merge(trx_interval_result *into, const trx_interval_result *from)
{
    if (dist_merge(&into->duration, &from->duration) < 0 ||
        dist_merge(&into->work, &from->work) < 0)
        return -1;
    into->complete += from->complete;
    into->incomplete += from->incomplete;
    for (uint32_t i = 0; i < from->worst_count; i++)
        keep_worst(into, &from->worst[i]);
    return 0;
}

void trx_interval_result_finish(trx_interval_result *r)
{
    dist_finish(&r->duration);
    dist_finish(&r->work);
}

void trx_interval_result_free(trx_interval_result *r)
{
    free(r->worst);
    free(r->duration.hist_);
    free(r->work.hist_);
    memset(r, 0, sizeof *r);
}

/* --------------------------------------------------------------- matcher */

int trx_interval_matcher_init(trx_interval_matcher *m, uint32_t max_open, bool segment)
{
    memset(m, 0, sizeof *m);
    m->max_open = max_open;
    m->segment = segment;
    return 0;
}

void trx_interval_matcher_free(trx_interval_matcher *m)
{
    free(m->open);
    free(m->free_list);
    free(m->orphans);
    trx_key_map_free(&m->by_key);
    trx_key_map_free(&m->touched);
    memset(m, 0, sizeof *m);
}

void trx_interval_gap(trx_interval_matcher *m, uint32_t lane)
{
    if (lane >= TRX_INTERVAL_LANES)
        m->all_gaps++;
    else
        m->lane_gaps[lane]++;
}

/* Gaps of `lane` so far (lanes past the table share the all-lanes count). */
static uint64_t lane_gaps(const trx_interval_matcher *m, uint32_t lane)
{
    return lane < TRX_INTERVAL_LANES ? m->lane_gaps[lane] : 0;
}

bool trx_interval_crossed_gap(const trx_interval_matcher *m, const trx_open_interval *o)
{
    return o->tainted || o->all_mark != m->all_gaps || o->lane_mark != lane_gaps(m, o->lane);
}

/* A free pool entry (index), growing the pool; UINT32_MAX when out of memory. */
static uint32_t take_entry(trx_interval_matcher *m)
{
    if (!m->free_count) {
        uint32_t size = m->pool_size ? m->pool_size * 2u : 16u;
        trx_open_interval *p = realloc(m->open, (size_t)size * sizeof *p);
        if (!p)
            return UINT32_MAX;
        m->open = p;
        uint32_t *f = realloc(m->free_list, (size_t)size * sizeof *f);
        if (!f)
            return UINT32_MAX;
        m->free_list = f;
        for (uint32_t i = size; i > m->pool_size; i--) {
            m->open[i - 1].used = false;
            m->free_list[m->free_count++] = i - 1;
        }
        m->pool_size = size;
    }
    return m->free_list[--m->free_count];
}

static void release_entry(trx_interval_matcher *m, uint32_t at)
{
    trx_key_map_remove(&m->by_key, m->open[at].key);
    m->open[at].used = false;
    m->free_list[m->free_count++] = at;
    m->open_count--;
}

/* Records the segment's first touch of `key` (stop: an orphan); false when
 * out of memory. */
static bool touch(trx_interval_matcher *m, uint64_t key, const trx_orphan_stop *stop)
{
    if (!m->segment || trx_key_map_find(&m->touched, key))
        return true;
    uint32_t value = 0;
    if (stop) {
        if (m->orphan_count == m->orphan_cap) {
            uint32_t cap = m->orphan_cap ? m->orphan_cap * 2u : 16u;
            trx_orphan_stop *p = realloc(m->orphans, (size_t)cap * sizeof *p);
            if (!p)
                return false;
            m->orphans = p;
            m->orphan_cap = cap;
        }
        m->orphans[m->orphan_count] = *stop;
        value = ++m->orphan_count;
    }
    return trx_key_map_put(&m->touched, key, value);
}

/* Opens `o` (its key not open); false when out of memory. */
static bool open_entry(trx_interval_matcher *m, const trx_open_interval *o)
{
    uint32_t at = take_entry(m);
    if (at == UINT32_MAX || !trx_key_map_put(&m->by_key, o->key, at)) {
        if (at != UINT32_MAX)
            m->free_list[m->free_count++] = at;
        return false;
    }
    m->open[at] = *o;
    m->open[at].used = true;
    m->open_count++;
    return true;
}

int trx_interval_start(trx_interval_matcher *m, uint64_t key, int64_t owner, uint32_t lane,
                       uint64_t index, uint64_t ticks, trx_open_interval *replaced)
{
    if (!touch(m, key, NULL))
        return -1;
    trx_open_interval o = {
        key, owner, lane, true, false, index, ticks, m->all_gaps, lane_gaps(m, lane)};
    trx_key_slot *e = trx_key_map_find(&m->by_key, key);
    if (e) { /* started again before it stopped: the earlier never completes */
        *replaced = m->open[e->value];
        m->open[e->value] = o;
        return TRX_INTERVAL_RESTARTED;
    }
    if (m->max_open && m->open_count >= m->max_open)
        return TRX_INTERVAL_FULL;
    return open_entry(m, &o) ? TRX_INTERVAL_OPENED : -1;
}

int trx_interval_stop(trx_interval_matcher *m, uint64_t key, uint32_t lane, uint64_t index,
                      uint64_t ticks, trx_open_interval *out)
{
    trx_key_slot *e = trx_key_map_find(&m->by_key, key);
    if (!e) {
        trx_orphan_stop s = {key, lane, m->all_gaps || lane_gaps(m, lane), index, ticks};
        return touch(m, key, &s) ? 0 : -1;
    }
    *out = m->open[e->value];
    release_entry(m, e->value);
    return 1;
}

int trx_interval_matcher_merge(trx_interval_matcher *earlier, trx_interval_matcher *later,
                               trx_interval_resolved resolved, void *ctx)
{
    trx_interval_matcher *a = earlier, *b = later;
    /* the later segment's first touches resolve the earlier's open intervals:
     * its orphan stops (in the order they came), then its starts */
    for (uint32_t i = 0; i < b->orphan_count; i++) {
        const trx_orphan_stop *stop = &b->orphans[i];
        trx_key_slot *e = trx_key_map_find(&a->by_key, stop->key);
        if (e) {
            trx_open_interval o = a->open[e->value];
            bool whole = !stop->after_gap && !trx_interval_crossed_gap(a, &o);
            resolved(ctx, &o, whole ? stop : NULL);
            release_entry(a, e->value);
        } else if (!trx_key_map_find(&a->touched, stop->key)) {
            /* still an orphan of the joined segment: a gap of the earlier one comes before it */
            trx_orphan_stop s = *stop;
            s.after_gap = s.after_gap || a->all_gaps || lane_gaps(a, s.lane);
            if (!touch(a, s.key, &s))
                return -1;
        }
        if (!touch(a, stop->key, NULL))
            return -1;
    }
    for (uint32_t i = 0; i < b->touched.cap; i++) {
        const trx_key_slot *t = &b->touched.slots[i];
        if (!t->used || t->value)
            continue;
        trx_key_slot *e = trx_key_map_find(&a->by_key, t->key);
        if (e) { /* started again in the later segment: the earlier never completes */
            trx_open_interval o = a->open[e->value];
            resolved(ctx, &o, NULL);
            release_entry(a, e->value);
        }
        if (!touch(a, t->key, NULL))
            return -1;
    }
    /* the earlier's intervals still open cross the later's gaps */
    for (uint32_t i = 0; i < a->pool_size; i++) {
        trx_open_interval *o = &a->open[i];
        if (!o->used)
            continue;
        o->tainted = trx_interval_crossed_gap(a, o) || b->all_gaps || lane_gaps(b, o->lane);
    }
    a->all_gaps += b->all_gaps;
    for (uint32_t l = 0; l < TRX_INTERVAL_LANES; l++)
        a->lane_gaps[l] += b->lane_gaps[l];
    for (uint32_t i = 0; i < a->pool_size; i++) {
        trx_open_interval *o = &a->open[i];
        if (o->used) {
            o->all_mark = a->all_gaps;
            o->lane_mark = lane_gaps(a, o->lane);
        }
    }
    /* the later's open intervals, their gap marks on the joined counts */
    for (uint32_t i = 0; i < b->pool_size; i++) {
        trx_open_interval o = b->open[i];
        if (!o.used)
            continue;
        o.all_mark += a->all_gaps - b->all_gaps;
        o.lane_mark += lane_gaps(a, o.lane) - lane_gaps(b, o.lane);
        if (!open_entry(a, &o))
            return -1;
    }
    trx_interval_matcher_free(b);
    trx_interval_matcher_init(b, a->max_open, a->segment);
    return 0;
}
