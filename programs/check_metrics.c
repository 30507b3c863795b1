/*
 * check_metrics.c - evaluates `trx check` rules: one small function per
 * metric reads it from the trace's statistics (or, for the interrupt rate,
 * from one walk of the events), compares it with the rule's limit and
 * writes the evidence: value, limit, event index, ticks, thread / ISR.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/durations.h"
#include "output/registry_warning.h"
#include "check_rules.h"
#include "output/path_output.h"
#include "trx/latency.h"
#include "trx/tx_trace.h"

#define EVIDENCE(out, ...) snprintf((out)->evidence, sizeof(out)->evidence, __VA_ARGS__)

static const char *thread_name(const trx_trace *t, uint32_t i)
{
    return t->objects[t->threads[i].object_index].name;
}

static const char *context_name(const trx_trace *t, uint32_t context)
{
    const char *n = trx_context_name(t, context);
    return n ? n : "?";
}

/* Relative ticks of event number `index` (one walk; used for evidence only). */
static uint64_t ticks_at(trx_trace *t, uint64_t index)
{
    trx_cursor c;
    trx_event ev;
    uint64_t ticks = 0;
    if (trx_cursor_init(&c, t) < 0)
        return 0;
    while (trx_cursor_next(&c, &ev)) {
        if (ev.index >= index) {
            ticks = ev.ticks;
            trx_cursor_free(&c);
            break;
        }
    }
    return ticks;
}

/* The longest duration of a keyed table (ISRs by number, threads by
 * address) among the entries `pick` accepts; NULL when none has a count. */
typedef bool (*key_filter)(const check_ctx *ctx, const check_rule *r, uint32_t key);

static const trx_keyed_duration *longest(const check_ctx *ctx, const check_rule *r,
                                         const trx_keyed_duration *v, uint32_t n, key_filter pick,
                                         uint32_t *matched)
{
    const trx_keyed_duration *worst = NULL;
    *matched = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!pick(ctx, r, v[i].key) || v[i].d.count == 0)
            continue;
        (*matched)++;
        if (!worst || v[i].d.max > worst->d.max)
            worst = &v[i];
    }
    return worst;
}

static bool isr_pick(const check_ctx *ctx, const check_rule *r, uint32_t key)
{
    (void)ctx;
    return !r->has_isr || key == r->isr;
}

static bool thread_pick(const check_ctx *ctx, const check_rule *r, uint32_t key)
{
    return !r->has_thread || strcmp(context_name(ctx->trace, key), r->thread) == 0;
}

/* Whether the trace has a thread named as the rule says. */
static bool thread_exists(const trx_trace *t, const char *name)
{
    for (uint32_t i = 0; i < t->thread_count; i++)
        if (strcmp(thread_name(t, i), name) == 0)
            return true;
    return false;
}

/* Mean of a duration in ticks, as text with two decimals. */
static double mean_of(const trx_duration *d)
{
    return d->count ? (double)d->sum / (double)d->count : 0.0;
}

/* max-isr-ticks=N[:ISR]: the longest ISR (inclusive of the ISRs nested in
 * it), ended at its EXIT event; on an AMP capture ISR is that number on
 * every core, and the subject names the core of the longest ("1/ISR 16"). */
static int metric_isr_ticks(const check_ctx *ctx, const check_rule *r, check_result *out)
{
    const trx_stats *s = ctx->stats;
    uint32_t matched;
    const trx_keyed_duration *w = longest(ctx, r, s->isr, s->isr_count, isr_pick, &matched);
    out->has_value = true;
    if (!w) {
        out->value = 0;
        out->status = r->has_isr ? CHECK_UNAVAILABLE : CHECK_PASS;
        if (r->has_isr)
            EVIDENCE(out, "ISR number %u never ran in the trace (no ISR ENTER/EXIT pair)", r->isr);
        else
            EVIDENCE(out, "no ISR ran (no ISR ENTER/EXIT pair), limit %" PRIu64 " ticks", r->limit);
        out->has_value = !r->has_isr;
        return 0;
    }
    out->value = w->d.max;
    out->status = w->d.max > r->limit ? CHECK_FAIL : CHECK_PASS;
    out->has_event = true;
    out->event_index = w->max_index;
    out->ticks = w->max_ticks;
    const char *irq = trx_interrupt_word(ctx->trace);
    char core[24] = ""; /* AMP: the core whose interrupt it is ("1/Hwi 16") */
    if (w->core != TRX_UNKNOWN)
        snprintf(core, sizeof core, "%u/", w->core);
    snprintf(out->subject, sizeof out->subject, "%s%s %u", core, irq, w->key);
    EVIDENCE(out,
             "longest %s: %s%s %u ran %" PRIu64 " ticks (inclusive of nested %ss; %" PRIu64
             " exclusive at most), ended at event %" PRIu64 " (ticks %" PRIu64 "), limit %" PRIu64
             " ticks; %" PRIu64 " runs, mean %.2f, p99 %" PRIu64,
             irq, core, irq, w->key, w->d.max, irq, w->max_excl, w->max_index, w->max_ticks,
             r->limit, w->d.count, mean_of(&w->d), w->d.p99);
    return 0;
}

