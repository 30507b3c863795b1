/* core_summary.c - the stored events of a trace counted per core and per
 * (core, thread) for `trx info` (see trx/cores.h), in one pass over the raw
 * entries: no event model, no trace preparation. Every context that is not
 * an ISR or initialization is a thread (as the event model has it); one
 * that is no registered thread is an Un-named Thread, ordered after the
 * registered ones by where it first appears, as trx_trace_prepare numbers
 * them. Contexts are resolved to threads once per distinct (core, context),
 * not per entry. The time-source check can ride on the same pass. A large
 * trace is counted in two halves on two threads and merged (the counts add,
 * first appearances take the earlier, the time check joins at the seam). */
#include <stdlib.h>
#include <string.h>

#include "decode/entry_read.h"
#include "decode/object_table.h"
#include "decode/time_steps.h"
#include "decode/txtb_salvage.h"
#include "analyze/core_summary_split.h"
#include "trx/cores.h"

#ifdef TRX_HAVE_PTHREAD
#include <pthread.h>
#endif

/* (core, context) -> events, and where that context first appears. */
typedef struct pair_slot {
    uint64_t key; /* core << 32 | context, + 1 (0: empty) */
    uint64_t events;
    uint32_t first; /* chronological index of the context's first entry on this core */
} pair_slot;

typedef struct pair_map {
    pair_slot *slots;
    uint32_t cap, used;
} pair_map;

static uint32_t slot_of(uint64_t key, uint32_t mask)
{
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & mask;
}

static pair_slot *pair_get(pair_map *m, uint64_t key, uint32_t index)
{
    if (m->used * 2 >= m->cap) { /* keep the table at most half full */
        uint32_t cap = m->cap ? m->cap * 2 : 64;
        pair_slot *n = calloc(cap, sizeof *n);
        if (!n)
            return NULL;
        for (uint32_t i = 0; i < m->cap; i++) {
            if (!m->slots[i].key)
                continue;
            uint32_t h = slot_of(m->slots[i].key, cap - 1);
            while (n[h].key)
                h = (h + 1) & (cap - 1);
            n[h] = m->slots[i];
        }
        free(m->slots);
        m->slots = n;
        m->cap = cap;
    }
    uint32_t h = slot_of(key, m->cap - 1);
    while (m->slots[h].key && m->slots[h].key != key)
        h = (h + 1) & (m->cap - 1);
    if (!m->slots[h].key) {
        m->slots[h].key = key;
        m->slots[h].first = index;
        m->used++;
    }
    return &m->slots[h];
}

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
static int first_seen(const pair_map *m, pair_map *by_context)
{
    for (uint32_t i = 0; i < m->cap; i++) {
        const pair_slot *p = &m->slots[i];
        if (!p->key)
            continue;
        uint64_t ctx_key = ((p->key - 1) & 0xFFFFFFFFu) + 1;
        pair_slot *c = pair_get(by_context, ctx_key, p->first);
        if (!c)
            return -1;
        if (p->first < c->first)
            c->first = p->first;
    }
    return 0;
}

