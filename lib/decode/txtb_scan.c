/*
 * txtb_scan.c - the TXTB open's one pass over the entries: TraceX's reading
 * (the first never-written entry, the timer direction vote over physically
 * consecutive entries of each portion, skipping the first two of each, as
 * TraceX does), what the salvaging view needs to know whether anything is
 * damaged (txtb_salvage.c), and, when asked, `trx info`'s per-core counts
 * and time check (core_counts.h, time_steps.h), the entries' core bits and
 * the tick checkpoints (open_ticks.c) in the same pass, so that each entry
 * is read from memory once.
 *
 * The entries are cut into parts, one a thread, each part also cut at the
 * oldest pointer. A part reads up to its own first zero thread word like the
 * TraceX loop, the rest like the loop after it; the parts join in physical
 * order (the first zero thread word ends TraceX's view; the salvage counts
 * add) and, for the time check, in chronological order (the steps across
 * the seams added at the join; each part's tick checkpoints, counted from
 * its start, get the figures before it then). Every figure equals one
 * loop's over all entries.
 */
#include <stdlib.h>
#include <string.h>

#include "decode/time_steps.h"
#include "decode/txtb_scan.h"

#ifdef TRX_HAVE_PTHREAD
#include <pthread.h>
#endif

uint32_t trx_txtb_scan_part_min = 1u << 19;
uint32_t trx_txtb_tick_shift = 10;

enum { MAX_WORKERS = 64 }; /* threads of one pass at most */

/* How far ahead of the entry it reads the pass asks for memory: the loop
 * does enough per entry that the hardware's own prefetching falls behind
 * (half the pass's time went into waiting for memory without it). */
enum { PREFETCH_AHEAD = 4096 };

/* One step from stamp `prev` to `ts` (both masked) of a timer whose range
 * is m1 = mask + 1, counted into `x`: whether it goes up or down, and its
 * length counting up (counting down it is m1 minus that, or 0; the check
 * derives those figures at the end: trx_time_both_check). Long steps are
 * rare in a timer that counts up, and every step in one that counts down:
 * the branch is predictable either way. */
static inline __attribute__((always_inline)) void
tally_step(trx_time_tally *x, uint32_t prev, uint32_t ts, uint64_t m1, uint64_t half)
{
    uint64_t up = (uint64_t)ts - prev + (ts < prev ? m1 : 0);
    x->ups += ts > prev;
    x->downs += ts < prev;
    x->span_up += up;
    if (up > half) {
        x->large++;
        x->large_span += up;
        x->large_edge += up == half + 1;
    }
}

static void tally_add(trx_time_tally *x, const trx_time_tally *y)
{
    x->ups += y->ups;
    x->downs += y->downs;
    x->span_up += y->span_up;
    x->large += y->large;
    x->large_span += y->large_span;
    x->large_edge += y->large_edge;
}

static void tally_sub(trx_time_tally *x, const trx_time_tally *y)
{
    x->ups -= y->ups;
    x->downs -= y->downs;
    x->span_up -= y->span_up;
    x->large -= y->large;
    x->large_span -= y->large_span;
    x->large_edge -= y->large_edge;
}

/* One part of the pass: physical entries [a, b), on one side of the oldest pointer. */
typedef struct segment {
    uint32_t a, b;
    uint32_t z; /* its first zero thread word, or b */
    uint64_t up, down;
    uint32_t suspect, zero_before, written_after;
    /* the time over [a, z): its first and last stamp, how many from the
     * first on have the first's stamp, the steps inside */
    uint32_t first_ts, last_ts, run;
    trx_time_tally tally;
    uint64_t first_span_up, first_changes; /* the step into `a` counted by the loop */
    uint8_t core_bits;                     /* over [a, z) */
} segment;

typedef struct scan_params {
    const uint8_t *e;
    uint32_t cap, oldest, mask;
    bool be, checked;
    /* tick checkpoints (counting): at physical q = k << tick_shift, index k */
    uint32_t tick_shift;
    uint64_t *tick_span_up, *tick_changes;
} scan_params;

