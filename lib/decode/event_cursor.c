/*
 * event_cursor.c - the events of a trace as TraceX sees them, one at a time:
 * relative ticks, decoded priorities, the "next context" of every event
 * (TraceX's rules, including the backward patch from an interrupt and the
 * look-aheads), and the synthetic RUNNING events TraceX inserts where
 * execution moves without an event. See research/tracex.md 2.1-2.5.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "decode/entry_read.h"
#include "decode/event_cursor_internal.h"
#include "decode/lookahead_index.h"
#include "decode/object_table.h"
#include "decode/open_ticks.h"
#include "decode/uia_cursor.h"
#include "decode/txtb_salvage.h"
#include "util/inline_hints.h"

#if defined(__GNUC__) && !defined(__clang__)
/* GCC 12 at -O2 packs advance's stores of separate words into vector
 * shuffles that take more instructions than the stores (8 a step). */
#define SCALAR_STORES __attribute__((optimize("no-tree-slp-vectorize")))
#else
#define SCALAR_STORES
#endif

/* Last priority seen for a thread (backward search cache) and the result of
 * a forward search, per thread index. */
typedef struct thread_prio_cache {
    uint32_t prio, pt;
    uint32_t fwd_from; /* raw index the forward search started at */
    uint32_t fwd_at;   /* raw index it found (UINT32_MAX: none) */
    uint32_t fwd_prio, fwd_pt;
    uint8_t valid; /* 0, or the trx_priority_source it came from */
    bool fwd_done; /* a forward search ran from fwd_from */
    uint8_t fwd_source;
} thread_prio_cache; /* 28 bytes a thread */

/* Where an address next appears as a thread context, from some position on:
 * makes the interrupt RESUME look-ahead linear over a whole trace. */
typedef struct next_occurrence {
    uint32_t address;
    uint32_t from; /* the scan started here */
    uint32_t at;   /* first index >= from with that context, UINT32_MAX: none */
    bool valid;
} next_occurrence;

#define OCCURRENCE_SLOTS 64u

/* Recently resolved thread contexts (address -> thread index), so that the
 * object hash is not probed for every event. Only found threads are kept;
 * the cache is emptied whenever the object table grows (a thread is an
 * object: thread_count never grows alone). An empty slot's address is
 * TRX_CONTEXT_ISR, which thread_of is never asked. */
typedef struct thread_slot {
    uint32_t address;
    int32_t thread;
} thread_slot;

#define THREAD_SLOTS 64u /* thread_of's hash takes 6 bits */

/* Look-ahead scans may read this many entries (per trace entry, plus a
 * constant) before the cursor switches to the look-ahead index: ordinary
 * traces never build it, hostile ones stay linear. */
#define SCAN_BUDGET_PER_ENTRY 4u
#define SCAN_BUDGET_EXTRA 65536u

struct trx_cursor_scratch {
    next_occurrence occurrence[OCCURRENCE_SLOTS];
    uint64_t scanned;     /* entries read by look-ahead scans so far */
    trx_lookahead *index; /* built once the scans exceed their budget */
    bool index_failed;    /* out of memory building it: keep scanning */
    thread_prio_cache *cache;
    uint32_t cap;
    thread_prio_cache sink;  /* takes advance's priority writes for events of no thread */
    trx_prepare_state *prep; /* only while preparing */
    thread_slot threads[THREAD_SLOTS];
    /* the object count the slots were filled at; while it is the trace's,
     * `cache` has an entry for every thread (cap >= thread_count) */
    uint32_t threads_objects;
    /* segments (trx_cursor_record_guesses): where the RUNNING priorities
     * given to threads the cache did not know go, or NULL */
    trx_cursor_guesses *guesses;
};

static bool is_thread_context(uint32_t ctx)
{
    return ctx != TRX_CONTEXT_ISR && ctx != TRX_CONTEXT_INIT;
}

static int grow_cache(trx_cursor *c)
{
    struct trx_cursor_scratch *s = c->scratch_;
    uint32_t need = c->trace->thread_count;
    if (need <= s->cap)
        return 0;
    uint32_t cap = s->cap ? s->cap : 16;
    while (cap < need)
        cap *= 2;
    thread_prio_cache *n = realloc(s->cache, (size_t)cap * sizeof *n);
    if (!n)
        return -1;
    memset(n + s->cap, 0, (size_t)(cap - s->cap) * sizeof *n);
    s->cache = n;
    s->cap = cap;
    return 0;
}

/* A priority cache entry for every thread (grows as threads are added). */
static inline int ensure_cache(trx_cursor *c)
{
    return c->trace->thread_count <= c->scratch_->cap ? 0 : grow_cache(c);
}

/* Empties the thread slots. */
static void clear_thread_slots(struct trx_cursor_scratch *s)
{
    for (uint32_t k = 0; k < THREAD_SLOTS; k++)
        s->threads[k] = (thread_slot){TRX_CONTEXT_ISR, -1};
}

/* thread_of when the cache does not hold `address` (or the tables grew):
 * -1 also when the priority cache cannot grow to the thread count (out of
 * memory; the slots are then left invalid, so that the next look-up tries
 * again). */
static int32_t thread_of_slow(trx_cursor *c, uint32_t address, thread_slot *slot)
{
    struct trx_cursor_scratch *s = c->scratch_;
    const trx_trace *t = c->trace;
    if (s->threads_objects != t->object_count) {
        clear_thread_slots(s);
        if (ensure_cache(c) < 0)
            return -1;
        s->threads_objects = t->object_count;
    }
    int32_t th = trx_thread_for_context(t, address);
    if (th >= 0 && address != TRX_CONTEXT_ISR)
        *slot = (thread_slot){address, th};
    return th;
}

/* trx_thread_for_context through the cursor's cache; a thread it returns
 * has a priority cache entry. */
static inline int32_t thread_of(trx_cursor *c, uint32_t address)
{
    struct trx_cursor_scratch *s = c->scratch_;
    thread_slot *slot = &s->threads[(uint32_t)(address * 0x9E3779B1u) >> 26]; /* 64 slots */
    if (slot->address == address && s->threads_objects == c->trace->object_count)
        return slot->thread;
    return thread_of_slow(c, address, slot);
}

