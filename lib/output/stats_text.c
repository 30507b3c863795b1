/*
 * stats_text.c - `trx stats`: TraceX's statistics of a trace as a readable
 * report (the numbers are the ones TraceX shows; the layout is trx's own):
 * totals, performance statistics, execution profile, stack usage, popular
 * services, and FileX / NetX statistics when the trace has any.
 */
#include <stdio.h>
#include <string.h>

#include "output/events_names.h"
#include "output/stats_cores.h"
#include "output/stats_text.h"
#include "trx/elf.h"
#include "output/top_rows.h"
#include "trx/catalog.h"

#define U(x) ((unsigned long long)(x))

static double percent(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static const char *thread_name(const trx_trace *t, uint32_t i)
{
    return t->objects[t->threads[i].object_index].name;
}

static void write_performance(trx_out *o, const trx_stats *s)
{
    trx_out_str(o, "\nPerformance statistics\n");
    trx_out_printf(o, "  %-22s %llu\n", "Context switches", U(s->context_switches));
    trx_out_printf(o, "  %-22s %llu\n", "Thread preemptions", U(s->preemptions));
    trx_out_printf(o, "  %-22s %llu\n", "Time slices", U(s->time_slices));
    trx_out_printf(o, "  %-22s %llu\n", "Thread suspensions", U(s->suspensions));
    trx_out_printf(o, "  %-22s %llu\n", "Thread resumptions", U(s->resumptions));
    trx_out_printf(o, "  %-22s %llu\n", "Interrupts", U(s->interrupts));
    trx_out_printf(o, "  %-22s %llu\n", "Nested interrupts", U(s->nested_interrupts));
    if (!s->catalogue_figures) /* no lock owners in the events */
        trx_out_printf(o, "  %-22s unavailable (the events name no lock owners)\n",
                       "Priority inversions");
    else
        trx_out_printf(
            o, "  %-22s %llu (%llu unbounded, %llu bounded)\n", "Priority inversions",
            U(s->inversions), U(s->bad_inversions),
            U(s->inversions > s->bad_inversions ? s->inversions - s->bad_inversions : 0));
}

static const char *ctx_name(const trx_trace *t, uint32_t context)
{
    const char *n = trx_context_name(t, context);
    return n ? n : "?";
}

/* What the row writers of the long tables need. */
typedef struct table {
    const trx_trace *t;
    const trx_stats *s;
    const trx_keyed_duration *v; /* latency / response rows */
} table;

/* Inversions kept first: the unbounded ones, then the earliest. */
static uint64_t inversion_key(const void *ctx, uint32_t i)
{
    const table *x = ctx;
    return (uint64_t)x->s->inversion_list[i].unbounded << 32 | (UINT32_MAX - i);
}

static void inversion_row(trx_out *o, const void *ctx, uint32_t i)
{
    const table *x = ctx;
    const trx_trace *t = x->t;
    const trx_inversion *v = &x->s->inversion_list[i];
    char waiter[300], holder[300], lock[300];
    int32_t lo = trx_trace_find_object(t, v->lock);
    snprintf(waiter, sizeof waiter, "%s (%u)", ctx_name(t, v->waiter),
             trx_shown_priority(t, v->waiter_priority));
    snprintf(holder, sizeof holder, "%s (%u)", ctx_name(t, v->holder),
             trx_shown_priority(t, v->holder_priority));
    snprintf(lock, sizeof lock, "%s %s", v->lock_type == TRX_LOCK_MUTEX ? "mutex" : "semaphore",
             lo >= 0 ? t->objects[lo].name : "?");
    trx_out_printf(o, "  %8llu %10llu  %-21s %-28s %-21s ", U(v->start_index), U(v->end_index),
                   waiter, lock, holder);
    if (v->unbounded) {
        trx_out_str(o, "unbounded (");
        for (uint8_t k = 0; k < v->ran_inside_count; k++)
            trx_out_printf(o, "%s%s", k ? ", " : "", ctx_name(t, v->ran_inside_list[k]));
        trx_out_str(o, v->ran_inside_more ? " and more ran)" : " ran)");
    } else
        trx_out_str(o, "bounded");
    trx_out_str(o, v->closed ? "\n" : ", still blocked at the end\n");
}

/* Correct mode: each inversion window on its own line. */
static void write_inversions(trx_out *o, const table *x, uint32_t rows)
{
    if (x->s->inversion_count == 0)
        return;
    trx_out_str(o, "\nPriority inversions (waiter blocked on a lock held by a lower-priority "
                   "thread)\n");
    trx_out_str(o, "     start        end  waiter (prio)         lock                         "
                   "holder (prio)         kind\n");
    trx_write_top_rows(o, x->s->inversion_count, rows, inversion_key, inversion_row, x,
                       "inversions");
}

static uint64_t profile_key(const void *ctx, uint32_t i)
{
    return ((const table *)ctx)->s->threads[i].execution_ticks;
}

static void profile_row(trx_out *o, const void *ctx, uint32_t i)
{
    const table *x = ctx;
    if (trx_context_is_idle_task(x->t, x->t->threads[i].address))
        return; /* its time is the Idle row's */
    uint64_t ticks = x->s->threads[i].execution_ticks;
    trx_out_printf(o, "  %-28s %12llu  %6.2f\n", thread_name(x->t, i), U(ticks),
                   percent(ticks, trx_stats_profile_span(x->t, x->s)));
}

static void write_profile(trx_out *o, const table *x, uint32_t rows)
{
    const trx_trace *t = x->t;
    const trx_stats *s = x->s;
    uint64_t max = trx_stats_profile_span(t, s), counted = s->idle_ticks + s->interrupt_ticks;
    for (uint32_t i = 0; i < t->thread_count; i++)
        counted += s->threads[i].execution_ticks;
    trx_out_str(o, "\nExecution profile                    ticks        %\n");
    trx_write_top_rows(o, t->thread_count, rows, profile_key, profile_row, x, "threads");
    trx_out_printf(o, "  %-28s %12llu  %6.2f\n", trx_idle_name(t), U(s->idle_ticks),
                   percent(s->idle_ticks, max));
    trx_out_printf(o, "  %-28s %12llu  %6.2f\n", "Interrupt", U(s->interrupt_ticks),
                   percent(s->interrupt_ticks, max));
    /* TraceX's GUI shows the rest as initialization time (SYS/BIOS: unknown) */
    uint64_t init = counted < max ? max - counted : 0;
    trx_out_printf(o, "  %-28s %12llu  %6.2f\n", trx_profile_rest_name(t), U(init),
                   percent(init, max));
}

/* Stacks kept first: the fullest (used share of the stack, in millionths). */
static uint64_t stack_key(const void *ctx, uint32_t i)
{
    const table *x = ctx;
    uint32_t size = x->t->threads[i].stack_size, free_ = x->s->threads[i].stack_min_available;
    return size && free_ < size ? (uint64_t)(size - free_) * 1000000u / size : 0;
}

static void stack_row(trx_out *o, const void *ctx, uint32_t i)
{
    const table *x = ctx;
    const trx_thread_stats *ts = &x->s->threads[i];
    uint32_t size = x->t->threads[i].stack_size;
    if (ts->stack_min_available == size) {
        trx_out_printf(o, "  %-28s %8u  %9s  %7s  %9s\n", thread_name(x->t, i), size, "-", "-",
                       "-");
        return;
    }
    trx_out_printf(o, "  %-28s %8u  %9u  %6.2f%%  %9llu\n", thread_name(x->t, i), size,
                   ts->stack_min_available, percent(size - ts->stack_min_available, size),
                   U(ts->stack_min_event));
}

static void write_stack(trx_out *o, const table *x, uint32_t rows)
{
    if (!x->s->catalogue_figures)
        return;
    trx_out_str(o, "\nStack usage                      size   min free   used %   at event\n");
    trx_write_top_rows(o, x->t->thread_count, rows, stack_key, stack_row, x, "threads");
}

static void write_services(trx_out *o, const trx_stats *s, const trx_custom_events *ce,
                           uint64_t total)
{
    trx_out_str(o, "\nPopular services                          count        %\n");
    for (uint32_t i = 0; i < s->service_count; i++) {
        char label[96];
        snprintf(label, sizeof label, "%s (%u)", trx_event_name(s->services[i].id, ce),
                 s->services[i].id);
        trx_out_printf(o, "  %-34s %10llu  %6.2f\n", label, U(s->services[i].count),
                       percent(s->services[i].count, total));
    }
}

/* Prints `label value` rows of a counter group, but only if one is non-zero. */
static void write_counters(trx_out *o, const char *title, const char *const *labels,
                           const uint64_t *values, size_t n)
{
    size_t k = 0;
    while (k < n && values[k] == 0)
        k++;
    if (k == n)
        return;
    trx_out_printf(o, "\n%s\n", title);
    for (size_t i = 0; i < n; i++)
        trx_out_printf(o, "  %-28s %llu\n", labels[i], U(values[i]));
}

static void write_filex_netx(trx_out *o, const trx_stats *s)
{
    static const char *const fx[] = {
        "Media opens",     "Media closes",       "Media aborts",           "Media flushes",
        "Directory reads", "Directory writes",   "Directory cache misses", "File opens",
        "File closes",     "File bytes read",    "File bytes written",     "Sector reads",
        "Sector writes",   "Sector cache misses"};
    static const char *const nx[] = {
        "ARP requests sent",      "ARP responses sent",   "ARP requests received",
        "ARP responses received", "Packet allocations",   "Packet releases",
        "Empty allocations",      "Invalid releases",     "Pings sent",
        "Ping responses",         "IP packets sent",      "IP bytes sent",
        "IP packets received",    "IP bytes received",    "TCP client connections",
        "TCP server connections", "TCP packets sent",     "TCP bytes sent",
        "TCP packets received",   "TCP bytes received",   "UDP packets sent",
        "UDP bytes sent",         "UDP packets received", "UDP bytes received"};
    _Static_assert(sizeof s->filex == sizeof fx / sizeof fx[0] * sizeof(uint64_t),
                   "one label per FileX counter");
    _Static_assert(sizeof s->netx == sizeof nx / sizeof nx[0] * sizeof(uint64_t),
                   "one label per NetX counter");
    uint64_t v[24];
    memcpy(v, &s->filex, sizeof s->filex);
    write_counters(o, "FileX statistics", fx, v, sizeof fx / sizeof fx[0]);
    memcpy(v, &s->netx, sizeof s->netx);
    write_counters(o, "NetX statistics", nx, v, sizeof nx / sizeof nx[0]);
}

/* A tick count as text: ticks, or microseconds with --ticks-per-us/second. */
static void when(char *buf, size_t n, const trx_stats *s, double ticks)
{
    if (s->ticks_per_second)
        snprintf(buf, n, "%.2f us", ticks * 1e6 / (double)s->ticks_per_second);
    else
        snprintf(buf, n, "%.0f", ticks);
}

static void duration_row(trx_out *o, const trx_stats *s, const char *label, const trx_duration *d)
{
    char mn[32], mean[32], p99[32], mx[32];
    when(mn, sizeof mn, s, (double)d->min);
    when(mean, sizeof mean, s, d->count ? (double)d->sum / (double)d->count : 0.0);
    when(p99, sizeof p99, s, (double)d->p99);
    when(mx, sizeof mx, s, (double)d->max);
    trx_out_printf(o, "  %-22s %8llu %12s %12s %12s %12s", label, U(d->count), mn, mean, p99, mx);
}

/* Latency and response rows kept first: the longest. */
static uint64_t duration_key(const void *ctx, uint32_t i)
{
    return ((const table *)ctx)->v[i].d.max;
}

static void duration_thread_row(trx_out *o, const void *ctx, uint32_t i)
{
    const table *x = ctx;
    const char *name = trx_context_name(x->t, x->v[i].key);
    duration_row(o, x->s, name ? name : "?", &x->v[i].d);
    trx_out_char(o, '\n');
}

/* An ISR's row label: its number and, with --elf, its handler. */
static void isr_label(const trx_trace *t, uint32_t number, char *buf, size_t size)
{
    const char *handler = trx_elf_isr_name(t->elf, number);
    if (handler)
        snprintf(buf, size, "%u %.18s", number, handler);
    else
        snprintf(buf, size, "%s %u", trx_interrupt_word(t), number);
}

/* A Swi's row label: its name where known, else its handle. */
static void swi_label(const trx_trace *t, uint32_t handle, char *buf, size_t size)
{
    const char *name = trx_swi_name(t, handle);
    if (name)
        snprintf(buf, size, "%.24s", name);
    else
        snprintf(buf, size, "0x%08x", handle);
}

/* "WHAT durations": a row per key (ISR number, Swi handle; AMP: per core,
 * labelled "N/...") with the
 * exclusive (nested ones left out) minimum and maximum; nothing when empty. */
static void interrupts_text(trx_out *o, const trx_trace *t, const trx_stats *s, const char *what,
                            const char *column, const trx_keyed_duration *v, uint32_t n,
                            void (*label_of)(const trx_trace *, uint32_t, char *, size_t))
{
    if (n == 0)
        return;
    trx_out_printf(o,
                   "\n%s durations %s\n  %-26scount          min         mean          p99"
                   "          max   excl. nested min/max\n",
                   what, s->ticks_per_second ? "(times in microseconds)" : "(times in ticks)",
                   column);
    for (uint32_t i = 0; i < n; i++) {
        char label[64], row[80], a[32], b[32];
        label_of(t, v[i].key, label, sizeof label);
        if (v[i].core != TRX_UNKNOWN) /* AMP: that core's Hwi / Swi, "core/name" */
            snprintf(row, sizeof row, "%u/%s", v[i].core, label);
        else
            snprintf(row, sizeof row, "%s", label);
        duration_row(o, s, row, &v[i].d);
        when(a, sizeof a, s, (double)v[i].min_excl);
        when(b, sizeof b, s, (double)v[i].max_excl);
        trx_out_printf(o, "   %s / %s\n", a, b);
    }
}

static void write_timing(trx_out *o, const trx_trace *t, const trx_stats *s, uint32_t rows)
{
    const char *unit = s->ticks_per_second ? "(times in microseconds)" : "(times in ticks)";
    const char *irq = trx_interrupt_word(t);
    char column[16];
    snprintf(column, sizeof column, "%s number", irq);
    interrupts_text(o, t, s, irq, column, s->isr, s->isr_count, isr_label);
    interrupts_text(o, t, s, "Swi", "Swi", s->swi, s->swi_count, swi_label);
    const struct {
        const char *title;
        const trx_keyed_duration *v;
        uint32_t n;
    } tables[] = {
        {"Interrupt-to-thread latency (an ISR's ENTER to the resumed thread's first event)",
         s->latency, s->latency_count},
        {"Response time (RESUME to the thread's first event)", s->response, s->response_count}};
    for (size_t k = 0; k < 2; k++) {
        if (!tables[k].n)
            continue;
        trx_out_printf(o,
                       "\n%s %s\n  thread                    count          min         mean"
                       "          p99          max\n",
                       tables[k].title, unit);
        const table x = {t, s, tables[k].v};
        trx_write_top_rows(o, tables[k].n, rows, duration_key, duration_thread_row, &x, "threads");
    }
    if (trx_trace_time_backwards(t, NULL))
        trx_out_printf(o,
                       "\nTime went backwards: %llu durations / response times spanning a "
                       "backward step left out\n",
                       U(s->time_dropped));
    if (s->load_unavailable) {
        trx_out_printf(o, "\nCPU load: unavailable (%s)\n", s->load_unavailable);
    } else if (s->load_count) {
        double peak = 0.0;
        uint64_t at = 0;
        for (uint64_t i = 0; i < s->load_count; i++) {
            double p = trx_stats_load_percent(s, i);
            if (p > peak) {
                peak = p;
                at = i;
            }
        }
        char w[32];
        when(w, sizeof w, s, (double)s->load_window);
        trx_out_printf(o,
                       "\nCPU load: %llu windows of %s, peak %.2f%% busy in window %llu "
                       "(from tick %llu); --json lists every window\n",
                       U(s->load_count), w, peak, U(at), U(at * s->load_window));
    }
}

void trx_stats_context_text(const trx_trace *t, const trx_stats *s, uint32_t rows, trx_out *o)
{
    write_performance(o, s);
    const table x = {t, s, NULL};
    write_inversions(o, &x, rows);
    write_profile(o, &x, rows);
    write_stack(o, &x, rows);
    write_timing(o, t, s, rows);
}

void trx_stats_write_text(const trx_trace *t, const trx_stats *s, const trx_custom_events *ce,
                          uint32_t rows, trx_out *o)
{
    trx_out_printf(o, "Trace:    %s\n", t->path ? t->path : "");
    trx_out_str(o, s->mode == TRX_MODE_TRACEX
                       ? "Mode:     tracex (TraceX 6.2.1's numbers, quirks included)\n"
                       : "Mode:     correct (as the events happened; --compat tracex for TraceX's "
                         "numbers; docs/analyses.md)\n");
    trx_out_printf(o, "Events:   %llu (%llu RUNNING events inserted as TraceX does)\n",
                   U(t->total_events), U(t->synthetic_events));
    if (t->damaged_count > 0) {
        char summary[160];
        trx_trace_damage_summary(t, summary, sizeof summary);
        trx_out_printf(o, "Damaged:  %s %s\n", summary,
                       t->mode == TRX_MODE_TRACEX ? "counted as TraceX reads them"
                                                  : "skipped (trx info --json lists them)");
    }
    if (t->stream_source || t->gap_count)
        trx_out_printf(o, "Lost:     %llu events in %llu gaps (trx info lists them)\n",
                       U(t->lost_events), U(t->gap_count));
    trx_out_printf(o, "Threads:  %u    Objects: %u    Max relative ticks: %llu\n", t->thread_count,
                   t->object_count, U(s->max_relative_ticks));
    trx_stats_context_text(t, s, rows, o);
    write_services(o, s, ce, t->total_events);
    write_filex_netx(o, s);
    if (s->cores)
        trx_stats_cores_text(t, s->cores, rows, o);
}
