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

#include "check_rules.h"
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

/* A metric the analyses of this build do not compute yet. */
static int not_available(check_result *out, const char *what)
{
    out->status = CHECK_UNAVAILABLE;
    EVIDENCE(out, "not available yet: %s are not computed by this build of trx", what);
    return 0;
}

/* max-isr-ticks: the longest ISR duration (inclusive of nested ISRs). */
static int metric_isr_ticks(const check_ctx *ctx, const check_rule *r, check_result *out)
{
    (void)ctx;
    (void)r;
    return not_available(out, "ISR durations");
}

/* max-latency: the longest interrupt-to-thread latency. */
static int metric_latency(const check_ctx *ctx, const check_rule *r, check_result *out)
{
    (void)ctx;
    (void)r;
    return not_available(out, "interrupt-to-thread latencies");
}

/* max-response: the longest thread response time (resume to running). */
static int metric_response(const check_ctx *ctx, const check_rule *r, check_result *out)
{
    (void)ctx;
    (void)r;
    return not_available(out, "thread response times");
}

/* max-cpu-load: the busiest window's share. */
static int metric_cpu_load(const check_ctx *ctx, const check_rule *r, check_result *out)
{
    (void)ctx;
    (void)r;
    return not_available(out, "CPU load windows");
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
        if (ev.id != TX_TRACE_ISR_ENTER || ev.synthetic)
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
             total, unbounded, context_name(t, first->waiter), first->waiter_priority,
             first->lock_type == TRX_LOCK_MUTEX ? "mutex" : "semaphore",
             lock >= 0 ? t->objects[lock].name : "?", context_name(t, first->holder),
             first->holder_priority, first->start_index, first->start_ticks, first->end_index,
             first->end_ticks, first->closed ? "" : " (still open at the end)", ran);
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

int check_evaluate(const check_ctx *ctx, const check_rule *r, check_result *out)
{
    memset(out, 0, sizeof *out);
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
    }
    return -1;
}