/* The masked time stamp of raw chronological entry `i`. */
static inline uint32_t stamp_of(const trx_trace *t, uint32_t i)
{
    const uint8_t *p = t->entries + (size_t)trx_entry_phys(t, i) * TRX_ENTRY_SIZE;
    return trx_rd32(p + 12, t->header.big_endian) & t->header.timer_mask;
}

/* The events lost right before `ev` (a stream's gaps, stream_txtb.h), and
 * where the next gap is. A stream's rebuilt buffer is never wrapped: its
 * view meets the entries in ascending physical order, skipping damaged
 * ones, so a gap before a skipped entry goes to the next entry met. */
static TRX_COLD void take_gaps(trx_cursor *c, trx_event *ev)
{
    const trx_trace *t = c->trace;
    uint64_t lost = 0;
    if (ev->synthetic) /* a RUNNING event: no entry, nothing lost before it */
        return;
    while (c->gap_k_ < t->gap_count && t->gap_entry_[c->gap_k_] <= ev->entry)
        lost += t->gaps[c->gap_k_++].lost;
    ev->lost_before = lost > UINT32_MAX ? UINT32_MAX : (uint32_t)lost;
    c->gap_at_ = c->gap_k_ < t->gap_count ? t->gap_entry_[c->gap_k_] : UINT64_MAX;
}

/* Points the cursor at the first gap that raw entry `raw` or a later one
 * takes: past the physical entry of raw - 1 (take_gaps; set_walk first). */
static void seek_gaps(trx_cursor *c, uint32_t raw)
{
    const trx_trace *t = c->trace;
    uint64_t lo = 0, hi = t->gap_entry_ ? t->gap_count : 0;
    uint64_t from = raw == 0 ? 0 : (uint64_t)trx_entry_phys(t, raw - 1) + 1;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (t->gap_entry_[mid] < from)
            lo = mid + 1;
        else
            hi = mid;
    }
    c->gap_k_ = lo;
    c->gap_at_ = t->gap_entry_ && lo < t->gap_count ? t->gap_entry_[lo] : UINT64_MAX;
}

/* Sets once the fields that are the same in every TXTB event of a kind:
 * ev_buf_[0] and [1] hold stored events, ev_buf_[2] RUNNING ones (see
 * make_running), and advance writes only the others. */
static void preset_events(trx_cursor *c)
{
    for (int k = 0; k < 3; k++)
        c->ev_buf_[k].flags = TRX_EV_CONTEXT | TRX_EV_PRIORITY | TRX_EV_TIMESTAMP;
    trx_event *f = &c->ev_buf_[2];
    f->id = f->raw_id = TRX_EVENT_RUNNING;
    f->kind = TRX_KIND_RUNNING;
    f->entry = UINT32_MAX;
    f->synthetic = true;
}

/* Sets the walk's constants (the view's order, the rule of its tick steps)
 * and the physical index of raw entry `raw`, where it starts. */
static void set_walk(trx_cursor *c, uint32_t raw)
{
    const trx_trace *t = c->trace;
    const uint64_t mask = t->header.timer_mask;
    c->order_ = t->order_ && !t->view_is_tracex_ ? t->order_ : NULL;
    c->phys_ = raw < t->used ? trx_entry_phys(t, raw) : 0;
    /* trx_entry_phys: the ring's order wraps to physical 0 at raw used - oldest */
    c->run_end_ = c->order_ ? 0 : t->oldest ? t->used - t->oldest : t->used;
    c->step_masked_ = (mask & (mask + 1)) == 0; /* 2^k - 1 (2^32 - 1 included) */
    c->step_mask_ = t->header.timer_mask;
    c->step_flip_ = t->counts_up ? 0 : UINT32_MAX;
}

int trx_cursor_init(trx_cursor *c, trx_trace *t)
{
    memset(c, 0, sizeof *c);
    trx_trace_use_view(t);
    c->trace = t;
    c->pending_ = &c->ev_buf_[0];
    c->spare_ = &c->ev_buf_[1];
    if (t->format == TRX_TRACE_TXTB) {
        preset_events(c);
        set_walk(c, 0);
        if (t->used > 0)
            c->prev_ts_ = stamp_of(t, 0); /* the first event's tick step is 0 */
    }
    c->idle_task_ = trx_context_is_idle_task(t, t->idle_task) ? t->idle_task : 0;
    seek_gaps(c, 0);
    c->scratch_ = calloc(1, sizeof *c->scratch_);
    if (c->scratch_) {
        clear_thread_slots(c->scratch_);
        c->scratch_->threads_objects = t->object_count; /* with ensure_cache below */
    }
    if (!c->scratch_ || ensure_cache(c) < 0 ||
        (t->format == TRX_TRACE_UIA && trx_uia_cursor_init(c) < 0)) {
        trx_cursor_free(c);
        return -1;
    }
    return 0;
}

void trx_cursor_free(trx_cursor *c)
{
    if (c->scratch_) {
        trx_lookahead_free(c->scratch_->index);
        free(c->scratch_->cache);
        free(c->scratch_);
        c->scratch_ = NULL;
    }
    c->have_pending_ = false; /* trx_cursor_next_ref: nothing more */
    trx_uia_cursor_free(c);
}

void trx_cursor_move(trx_cursor *dst, const trx_cursor *src)
{
    *dst = *src;
    dst->pending_ = &dst->ev_buf_[src->pending_ - src->ev_buf_];
    dst->spare_ = &dst->ev_buf_[src->spare_ - src->ev_buf_];
}

int trx_cursor_copy(trx_cursor *dst, const trx_cursor *src)
{
    trx_cursor_move(dst, src);
    dst->scratch_ = NULL;
    dst->uia_ = NULL;
    dst->preparing_ = false;
    if (!src->scratch_)
        return 0; /* an ended cursor: ended too */
    struct trx_cursor_scratch *s = malloc(sizeof *s);
    if (!s)
        return -1;
    *s = *src->scratch_;
    s->index = NULL; /* the look-ahead index is a speed-up: the copy scans again */
    s->index_failed = false;
    s->scanned = 0;
    s->prep = NULL;
    s->guesses = NULL; /* the copy notes nothing */
    s->cache = s->cap ? malloc((size_t)s->cap * sizeof *s->cache) : NULL;
    dst->scratch_ = s;
    if (s->cap && !s->cache) {
        s->cap = 0;
        trx_cursor_free(dst);
        return -1;
    }
    if (s->cap)
        memcpy(s->cache, src->scratch_->cache, (size_t)s->cap * sizeof *s->cache);
    if (src->uia_ && trx_uia_cursor_copy(dst, src) < 0) {
        trx_cursor_free(dst);
        return -1;
    }
    return 0;
}