/* The masked stamp of physical entry i. */
static inline uint32_t stamp(const scan_params *sp, uint32_t i, bool be)
{
    return trx_rd32(sp->e + (size_t)i * TRX_ENTRY_SIZE + 12, be) & sp->mask;
}

/* Reads segment `s` (and counts as `counting` says, the per-core counts into
 * `c`); the constants make one loop per byte order, check mode and counting.
 * Counting, the loop records its figures at each checkpoint (counted from
 * the segment's start: join_time makes them the view's). It counts every
 * step, the one into the segment's first entry too (from the entry before,
 * physically); the figures the loop would need branches for (the votes'
 * first two entries of a portion, the time's first entry, its leading run)
 * are settled after it. */
static inline __attribute__((always_inline)) void scan_segment(const scan_params *sp, segment *s,
                                                               trx_core_counts *c, bool be,
                                                               bool checked,
                                                               trx_scan_counting counting)
{
    const bool count = counting != TRX_SCAN_COUNT_NONE;
    const bool cores = counting == TRX_SCAN_COUNT_CORES;
    const uint32_t shift = sp->tick_shift, ck_mask = (1u << shift) - 1;
    uint64_t *const ck_span = sp->tick_span_up, *const ck_changes = sp->tick_changes;
    uint32_t core_bits = 0;
    const uint8_t *e = sp->e;
    const uint32_t o = sp->oldest, mask = sp->mask, b = s->b;
    const uint64_t m1 = (uint64_t)mask + 1, half = (uint64_t)mask / 2;
    /* order keys: the oldest pointer's entry first, the buffer's start after the end */
    const uint32_t key_add = s->a >= o ? 0u - o : sp->cap - o;
    uint32_t i = s->a, suspect = 0;
    const uint32_t prev0 = i > 0 ? stamp(sp, i - 1, be) : 0;
    uint32_t prev = prev0;
    uint64_t ups = 0, downs = 0;
    trx_time_tally x = {0};
    for (; i < b; i++) { /* TraceX's part: up to the first zero thread word */
        const uint8_t *p = e + (size_t)i * TRX_ENTRY_SIZE;
        __builtin_prefetch(p + PREFETCH_AHEAD); /* never faults, even past the end */
        uint32_t ctx = trx_rd32(p, be);
        if (ctx == 0)
            break;
        uint32_t id = trx_rd32(p + 8, be);
        if (checked ? trx_entry_damage(p, be, true) != TRX_DAMAGE_NONE
                    : id == 0 && trx_entry_damage(p, be, false))
            suspect++;
        uint32_t ts = trx_rd32(p + 12, be) & mask;
        if (count) {
            if (cores)
                trx_core_counts_feed(c, ctx, id >> 24, i + key_add);
            core_bits |= id >> 24;
            tally_step(&x, prev, ts, m1, half);
            if ((i & ck_mask) == 0) {
                ck_span[i >> shift] = x.span_up;
                ck_changes[i >> shift] = x.ups + x.downs;
            }
        } else {
            ups += ts > prev;
            downs += ts < prev;
        }
        prev = ts;
    }
    const uint32_t z = i;
    s->z = z;
    if (count) {
        ups = x.ups;
        downs = x.downs;
    }
    if (z > s->a) {
        /* votes from the third entry of each portion (before / from the oldest pointer) */
        const uint32_t vote_from = (s->a >= o ? o : 0) + 2;
        for (uint32_t k = s->a; k < vote_from && k < z; k++) {
            uint32_t before = k == s->a ? prev0 : stamp(sp, k - 1, be), ts = stamp(sp, k, be);
            ups -= ts > before;
            downs -= ts < before;
        }
        s->first_ts = stamp(sp, s->a, be);
        s->last_ts = prev;
        if (count) { /* the time starts at the first entry: no step into it */
            trx_time_tally first = {0};
            tally_step(&first, prev0, s->first_ts, m1, half);
            tally_sub(&x, &first);
            s->first_span_up = first.span_up;
            s->first_changes = first.ups + first.downs;
            uint32_t k = s->a + 1;
            while (k < z && stamp(sp, k, be) == s->first_ts)
                k++;
            s->run = k - s->a;
        }
    }
    s->up = ups;
    s->down = downs;
    s->tally = x;
    s->core_bits = (uint8_t)core_bits;
    uint32_t after = s->a > o + 1 ? s->a : o + 1; /* written entries after the oldest pointer */
    s->written_after = z > after ? z - after : 0;
    s->zero_before = 0;
    for (; i < b; i++) { /* the rest: nothing in an intact buffer */
        const uint8_t *p = e + (size_t)i * TRX_ENTRY_SIZE;
        if (trx_rd32(p, be) == 0) {
            s->zero_before += i < o;
            continue;
        }
        s->written_after += i > o;
        if (trx_entry_damage(p, be, checked) != TRX_DAMAGE_NONE)
            suspect++;
    }
    s->suspect = suspect;
    if (cores) /* the next segment's order keys may be lower: none cached across */
        trx_core_counts_flush(c);
}