/* max-latency / max-response: the longest of a per-thread table. */
static int thread_durations(const check_ctx *ctx, const check_rule *r, check_result *out,
                            const trx_keyed_duration *v, uint32_t n, const char *what,
                            const char *ended_by)
{
    if (r->has_thread && !thread_exists(ctx->trace, r->thread)) {
        out->status = CHECK_UNAVAILABLE;
        EVIDENCE(out, "no thread named \"%s\" in the trace", r->thread);
        return 0;
    }
    uint32_t matched;
    const trx_keyed_duration *w = longest(ctx, r, v, n, thread_pick, &matched);
    out->has_value = true;
    if (!w) {
        out->status = CHECK_PASS;
        EVIDENCE(out, "no %s measured%s%s%s, limit %" PRIu64 " ticks", what,
                 r->has_thread ? " for thread \"" : "", r->has_thread ? r->thread : "",
                 r->has_thread ? "\"" : "", r->limit);
        return 0;
    }
    const char *name = context_name(ctx->trace, w->key);
    out->value = w->d.max;
    out->status = w->d.max > r->limit ? CHECK_FAIL : CHECK_PASS;
    out->has_event = true;
    out->event_index = w->max_index;
    out->ticks = w->max_ticks;
    snprintf(out->subject, sizeof out->subject, "thread %s", name);
    EVIDENCE(out,
             "longest %s: thread \"%s\" %" PRIu64 " ticks, ended by its %s at event %" PRIu64
             " (ticks %" PRIu64 "), limit %" PRIu64 " ticks; %" PRIu64 " measured, mean %.2f, "
             "p99 %" PRIu64,
             what, name, w->d.max, ended_by, w->max_index, w->max_ticks, r->limit, w->d.count,
             mean_of(&w->d), w->d.p99);
    return 0;
}

/* max-latency=TICKS[:THREAD]: interrupt-to-thread latency (an ISR's ENTER
 * to the first event of the thread it resumed). */
static int metric_latency(const check_ctx *ctx, const check_rule *r, check_result *out)
{
    return thread_durations(ctx, r, out, ctx->stats->latency, ctx->stats->latency_count,
                            "interrupt-to-thread latency", "first event after the ISR's resume");
}

/* max-response=THREAD:LIMIT / TICKS[:THREAD]: the longest instance
 * response (trx latency: release to the thread's next wait) of THREAD or of
 * every thread, with the instance and the command that tells why. */