size_t trx_cursor_state_size(const trx_cursor *c)
{
    size_t n = sizeof *c;
    if (c->scratch_)
        n += sizeof *c->scratch_ + (size_t)c->scratch_->cap * sizeof *c->scratch_->cache;
    return n + trx_uia_cursor_state_size(c);
}

void trx_cursor_attach_prepare(trx_cursor *c, trx_prepare_state *prep)
{
    c->preparing_ = true;
    c->scratch_->prep = prep;
}

/* `a` if `cond`, else `b`, without a branch: for conditions on the trace's
 * data (event ids, contexts), which no predictor guesses, where compilers
 * would branch on a conditional expression. */
static inline uint32_t pick(bool cond, uint32_t a, uint32_t b)
{
    return b ^ ((a ^ b) & (0u - (uint32_t)cond));
}

/* Decodes a thread-context priority word: priority and preemption-threshold. */
static inline void decode_priority(uint32_t raw, uint32_t *prio, uint32_t *pt)
{
    *pt = pick(raw >> 31, (raw >> 16) & 0x3FFu, TRX_UNKNOWN);
    *prio = raw & 0x3FFu;
}

/* How a thread event names the next context (tracex.md 2.3), by id:
 * THREAD_NEXT_AHEAD: the context of the entry after it if a thread's, else
 * its own; RESUME: info4 (0: a scan); SUSPEND: info4 unless it suspends
 * itself and runs on; RELINQUISH: info2 (0: a scan). */
enum { THREAD_NEXT_AHEAD, THREAD_NEXT_SUSPEND, THREAD_NEXT_RESUME, THREAD_NEXT_RELINQUISH };

/* What an interrupt or initialization event does to the running thread and
 * the interrupt nesting (tracex.md 2.3), by id: RESUME and SUSPEND name the
 * next thread in info4 (a RESUME naming none: a look-ahead), a TIME_SLICE
 * in info1; ISR_ENTER and ISR_EXIT nest. */
enum {
    ISR_RUN_INFO3 = 1,
    ISR_RUN_INFO0 = 2,
    ISR_RUN_RESUME = 4,
    ISR_NEST_IN = 8,
    ISR_NEST_OUT = 16
};

/* The kinds of TXTB ids: the catalogue's meanings (events.csv; test_meanings
 * pins these ids), where the word the kind is about lies in the event (its
 * offset from lost_before, which is 0 while the kind is set; NONE reads it;
 * unlisted ids: NONE), and how it decides the next context in a thread
 * (THREAD_NEXT_*) and in an interrupt or initialization (ISR_* flags). */
#define SUBJECT_AT(field) ((int)offsetof(trx_event, field) - (int)offsetof(trx_event, lost_before))
enum {
    SUBJECT_NONE = 0,
    SUBJECT_INFO0 = SUBJECT_AT(info[0]),
    SUBJECT_INFO1 = SUBJECT_AT(info[1]),
    SUBJECT_CONTEXT = SUBJECT_AT(context)
};
typedef struct txtb_kind {
    uint8_t kind;
    int8_t subject;
    uint8_t thread_next; /* THREAD_NEXT_* */
    uint8_t isr_next;    /* ISR_* flags */
} txtb_kind;
static const txtb_kind txtb_kinds[113] = {
    /* info1 thread, info2 previous state, info4 next thread */
    [1] = {TRX_KIND_RESUME, SUBJECT_INFO0, THREAD_NEXT_RESUME, ISR_RUN_INFO3 | ISR_RUN_RESUME},
    /* info1 thread, info2 new state, info4 next thread */
    [2] = {TRX_KIND_SUSPEND, SUBJECT_INFO0, THREAD_NEXT_SUSPEND, ISR_RUN_INFO3},
    [3] = {TRX_KIND_ISR_ENTER, SUBJECT_INFO1, 0, ISR_NEST_IN},    /* info2 the ISR number */
    [4] = {TRX_KIND_ISR_EXIT, SUBJECT_INFO1, 0, ISR_NEST_OUT},    /* info2 the ISR number */
    [5] = {TRX_KIND_TIME_SLICE, SUBJECT_INFO0, 0, ISR_RUN_INFO0}, /* info1 the next thread */
    [TRX_EVENT_RUNNING] = {TRX_KIND_RUNNING, SUBJECT_NONE, 0, 0},
    [52] = {TRX_KIND_LOCK_GET, SUBJECT_INFO0, 0, 0},   /* TX_TRACE_MUTEX_GET */
    [57] = {TRX_KIND_LOCK_PUT, SUBJECT_INFO0, 0, 0},   /* TX_TRACE_MUTEX_PUT */
    [63] = {TRX_KIND_QUEUE_SEND, SUBJECT_INFO0, 0, 0}, /* TX_TRACE_QUEUE_FRONT_SEND */
    [68] = {TRX_KIND_QUEUE_RECEIVE, SUBJECT_INFO0, 0, 0},
    [69] = {TRX_KIND_QUEUE_SEND, SUBJECT_INFO0, 0, 0},
    [83] = {TRX_KIND_SEM_GET, SUBJECT_INFO0, 0, 0},
    [88] = {TRX_KIND_SEM_PUT, SUBJECT_INFO0, 0, 0},
    /* info1 thread, info2 new priority */
    [108] = {TRX_KIND_PRIORITY_CHANGE, SUBJECT_INFO0, 0, 0},
    /* TX_TRACE_THREAD_RELINQUISH: info2 the next thread */
    [109] = {TRX_KIND_YIELD, SUBJECT_CONTEXT, THREAD_NEXT_RELINQUISH, 0},
    [112] = {TRX_KIND_SLEEP, SUBJECT_CONTEXT, 0, 0}, /* TX_TRACE_THREAD_SLEEP */
};

/* The txtb_kinds entry of TXTB id `id` ([0], nothing, for ids past it). */
static inline const txtb_kind *kind_of(uint32_t id)
{
    return &txtb_kinds[pick(id < sizeof txtb_kinds / sizeof txtb_kinds[0], id, 0)];
}