/* scan_segment for the byte order and check mode given as constants. */
static inline __attribute__((always_inline)) void scan_counting(const scan_params *sp, segment *s,
                                                                trx_core_counts *c, bool be,
                                                                bool checked,
                                                                trx_scan_counting counting)
{
    switch (counting) {
    case TRX_SCAN_COUNT_CORES:
        scan_segment(sp, s, c, be, checked, TRX_SCAN_COUNT_CORES);
        break;
    case TRX_SCAN_COUNT_TIME:
        scan_segment(sp, s, NULL, be, checked, TRX_SCAN_COUNT_TIME);
        break;
    default:
        scan_segment(sp, s, NULL, be, checked, TRX_SCAN_COUNT_NONE);
    }
}

/* One thread's run of segments. */
typedef struct worker {
    const scan_params *sp;
    segment *segs;
    uint32_t from, to; /* segment indexes */
    trx_scan_counting counting;
    trx_core_counts counts;
} worker;

static void *run_worker(void *arg)
{
    worker *w = arg;
    const scan_params *sp = w->sp;
    for (uint32_t k = w->from; k < w->to; k++) {
        segment *s = &w->segs[k];
        if (sp->be) {
            if (sp->checked)
                scan_counting(sp, s, &w->counts, true, true, w->counting);
            else
                scan_counting(sp, s, &w->counts, true, false, w->counting);
        } else {
            if (sp->checked)
                scan_counting(sp, s, &w->counts, false, true, w->counting);
            else
                scan_counting(sp, s, &w->counts, false, false, w->counting);
        }
    }
    return NULL;
}

/* Adds segment `s`'s time figures after those of the segments before it in
 * time order (`any`: there were some; `last`: the stamp they end with;
 * `leading`: all of them carry the first stamp), and makes its tick
 * checkpoints count from the view's first entry. */
static void join_time(trx_time_both *tb, const segment *s, const scan_params *sp, bool *any,
                      uint32_t *last, bool *leading)
{
    if (s->z == s->a)
        return;
    if (!*any) {
        tb->first_stamp = s->first_ts;
        tb->leading_same = s->run;
        *leading = s->run == s->z - s->a;
        *any = true;
    } else {
        tally_step(&tb->tally, *last, s->first_ts, (uint64_t)sp->mask + 1, (uint64_t)sp->mask / 2);
        tb->steps++;
        if (*leading) {
            if (s->first_ts == tb->first_stamp) {
                tb->leading_same += s->run;
                *leading = s->run == s->z - s->a;
            } else {
                *leading = false;
            }
        }
    }
    /* the figures through entry `a`, for which the loop counted its step from the entry before */
    const uint64_t add_span = tb->tally.span_up - s->first_span_up;
    const uint64_t add_changes = tb->tally.ups + tb->tally.downs - s->first_changes;
    const uint32_t shift = sp->tick_shift;
    for (uint32_t k = (uint32_t)(((uint64_t)s->a + (1u << shift) - 1) >> shift);
         ((uint64_t)k << shift) < s->z; k++) {
        sp->tick_span_up[k] += add_span;
        sp->tick_changes[k] += add_changes;
    }
    tb->steps += s->z - s->a - 1;
    tally_add(&tb->tally, &s->tally);
    *last = s->last_ts;
}