static int metric_response(const check_ctx *ctx, const check_rule *r, check_result *out)
{
    const trx_trace *t = ctx->trace;
    if (r->has_thread && !thread_exists(t, r->thread)) {
        out->status = CHECK_UNAVAILABLE;
        EVIDENCE(out, "no thread named \"%s\" in the trace", r->thread);
        return 0;
    }
    uint64_t limit = r->limit;
    if (r->has_unit) {
        if (!ctx->ticks_per_second) {
            out->status = CHECK_UNAVAILABLE;
            EVIDENCE(out, "the limit is a time and the tick rate is unknown: give "
                          "--ticks-per-us or --ticks-per-second");
            return 0;
        }
        limit = (uint64_t)((long double)r->limit_ns * ctx->ticks_per_second / 1e9L);
    }
    trx_latency_options o;
    check_latency_options(&o);
    const trx_latency *l = ctx->latency; /* computed with the statistics (cmd_check.c) */
    if (!l)
        return -1; /* (not computed: check_needs_latency says it must be) */
    const trx_latency_row *worst = NULL;
    uint64_t measured = 0;
    for (uint32_t i = 0; i < l->row_count; i++) {
        const trx_latency_row *row = &l->rows[i];
        const char *name = context_name(t, row->address);
        if (r->has_thread && strcmp(name, r->thread) != 0)
            continue;
        measured += row->instances;
        if (row->worst_count &&
            (!worst || row->worst[0].response_ticks > worst->worst[0].response_ticks))
            worst = row;
    }
    out->has_value = true;
    if (!worst) {
        out->status = CHECK_PASS;
        EVIDENCE(out, "no complete instance%s%s%s, limit %" PRIu64 " ticks",
                 r->has_thread ? " of thread \"" : "", r->has_thread ? r->thread : "",
                 r->has_thread ? "\"" : "", limit);
        return 0;
    }
    const trx_instance *in = &worst->worst[0];
    const char *name = context_name(t, worst->address);
    out->value = in->response_ticks;
    out->status = in->response_ticks > limit ? CHECK_FAIL : CHECK_PASS;
    out->has_event = true;
    out->event_index = in->release_index;
    out->ticks = in->release_ticks;
    snprintf(out->subject, sizeof out->subject, "thread %s", name);
    /* its first cause: the story of its critical path (trx why) */
    char story[320] = "";
    trx_path path;
    int prc = trx_path_compute(ctx->trace, &o, worst->address, in->number, 0, 0, &path);
    if (prc == 0) {
        trx_path_view view = {ctx->ticks_per_second, worst->response.p50};
        trx_path_story(t, &path, &view, story, sizeof story);
    }
    trx_path_free(&path);
    if (prc < 0)
        return -1;
    EVIDENCE(out,
             "longest response: thread \"%s\" instance #%" PRIu64 " released at ticks %" PRIu64
             " (event %" PRIu64 ") took %" PRIu64 " ticks (median %" PRIu64 "), limit %" PRIu64
             " ticks; %" PRIu64 " instances measured; %s%swhy: trx why %s --thread \"%s\" "
             "--instance %" PRIu64,
             name, in->number, in->release_ticks, in->release_index, in->response_ticks,
             worst->response.p50, limit, measured, story, story[0] ? "; " : "",
             t->path ? t->path : "FILE", name, in->number);
    return 0;
}

bool check_needs_latency(const check_rule *r)
{
    return r->kind == CHECK_MAX_RESPONSE;
}

void check_latency_options(trx_latency_options *o)
{
    memset(o, 0, sizeof *o);
    o->worst = 1;
}

/* max-cpu-load=PERCENT[:WINDOW]: the busiest window (busy = not idle).
 * Windows of another size than the statistics' are computed afresh. */
static int metric_cpu_load(const check_ctx *ctx, const check_rule *r, check_result *out)
{
    const trx_stats *s = ctx->stats;
    trx_stats own;
    bool fresh = r->window && r->window != s->load_window;
    if (fresh) {
        int rc = trx_stats_compute_windowed(ctx->trace, &own, r->window);
        if (rc == TRX_STATS_TOO_MANY_WINDOWS) {
            uint64_t span = s->load_span;
            out->status = CHECK_UNAVAILABLE;
            EVIDENCE(out,
                     "a window of %" PRIu64 " ticks cuts the span of %" PRIu64
                     " ticks into more than %" PRIu64 " windows: use a window of at least %" PRIu64
                     " ticks",
                     r->window, span, TRX_LOAD_WINDOWS_MAX - 1,
                     span / (TRX_LOAD_WINDOWS_MAX - 1) + 1);
            return 0;
        }
        if (rc != 0)
            return -1;
        s = &own;
    }
    uint64_t peak = 0, peak_busy = 0, peak_len = 0;
    for (uint64_t i = 0; i < s->load_count; i++) {
        uint64_t len = trx_stats_load_capacity(s, i);
        if (len == 0) /* after the last event, or unknown state only: holds nothing known */
            continue;
        /* busy / len > peak_busy / peak_len, without division */
        if (peak_len == 0 || (long double)s->load_busy[i] * (long double)peak_len >
                                 (long double)peak_busy * (long double)len) {
            peak = i;
            peak_busy = s->load_busy[i];
            peak_len = len;
        }
    }
    if (peak_len == 0) { /* no window holds known time */
        out->status = CHECK_UNAVAILABLE;
        EVIDENCE(out, "cannot be evaluated: no window holds time whose state is known");
        if (fresh)
            trx_stats_free(&own);
        return 0;
    }
    uint64_t end =
        (peak + 1) * s->load_window < s->load_span ? (peak + 1) * s->load_window : s->load_span;
    out->has_value = true;
    out->percent = true;
    out->value = (uint64_t)((long double)peak_busy * 10000.0L / (long double)peak_len);
    out->status = (long double)peak_busy * 100.0L > (long double)r->limit * (long double)peak_len
                      ? CHECK_FAIL
                      : CHECK_PASS;
    EVIDENCE(out,
             "busiest window: %" PRIu64 ".%02" PRIu64 "%% busy (%" PRIu64 " of %" PRIu64
             " ticks) in window %" PRIu64 " (ticks %" PRIu64 "..%" PRIu64 ") of %" PRIu64
             " windows of %" PRIu64 " ticks, limit %" PRIu64 "%%",
             out->value / 100, out->value % 100, peak_busy, peak_len, peak, peak * s->load_window,
             end, s->load_count, s->load_window, r->limit);
    if (fresh)
        trx_stats_free(&own);
    return 0;
}