/* Sets the kind, subject and priority_change of a TXTB event whose context,
 * info words and lost_before (0) are set. */
static inline void set_kind(trx_event *ev, const txtb_kind *k, uint32_t id, uint32_t info1)
{
    uint32_t subject;
    memcpy(&subject, (const char *)&ev->lost_before + k->subject, sizeof subject);
    ev->subject = subject;
    ev->kind = k->kind;
    ev->priority_change = (id <= 2) & (info1 == TRX_STATE_PRIORITY_CHANGE);
}

/* Ticks between the masked time stamps `prev` and `ts` of two entries in a
 * row: their difference in the timer's direction, plus a wrap of the timer
 * when it is negative. */
static inline uint64_t tick_step(const trx_trace *t, uint32_t prev, uint32_t ts)
{
    int64_t d = t->counts_up ? (int64_t)ts - prev : (int64_t)prev - ts;
    uint64_t wrap = d < 0 ? (uint64_t)t->header.timer_mask + 1 : 0;
    return (uint64_t)d + wrap;
}

/* tick_step by the walk's constants: with a timer mask 2^k - 1, the stamps'
 * difference modulo 2^k in the timer's direction (the flipped stamps of a
 * timer counting down count up). */
static inline uint64_t walk_step(const trx_cursor *c, uint32_t prev, uint32_t ts)
{
    if (TRX_LIKELY(c->step_masked_))
        return ((ts ^ c->step_flip_) - (prev ^ c->step_flip_)) & c->step_mask_;
    return tick_step(c->trace, prev, ts);
}

/* The physical index of raw chronological entry i + 1 (< used), from that of i. */
static inline uint32_t next_phys(const trx_cursor *c, uint32_t used, uint32_t i, uint32_t phys)
{
    if (c->order_)
        return c->order_[i + 1];
    return phys + 1 == used ? 0 : phys + 1; /* see trx_entry_phys */
}

/* The raw entry after the current one, read where the model needs its words
 * (after the last: no_next_entry, an ISR context with id 0 and priority 0,
 * which next_for_* treat as none). */
typedef struct next_entry {
    const uint8_t *words;
    bool be;
} next_entry;

static const uint8_t no_next_entry[TRX_ENTRY_SIZE] = {0xFF, 0xFF, 0xFF, 0xFF}; /* either order */

/* The next entry's context, priority and id words. */
static inline uint32_t nx_context(next_entry nx)
{
    return trx_rd32(nx.words, nx.be);
}

static inline uint32_t nx_priority(next_entry nx)
{
    return trx_rd32(nx.words + 4, nx.be);
}

static inline uint32_t nx_id(next_entry nx)
{
    return trx_rd32(nx.words + 8, nx.be) & 0xFFFFu;
}

/* The words of raw entry i + 1 when entry i (physical `phys`) ends a run of
 * the ring (its wrap, the view's order, the end), and its physical index
 * into the cursor. */
static TRX_COLD const uint8_t *next_past_run(trx_cursor *c, uint32_t i, uint32_t phys)
{
    const trx_trace *t = c->trace;
    if (i + 1 >= t->used)
        return no_next_entry;
    const uint32_t nphys = next_phys(c, t->used, i, phys);
    c->phys_ = nphys;
    return t->entries + (size_t)nphys * TRX_ENTRY_SIZE;
}

/* Index of the first thread-context entry after raw index i, or `used`. */
static uint32_t next_thread_event(const trx_trace *t, uint32_t i, trx_entry *out)
{
    for (uint32_t j = i + 1; j < t->used; j++) {
        trx_trace_entry(t, j, out);
        if (is_thread_context(out->context))
            return j;
    }
    return t->used;
}

/* Counts `n` entries read by a look-ahead scan; returns the index once the
 * scans have used their budget (NULL before, or when it cannot be built). */
static const trx_lookahead *charge_scan(trx_cursor *c, uint64_t n)
{
    struct trx_cursor_scratch *s = c->scratch_;
    s->scanned += n;
    if (!s->index && !s->index_failed &&
        s->scanned > (uint64_t)SCAN_BUDGET_PER_ENTRY * c->trace->used + SCAN_BUDGET_EXTRA) {
        s->index = trx_lookahead_build(c->trace);
        s->index_failed = !s->index;
    }
    return s->index;
}

/* First raw index >= p whose context is the thread `address`, or UINT32_MAX. */
static uint32_t next_occurrence_of(trx_cursor *c, uint32_t address, uint32_t p)
{
    const trx_trace *t = c->trace;
    next_occurrence *o = &c->scratch_->occurrence[(address ^ address >> 7) % OCCURRENCE_SLOTS];
    if (o->valid && o->address == address && o->from <= p && (o->at == UINT32_MAX || o->at >= p))
        return o->at;
    uint32_t at = UINT32_MAX;
    if (is_thread_context(address)) {
        if (c->scratch_->index) {
            at = trx_lookahead_next_context(c->scratch_->index, address, p);
        } else {
            trx_entry e;
            uint32_t j;
            for (j = p; j < t->used; j++) {
                trx_trace_entry(t, j, &e);
                if (e.context == address) {
                    at = j;
                    break;
                }
            }
            charge_scan(c, j - p);
        }
    }
    *o = (next_occurrence){address, p, at, true};
    return at;
}

/* The running thread after an interrupt's RESUME that does not name the next
 * thread: the first later thread event is either the running thread's (no
 * change) or the resumed one's (it becomes the running one). */
static TRX_COLD uint32_t running_after_resume(trx_cursor *c, uint32_t i, uint32_t cur,
                                              uint32_t resumed_thread)
{
    uint32_t running = next_occurrence_of(c, cur, i + 1);
    uint32_t resumed = next_occurrence_of(c, resumed_thread, i + 1);
    return resumed < running ? resumed_thread : cur;
}

/* Next context of an interrupt or initialization event (tracex.md 2.3) with
 * the ISR_* flags `rule` of its id: updates the running thread `*cur`, the
 * nesting `*nest` and, by the backward patch, the pending event's next
 * context `*p_next`; `nx` is the entry after it. */
