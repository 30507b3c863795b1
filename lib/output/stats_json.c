/*
 * stats_json.c - TraceX's statistics of a trace as one JSON object: totals,
 * header, threads (ranges, counts, execution ticks, stack usage), system
 * performance statistics, execution profile, popular services, FileX and
 * NetX statistics.
 */
#include <stdio.h>

#include "output/events_names.h"
#include "output/inversions_json.h"
#include "output/json_string.h"
#include "output/out_buffer.h"
#include "output/stats_cores.h"
#include "output/stats_json.h"
#include "trx/elf.h"
#include "trx/catalog.h"

#define U(x) ((unsigned long long)(x))

/* A number in decimal: the per-thread and per-inversion rows can be
 * millions, so they are written without printf. */
static void num(trx_out *f, uint64_t v)
{
    trx_out_u64_pad(f, v, 0, ' ');
}

/* x (>= 0) as printf's "%.4f" writes it: by integers when x * 10^4 is not
 * within 10^-6 of a tie (then both round the same way), else by printf. */
static void fixed4(trx_out *f, double x)
{
    double scaled = x * 10000.0;
    if (!(scaled >= 0.0 && scaled < 1e15)) {
        trx_out_printf(f, "%.4f", x);
        return;
    }
    uint64_t whole = (uint64_t)scaled;
    double frac = scaled - (double)whole;
    if (frac > 0.499999 && frac < 0.500001) {
        trx_out_printf(f, "%.4f", x);
        return;
    }
    uint64_t r = whole + (frac > 0.5);
    num(f, r / 10000);
    char d[5] = {'.', (char)('0' + r / 1000 % 10), (char)('0' + r / 100 % 10),
                 (char)('0' + r / 10 % 10), (char)('0' + r % 10)};
    trx_out_mem(f, d, sizeof d);
}

/* `"key": ` then a number. */
static void member(trx_out *f, const char *key, uint64_t v)
{
    trx_out_char(f, '"');
    trx_out_str(f, key);
    trx_out_str(f, "\": ");
    num(f, v);
}

/* `, "key": ` then a number: a member after the first. */
static void next_member(trx_out *f, const char *key, uint64_t v)
{
    trx_out_str(f, ", ");
    member(f, key, v);
}

/* A priority bound: a number, or null when TraceX does not know it. */
static void bound(trx_out *f, const char *key, uint32_t v)
{
    if (v != TRX_UNKNOWN) {
        next_member(f, key, v);
        return;
    }
    trx_out_str(f, ", \"");
    trx_out_str(f, key);
    trx_out_str(f, "\": null");
}

/* threads: one object per thread; preemption-threshold ranges only where the
 * RTOS has them (ThreadX; TraceX's mode: always); "idle": the RTOS's idle task, whose time is the
 * execution profile's Idle row (its own counts are then 0). */
static void write_threads(trx_out *f, const trx_trace *t, const trx_stats *s)
{
    bool thresholds = trx_trace_vocab(t) == TRX_VOCAB_THREADX || t->mode == TRX_MODE_TRACEX;
    trx_out_str(f, "  \"threads\": [");
    for (uint32_t i = 0; i < t->thread_count; i++) {
        const trx_thread *th = &t->threads[i];
        const trx_thread_stats *ts = &s->threads[i];
        trx_out_str(f, i ? ",\n    {\"name\": " : "\n    {\"name\": ");
        trx_out_json_string(f, t->objects[th->object_index].name);
        next_member(f, "address", th->handle);
        if (th->core != TRX_UNKNOWN) /* an AMP capture's task: its one core */
            next_member(f, "core", th->core);
        next_member(f, "stack_start", th->stack_start);
        next_member(f, "stack_size", th->stack_size);
        bound(f, "priority_lowest", trx_shown_priority(t, th->prio_lowest));
        bound(f, "priority_highest", trx_shown_priority(t, th->prio_highest));
        if (thresholds) {
            bound(f, "preemption_threshold_lowest", th->pt_lowest);
            bound(f, "preemption_threshold_highest", th->pt_highest);
        }
        next_member(f, "total_events", ts->total_events);
        next_member(f, "suspensions", ts->suspensions);
        next_member(f, "resumptions", ts->resumptions);
        next_member(f, "execution_ticks", ts->execution_ticks);
        next_member(f, "stack_min_available", ts->stack_min_available);
        next_member(f, "stack_min_event", ts->stack_min_event);
        if (trx_context_is_idle_task(t, th->address))
            trx_out_str(f, ", \"idle\": true");
        trx_out_str(f, t->objects[th->object_index].unnamed
                           ? ", \"unnamed\": true, \"services\": ["
                           : ", \"unnamed\": false, \"services\": [");
        for (uint32_t k = 0; k < ts->service_count; k++) {
            trx_out_str(f, k ? ", {" : "{");
            member(f, "id", ts->services[k].id);
            next_member(f, "count", ts->services[k].count);
            trx_out_char(f, '}');
        }
        trx_out_str(f, "]}");
    }
    trx_out_str(f, "\n  ],\n");
}