/* An ISR entry (its ticks and event index) inside the sliding window. */
typedef struct isr_entry {
    uint64_t ticks, index;
} isr_entry;

/* max-isr-rate=N:TICKS: the most ISR entries (nested ones included) inside
 * any span of TICKS ticks (entries at t0..t1 with t1 - t0 < TICKS), found
 * with a sliding window over one walk of the events; memory grows with that
 * peak count only. */
static int metric_isr_rate(const check_ctx *ctx, const check_rule *r, check_result *out)
{
    trx_cursor c;
    trx_event ev;
    size_t cap = 64, head = 0, size = 0;
    isr_entry *q = malloc(cap * sizeof *q);
    if (!q || trx_cursor_init(&c, ctx->trace) < 0) {
        free(q);
        return -1;
    }
    uint64_t total = 0, peak = 0;
    isr_entry first = {0, 0}, last = {0, 0};
    while (trx_cursor_next(&c, &ev)) {
        if (ev.kind != TRX_KIND_ISR_ENTER || ev.synthetic)
            continue;
        total++;
        while (size && ev.ticks - q[head].ticks >= r->window) {
            head = (head + 1) % cap;
            size--;
        }
        if (size == cap) { /* grow the ring, unrolled at the start */
            isr_entry *n = malloc(2 * cap * sizeof *n);
            if (!n) {
                trx_cursor_free(&c);
                free(q);
                return -1;
            }
            for (size_t i = 0; i < size; i++)
                n[i] = q[(head + i) % cap];
            free(q);
            q = n;
            head = 0;
            cap *= 2;
        }
        q[(head + size) % cap] = (isr_entry){ev.ticks, ev.index};
        size++;
        if (size > peak) {
            peak = size;
            first = q[head];
            last = (isr_entry){ev.ticks, ev.index};
        }
    }
    free(q);
    out->status = peak > r->limit ? CHECK_FAIL : CHECK_PASS;
    out->has_value = true;
    out->value = peak;
    if (peak == 0) {
        EVIDENCE(out, "no interrupt in the trace (limit %" PRIu64 " per %" PRIu64 " ticks)",
                 r->limit, r->window);
        return 0;
    }
    out->has_event = true;
    out->event_index = first.index;
    out->ticks = first.ticks;
    EVIDENCE(out,
             "peak %" PRIu64 " interrupts in %" PRIu64 " ticks: events %" PRIu64 "..%" PRIu64
             " (ticks %" PRIu64 "..%" PRIu64 "), limit %" PRIu64 " per %" PRIu64 " ticks; %" PRIu64
             " interrupts in all",
             peak, r->window, first.index, last.index, first.ticks, last.ticks, r->limit, r->window,
             total);
    return 0;
}