static inline uint32_t next_for_isr_or_init(trx_cursor *c, uint32_t i, uint32_t ctx, uint32_t rule,
                                            uint32_t prio, uint32_t info0, uint32_t info3,
                                            next_entry nx, uint32_t *cur, uint32_t *nest,
                                            uint32_t *p_next, bool patchable)
{
    /* an interrupt names the thread it interrupted: it runs after the pending event */
    bool patch =
        patchable & (ctx == TRX_CONTEXT_ISR) & (prio != 0) & (prio != 0xFFFFFFFFu) & (i > 1);
    *p_next = pick(patch, prio, *p_next);
    uint32_t run = pick(patch, prio, *cur);
    if (rule & (ISR_RUN_INFO3 | ISR_RUN_INFO0)) { /* the event names the next thread */
        uint32_t before = run;
        run = rule & ISR_RUN_INFO0 ? info0 : info3;
        if ((rule & ISR_RUN_RESUME) && info3 == 0) /* a RESUME that does not */
            run = running_after_resume(c, i, before, info0);
    }
    uint32_t n = *nest;
    n += (rule / ISR_NEST_IN) & 1;
    n -= (rule / ISR_NEST_OUT) & (n > 0);
    *nest = n;
    *cur = run;
    const uint32_t nx_ctx = nx_context(nx), nx_prio = nx_priority(nx);
    uint32_t after = nx_prio != 0 ? nx_prio : run;
    after = pick((nx_ctx == TRX_CONTEXT_ISR) & (nx_id(nx) != 1), after, nx_ctx);
    return pick(n == 0, after, ctx);
}

/* Next context of a thread's internal RESUME (id 1) or relinquish (109)
 * that does not name the next thread: from the events ahead (tracex.md 2.3). */
static TRX_COLD uint32_t next_by_scan(const trx_trace *t, uint32_t i, uint32_t ctx, uint32_t id,
                                      uint32_t info0)
{
    trx_entry e;
    if (id == 1)
        return next_thread_event(t, i, &e) < t->used && e.context == info0 ? info0 : ctx;
    uint32_t j = next_thread_event(t, i, &e);
    uint32_t a = e.context;
    if (j >= t->used || a == ctx)
        return ctx;
    for (uint32_t k = i + 1; k < j; k++) {
        trx_entry b;
        trx_trace_entry(t, k, &b);
        uint32_t bid = b.id & 0xFFFFu;
        if ((bid == 1 || bid == 2) && b.info[0] == a)
            return ctx;
    }
    return a;
}

/* Next context of a thread event (tracex.md 2.3) by its rule (THREAD_NEXT_*);
 * `nx`: the entry after it. Without a branch on the rule, which follows the
 * trace's data: the words of AHEAD and SUSPEND and the named one computed,
 * one taken. */
static inline uint32_t next_for_thread(const trx_trace *t, uint32_t i, uint32_t ctx, uint32_t id,
                                       uint32_t rule, const uint32_t info[4], next_entry nx)
{
    const uint32_t a = nx_context(nx);
    const bool names = rule >= THREAD_NEXT_RESUME;                   /* RESUME, RELINQUISH */
    const uint32_t named = info[rule == THREAD_NEXT_RESUME ? 3 : 1]; /* info4, info2 */
    if (names & (named == 0)) /* a resume or relinquish that does not name the next thread */
        return next_by_scan(t, i, ctx, id, info[0]);
    uint32_t next = pick(is_thread_context(a), a, ctx);
    next =
        pick(rule == THREAD_NEXT_SUSPEND, pick((ctx == info[0]) & (a == ctx), ctx, info[3]), next);
    return pick(names, named, next);
}

/* Priority and preemption-threshold an entry gives thread `addr`, if it is
 * one TraceX's search for a RUNNING event's priority accepts. */
static uint8_t entry_gives_priority(const trx_entry *e, uint32_t addr, uint32_t *prio, uint32_t *pt)
{
    uint32_t id = e->id & 0xFFFFu;
    if (e->context == addr && id != TRX_EVENT_RUNNING) {
        decode_priority(e->priority, prio, pt);
        return TRX_PRIORITY_FROM_EVENT;
    }
    if (id == 100 && e->info[0] == addr) {
        *prio = e->info[1];
        *pt = 0; /* TraceX leaves the threshold of such a RUNNING event at 0 */
        return TRX_PRIORITY_FROM_CREATE;
    }
    return TRX_PRIORITY_NONE;
}

/* Priority of a RUNNING event for thread `th` inserted after raw index i:
 * backwards first (the cache holds the latest match up to i), then forwards. */
static uint8_t running_priority(trx_cursor *c, int32_t th, uint32_t i, uint32_t *prio, uint32_t *pt)
{
    thread_prio_cache *pc = &c->scratch_->cache[th];
    *prio = 0;
    *pt = 0;
    if (pc->valid) {
        *prio = pc->prio;
        *pt = pc->pt;
        return pc->valid;
    }
    const trx_trace *t = c->trace;
    if (t->threads[th].next_context_only)
        return TRX_PRIORITY_NONE; /* no stored event of its own: a forward search finds nothing */
    uint32_t addr = t->threads[th].address;
    if (!(pc->fwd_done && pc->fwd_from <= i + 1 && (pc->fwd_at == UINT32_MAX || pc->fwd_at > i))) {
        pc->fwd_done = true;
        pc->fwd_from = i + 1;
        pc->fwd_at = UINT32_MAX;
        trx_entry e;
        if (c->scratch_->index) {
            uint32_t j = trx_lookahead_next_priority(c->scratch_->index, addr, i + 1);
            if (j != UINT32_MAX) {
                trx_trace_entry(t, j, &e);
                pc->fwd_source = entry_gives_priority(&e, addr, &pc->fwd_prio, &pc->fwd_pt);
                pc->fwd_at = j;
            }
        } else {
            uint32_t j;
            for (j = i + 1; j < t->used; j++) {
                trx_trace_entry(t, j, &e);
                pc->fwd_source = entry_gives_priority(&e, addr, &pc->fwd_prio, &pc->fwd_pt);
                if (pc->fwd_source) {
                    pc->fwd_at = j;
                    break;
                }
            }
            charge_scan(c, j - i);
        }
    }
    if (pc->fwd_at == UINT32_MAX)
        return TRX_PRIORITY_NONE;
    *prio = pc->fwd_prio;
    *pt = pc->fwd_pt;
    return pc->fwd_source;
}