static int resolve(trx_trace *t, const pair_map *m, trx_core_summary *s)
{
    pair_map by_context = {0};
    ranked_thread *v = malloc((m->used ? m->used : 1) * sizeof *v);
    if (!v || first_seen(m, &by_context) < 0) {
        free(v);
        free(by_context.slots);
        return -1;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->cap; i++) {
        const pair_slot *p = &m->slots[i];
        if (!p->key)
            continue;
        uint32_t core = (uint32_t)((p->key - 1) >> 32), ctx = (uint32_t)(p->key - 1);
        int32_t th = trx_thread_for_context(t, ctx);
        uint64_t rank = (uint64_t)th;
        if (th < 0)
            rank = (uint64_t)t->thread_count + pair_get(&by_context, (uint64_t)ctx + 1, 0)->first;
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

/* The pass: each (core, context) is counted in a small direct-mapped table
 * of recent keys (no hashing into the big map per entry); a key pushed out
 * adds its count to the map. CACHE_SLOTS is a power of two. */
enum { CACHE_SLOTS = 64 };

typedef struct cached_key {
    uint64_t key; /* core << 32 | context, + 1; 0: empty */
    uint64_t events;
    uint32_t first; /* chronological index of its first entry since cached */
} cached_key;

typedef struct scan {
    pair_map m;
    trx_core_summary *s;
    uint32_t max_core;
    int rc;
    cached_key cache[CACHE_SLOTS];
} scan;

static void flush(scan *sc, const cached_key *c)
{
    uint32_t core = (uint32_t)((c->key - 1) >> 32), ctx = (uint32_t)(c->key - 1);
    sc->s->events[core] += c->events;
    if (core > sc->max_core)
        sc->max_core = core;
    if (ctx == TRX_CONTEXT_ISR || ctx == TRX_CONTEXT_INIT) {
        sc->s->other_events[core] += c->events;
        return;
    }
    pair_slot *p = pair_get(&sc->m, c->key, c->first);
    if (!p) {
        sc->rc = -1;
        return;
    }
    p->events += c->events;
    if (c->first < p->first)
        p->first = c->first;
}

/* The per-entry step is small and called from six loops: inline it everywhere. */
#if defined(__GNUC__)
#define HOT_INLINE static inline __attribute__((always_inline))
#else
#define HOT_INLINE static inline
#endif

/* A key that is not cached takes its slot; the one there is counted. */
static void replace(scan *sc, cached_key *c, uint64_t key, uint32_t index)
{
    if (c->key)
        flush(sc, c);
    *c = (cached_key){key, 1, index};
}

HOT_INLINE void feed(scan *sc, trx_time_steps *steps, const uint8_t *p, bool be, uint32_t index)
{
    uint32_t ctx = trx_rd32(p, be), core = trx_rd32(p + 8, be) >> 24;
    uint64_t key = ((uint64_t)core << 32 | ctx) + 1;
    if (steps)
        trx_time_steps_add(steps, trx_rd32(p + 12, be));
    cached_key *c = &sc->cache[(ctx ^ ctx >> 7 ^ ctx >> 13 ^ core * 7u) & (CACHE_SLOTS - 1)];
    if (c->key == key)
        c->events++;
    else
        replace(sc, c, key, index);
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
HOT_INLINE void scan_range(scan *sc, trx_time_steps *steps, const trx_trace *t, bool be,
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

static void scan_part(scan *sc, trx_time_steps *steps, const trx_trace *t, uint32_t from,
                      uint32_t to)
{
    if (t->header.big_endian)
        scan_range(sc, steps, t, true, from, to);
    else
        scan_range(sc, steps, t, false, from, to);
    for (uint32_t k = 0; k < CACHE_SLOTS; k++)
        if (sc->cache[k].key)
            flush(sc, &sc->cache[k]);
}

/* Adds the later part's counts to the earlier one's (each (core, context)
 * once: its events summed, its first appearance the earliest). */
static void merge_parts(scan *a, const scan *b)
{
    for (uint32_t k = 0; k < TRX_MAX_CORES; k++) {
        a->s->events[k] += b->s->events[k];
        a->s->other_events[k] += b->s->other_events[k];
    }
    if (b->max_core > a->max_core)
        a->max_core = b->max_core;
    if (b->rc < 0)
        a->rc = -1;
    for (uint32_t i = 0; i < b->m.cap && a->rc == 0; i++) {
        const pair_slot *q = &b->m.slots[i];
        if (!q->key)
            continue;
        pair_slot *p = pair_get(&a->m, q->key, q->first);
        if (!p) {
            a->rc = -1;
            break;
        }
        p->events += q->events;
        if (q->first < p->first)
            p->first = q->first;
    }
}

/* A trace of this many entries or more is counted in two halves, one on a
 * helper thread (TRX_HAVE_PTHREAD), merged after. */
#define HALVES_MIN_ENTRIES (1u << 20)

/* The later half: its own counts and time check, from the entry after the
 * earlier half's last. */
typedef struct later_half {
    const trx_trace *t;
    scan sc;
    trx_core_summary counts;
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
    scan sc = {.s = s};
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
        *h = (later_half){.t = t, .check = tc != NULL, .from = mid, .to = t->used};
        h->sc.s = &h->counts;
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
        merge_parts(&sc, &h->sc);
        if (steps)
            trx_time_steps_join(steps, &h->steps);
        free(h->sc.m.slots);
        free(h);
    }
    s->core_count = sc.max_core + 1;
    if (tc)
        trx_time_steps_end(&steps_state, tc);
    int rc = sc.rc == 0 ? resolve(t, &sc.m, s) : -1;
    free(sc.m.slots);
    return rc;
}

int trx_core_summary_compute_checked(trx_trace *t, trx_core_summary *s, trx_time_check *tc)
{
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