/* no-priority-inversion[=unbounded]: the correct mode's inversion list. */
static int metric_inversions(const check_ctx *ctx, const check_rule *r, check_result *out)
{
    const trx_stats *s = ctx->stats;
    const trx_trace *t = ctx->trace;
    uint64_t total = s->inversion_count, unbounded = 0;
    const trx_inversion *first = NULL;
    for (uint32_t i = 0; i < s->inversion_count; i++) {
        const trx_inversion *v = &s->inversion_list[i];
        unbounded += v->unbounded;
        if (!first && (!r->unbounded_only || v->unbounded))
            first = v;
    }
    uint64_t counted = r->unbounded_only ? unbounded : total;
    out->has_value = true;
    out->value = counted;
    out->status = counted ? CHECK_FAIL : CHECK_PASS;
    if (!first) {
        EVIDENCE(out, "%" PRIu64 " priority inversions (%" PRIu64 " unbounded), limit 0%s", total,
                 unbounded, r->unbounded_only ? " unbounded" : "");
        return 0;
    }
    int32_t lock = trx_trace_find_object(t, first->lock);
    char ran[TRX_NAME_MAX + 32] = "";
    if (first->ran_inside)
        snprintf(ran, sizeof ran, ", \"%s\" ran inside", context_name(t, first->ran_inside));
    out->has_event = true;
    out->event_index = first->start_index;
    out->ticks = first->start_ticks;
    snprintf(out->subject, sizeof out->subject, "thread %s", context_name(t, first->waiter));
    EVIDENCE(out,
             "%" PRIu64 " priority inversions (%" PRIu64 " unbounded), limit 0; first: \"%s\" "
             "(priority %u) blocked on %s \"%s\" held by \"%s\" (priority %u) from event %" PRIu64
             " (ticks %" PRIu64 ") to event %" PRIu64 " (ticks %" PRIu64 ")%s%s",
             total, unbounded, context_name(t, first->waiter),
             trx_shown_priority(t, first->waiter_priority), /* as the application wrote them */
             first->lock_type == TRX_LOCK_MUTEX ? "mutex" : "semaphore",
             lock >= 0 ? t->objects[lock].name : "?", context_name(t, first->holder),
             trx_shown_priority(t, first->holder_priority), first->start_index, first->start_ticks,
             first->end_index, first->end_ticks, first->closed ? "" : " (still open at the end)",
             ran);
    return 0;
}

/* min-stack-free=BYTES[:THREAD]: the least free stack of the threads (or
 * of the named one) whose stack pointer some event showed. */
static int metric_stack_free(const check_ctx *ctx, const check_rule *r, check_result *out)
{
    trx_trace *t = ctx->trace;
    const trx_stats *s = ctx->stats;
    int64_t worst = -1;
    uint32_t named = 0, unknown = 0;
    for (uint32_t i = 0; i < t->thread_count && i < s->thread_count; i++) {
        if (r->has_thread && strcmp(thread_name(t, i), r->thread) != 0)
            continue;
        named++;
        if (s->threads[i].stack_min_available >= t->threads[i].stack_size) {
            unknown++; /* no event showed its stack pointer */
            continue;
        }
        if (worst < 0 ||
            s->threads[i].stack_min_available < s->threads[(uint32_t)worst].stack_min_available)
            worst = (int64_t)i;
    }
    if (r->has_thread && named == 0) {
        out->status = CHECK_UNAVAILABLE;
        EVIDENCE(out, "no thread named \"%s\" in the trace", r->thread);
        return 0;
    }
    if (worst < 0) {
        out->status = r->has_thread ? CHECK_UNAVAILABLE : CHECK_PASS;
        EVIDENCE(out, "no event shows the stack pointer of %s%s%s (limit %" PRIu64 " bytes)",
                 r->has_thread ? "thread \"" : "any thread", r->has_thread ? r->thread : "",
                 r->has_thread ? "\"" : "", r->limit);
        return 0;
    }
    uint32_t w = (uint32_t)worst;
    const trx_thread_stats *ts = &s->threads[w];
    out->status = ts->stack_min_available < r->limit ? CHECK_FAIL : CHECK_PASS;
    out->has_value = true;
    out->value = ts->stack_min_available;
    out->has_event = true;
    out->event_index = ts->stack_min_event;
    out->ticks = ticks_at(t, ts->stack_min_event);
    snprintf(out->subject, sizeof out->subject, "thread %s", thread_name(t, w));
    char skipped[64] = "";
    if (unknown)
        snprintf(skipped, sizeof skipped, "; threads without a stack sample: %u", unknown);
    EVIDENCE(out,
             "least free stack: thread \"%s\" %u of %u bytes free at event %" PRIu64
             " (ticks %" PRIu64 "), limit %" PRIu64 " bytes%s",
             thread_name(t, w), ts->stack_min_available, t->threads[w].stack_size,
             ts->stack_min_event, out->ticks, r->limit, skipped);
    return 0;
}