/* What a thread creation (id 100) tells the backward priority search. */
static TRX_COLD void remember_created(trx_cursor *c, uint32_t address, uint32_t prio)
{
    thread_slot none; /* thread_slot's empty address: not through the slots */
    int32_t th =
        address == TRX_CONTEXT_ISR ? thread_of_slow(c, address, &none) : thread_of(c, address);
    if (th >= 0) {
        thread_prio_cache *pc = &c->scratch_->cache[th];
        pc->prio = prio;
        pc->pt = 0;
        pc->valid = TRX_PRIORITY_FROM_CREATE;
    }
}

/* Notes a RUNNING priority found by a forward search (segments). */
static TRX_COLD void note_guess(trx_cursor_guesses *s, int32_t th, uint32_t prio, uint32_t pt,
                                uint8_t source)
{
    for (uint32_t k = 0; k < s->count; k++)
        if (s->guess[k].thread == th)
            return; /* the same search until the thread's own event */
    if (s->count == TRX_CURSOR_GUESSES) {
        s->overflow = true;
        return;
    }
    s->guess[s->count].thread = th;
    s->guess[s->count].prio = prio;
    s->guess[s->count].pt = pt;
    s->guess[s->count].source = source;
    s->count++;
}

/* Builds in ev_buf_[2] the synthetic RUNNING event that goes between `p` and
 * `e` (preset_events set its constant fields) and reports it while
 * preparing. */
static TRX_COLD void make_running(trx_cursor *c, const trx_event *p, const trx_event *e,
                                  uint32_t raw_i)
{
    trx_event *f = &c->ev_buf_[2];
    uint8_t found = TRX_PRIORITY_NONE;
    uint32_t to = p->next_context;
    f->context = f->next_context = to;
    f->core = p->core; /* the switch happened where the event before it ran */
    f->ticks = p->ticks;
    f->timestamp = p->timestamp;
    if ((uint32_t)(e->ticks - p->ticks) > 12) {
        f->ticks += 12;
        f->timestamp = c->trace->counts_up ? p->timestamp + 12 : p->timestamp - 12;
    }
    f->time = f->timestamp;
    f->lost_before = 0;
    f->priority = 0;
    f->threshold = 0; /* what TraceX shows when no stored event gives one */
    f->thread = -1;
    if (to != TRX_CONTEXT_IDLE && is_thread_context(to)) {
        f->thread = thread_of(c, to);
        if (f->thread >= 0) {
            bool known = c->scratch_->cache[f->thread].valid != 0;
            found = running_priority(c, f->thread, raw_i - 1, &f->priority, &f->threshold);
            if (!known && c->scratch_->guesses)
                note_guess(c->scratch_->guesses, f->thread, f->priority, f->threshold, found);
        } else if (c->trace->mode == TRX_MODE_TRACEX && !c->preparing_ &&
                   c->trace->thread_count > 0)
            f->thread = 0; /* TraceX attributes a next context that is no thread to thread 0 */
    }
    f->raw_priority = f->priority;
    if (c->preparing_)
        trx_prepare_running_event(c->scratch_->prep, c->trace, f, found);
}

/* Whether the correct mode overrules the RUNNING event TraceX inserts
 * between `p` and `e` (docs/analyses.md, "Contradicted RUNNING events"): the
 * context TraceX guesses from p's next context (a thread, idle or
 * initialization) cannot have run when the next event, recorded on the same
 * core, is another thread's own: a thread gets and gives up the processor
 * only by an event (a RESUME naming it, its SUSPEND, ...) or through an
 * interrupt, which may log nothing (so a guessed interrupt stands). E.g. a
 * mutex put that restores an inherited priority: ThreadX's internal SUSPEND
 * / RESUME pair of the holder names the highest ready thread as next, but the
 * put goes on in the holder's context. TraceX's mode keeps TraceX's guess. */
static inline bool contradicts_running(const trx_trace *t, const trx_event *p, const trx_event *e)
{
    return t->mode == TRX_MODE_CORRECT && is_thread_context(e->context) &&
           p->next_context != TRX_CONTEXT_ISR && e->core == p->core;
}

/* Makes `ev` final and numbers it; the default mode shows the RTOS's idle
 * task as idle time (trx_context_is_idle_task). The model computes with its
 * address until here, so that every comparison between two events sees the
 * same word. */
static inline void emit(trx_cursor *c, trx_event *ev)
{
    if (ev->entry >= c->gap_at_) /* lost_before: 0 until here (advance, make_running) */
        take_gaps(c, ev);
    if (c->idle_task_ != 0) {
        if (ev->context == c->idle_task_) {
            ev->context = TRX_CONTEXT_IDLE;
            ev->thread = -1;
        }
        if (ev->next_context == c->idle_task_)
            ev->next_context = TRX_CONTEXT_IDLE;
    }
    ev->index = c->out_index_++;
}

/* advance's modelling of an interrupt (`ctx` TRX_CONTEXT_ISR) or
 * initialization event `ev` whose priority word is `raw`: returns the
 * pending event's next context, which it sets. */
static TRX_ALWAYS_INLINE uint32_t model_isr_or_init(trx_cursor *c, trx_event *ev, trx_event *p,
                                                    uint32_t i, const uint32_t ctx, uint32_t raw,
                                                    uint32_t rule, next_entry nx, bool pending)
{
    uint32_t prio = ctx == TRX_CONTEXT_ISR ? raw : raw & 0x7FFu;
    uint32_t p_next = p->next_context;
    ev->priority = prio;
    ev->threshold = TRX_UNKNOWN;
    ev->thread = -1;
    ev->next_context =
        next_for_isr_or_init(c, i, ctx, rule, prio, ev->info[0], ev->info[3], nx, &c->cur_,
                             &c->nest_, &p_next, pending & (p->context != TRX_CONTEXT_ISR));
    p->next_context = p_next;
    return p_next;
}

/* model_isr_or_init of an initialization event: rare, out of the hot path. */
static TRX_COLD uint32_t model_init(trx_cursor *c, trx_event *ev, trx_event *p, uint32_t i,
                                    uint32_t raw, uint32_t rule, next_entry nx, bool pending)
{
    return model_isr_or_init(c, ev, p, i, TRX_CONTEXT_INIT, raw, rule, nx, pending);
}

