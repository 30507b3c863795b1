/* core_summary.c - the stored events of a trace counted per core and per
 * (core, thread) for `trx info` (see trx/cores.h), in one pass over the raw
 * entries: no event model, no trace preparation. Every context that is not
 * an ISR or initialization is a thread (as the event model has it); one
 * that is no registered thread is an Un-named Thread, ordered after the
 * registered ones by where it first appears, as trx_trace_prepare numbers
 * them. Contexts are resolved to threads once per distinct (core, context),
 * not per entry. The time-source check can ride on the same pass. A trace
 * opened with trx_open_options.core_counts was counted by the open's own
 * pass (decode/txtb_scan.c): its figures serve when they describe the
 * current view. Otherwise a large trace is counted here in two halves on two
 * threads and merged (the counts add, first appearances take the earlier,
 * the time check joins at the seam); the counting is decode/core_counts.h. */
#include <stdlib.h>
#include <string.h>

#include "decode/entry_read.h"
#include "decode/object_table.h"
#include "decode/time_steps.h"
#include "decode/txtb_salvage.h"
#include "decode/txtb_scan.h"
#include "analyze/core_summary_split.h"
#include "trx/cores.h"

#ifdef TRX_HAVE_PTHREAD
#include <pthread.h>
#endif

/* A resolved entry before sorting: its order key is (core, rank). */
typedef struct ranked_thread {
    trx_core_thread out;
    uint64_t rank; /* registered: thread index; else thread_count + first appearance */
} ranked_thread;

