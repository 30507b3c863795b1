/*
 * txtb_salvage.c - the salvaging view of a TXTB buffer: wrap state and order
 * from the header's oldest pointer and the content (not from the first zero
 * thread word, as TraceX does), and the entries that cannot be trusted -
 * empty, half-written, stale, torn - skipped and listed.
 *
 * Wrap state: the buffer has wrapped when most entries after the oldest
 * pointer have a thread word (when the pointer is at the last entry: when
 * that entry holds anything). Then every entry must be written; otherwise those before
 * the pointer, and none at or after it.
 * Time at the two ends (only where the timer decides: the other entries span
 * less than half its range): the newest entry is stale when it fits before
 * the oldest better than after its predecessor (a writer claimed the slot
 * and has not cleared it yet); the oldest entry is half-written when it fits
 * after the newest better than before its successor (a ThreadX-style insert
 * that writes over the oldest entry before it moves the pointer).
 * Intact buffers take the fast path: the scan shows nothing to skip, and the
 * view is TraceX's. Everything here is linear in the number of entries.
 */
#include <stdlib.h>
#include <string.h>

#include "decode/txtb_salvage.h"

/* A stalled writer can leave at most one stale entry per core. */
#define STALE_MAX 256u

typedef struct salvage {
    const uint8_t *e;
    bool be;
    uint32_t mask;
    bool up;
} salvage;

static uint32_t word_at(const salvage *s, uint32_t phys, unsigned off)
{
    return trx_rd32(s->e + (size_t)phys * TRX_ENTRY_SIZE + off, s->be);
}

static uint32_t ts_at(const salvage *s, uint32_t phys)
{
    return word_at(s, phys, 12) & s->mask;
}

/* Ticks from time stamp a forward to b in the timer's direction. */
static uint64_t fwd(const salvage *s, uint32_t a, uint32_t b)
{
    return s->up ? (uint64_t)((b - a) & s->mask) : (uint64_t)((a - b) & s->mask);
}

/* Steps from entry a to entry b (physical indexes). */
static uint64_t step(const salvage *s, uint32_t a, uint32_t b)
{
    return fwd(s, ts_at(s, a), ts_at(s, b));
}

/* Whether the timer range decides about an entry given the span of the others. */
static bool decidable(const salvage *s, uint64_t span_of_others)
{
    return 2 * span_of_others < (uint64_t)s->mask + 1;
}

/* The newest entry c (after a) is stale: it fits before the oldest z. */
static bool newest_is_stale(const salvage *s, uint64_t span, uint32_t a, uint32_t c, uint32_t z)
{
    uint64_t last = step(s, a, c);
    return decidable(s, span - last) && step(s, c, z) < last;
}

/* The oldest entry c (before y) is newer than the newest n. */
static bool oldest_is_new(const salvage *s, uint64_t span, uint32_t n, uint32_t c, uint32_t y)
{
    uint64_t first = step(s, c, y);
    return decidable(s, span - first) && step(s, n, c) < first;
}

static trx_damage classify(const trx_trace *t, const salvage *s, uint32_t phys)
{
    const uint8_t *p = s->e + (size_t)phys * TRX_ENTRY_SIZE;
    if (trx_rd32(p, s->be) != 0)
        return trx_entry_damage(p, s->be, t->entry_check);
    for (unsigned k = 4; k < TRX_ENTRY_SIZE; k += 4)
        if (trx_rd32(p + k, s->be) != 0)
            return TRX_DAMAGE_HALF_WRITTEN;
    return TRX_DAMAGE_EMPTY;
}

/* Ticks from the oldest entry o to the newest of an intact wrapped buffer. */
static uint64_t wrapped_span(const trx_trace *t, const salvage *s, uint32_t o)
{
    uint64_t span = 0;
    uint32_t prev = ts_at(s, o);
    for (uint32_t k = 1; k < t->capacity; k++) {
        uint32_t p = o + k < t->capacity ? o + k : o + k - t->capacity;
        uint32_t ts = ts_at(s, p);
        span += fwd(s, prev, ts);
        prev = ts;
    }
    return span;
}

/* The fast path's test of the two ends of an intact wrapped buffer: the
 * time stamps first (O(1)), the span pass only when they point at one. */
static bool ends_suspect(const trx_trace *t, const salvage *s, uint32_t o)
{
    const uint32_t cap = t->capacity;
    if (cap < 3)
        return false;
    uint32_t n = (o + cap - 1) % cap, a = (o + cap - 2) % cap, y = (o + 1) % cap;
    bool newest = step(s, n, o) < step(s, a, n), oldest = step(s, n, o) < step(s, o, y);
    if (!newest && !oldest)
        return false;
    uint64_t span = wrapped_span(t, s, o);
    return (newest && newest_is_stale(s, span, a, n, o)) ||
           (oldest && oldest_is_new(s, span, n, o, y));
}

static int fail(trx_trace *t, trx_error *err, uint32_t damaged)
{
    uint64_t off = (uint64_t)(t->entries - t->image.data);
    const uint32_t *n = t->damaged_by_reason;
    return trx_error_set(err, off,
                         "no intact trace entry: all %u entries are damaged (%u empty, %u "
                         "half-written, %u stale, %u torn)",
                         damaged, n[TRX_DAMAGE_EMPTY], n[TRX_DAMAGE_HALF_WRITTEN],
                         n[TRX_DAMAGE_STALE], n[TRX_DAMAGE_TORN]);
}