/* Reads raw event `pos_` and completes the pending one: returns it (NULL
 * when there was none), and leaves a RUNNING event to follow it in
 * ev_buf_[2] (running_ready_). ev_buf_[0] and [1] hold the pending event and
 * the new one (they swap roles), so nothing is copied. The entries are read
 * in place. `be` (big-endian) and `pending` (have_pending_: false only for
 * a walk's first entry) are constants in each instance. */
static TRX_ALWAYS_INLINE const trx_event *advance(trx_cursor *c, const bool be, const bool pending)
{
    trx_trace *t = c->trace;
    const uint32_t i = c->pos_++;
    trx_event *p = c->pending_, *ev = c->spare_;
    const uint32_t phys = c->phys_;
    const uint8_t *w = t->entries + (size_t)phys * TRX_ENTRY_SIZE; /* trx_entry's words */
    const uint32_t ctx = trx_rd32(w, be), raw = trx_rd32(w + 4, be), raw_id = trx_rd32(w + 8, be);
    const uint32_t ts = trx_rd32(w + 12, be) & t->header.timer_mask, id = raw_id & 0xFFFFu;
    const uint64_t ticks = c->ticks_ + walk_step(c, c->prev_ts_, ts);
    c->ticks_ = ticks;
    c->prev_ts_ = ts;
    ev->ticks = ticks;
    ev->timestamp = ts;
    ev->time = ts;
    ev->id = id;
    ev->raw_id = raw_id;
    ev->core = raw_id >> 24;
    ev->context = ctx;
    ev->entry = phys;
    ev->raw_priority = raw;
    ev->lost_before = 0; /* emit adds the stream's gap */
    if (be) {
        for (int k = 0; k < 4; k++)
            ev->info[k] = trx_rd32(w + 16 + 4 * k, be);
    } else {
        memcpy(ev->info, w + 16, sizeof ev->info);
    }
    const txtb_kind *kind = kind_of(id);
    set_kind(ev, kind, id, ev->info[1]);

    next_entry nx = {w + TRX_ENTRY_SIZE, be};
    if (i + 1 < c->run_end_) /* within a run of the ring: the next entry in memory */
        c->phys_ = phys + 1;
    else
        nx.words = next_past_run(c, i, phys);
    struct trx_cursor_scratch *s = c->scratch_;
    thread_prio_cache *pc = &s->sink; /* what the backward priority search learns */
    uint32_t p_next = p->next_context;
    if (is_thread_context(ctx)) {
        decode_priority(raw, &ev->priority, &ev->threshold);
        ev->thread = thread_of(c, ctx);
        if (c->preparing_) {
            trx_prepare_real_event(s->prep, t, ev); /* may add a thread */
            if (ensure_cache(c) < 0)
                ev->thread = -1; /* out of memory: no priority cache for new threads */
        }
        uint32_t next = next_for_thread(t, i, ctx, id, kind->thread_next, ev->info, nx);
        ev->next_context = next;
        c->cur_ = next;
        c->nest_ = 0;
        if (ev->thread >= 0 && id != TRX_EVENT_RUNNING)
            pc = &s->cache[ev->thread];
    } else if (ctx == TRX_CONTEXT_ISR) {
        p_next = model_isr_or_init(c, ev, p, i, TRX_CONTEXT_ISR, raw, kind->isr_next, nx, pending);
    } else {
        p_next = model_init(c, ev, p, i, raw, kind->isr_next, nx, pending);
    }

    const trx_event *out = NULL;
    if (pending) {
        /* execution moves without an event: TraceX inserts a RUNNING one */
        bool running = (p->context != p_next) & (p_next != ctx);
        if (running) {
            if (contradicts_running(t, p, ev))
                p->next_context = ctx; /* ctx ran on: the RUNNING event names it */
            make_running(c, p, ev, i);
        }
        emit(c, p);
        if (running) {
            emit(c, &c->ev_buf_[2]);
            c->running_ready_ = true;
        }
        out = p;
    }
    pc->prio = ev->priority;
    pc->pt = ev->threshold;
    pc->valid = TRX_PRIORITY_FROM_EVENT;
    if (id == 100)
        remember_created(c, ev->info[0], ev->info[1]);
    c->pending_ = ev;
    c->spare_ = p;
    if (!pending)
        c->have_pending_ = true;
    return out;
}

/* advance for little- and big-endian traces, an event pending. */
static SCALAR_STORES TRX_NOINLINE const trx_event *advance_le(trx_cursor *c)
{
    return advance(c, false, true);
}

static SCALAR_STORES TRX_NOINLINE const trx_event *advance_be(trx_cursor *c)
{
    return advance(c, true, true);
}

/* advance for a walk's first entry (nothing pending). */
static TRX_COLD void advance_first(trx_cursor *c)
{
    if (c->trace->header.big_endian)
        advance(c, true, false);
    else
        advance(c, false, false);
}

/* trx_cursor_next_ref at the start (nothing pending) and the end, and for UIA. */
static TRX_NOINLINE const trx_event *next_slow(trx_cursor *c)
{
    if (c->uia_) { /* its events numbered by the record walker; counted here too */
        if (!trx_uia_cursor_next(c, &c->ev_buf_[0]))
            return NULL;
        c->out_index_++;
        return &c->ev_buf_[0];
    }
    if (!c->scratch_)
        return NULL;
    const trx_trace *t = c->trace;
    if (c->pos_ < t->used) { /* the first event: it becomes the pending one */
        advance_first(c);
        if (c->pos_ < t->used)
            return (t->header.big_endian ? advance_be : advance_le)(c);
    }
    if (c->have_pending_) { /* the last event */
        trx_event *p = c->pending_;
        emit(c, p);
        c->have_pending_ = false;
        return p;
    }
    trx_cursor_free(c);
    return NULL;
}

const trx_event *trx_cursor_next_ref(trx_cursor *c)
{
    if (c->running_ready_) {
        c->running_ready_ = false;
        return &c->ev_buf_[2];
    }
    /* the steady state: an event is pending and another entry follows */
    if (c->have_pending_ && c->pos_ < c->trace->used)
        return c->trace->header.big_endian ? advance_be(c) : advance_le(c);
    return next_slow(c);
}