static void write_services(trx_out *f, const trx_stats *s, const trx_custom_events *ce)
{
    trx_out_str(f, "  \"popular_services\": [");
    for (uint32_t i = 0; i < s->service_count; i++) {
        trx_out_printf(f, "%s\n    {\"id\": %u, \"count\": %llu, \"name\": ", i ? "," : "",
                       s->services[i].id, (unsigned long long)s->services[i].count);
        trx_out_json_string(f, trx_event_name(s->services[i].id, ce));
        trx_out_char(f, '}');
    }
    trx_out_str(f, "\n  ]");
}

/* execution_profile: each thread (not the RTOS's idle task, whose time is
 * idle time), then "Interrupt", the idle row (trx_idle_name: "Idle", TraceX's
 * "Idle System" in TraceX's mode) and "Initialization" (the rest of the
 * span; "Unknown" for SYS/BIOS, where it is no state the kernel logs),
 * percent of the span. */
static void write_profile(trx_out *f, const trx_trace *t, const trx_stats *s)
{
    uint64_t max = trx_stats_profile_span(t, s), counted = s->interrupt_ticks + s->idle_ticks;
    bool rows = false;
    trx_out_str(f, "  \"execution_profile\": [");
    for (uint32_t i = 0; i < t->thread_count; i++) {
        uint64_t v = s->threads[i].execution_ticks;
        counted += v;
        if (trx_context_is_idle_task(t, t->threads[i].address))
            continue;
        trx_out_str(f, rows ? ",\n    {\"name\": " : "\n    {\"name\": ");
        rows = true;
        trx_out_json_string(f, t->objects[t->threads[i].object_index].name);
        next_member(f, "address", t->threads[i].handle);
        if (t->threads[i].core != TRX_UNKNOWN)
            next_member(f, "core", t->threads[i].core);
        next_member(f, "ticks", v);
        trx_out_str(f, ", \"percent\": ");
        fixed4(f, max ? 100.0 * (double)v / (double)max : 0.0);
        trx_out_char(f, '}');
    }
    uint64_t init = counted < max ? max - counted : 0;
    const struct {
        const char *name;
        uint32_t address;
        uint64_t ticks;
    } rest[] = {{"Interrupt", TRX_CONTEXT_ISR, s->interrupt_ticks},
                {trx_idle_name(t), TRX_CONTEXT_IDLE, s->idle_ticks},
                {trx_profile_rest_name(t), TRX_CONTEXT_INIT, init}};
    for (size_t i = 0; i < sizeof rest / sizeof rest[0]; i++)
        trx_out_printf(f,
                       "%s\n    {\"name\": \"%s\", \"address\": %u, \"ticks\": %llu, "
                       "\"percent\": %.4f}",
                       rows || i ? "," : "", rest[i].name, rest[i].address, U(rest[i].ticks),
                       max ? 100.0 * (double)rest[i].ticks / (double)max : 0.0);
    trx_out_str(f, "\n  ],\n");
}