/* Keeps the counted figures in t->open_counts_ when they describe TraceX's
 * view: no segment after the first zero thread word read anything (the
 * tick checkpoints move there from `sp`). */
static void keep_counts(trx_trace *t, scan_params *sp, const segment *segs, uint32_t n,
                        uint32_t end_seg, worker *w, uint32_t workers, uint32_t used)
{
    for (uint32_t k = end_seg + 1; k < n; k++)
        if (segs[k].z > segs[k].a)
            return;
    trx_open_counts *oc = calloc(1, sizeof *oc);
    if (!oc)
        return;
    if (w[0].counting == TRX_SCAN_COUNT_CORES) {
        oc->has_core_counts = true;
        oc->counts = w[0].counts;
        w[0].counts.pairs = (trx_context_map){0};
        for (uint32_t k = 1; k < workers; k++)
            trx_core_counts_merge(&oc->counts, &w[k].counts);
        if (oc->counts.rc < 0) {
            trx_core_counts_free(&oc->counts);
            free(oc);
            return;
        }
    }
    for (uint32_t k = 0; k <= end_seg && k < n; k++)
        oc->core_bits |= segs[k].core_bits;
    oc->used = used;
    oc->oldest = sp->oldest < used ? sp->oldest : 0;
    bool any = false, leading = true;
    uint32_t last = 0;
    for (uint32_t k = 0; k <= end_seg && k < n; k++) /* from the oldest pointer on */
        if (segs[k].a >= oc->oldest && oc->oldest > 0)
            join_time(&oc->time, &segs[k], sp, &any, &last, &leading);
    for (uint32_t k = 0; k <= end_seg && k < n; k++) /* then the buffer's start */
        if (!(segs[k].a >= oc->oldest && oc->oldest > 0))
            join_time(&oc->time, &segs[k], sp, &any, &last, &leading);
    oc->tick_shift = sp->tick_shift;
    oc->tick_span_up = sp->tick_span_up;
    oc->tick_changes = sp->tick_changes;
    sp->tick_span_up = sp->tick_changes = NULL;
    t->open_counts_ = oc;
}