/* no-lost-events: gaps in the sequence (UIA), a wrapped TXTB buffer that
 * lost its oldest entries, damaged entries the reader skipped. */
static int metric_lost_events(const check_ctx *ctx, const check_rule *r, check_result *out)
{
    (void)r;
    const trx_trace *t = ctx->trace;
    char gaps[256] = "no gap", wrap[128] = "", damage[200] = "";
    out->has_value = true;
    out->value = t->lost_events + t->damaged_count;
    if (t->gap_count) {
        const trx_gap *g = &t->gaps[0];
        out->has_event = true;
        out->event_index = g->index;
        out->ticks = g->to_ticks;
        snprintf(gaps, sizeof gaps,
                 "%" PRIu64 " events lost in %" PRIu64 " gaps, first %" PRIu64
                 " before event %" PRIu64 " (ticks %" PRIu64 "..%" PRIu64 ")",
                 t->lost_events, t->gap_count, g->lost, g->index, g->from_ticks, g->to_ticks);
    }
    if (t->format == TRX_TRACE_TXTB && t->wrapped)
        snprintf(wrap, sizeof wrap,
                 "; the buffer wrapped: entries older than event 0 were "
                 "overwritten");
    if (t->damaged_count) {
        char sum[160];
        trx_trace_damage_summary(t, sum, sizeof sum);
        snprintf(damage, sizeof damage, "; %s skipped (first at buffer entry %u)", sum,
                 t->damaged[0].index);
    }
    bool lost = t->gap_count || wrap[0] || t->damaged_count;
    out->status = lost ? CHECK_FAIL : CHECK_PASS;
    EVIDENCE(out, "%s%s%s%s", gaps, wrap, damage, lost ? "" : ", buffer not wrapped, no damage");
    return 0;
}

/* registry-not-full: the TXTB object registry kept a free entry, so every
 * object created while tracing was registered (named). */
static int metric_registry_room(const check_ctx *ctx, const check_rule *r, check_result *out)
{
    (void)r;
    const trx_trace *t = ctx->trace;
    if (t->format != TRX_TRACE_TXTB) {
        out->status = CHECK_PASS;
        EVIDENCE(out, "no object registry in a UIA trace");
        return 0;
    }
    out->has_value = true;
    out->value = t->registry_free;
    if (trx_registry_full(t)) {
        char text[400];
        trx_registry_warning_text(t, trx_trace_unnamed_threads(t), text, sizeof text);
        out->status = CHECK_FAIL;
        EVIDENCE(out, "%s", text);
    } else {
        out->status = CHECK_PASS;
        EVIDENCE(out, "%" PRIu32 " of %" PRIu32 " registry entries free", t->registry_free,
                 t->registry_entries);
    }
    return 0;
}

/* A limit given in time as ticks; false when the tick rate is unknown
 * (the result says so). */
static bool limit_in_ticks(const check_ctx *ctx, const check_rule *r, check_result *out,
                           uint64_t *limit)
{
    *limit = r->limit;
    if (!r->has_unit)
        return true;
    if (!ctx->ticks_per_second) {
        out->status = CHECK_UNAVAILABLE;
        EVIDENCE(out, "the limit is a time and the tick rate is unknown: give "
                      "--ticks-per-us or --ticks-per-second");
        return false;
    }
    *limit = (uint64_t)((long double)r->limit_ns * ctx->ticks_per_second / 1e9L);
    return true;
}

/* max-duration=NAME:LIMIT: the longest UIABenchmark interval NAME on any
 * core (analyze/durations.h). */