/* The slow path: classify every entry, vote, check the ends, list the damage. */
static int salvage_slow(trx_trace *t, const salvage *sv, uint32_t o, bool wrapped, trx_error *err)
{
    const uint32_t cap = t->capacity;
    uint8_t *reason = calloc(cap, 1);
    uint32_t *order = malloc((size_t)cap * sizeof *order);
    if (!reason || !order) {
        free(reason);
        free(order);
        return trx_error_set(err, 0, "out of memory for the damaged-entry list");
    }
    uint32_t first = wrapped ? o : 0, count = wrapped ? cap : o, m = 0;
    for (uint32_t k = 0; k < count; k++) {
        uint32_t p = first + k < cap ? first + k : first + k - cap;
        reason[p] = (uint8_t)classify(t, sv, p);
        if (reason[p] == TRX_DAMAGE_NONE)
            order[m++] = p;
    }
    if (!wrapped)
        for (uint32_t p = o; p < cap; p++)
            if (word_at(sv, p, 0) != 0)
                reason[p] = p == o ? TRX_DAMAGE_HALF_WRITTEN : TRX_DAMAGE_STALE;

    /* TraceX's vote over the intact entries: per portion (before / from the
     * oldest pointer), skipping each portion's first pair. */
    uint64_t up = 0, down = 0, span_up = 0, span_down = 0;
    uint32_t prev = 0, j = 0;
    bool prev_a = false;
    for (uint32_t k = 0; k < m; k++, j++) {
        bool a = wrapped && order[k] >= o;
        if (k == 0 || a != prev_a)
            j = 0;
        uint32_t ts = ts_at(sv, order[k]);
        if (j > 1) {
            up += ts > prev;
            down += ts < prev;
        }
        if (k > 0) {
            span_up += (ts - prev) & sv->mask;
            span_down += (prev - ts) & sv->mask;
        }
        prev = ts;
        prev_a = a;
    }
    salvage s = *sv;
    s.up = up > down;
    uint64_t span = s.up ? span_up : span_down;

    uint32_t lo = 0, hi = m;
    if (wrapped) {
        for (uint32_t k = 0; k < STALE_MAX && hi - lo >= 3; k++) {
            uint32_t a = order[hi - 2], c = order[hi - 1];
            if (!newest_is_stale(&s, span, a, c, order[lo]))
                break;
            span -= step(&s, a, c);
            reason[c] = TRX_DAMAGE_STALE;
            hi--;
        }
        if (hi - lo >= 3 && order[lo] == o &&
            oldest_is_new(&s, span, order[hi - 1], o, order[lo + 1])) {
            reason[o] = TRX_DAMAGE_HALF_WRITTEN;
            lo++;
        }
    }

    uint32_t damaged = 0;
    for (uint32_t p = 0; p < cap; p++)
        damaged += reason[p] != TRX_DAMAGE_NONE;
    t->damaged = damaged ? malloc((size_t)damaged * sizeof *t->damaged) : NULL;
    if (damaged && !t->damaged) {
        free(reason);
        free(order);
        return trx_error_set(err, 0, "out of memory for the damaged-entry list");
    }
    for (uint32_t p = 0, d = 0; p < cap; p++)
        if (reason[p] != TRX_DAMAGE_NONE) {
            t->damaged[d].index = p;
            t->damaged[d++].reason = (trx_damage)reason[p];
            t->damaged_by_reason[reason[p]]++;
        }
    t->damaged_count = damaged;
    free(reason);

    trx_trace_view *v = &t->view_salvage_;
    v->used = hi - lo;
    v->oldest = hi > lo ? order[lo] : 0;
    v->wrapped = wrapped;
    v->counts_up = s.up;
    v->votes_up = (uint32_t)(up > UINT32_MAX ? UINT32_MAX : up);
    v->votes_down = (uint32_t)(down > UINT32_MAX ? UINT32_MAX : down);
    if (damaged == 0) {
        free(order);
        return 0;
    }
    if (hi == lo) {
        free(order);
        return fail(t, err, damaged);
    }
    memmove(order, order + lo, (size_t)(hi - lo) * sizeof *order);
    t->order_ = order;
    return 0;
}

int trx_salvage(trx_trace *t, const trx_scan_result *r, trx_error *err)
{
    const uint32_t cap = t->capacity;
    const uint32_t o = (t->header.buffer_current - t->header.buffer_start) / TRX_ENTRY_SIZE;
    salvage s = {t->entries, t->header.big_endian, t->header.timer_mask, t->view_tracex_.counts_up};
    const uint32_t tail = cap - o - 1; /* entries after the oldest pointer */
    const bool at_oldest = word_at(&s, o, 0) != 0;
    bool wrapped = r->written_after > tail - r->written_after;
    if (tail == 0) /* the pointer is at the last entry: does it hold anything? */
        for (unsigned k = 0; k < TRX_ENTRY_SIZE && !wrapped; k += 4)
            wrapped = word_at(&s, o, k) != 0;
    bool damaged = r->suspect > 0 || r->zero_before > 0;
    if (wrapped)
        damaged = damaged || r->written_after < tail || !at_oldest;
    else
        damaged = damaged || r->written_after > 0 || at_oldest;
    if (!damaged && !(wrapped && ends_suspect(t, &s, o))) {
        t->view_salvage_ = t->view_tracex_;
        return 0;
    }
    return salvage_slow(t, &s, o, wrapped, err);
}