/* stack_usage: per thread; min_available and event_index null when no
 * event showed the thread's stack pointer. */
static void write_stack(trx_out *f, const trx_trace *t, const trx_stats *s)
{
    if (!s->catalogue_figures) {
        trx_out_str(f, "  \"stack_usage\": null,\n");
        return;
    }
    trx_out_str(f, "  \"stack_usage\": [");
    for (uint32_t i = 0; i < t->thread_count; i++) {
        const trx_thread_stats *ts = &s->threads[i];
        uint32_t size = t->threads[i].stack_size;
        trx_out_str(f, i ? ",\n    {\"name\": " : "\n    {\"name\": ");
        trx_out_json_string(f, t->objects[t->threads[i].object_index].name);
        next_member(f, "address", t->threads[i].handle);
        next_member(f, "stack_size", size);
        if (ts->stack_min_available == size) {
            trx_out_str(f, ", \"min_available\": null, \"event_index\": null}");
        } else {
            next_member(f, "min_available", ts->stack_min_available);
            next_member(f, "event_index", ts->stack_min_event);
            trx_out_char(f, '}');
        }
    }
    trx_out_str(f, "\n  ],\n");
}

static const char *ctx_name(const trx_trace *t, uint32_t context)
{
    const char *n = trx_context_name(t, context);
    return n ? n : "";
}

void trx_stats_inversions_json(trx_out *f, const trx_trace *t, const trx_stats *s, uint32_t first,
                               uint32_t count)
{
    uint32_t end = first < s->inversion_count && count < s->inversion_count - first
                       ? first + count
                       : s->inversion_count;
    trx_inversions_json_write(f, t, s, first, end);
}

/* inversions: every window of the correct mode (TraceX mode has no list). */
static void write_inversions(trx_out *f, const trx_trace *t, const trx_stats *s)
{
    if (!s->catalogue_figures) { /* no lock owners in the events */
        trx_out_str(f, "  \"inversions\": null,\n");
        return;
    }
    trx_out_str(f, "  \"inversions\": [");
    trx_stats_inversions_json(f, t, s, 0, s->inversion_count);
    trx_out_str(f, s->inversion_count ? "\n  ],\n" : "],\n");
}

static double load_percent(const trx_stats *s, uint64_t i)
{
    return trx_stats_load_percent(s, i);
}

/* `sep`, then a load percent, or null when unknown (negative). */
static void percent_or_null(trx_out *f, const char *sep, double p)
{
    if (p < 0)
        trx_out_printf(f, "%snull", sep);
    else
        trx_out_printf(f, "%s%.2f", sep, p);
}

static void duration_fields(trx_out *f, const trx_duration *d)
{
    trx_out_printf(f,
                   "\"count\": %llu, \"min\": %llu, \"mean\": %.2f, \"p99\": %llu, \"max\": %llu",
                   U(d->count), U(d->min), d->count ? (double)d->sum / (double)d->count : 0.0,
                   U(d->p99), U(d->max));
}

static void thread_durations(trx_out *f, const trx_trace *t, const trx_keyed_duration *v,
                             uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        trx_out_str(f, i ? ",\n      {\"thread\": " : "\n      {\"thread\": ");
        trx_out_json_string(f, ctx_name(t, v[i].key));
        trx_out_printf(f, ", \"address\": %u, ", trx_context_handle(t, v[i].key));
        duration_fields(f, &v[i].d);
        trx_out_char(f, '}');
    }
}

/* --elf: the handler of ISR `number` (its vector's function), or NULL. */
static const char *isr_name(const trx_trace *t, uint32_t number)
{
    return trx_elf_isr_name(t->elf, number);
}

/* `member`: interrupt durations by `key` (ISR number, Swi handle; AMP: per
 * core, with "core"), each with its name where `name_of` gives one; the
 * line ends in ",\n". */