static int by_core_rank(const void *a, const void *b)
{
    const ranked_thread *x = a, *y = b;
    if (x->out.core != y->out.core)
        return x->out.core < y->out.core ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Where each unknown context first appears on any core (the Un-named
 * Threads' order): the least `first` over its (core, context) pairs. */
static int first_seen(const trx_context_map *m, trx_context_map *by_context)
{
    for (uint32_t i = 0; i < m->cap; i++) {
        const trx_context_slot *p = &m->slots[i];
        if (!p->key)
            continue;
        uint64_t ctx_key = ((p->key - 1) & 0xFFFFFFFFu) + 1;
        trx_context_slot *c = trx_context_get(by_context, ctx_key, p->first);
        if (!c)
            return -1;
        if (p->first < c->first)
            c->first = p->first;
    }
    return 0;
}

static int resolve(trx_trace *t, const trx_context_map *m, trx_core_summary *s)
{
    trx_context_map by_context = {0};
    ranked_thread *v = malloc((m->used ? m->used : 1) * sizeof *v);
    if (!v || first_seen(m, &by_context) < 0) {
        free(v);
        free(by_context.slots);
        return -1;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->cap; i++) {
        const trx_context_slot *p = &m->slots[i];
        if (!p->key)
            continue;
        uint32_t core = (uint32_t)((p->key - 1) >> 32), ctx = (uint32_t)(p->key - 1);
        int32_t th = trx_thread_for_context(t, ctx);
        uint64_t rank = (uint64_t)th;
        if (th < 0)
            rank = (uint64_t)t->thread_count +
                   trx_context_get(&by_context, (uint64_t)ctx + 1, 0)->first;
        v[n++] = (ranked_thread){{core, th, p->events, 0, ctx}, rank};
    }
    free(by_context.slots);
    qsort(v, n, sizeof *v, by_core_rank);
    s->threads = malloc((n ? n : 1) * sizeof *s->threads);
    if (!s->threads) {
        free(v);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++)
        s->threads[i] = v[i].out;
    s->thread_entries = n;
    free(v);
    return 0;
}

int trx_core_summary_compute(trx_trace *t, trx_core_summary *s)
{
    return trx_core_summary_compute_checked(t, s, NULL);
}

/* The per-entry step is small and called from six loops: inline it everywhere. */
#if defined(__GNUC__)
#define HOT_INLINE static inline __attribute__((always_inline))
#else
#define HOT_INLINE static inline
#endif

HOT_INLINE void feed(trx_core_counts *c, trx_time_steps *steps, const uint8_t *p, bool be,
                     uint32_t index)
{
    if (steps)
        trx_time_steps_add(steps, trx_rd32(p + 12, be));
    trx_core_counts_feed(c, trx_rd32(p, be), trx_rd32(p + 8, be) >> 24, index);
}

/* A UIA trace: its events (one per record) through the cursor, each on its
 * stream's core; no context is a thread. */
static int by_cursor(trx_trace *t, trx_core_summary *s)
{
    trx_cursor c;
    if (trx_cursor_init(&c, t) < 0)
        return -1;
    const trx_event *ev;
    while ((ev = trx_cursor_next_ref(&c)) != NULL) {
        if (ev->synthetic)
            continue;
        if (ev->core >= TRX_MAX_CORES) {
            s->beyond++;
            continue;
        }
        if (ev->core >= s->core_count)
            s->core_count = ev->core + 1;
        s->events[ev->core]++;
        s->other_events[ev->core]++;
    }
    trx_cursor_free(&c);
    s->threads = malloc(sizeof *s->threads);
    return s->threads ? 0 : -1;
}

/* The entries of chronological indices [from, to); `be` a constant in each
 * call, so that each byte order gets its own loop. */
HOT_INLINE void scan_range(trx_core_counts *sc, trx_time_steps *steps, const trx_trace *t, bool be,
                           uint32_t from, uint32_t to)
{
    const uint8_t *e = t->entries;
    if (t->order_ && !t->view_is_tracex_) { /* salvaged: the entries' own order */
        for (uint32_t i = from; i < to; i++)
            feed(sc, steps, e + (size_t)trx_entry_phys(t, i) * TRX_ENTRY_SIZE, be, i);
        return;
    }
    /* chronological i is physical oldest + i up to the end, then i - (used - oldest) */
    uint32_t tail = t->used - t->oldest, i = from;
    for (; i < to && i < tail; i++)
        feed(sc, steps, e + (size_t)(t->oldest + i) * TRX_ENTRY_SIZE, be, i);
    for (; i < to; i++)
        feed(sc, steps, e + (size_t)(i - tail) * TRX_ENTRY_SIZE, be, i);
}

static void scan_part(trx_core_counts *sc, trx_time_steps *steps, const trx_trace *t, uint32_t from,
                      uint32_t to)
{
    if (t->header.big_endian)
        scan_range(sc, steps, t, true, from, to);
    else
        scan_range(sc, steps, t, false, from, to);
    trx_core_counts_flush(sc);
}

/* A trace of this many entries or more is counted in two halves, one on a
 * helper thread (TRX_HAVE_PTHREAD), merged after. */
#define HALVES_MIN_ENTRIES (1u << 20)

/* The later half: its own counts and time check, from the entry after the
 * earlier half's last. */
typedef struct later_half {
    const trx_trace *t;
    trx_core_counts sc;
    trx_time_steps steps;
    bool check;
    uint32_t from, to;
} later_half;

static void *scan_later_half(void *arg)
{
    later_half *h = arg;
    scan_part(&h->sc, h->check ? &h->steps : NULL, h->t, h->from, h->to);
    return NULL;
}

/* The stamp (raw word) of the entry at chronological index i. */
static uint32_t stamp_at(const trx_trace *t, uint32_t i)
{
    return trx_rd32(t->entries + (size_t)trx_entry_phys(t, i) * TRX_ENTRY_SIZE + 12,
                    t->header.big_endian);
}

/* The per-core figures and the threads from the counts. */
static int from_counts(trx_trace *t, const trx_core_counts *c, trx_core_summary *s)
{
    memcpy(s->events, c->events, sizeof s->events);
    memcpy(s->other_events, c->other_events, sizeof s->other_events);
    s->core_count = c->max_core + 1;
    return c->rc == 0 ? resolve(t, &c->pairs, s) : -1;
}

int trx_core_summary_split(trx_trace *t, trx_core_summary *s, trx_time_check *tc, uint32_t mid,
                           bool threaded)
{
    memset(s, 0, sizeof *s);
    s->core_count = 1;
    if (t->format != TRX_TRACE_TXTB) {
        if (tc)
            trx_trace_time_check(t, tc);
        return by_cursor(t, s);
    }
    trx_trace_use_view(t);
    trx_core_counts sc;
    memset(&sc, 0, sizeof sc);
    trx_time_steps steps_state, *steps = tc ? &steps_state : NULL;
    trx_time_steps_begin(&steps_state, t);
    later_half *h = NULL;
    if (mid > 0 && mid < t->used && (h = calloc(1, sizeof *h)) == NULL)
        return -1;
    if (!h)
        mid = t->used;
#ifdef TRX_HAVE_PTHREAD
    pthread_t helper;
    bool started = false;
#endif
    if (h) {
        h->t = t;
        h->check = tc != NULL;
        h->from = mid;
        h->to = t->used;
        trx_time_steps_continue(&h->steps, t, stamp_at(t, 0), stamp_at(t, mid - 1));
#ifdef TRX_HAVE_PTHREAD
        started = threaded && pthread_create(&helper, NULL, scan_later_half, h) == 0;
#else
        (void)threaded;
#endif
    }
    scan_part(&sc, steps, t, 0, mid);
    if (h) {
#ifdef TRX_HAVE_PTHREAD
        if (started)
            pthread_join(helper, NULL);
        else
#endif
            scan_later_half(h); /* no thread: the same part here */
        trx_core_counts_merge(&sc, &h->sc);
        if (steps)
            trx_time_steps_join(steps, &h->steps);
        trx_core_counts_free(&h->sc);
        free(h);
    }
    if (tc)
        trx_time_steps_end(&steps_state, tc);
    int rc = from_counts(t, &sc, s);
    trx_core_counts_free(&sc);
    return rc;
}

int trx_core_summary_compute_checked(trx_trace *t, trx_core_summary *s, trx_time_check *tc)
{
    if (t->format == TRX_TRACE_TXTB)
        trx_trace_use_view(t);
    if (trx_open_counts_fit(t) && t->open_counts_->has_core_counts) { /* counted already */
        memset(s, 0, sizeof *s);
        if (tc)
            trx_time_both_check(&t->open_counts_->time, t, tc);
        return from_counts(t, &t->open_counts_->counts, s);
    }
    bool halves =
        t->format == TRX_TRACE_TXTB && t->used >= HALVES_MIN_ENTRIES && trx_trace_jobs(t) > 1;
    return trx_core_summary_split(t, s, tc, halves ? t->used / 2 : 0, true);
}

static int by_address(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int64_t trx_core_summary_unregistered(const trx_core_summary *s)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < s->thread_entries; k++)
        n += s->threads[k].thread < 0;
    if (n == 0)
        return 0;
    uint32_t *a = malloc((size_t)n * sizeof *a);
    if (!a)
        return -1;
    n = 0;
    for (uint32_t k = 0; k < s->thread_entries; k++)
        if (s->threads[k].thread < 0)
            a[n++] = s->threads[k].address;
    qsort(a, n, sizeof *a, by_address); /* one address may be on several cores */
    int64_t distinct = 0;
    for (uint32_t k = 0; k < n; k++)
        distinct += k == 0 || a[k] != a[k - 1];
    free(a);
    return distinct;
}

void trx_core_summary_free(trx_core_summary *s)
{
    free(s->threads);
    memset(s, 0, sizeof *s);
}