static int metric_duration(const check_ctx *ctx, const check_rule *r, check_result *out)
{
    uint64_t limit;
    if (!limit_in_ticks(ctx, r, out, &limit))
        return 0;
    trx_durations d;
    if (trx_durations_compute(ctx->trace, 1, &d) < 0)
        return -1;
    const trx_duration_row *worst = NULL;
    uint64_t count = 0, incomplete = 0;
    bool named = false;
    for (uint32_t i = 0; i < d.row_count; i++) {
        const trx_duration_row *row = &d.rows[i];
        if (strcmp(row->name, r->thread) != 0)
            continue;
        named = true;
        count += row->r.complete;
        incomplete += row->r.incomplete;
        if (row->r.worst_count &&
            (!worst || row->r.worst[0].response_ticks > worst->r.worst[0].response_ticks))
            worst = row;
    }
    if (!named) {
        out->status = CHECK_UNAVAILABLE;
        EVIDENCE(out, "no UIABenchmark interval named \"%s\" in the trace (%s)", r->thread,
                 d.row_count ? "trx stats lists their names" : "no UIABenchmark start/stop events");
        trx_durations_free(&d);
        return 0;
    }
    out->has_value = true;
    if (!worst) {
        out->status = CHECK_PASS;
        EVIDENCE(out,
                 "no complete interval \"%s\" (%" PRIu64 " incomplete), limit %" PRIu64 " ticks",
                 r->thread, incomplete, limit);
        trx_durations_free(&d);
        return 0;
    }
    const trx_instance *in = &worst->r.worst[0];
    out->value = in->response_ticks;
    out->status = in->response_ticks > limit ? CHECK_FAIL : CHECK_PASS;
    out->has_event = true;
    out->event_index = in->release_index;
    out->ticks = in->release_ticks;
    snprintf(out->subject, sizeof out->subject, "interval %s on core %" PRIu32, worst->name,
             worst->core);
    EVIDENCE(out,
             "longest interval \"%s\": core %" PRIu32 ", started at ticks %" PRIu64
             " (event %" PRIu64 "), stopped at ticks %" PRIu64 " (event %" PRIu64 "), %" PRIu64
             " ticks, limit %" PRIu64 " ticks; %" PRIu64 " complete, %" PRIu64 " incomplete",
             worst->name, worst->core, in->release_ticks, in->release_index, in->end_ticks,
             in->end_index, in->response_ticks, limit, count, incomplete);
    trx_durations_free(&d);
    return 0;
}

int check_evaluate(const check_ctx *ctx, const check_rule *r, check_result *out)
{
    memset(out, 0, sizeof *out);
    const char *missing = trx_trace_context_missing(ctx->trace);
    if (missing && r->kind != CHECK_NO_LOST_EVENTS && r->kind != CHECK_REGISTRY_ROOM &&
        r->kind != CHECK_MAX_DURATION) { /* durations need no context */
        /* every other metric needs who ran */
        out->status = CHECK_UNAVAILABLE;
        EVIDENCE(out, "cannot be evaluated: %s", missing);
        return 0;
    }
    const char *no_load = trx_trace_load_missing(ctx->trace);
    if (no_load && r->kind == CHECK_MAX_CPU_LOAD) { /* idle time not told from busy time */
        out->status = CHECK_UNAVAILABLE;
        EVIDENCE(out, "cannot be evaluated: %s", no_load);
        return 0;
    }
    if (!trx_stats_has_catalogue_figures(ctx->trace) &&
        (r->kind == CHECK_MIN_STACK_FREE || r->kind == CHECK_NO_INVERSION)) {
        out->status = CHECK_UNAVAILABLE; /* no stack pointers, no lock owners in its events */
        EVIDENCE(out, "cannot be evaluated: the trace's events carry no %s",
                 r->kind == CHECK_MIN_STACK_FREE ? "stack pointers" : "lock owners");
        return 0;
    }
    switch (r->kind) {
    case CHECK_MAX_ISR_TICKS:
        return metric_isr_ticks(ctx, r, out);
    case CHECK_MAX_ISR_RATE:
        return metric_isr_rate(ctx, r, out);
    case CHECK_NO_INVERSION:
        return metric_inversions(ctx, r, out);
    case CHECK_MIN_STACK_FREE:
        return metric_stack_free(ctx, r, out);
    case CHECK_MAX_CPU_LOAD:
        return metric_cpu_load(ctx, r, out);
    case CHECK_MAX_LATENCY:
        return metric_latency(ctx, r, out);
    case CHECK_MAX_RESPONSE:
        return metric_response(ctx, r, out);
    case CHECK_NO_LOST_EVENTS:
        return metric_lost_events(ctx, r, out);
    case CHECK_REGISTRY_ROOM:
        return metric_registry_room(ctx, r, out);
    case CHECK_MAX_DURATION:
        return metric_duration(ctx, r, out);
    }
    return -1;
}