static void interrupts_json(trx_out *f, const trx_trace *t, const char *member, const char *key,
                            const trx_keyed_duration *v, uint32_t n,
                            const char *(*name_of)(const trx_trace *, uint32_t))
{
    trx_out_printf(f, "  \"%s\": [", member);
    for (uint32_t i = 0; i < n; i++) {
        const trx_keyed_duration *k = &v[i];
        trx_out_printf(f, "%s\n    {\"%s\": %u, ", i ? "," : "", key, k->key);
        if (k->core != TRX_UNKNOWN) /* AMP: that core's Hwi / Swi */
            trx_out_printf(f, "\"core\": %u, ", k->core);
        const char *name = name_of(t, k->key);
        if (name) {
            trx_out_str(f, "\"name\": ");
            trx_out_json_string(f, name);
            trx_out_str(f, ", ");
        }
        duration_fields(f, &k->d);
        trx_out_printf(f, ", \"min_exclusive\": %llu, \"max_exclusive\": %llu", U(k->min_excl),
                       U(k->max_excl));
        /* where the longest one ended: the report's link to it */
        trx_out_printf(f, ", \"worst_end_index\": %llu, \"worst_end_ticks\": %llu}",
                       U(k->max_index), U(k->max_ticks));
    }
    trx_out_str(f, n ? "\n  ],\n" : "],\n");
}

/* isr, latency, cpu_load (docs/analyses.md). */
static void write_timing(trx_out *f, const trx_trace *t, const trx_stats *s)
{
    if (s->ticks_per_second)
        trx_out_printf(f, "  \"ticks_per_second\": %llu,\n", U(s->ticks_per_second));
    else
        trx_out_str(f, "  \"ticks_per_second\": null,\n");
    interrupts_json(f, t, "isr", "id", s->isr, s->isr_count, isr_name);
    trx_out_str(f, "  \"latency\": {\"interrupt_to_thread\": [");
    thread_durations(f, t, s->latency, s->latency_count);
    trx_out_str(f, s->latency_count ? "\n    ], \"response\": [" : "], \"response\": [");
    thread_durations(f, t, s->response, s->response_count);
    trx_out_str(f, s->response_count ? "\n    ]},\n" : "]},\n");
    if (trx_trace_time_backwards(t, NULL)) /* figures left out, not wrapped */
        trx_out_printf(f, "  \"left_out_by_time_backwards\": %llu,\n", U(s->time_dropped));
    if (s->load_unavailable) { /* null with the reason, never 100 % */
        trx_out_str(f, "  \"cpu_load\": null,\n  \"load_unavailable\": ");
        trx_out_json_string(f, s->load_unavailable);
        trx_out_str(f, ",\n");
        return;
    }
    double peak = 0.0;
    uint64_t peak_at = 0;
    for (uint64_t i = 0; i < s->load_count; i++)
        if (load_percent(s, i) > peak) {
            peak = load_percent(s, i);
            peak_at = i;
        }
    trx_out_printf(f,
                   "  \"cpu_load\": {\"window\": %llu, \"peak_percent\": %.2f, \"peak_window\": "
                   "%llu, \"windows\": [",
                   U(s->load_window), peak, U(peak_at));
    for (uint64_t i = 0; i < s->load_count; i++)
        percent_or_null(f, i ? ", " : "", load_percent(s, i));
    trx_out_char(f, ']');
    if (s->load_core_busy || t->format == TRX_TRACE_UIA) { /* each core's windows (null: unknown) */
        trx_out_str(f, ", \"per_core\": [");
        for (uint32_t c = 0; c < s->load_cores; c++) {
            trx_out_printf(f, "%s\n    {\"core\": %u, \"windows\": [", c ? "," : "", c);
            for (uint64_t i = 0; i < s->load_count; i++)
                percent_or_null(f, i ? ", " : "", trx_stats_core_load_percent(s, i, c));
            trx_out_str(f, "]}");
        }
        trx_out_char(f, ']');
    }
    trx_out_str(f, "},\n");
}

void trx_stats_swi_json(trx_out *f, const trx_trace *t, const trx_stats *s)
{
    interrupts_json(f, t, "swi", "handle", s->swi, s->swi_count, trx_swi_name);
}