bool trx_cursor_next(trx_cursor *c, trx_event *ev)
{
    const trx_event *e = trx_cursor_next_ref(c);
    if (!e)
        return false;
    *ev = *e;
    return true;
}

/* Relative ticks of raw entries last[0] <= last[1] <= ... (n of them, each
 * below t->used) from the time stamp words alone, and their stamps: one
 * pass up to the largest. */
static void ticks_at(const trx_trace *t, const uint32_t *last, uint32_t n, uint64_t *ticks_out,
                     uint32_t *stamp_out)
{
    uint64_t ticks = 0;
    uint32_t prev = stamp_of(t, 0), k = 0;
    while (k < n && last[k] == 0) {
        ticks_out[k] = 0;
        stamp_out[k++] = prev;
    }
    if (k == n)
        return;
    uint32_t end = last[n - 1];
    if (t->order_ && !t->view_is_tracex_) { /* the view's own order */
        for (uint32_t i = 1; i <= end; i++) {
            uint32_t ts = stamp_of(t, i);
            ticks += tick_step(t, prev, ts);
            prev = ts;
            while (k < n && last[k] == i) {
                ticks_out[k] = ticks;
                stamp_out[k++] = prev;
            }
        }
    } else { /* trx_entry_phys: [oldest, used) then [0, oldest), walked as they lie */
        const bool be = t->header.big_endian;
        const uint32_t mask = t->header.timer_mask, wrap_at = t->used - t->oldest;
        const uint8_t *p = t->entries + ((size_t)t->oldest + 1) * TRX_ENTRY_SIZE + 12;
        for (uint32_t i = 1; i <= end; i++, p += TRX_ENTRY_SIZE) {
            if (i == wrap_at)
                p = t->entries + 12;
            uint32_t ts = trx_rd32(p, be) & mask;
            ticks += tick_step(t, prev, ts);
            prev = ts;
            while (k < n && last[k] == i) {
                ticks_out[k] = ticks;
                stamp_out[k++] = prev;
            }
        }
    }
}

/* Relative ticks of raw entry `last`, and its stamp. */
static uint64_t ticks_until(const trx_trace *t, uint32_t last, uint32_t *last_stamp)
{
    uint64_t ticks;
    trx_trace_ticks_at(t, &last, 1, &ticks, last_stamp);
    return ticks;
}

void trx_trace_ticks_at(const trx_trace *t, const uint32_t *last, uint32_t n, uint64_t *ticks,
                        uint32_t *stamps)
{
    /* from the open's checkpoints, each entry on its own; else one pass */
    for (uint32_t k = 0; k < n; k++)
        if (!trx_open_ticks_at(t, last[k], &ticks[k], &stamps[k])) {
            ticks_at(t, last, n, ticks, stamps);
            return;
        }
}

int trx_cursor_init_at_ticks(trx_cursor *c, trx_trace *t, uint32_t raw, uint64_t ticks_before,
                             uint32_t stamp_before)
{
    if (t->format == TRX_TRACE_UIA || raw == 0 || raw >= t->used || trx_cursor_init(c, t) < 0)
        return -1;
    c->pos_ = raw;
    set_walk(c, raw);
    c->ticks_ = ticks_before;
    c->prev_ts_ = stamp_before;
    seek_gaps(c, raw);
    return 0;
}

int trx_cursor_init_at(trx_cursor *c, trx_trace *t, uint32_t raw)
{
    if (t->format == TRX_TRACE_UIA || raw == 0 || raw >= t->used)
        return -1;
    uint32_t stamp;
    uint64_t ticks = ticks_until(t, raw - 1, &stamp);
    return trx_cursor_init_at_ticks(c, t, raw, ticks, stamp);
}

bool trx_cursor_reached(const trx_cursor *c, uint32_t raw)
{
    return c->scratch_ && c->pos_ == raw + 1 && c->have_pending_ && !c->running_ready_;
}

uint64_t trx_cursor_pending_ticks(const trx_cursor *c)
{
    return c->pending_->ticks;
}

uint64_t trx_cursor_returned(const trx_cursor *c)
{
    return c->out_index_ - c->running_ready_;
}

void trx_cursor_continue(trx_cursor *later, const trx_cursor *before)
{
    trx_cursor_rebase(later, before, 0);
}

void trx_cursor_record_guesses(trx_cursor *c, trx_cursor_guesses *into)
{
    if (into)
        memset(into, 0, sizeof *into);
    if (c->scratch_)
        c->scratch_->guesses = into;
}

bool trx_cursor_guesses_hold(const trx_cursor_guesses *g, const trx_cursor *truth)
{
    const struct trx_cursor_scratch *b = truth->scratch_;
    if (g->overflow)
        return false;
    if (!b)
        return g->count == 0;
    for (uint32_t k = 0; k < g->count; k++) {
        uint32_t th = (uint32_t)g->guess[k].thread;
        if (th >= b->cap || !b->cache[th].valid)
            continue; /* truth searches forward from the same place */
        const thread_prio_cache *x = &b->cache[th];
        if (x->prio != g->guess[k].prio || x->pt != g->guess[k].pt ||
            x->valid != g->guess[k].source)
            return false;
    }
    return true;
}

void trx_cursor_rebase(trx_cursor *later, const trx_cursor *before, uint64_t later_at)
{
    uint64_t offset = trx_cursor_returned(before) - later_at;
    later->out_index_ += offset;
    for (int k = 0; k < 3; k++)
        later->ev_buf_[k].index += offset;
    const struct trx_cursor_scratch *b = before->scratch_;
    struct trx_cursor_scratch *s = later->scratch_;
    if (!s || !b)
        return;
    for (uint32_t th = 0; th < s->cap && th < b->cap; th++)
        if (!s->cache[th].valid && b->cache[th].valid) {
            s->cache[th].valid = b->cache[th].valid;
            s->cache[th].prio = b->cache[th].prio;
            s->cache[th].pt = b->cache[th].pt;
        }
}

uint64_t trx_trace_span_ticks(const trx_trace *t)
{
    if (t->format == TRX_TRACE_UIA)
        return trx_uia_span_ticks(t);
    uint32_t last_stamp;
    return t->used ? ticks_until(t, t->used - 1, &last_stamp) : 0;
}