void trx_txtb_scan(trx_trace *t, uint32_t jobs, trx_scan_counting counting, trx_scan_result *r)
{
    const uint32_t cap = t->capacity;
    scan_params sp = {t->entries,
                      cap,
                      (t->header.buffer_current - t->header.buffer_start) / TRX_ENTRY_SIZE,
                      t->header.timer_mask,
                      t->header.big_endian,
                      t->entry_check,
                      trx_txtb_tick_shift < 31 ? trx_txtb_tick_shift : 31,
                      NULL,
                      NULL};
    if (counting != TRX_SCAN_COUNT_NONE) { /* a checkpoint at every 2^shift-th entry */
        size_t points = ((size_t)cap >> sp.tick_shift) + 1;
        sp.tick_span_up = malloc(points * sizeof *sp.tick_span_up);
        sp.tick_changes = malloc(points * sizeof *sp.tick_changes);
        if (!sp.tick_span_up || !sp.tick_changes)
            counting = TRX_SCAN_COUNT_NONE;
    }
    memset(r, 0, sizeof *r);
    if (jobs == 0)
        jobs = trx_trace_jobs(t);
    uint32_t part_min = trx_txtb_scan_part_min ? trx_txtb_scan_part_min : 1;
    uint32_t workers = cap / part_min < jobs ? cap / part_min : jobs;
    if (workers < 1)
        workers = 1;
    if (workers > MAX_WORKERS)
        workers = MAX_WORKERS;
    segment segs[MAX_WORKERS + 1];
    worker alone, *w = workers > 1 || counting ? calloc(workers, sizeof *w) : NULL;
    if (!w) { /* one part, no counts: nothing to allocate */
        memset(&alone, 0, sizeof alone);
        w = &alone;
        workers = 1;
        counting = TRX_SCAN_COUNT_NONE;
    }
    /* worker k reads [k * cap / workers, (k + 1) * cap / workers), cut at the oldest pointer */
    uint32_t n = 0;
    for (uint32_t k = 0; k < workers; k++) {
        uint32_t a = (uint32_t)((uint64_t)k * cap / workers);
        uint32_t b = (uint32_t)((uint64_t)(k + 1) * cap / workers);
        w[k] = (worker){.sp = &sp, .segs = segs, .from = n, .counting = counting};
        if (a < sp.oldest && sp.oldest < b) {
            segs[n++] = (segment){.a = a, .b = sp.oldest};
            a = sp.oldest;
        }
        segs[n++] = (segment){.a = a, .b = b};
        w[k].to = n;
    }
#ifdef TRX_HAVE_PTHREAD
    pthread_t threads[MAX_WORKERS];
    bool started[MAX_WORKERS] = {false};
    for (uint32_t k = 1; k < workers; k++)
        started[k] = pthread_create(&threads[k], NULL, run_worker, &w[k]) == 0;
    run_worker(&w[0]);
    for (uint32_t k = 1; k < workers; k++) {
        if (started[k])
            pthread_join(threads[k], NULL);
        else
            run_worker(&w[k]); /* no thread: the same part here */
    }
#else
    for (uint32_t k = 0; k < workers; k++)
        run_worker(&w[k]);
#endif
    /* TraceX's view ends at the first zero thread word; its votes are those before it */
    uint32_t end_seg = n;
    for (uint32_t k = 0; k < n; k++) {
        const segment *s = &segs[k];
        if (end_seg == n) {
            r->up += s->up;
            r->down += s->down;
            if (s->z < s->b)
                end_seg = k;
        }
        r->suspect += s->suspect;
        r->zero_before += s->zero_before;
        r->written_after += s->written_after;
    }
    r->tracex_used = end_seg < n ? segs[end_seg].z : cap;
    trx_open_counts_free(t);
    if (counting)
        keep_counts(t, &sp, segs, n, end_seg, w, workers, r->tracex_used);
    for (uint32_t k = 0; k < workers && counting; k++)
        trx_core_counts_free(&w[k].counts);
    if (w != &alone)
        free(w);
    free(sp.tick_span_up); /* when not kept */
    free(sp.tick_changes);
}

bool trx_open_counts_fit(const trx_trace *t)
{
    const trx_open_counts *oc = t->open_counts_;
    return oc && t->format == TRX_TRACE_TXTB && (t->view_is_tracex_ || !t->order_) &&
           t->used == oc->used && t->oldest == oc->oldest;
}

void trx_time_both_check(const trx_time_both *b, const trx_trace *t, trx_time_check *out)
{
    trx_time_steps s;
    trx_time_steps_begin(&s, t);
    const trx_time_tally *x = &b->tally;
    const uint64_t m1 = (uint64_t)s.mask + 1, half = (uint64_t)s.mask / 2;
    const uint64_t changes = x->ups + x->downs;
    /* counting down, a step of u up is m1 - u long: over half the range when
     * u < m1 - half, which is u <= half, or u == half + 1 with an odd mask */
    const bool odd = (s.mask & 1u) != 0;
    const uint64_t up_long = x->large - (odd ? x->large_edge : 0);
    const uint64_t up_long_span = x->large_span - (odd ? x->large_edge * (half + 1) : 0);
    const uint64_t down_large = changes - up_long;
    s.r.steps = b->steps;
    s.r.changes = changes;
    if (t->counts_up) {
        s.r.span = x->span_up;
        s.r.large_steps = x->large;
        s.r.large_span = x->large_span;
    } else {
        s.r.span = changes * m1 - x->span_up;
        s.r.large_steps = down_large;
        s.r.large_span = down_large * m1 - (x->span_up - up_long_span);
    }
    s.r.first_stamp = b->first_stamp;
    s.r.leading_same = b->leading_same;
    trx_time_steps_end(&s, out);
}

void trx_open_counts_free(trx_trace *t)
{
    if (!t->open_counts_)
        return;
    trx_core_counts_free(&t->open_counts_->counts);
    free(t->open_counts_->tick_span_up);
    free(t->open_counts_->tick_changes);
    free(t->open_counts_);
    t->open_counts_ = NULL;
}