void trx_stats_context_json(trx_out *f, const trx_trace *t, const trx_stats *s)
{
    write_threads(f, t, s);
    uint64_t total = s->inversions, unbounded = s->bad_inversions;
    trx_out_printf(f,
                   "  \"performance\": {\"context_switches\": %llu, \"thread_preemptions\": %llu, "
                   "\"time_slices\": %llu, \"thread_suspensions\": %llu, "
                   "\"thread_resumptions\": %llu, \"interrupts\": %llu, "
                   "\"nested_interrupts\": %llu, \"priority_inversions\": ",
                   U(s->context_switches), U(s->preemptions), U(s->time_slices), U(s->suspensions),
                   U(s->resumptions), U(s->interrupts), U(s->nested_interrupts));
    if (s->catalogue_figures)
        trx_out_printf(f, "{\"total\": %llu, \"bounded\": %llu, \"unbounded\": %llu}},\n", U(total),
                       U(total > unbounded ? total - unbounded : 0), U(unbounded));
    else /* no lock owners in the events */
        trx_out_str(f, "null},\n");
    write_profile(f, t, s);
    write_stack(f, t, s);
    write_inversions(f, t, s);
    write_timing(f, t, s);
}

/* filex and netx: their statistics (0 when the trace has no such events). */
static void write_middleware(trx_out *f, const trx_stats *s)
{
    const trx_filex_stats *x = &s->filex;
    trx_out_printf(
        f,
        ",\n  \"filex\": {\"media_opens\": %llu, \"media_closes\": %llu, \"media_aborts\": %llu, "
        "\"media_flushes\": %llu, \"directory_reads\": %llu, \"directory_writes\": %llu, "
        "\"directory_cache_misses\": %llu, \"file_opens\": %llu, \"file_closes\": %llu, "
        "\"file_bytes_read\": %llu, \"file_bytes_written\": %llu, "
        "\"logical_sector_reads\": %llu, \"logical_sector_writes\": %llu, "
        "\"logical_sector_cache_misses\": %llu}",
        U(x->media_opens), U(x->media_closes), U(x->media_aborts), U(x->media_flushes),
        U(x->directory_reads), U(x->directory_writes), U(x->directory_cache_misses),
        U(x->file_opens), U(x->file_closes), U(x->file_bytes_read), U(x->file_bytes_written),
        U(x->sector_reads), U(x->sector_writes), U(x->sector_cache_misses));
    const trx_netx_stats *n = &s->netx;
    trx_out_printf(
        f,
        ",\n  \"netx\": {\"arp_requests_sent\": %llu, \"arp_responses_sent\": %llu, "
        "\"arp_requests_received\": %llu, \"arp_responses_received\": %llu, "
        "\"packet_allocations\": %llu, \"packet_releases\": %llu, \"empty_allocations\": "
        "%llu, \"invalid_releases\": %llu, \"ip_packets_sent\": %llu, \"ip_bytes_sent\": "
        "%llu, \"ip_packets_received\": %llu, \"ip_bytes_received\": %llu, \"pings_sent\": "
        "%llu, \"ping_responses\": %llu, \"tcp_client_connections\": %llu, "
        "\"tcp_server_connections\": %llu, \"tcp_packets_sent\": %llu, \"tcp_bytes_sent\": "
        "%llu, \"tcp_packets_received\": %llu, \"tcp_bytes_received\": %llu, "
        "\"udp_packets_sent\": %llu, \"udp_bytes_sent\": %llu, \"udp_packets_received\": "
        "%llu, \"udp_bytes_received\": %llu}",
        U(n->arp_requests_sent), U(n->arp_responses_sent), U(n->arp_requests_received),
        U(n->arp_responses_received), U(n->packet_allocations), U(n->packet_releases),
        U(n->empty_allocations), U(n->invalid_releases), U(n->ip_packets_sent), U(n->ip_bytes_sent),
        U(n->ip_packets_received), U(n->ip_bytes_received), U(n->pings_sent), U(n->ping_responses),
        U(n->tcp_client_connections), U(n->tcp_server_connections), U(n->tcp_packets_sent),
        U(n->tcp_bytes_sent), U(n->tcp_packets_received), U(n->tcp_bytes_received),
        U(n->udp_packets_sent), U(n->udp_bytes_sent), U(n->udp_packets_received),
        U(n->udp_bytes_received));
}

void trx_stats_write_json(const trx_trace *t, const trx_stats *s, const trx_custom_events *ce,
                          trx_out *f)
{
    const trx_header *h = &t->header;
    trx_out_printf(f, "{\n  \"mode\": \"%s\",\n",
                   s->mode == TRX_MODE_TRACEX ? "tracex" : "correct");
    trx_out_printf(f, "  \"total_threads\": %u, \"total_objects\": %u, \"total_events\": %llu, ",
                   t->thread_count, t->object_count, U(t->total_events));
    trx_out_printf(f, "\"synthetic_events\": %llu, \"max_relative_ticks\": %llu,\n",
                   U(t->synthetic_events), U(s->max_relative_ticks));
    if (t->stream_source || t->gap_count) /* streams: what never arrived */
        trx_out_printf(f, "  \"lost_events\": %llu, \"gaps\": %llu,\n", U(t->lost_events),
                       U(t->gap_count));
    if (t->damaged_count > 0) /* only for damaged buffers: intact output stays as it was */
        trx_out_printf(f, "  \"damaged_entries\": %u, \"damaged_skipped\": %s,\n", t->damaged_count,
                       t->mode == TRX_MODE_TRACEX ? "false" : "true");
    trx_out_printf(
        f,
        "  \"header\": {\"trace_id\": %u, \"big_endian\": %s, \"timer_mask\": %u, "
        "\"base_address\": %u, \"registry_start\": %u, \"registry_end\": %u, "
        "\"name_size\": %u, \"buffer_start\": %u, \"buffer_end\": %u, \"buffer_oldest\": "
        "%u},\n",
        h->id_as_read, h->big_endian ? "true" : "false", h->timer_mask, h->base_address,
        h->registry_start, h->registry_end, h->name_size, h->buffer_start, h->buffer_end,
        h->buffer_current);
    const char *missing = trx_trace_context_missing(t);
    if (missing) { /* null with the reason, never zeros */
        trx_out_str(f, "  \"unavailable\": {\"reason\": ");
        trx_out_json_string(f, missing);
        trx_out_str(f, ", \"figures\": [\"threads\", \"performance\", \"execution_profile\", "
                       "\"stack_usage\", \"inversions\", \"isr\", \"latency\", \"cpu_load\"]},\n"
                       "  \"threads\": null,\n  \"performance\": null,\n"
                       "  \"execution_profile\": null,\n  \"stack_usage\": null,\n"
                       "  \"inversions\": null,\n  \"ticks_per_second\": null,\n  \"isr\": null,\n"
                       "  \"latency\": null,\n  \"cpu_load\": null,\n");
    } else {
        trx_stats_context_json(f, t, s);
        if (s->swi_count) /* SYS/BIOS's Swis (as the UIA statistics list them) */
            trx_stats_swi_json(f, t, s);
    }
    write_services(f, s, ce);
    /* the RTOS whose words the trace speaks; FileX and NetX (ThreadX's
     * middleware) only for ThreadX traces. TraceX's mode: TraceX's tables,
     * whatever the RTOS */
    trx_vocab vocab = trx_trace_vocab(t);
    if (t->mode != TRX_MODE_TRACEX) {
        trx_out_str(f, ",\n  \"rtos\": \"");
        trx_out_str(f, trx_vocab_category(vocab));
        trx_out_char(f, '"');
    }
    if (vocab == TRX_VOCAB_THREADX || t->mode == TRX_MODE_TRACEX)
        write_middleware(f, s);
    if (s->cores)
        trx_stats_cores_json(t, s->cores, f);
    trx_out_str(f, "\n}\n");
}
