/*
 * uia_stats.c - `trx stats` for a UIA trace: one cursor pass counts events
 * per (module, event id) in a hash table (linear in the events), then the
 * counts are sorted most frequent first; with SYS/BIOS's scheduler named,
 * that pass is the common statistics' walk (trx_stats_compute_extra: on
 * segments of the trace, each counting its own and joined). Rates are events per million
 * ticks of each stream's span (UIA records carry no timer frequency). The JSON keeps the TXTB
 * statistics' "popular_services" shape ({id, count, name}, plus module) so counts per id compare
 * across formats.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyses.h"
#include "analyze/durations.h"
#include "analyze/target_load.h"
#include "output/durations_output.h"
#include "output/json_string.h"
#include "output/stats_cores.h"
#include "output/stats_json.h"
#include "output/stats_text.h"
#include "output/uia_events.h"
#include "output/uia_info.h"
#include "output/uia_stats.h"
#include "trx/uia.h"

typedef struct id_count {
    uint32_t key; /* module << 16 | id */
    uint64_t count;
} id_count;

static int by_count(const void *a, const void *b)
{
    const id_count *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return x->key < y->key ? -1 : x->key > y->key;
}

/* Counts per (module, id) with open addressing (keys < 2^32, slot 0 =
 * empty via +1), and the target's Load reports, fed event by event. */
typedef struct uia_counter {
    const trx_trace *t;
    uint64_t *keys, *counts;
    uint32_t size, used;
    bool oom;
    trx_target_load *load;    /* NULL: no Load events named */
    trx_durations *durations; /* UIABenchmark start / stop pairs */
} uia_counter;

static int counter_init(uia_counter *k, const trx_trace *t, trx_target_load *load)
{
    memset(k, 0, sizeof *k);
    k->t = t;
    k->load = load;
    k->size = 1024;
    k->keys = calloc(k->size, sizeof *k->keys);
    k->counts = calloc(k->size, sizeof *k->counts);
    return k->keys && k->counts ? 0 : -1;
}

/* Doubles the table; false when out of memory. */
static bool counter_grow(uia_counter *k)
{
    uint32_t ns = k->size * 2;
    uint64_t *nk = calloc(ns, sizeof *nk), *nc = calloc(ns, sizeof *nc);
    if (!nk || !nc) {
        free(nk);
        free(nc);
        return false;
    }
    for (uint32_t i = 0; i < k->size; i++) {
        if (!k->keys[i])
            continue;
        uint32_t j = (uint32_t)(k->keys[i] * 2654435761u) & (ns - 1);
        while (nk[j])
            j = (j + 1) & (ns - 1);
        nk[j] = k->keys[i];
        nc[j] = k->counts[i];
    }
    free(k->keys);
    free(k->counts);
    k->keys = nk;
    k->counts = nc;
    k->size = ns;
    return true;
}

/* Adds n to the count of `key` (module << 16 | id, + 1). */
static void counter_add(uia_counter *k, uint64_t key, uint64_t n)
{
    if (k->oom)
        return;
    uint32_t h = (uint32_t)(key * 2654435761u) & (k->size - 1);
    while (k->keys[h] && k->keys[h] != key)
        h = (h + 1) & (k->size - 1);
    if (!k->keys[h]) {
        if ((k->used + 1) * 2 > k->size) {
            if (!counter_grow(k)) {
                k->oom = true;
                return;
            }
            h = (uint32_t)(key * 2654435761u) & (k->size - 1);
            while (k->keys[h])
                h = (h + 1) & (k->size - 1);
        }
        k->keys[h] = key;
        k->used++;
    }
    k->counts[h] += n;
}

static void counter_feed(void *ctx, const trx_event *ev)
{
    uia_counter *k = ctx;
    if (k->load)
        trx_target_load_feed(k->load, k->t, ev);
    trx_durations_feed(k->durations, ev);
    counter_add(k, ((uint64_t)ev->module << 16 | ev->id) + 1, 1);
}

/* ---- the counter on segments of the trace (trx_stats_extra) ---- */

/* A later segment's counter, with a Load series and durations of its own. */
typedef struct counter_part {
    uia_counter k;
    trx_target_load load;
    trx_durations durations;
} counter_part;

static void *counter_fork(void *ctx)
{
    const uia_counter *from = ctx;
    counter_part *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    trx_target_load_init(&p->load, from->t); /* the same names as `from`'s */
    trx_durations_init(&p->durations, from->t, from->durations->keep);
    if (counter_init(&p->k, from->t, from->load ? &p->load : NULL) < 0) {
        free(p->k.keys);
        free(p->k.counts);
        trx_durations_free(&p->durations);
        free(p);
        return NULL;
    }
    p->k.durations = &p->durations;
    return &p->k; /* the first member */
}

static void counter_clear(void *part)
{
    uia_counter *k = part;
    memset(k->keys, 0, k->size * sizeof *k->keys);
    memset(k->counts, 0, k->size * sizeof *k->counts);
    k->used = 0;
    k->oom = false;
    if (k->load) {
        for (int i = 0; i < TRX_LOAD_KINDS; i++)
            k->load->count[i] = 0;
        k->load->failed = false;
    }
    trx_durations_clear(k->durations);
}

/* Appends `later`'s Load reports to `earlier`'s; false when out of memory. */
static bool load_join(trx_target_load *earlier, const trx_target_load *later)
{
    earlier->failed = earlier->failed || later->failed;
    for (int i = 0; i < TRX_LOAD_KINDS; i++) {
        uint64_t need = earlier->count[i] + later->count[i];
        if (need > earlier->cap[i]) {
            trx_load_report *p = realloc(earlier->report[i], (size_t)need * sizeof *p);
            if (!p)
                return false;
            earlier->report[i] = p;
            earlier->cap[i] = need;
        }
        if (later->count[i])
            memcpy(earlier->report[i] + earlier->count[i], later->report[i],
                   (size_t)later->count[i] * sizeof *later->report[i]);
        earlier->count[i] = need;
    }
    return true;
}

static int counter_join(void *earlier, void *later, uint64_t offset)
{
    uia_counter *a = earlier, *b = later;
    if (b->oom)
        a->oom = true;
    for (uint32_t i = 0; i < b->size; i++)
        if (b->keys[i])
            counter_add(a, b->keys[i], b->counts[i]);
    if (a->load && !load_join(a->load, b->load))
        return -1;
    if (trx_durations_merge(a->durations, b->durations, offset) < 0)
        return -1;
    return a->oom ? -1 : 0;
}

static void counter_discard(void *part)
{
    counter_part *p = part;
    free(p->k.keys);
    free(p->k.counts);
    trx_target_load_free(&p->load);
    trx_durations_free(&p->durations);
    free(p);
}

/* The counts, most frequent first (frees the table); NULL when out of memory. */
static id_count *counter_finish(uia_counter *k, uint32_t *out_n)
{
    id_count *list = k->oom ? NULL : malloc((k->used ? k->used : 1) * sizeof *list);
    uint32_t n = 0;
    for (uint32_t i = 0; list && i < k->size; i++)
        if (k->keys[i])
            list[n++] = (id_count){(uint32_t)(k->keys[i] - 1), k->counts[i]};
    if (list)
        qsort(list, n, sizeof *list, by_count);
    free(k->keys);
    free(k->counts);
    *out_n = n;
    return list;
}

/* Counts every event with a cursor of its own (no context figures). */
static int count_alone(trx_trace *t, uia_counter *k)
{
    trx_cursor c;
    const trx_event *ev;
    if (trx_cursor_init(&c, t) < 0)
        return -1;
    while ((ev = trx_cursor_next_ref(&c)) != NULL)
        counter_feed(k, ev);
    return 0;
}

static const char *name_of(const trx_trace *t, uint32_t key, const trx_custom_events *ce,
                           char buf[32])
{
    trx_event ev;
    memset(&ev, 0, sizeof ev);
    ev.module = (uint16_t)(key >> 16);
    ev.id = key & 0xFFFFu;
    return trx_uia_event_name(t, &ev, ce, buf);
}

/* Core `c`'s load as trx computes it (`cs`: the per-core figures, NULL
 * without them), or -1 when unavailable. */
static double trx_load_of(const trx_trace *t, const trx_core_stats *cs, uint32_t c)
{
    if (!cs || c >= cs->core_count || trx_trace_load_missing(t))
        return -1.0;
    return trx_core_load_percent(&cs->cores[c]);
}

/* target_load: the target's own Load reports per kind (null without them). */
static void write_target_load_json(trx_out *o, const trx_trace *t, const trx_target_load *l,
                                   bool any, const trx_core_stats *cs)
{
    if (!any) {
        trx_out_str(o, ",\n  \"target_load\": null");
        return;
    }
    static const char *const kinds[TRX_LOAD_KINDS] = {"cpu", "tasks", "hwi", "swi"};
    trx_out_str(o, ",\n  \"target_load\": {");
    for (int k = 0; k < TRX_LOAD_KINDS; k++) {
        trx_out_printf(o, "%s\n    \"%s\": [", k ? "," : "", kinds[k]);
        for (uint64_t i = 0; i < l->count[k]; i++) {
            const trx_load_report *r = &l->report[k][i];
            trx_out_printf(o, "%s{\"core\": %" PRIu32 ", \"ticks\": %" PRIu64, i ? ", " : "",
                           r->core, r->ticks);
            if (k == TRX_LOAD_CPU)
                trx_out_printf(o, ", \"percent\": %" PRIu32 "}", r->a[0]);
            else if (k == TRX_LOAD_TASK)
                trx_out_printf(o,
                               ", \"task\": %" PRIu32 ", \"time\": %" PRIu32 ", \"total\": %" PRIu32
                               ", \"function\": %" PRIu32 "}",
                               r->a[0], r->a[1], r->a[2], r->a[3]);
            else
                trx_out_printf(o, ", \"time\": %" PRIu32 ", \"total\": %" PRIu32 "}", r->a[0],
                               r->a[1]);
        }
        trx_out_char(o, ']');
    }
    /* per core: the reports' mean beside trx's own load of the core (null:
     * unavailable, the reason in load_unavailable) */
    trx_out_str(o, ",\n    \"per_core\": [");
    uint32_t cores = 0, rows = 0;
    for (uint64_t i = 0; i < l->count[TRX_LOAD_CPU]; i++)
        if (l->report[TRX_LOAD_CPU][i].core + 1 > cores)
            cores = l->report[TRX_LOAD_CPU][i].core + 1;
    for (uint32_t c = 0; c < cores; c++) {
        uint64_t n = 0, sum = 0;
        for (uint64_t i = 0; i < l->count[TRX_LOAD_CPU]; i++)
            if (l->report[TRX_LOAD_CPU][i].core == c) {
                n++;
                sum += l->report[TRX_LOAD_CPU][i].a[0];
            }
        if (!n)
            continue;
        trx_out_printf(o,
                       "%s{\"core\": %" PRIu32 ", \"reports\": %" PRIu64
                       ", \"mean_percent\": %.2f, \"trx_load_percent\": ",
                       rows++ ? ", " : "", c, n, (double)sum / (double)n);
        double mine = trx_load_of(t, cs, c);
        if (mine < 0)
            trx_out_str(o, "null}");
        else
            trx_out_printf(o, "%.2f}", mine);
    }
    trx_out_printf(o, "],\n    \"complete\": %s\n  }", l->failed ? "false" : "true");
}

/* The text: per core, how many CPU load reports, their mean and peak, and
 * beside them the load trx computed for the core ("-": unavailable). */
static void write_target_load_text(trx_out *o, const trx_trace *t, const trx_target_load *l,
                                   const trx_core_stats *cs)
{
    trx_out_str(o, "\nTarget load (the target's Load module)   reports     mean %     peak %"
                   "  trx load %\n");
    uint32_t cores = 0;
    for (uint64_t i = 0; i < l->count[TRX_LOAD_CPU]; i++)
        if (l->report[TRX_LOAD_CPU][i].core + 1 > cores)
            cores = l->report[TRX_LOAD_CPU][i].core + 1;
    for (uint32_t c = 0; c < cores; c++) {
        uint64_t n = 0, sum = 0, peak = 0;
        for (uint64_t i = 0; i < l->count[TRX_LOAD_CPU]; i++) {
            const trx_load_report *r = &l->report[TRX_LOAD_CPU][i];
            if (r->core != c)
                continue;
            n++;
            sum += r->a[0];
            peak = r->a[0] > peak ? r->a[0] : peak;
        }
        if (!n)
            continue;
        trx_out_printf(o, "  core %-33" PRIu32 " %8" PRIu64 " %10.2f %10" PRIu64, c, n,
                       (double)sum / (double)n, peak);
        double mine = trx_load_of(t, cs, c);
        if (mine < 0)
            trx_out_str(o, "           -\n");
        else
            trx_out_printf(o, " %11.2f\n", mine);
    }
    trx_out_printf(o,
                   "  task / Hwi / Swi load reports: %" PRIu64 " / %" PRIu64 " / %" PRIu64
                   " (stats --json lists them)\n",
                   l->count[TRX_LOAD_TASK], l->count[TRX_LOAD_HWI], l->count[TRX_LOAD_SWI]);
}

int trx_uia_stats_write(trx_trace *t, const trx_custom_events *ce, const trx_uia_stats_options *opt,
                        trx_out *o)
{
    const trx_uia_info *u = trx_uia_info_of(t);
    trx_target_load load;
    bool loads = trx_target_load_init(&load, t);
    uia_counter k;
    /* SYS/BIOS's scheduler named: the common analyses in the same walk */
    bool context = !trx_trace_context_missing(t);
    trx_stats st;
    trx_durations durations;
    trx_durations_init(&durations, t, TRX_DURATIONS_WORST);
    int rc = counter_init(&k, t, loads ? &load : NULL);
    k.durations = &durations;
    if (rc == 0) {
        const trx_stats_extra x = {counter_feed,    &k,  counter_fork, counter_clear, counter_join,
                                   counter_discard, NULL};
        rc = context ? trx_stats_compute_extra(t, &st, opt->window, &x) : count_alone(t, &k);
    }
    if (trx_durations_finish(&durations, t) < 0 && rc == 0)
        rc = -1;
    uint32_t n = 0;
    id_count *list = counter_finish(&k, &n);
    if (rc != 0 || !list) {
        if (rc == 0 && context)
            trx_stats_free(&st);
        free(list);
        trx_target_load_free(&load);
        trx_durations_free(&durations);
        return rc == TRX_STATS_TOO_MANY_WINDOWS ? rc : -1;
    }
    if (context)
        st.ticks_per_second = opt->ticks_per_second;
    char buf[32];
    if (opt->json) {
        trx_out_printf(o,
                       "{\n  \"format\": \"uia\", \"total_events\": %" PRIu64
                       ", \"lost_events\": %" PRIu64 ", \"gaps\": %" PRIu64
                       ", \"max_relative_ticks\": %" PRIu64 ", \"time_backwards\": %" PRIu64 ",\n",
                       u->records, t->lost_events, t->gap_count, trx_trace_span_ticks(t),
                       trx_trace_time_backwards(t, NULL));
        if (context) {
            trx_out_printf(o, "  \"mode\": \"%s\", \"total_threads\": %" PRIu32 ",\n",
                           st.mode == TRX_MODE_TRACEX ? "tracex" : "correct", t->thread_count);
            trx_stats_context_json(o, t, &st);
            trx_stats_swi_json(o, t, &st);
        }
        trx_out_str(o, "  \"streams\": [");
        for (uint32_t i = 0; i < u->stream_count; i++) {
            const trx_uia_stream *s = &u->streams[i];
            double rate = s->span_ticks ? (double)s->records * 1e6 / (double)s->span_ticks : 0.0;
            trx_out_printf(o,
                           "%s\n    {\"stream\": %" PRIu32 ", \"records\": %" PRIu64
                           ", \"lost_events\": %" PRIu64 ", \"sessions\": %" PRIu32
                           ", \"span_ticks\": %" PRIu64 ", \"events_per_mtick\": %.3f}",
                           i ? "," : "", i, s->records, s->lost_events, s->sessions, s->span_ticks,
                           rate);
        }
        trx_out_str(o, "\n  ],\n  \"popular_services\": [");
        for (uint32_t i = 0; i < n; i++) {
            trx_out_printf(o,
                           "%s\n    {\"id\": %" PRIu32 ", \"module\": %" PRIu32
                           ", \"count\": %" PRIu64 ", \"name\": ",
                           i ? "," : "", list[i].key & 0xFFFFu, list[i].key >> 16, list[i].count);
            trx_out_json_string(o, name_of(t, list[i].key, ce, buf));
            const char *module_name = trx_uia_module_name(t->uia_names, list[i].key >> 16);
            if (module_name) { /* the module that logged them */
                trx_out_str(o, ", \"module_name\": ");
                trx_out_json_string(o, module_name);
            }
            trx_out_char(o, '}');
        }
        trx_out_str(o, "\n  ]");
        write_target_load_json(o, t, &load, loads, context ? st.cores : NULL);
        trx_out_str(o, ",\n  \"durations\": ");
        trx_durations_write_json(o, &durations);
        if (context && st.cores)
            trx_stats_cores_json(t, st.cores, o);
        trx_out_str(o, "\n}\n");
    } else {
        trx_out_printf(o, "Trace:    %s (UIA)\nEvents:   %" PRIu64 "\nLost:     ",
                       t->path ? t->path : "-", u->records);
        trx_lost_summary(t, o);
        if (context)
            trx_out_printf(o, "\nTasks:    %" PRIu32 " (SYS/BIOS)", t->thread_count);
        trx_out_str(o, "\n\nStreams                         records      lost  sessions          "
                       "ticks   events/Mtick\n");
        for (uint32_t i = 0; i < u->stream_count; i++) {
            const trx_uia_stream *s = &u->streams[i];
            double rate = s->span_ticks ? (double)s->records * 1e6 / (double)s->span_ticks : 0.0;
            char label[48];
            if (s->sender == TRX_UIA_NONE)
                snprintf(label, sizeof label, "%" PRIu32 " raw records", i);
            else
                snprintf(label, sizeof label, "%" PRIu32 " sender %" PRIu32 " logger %" PRIu32, i,
                         s->sender, s->logger);
            trx_out_printf(o,
                           "  %-26s %12" PRIu64 " %9" PRIu64 " %9" PRIu32 " %14" PRIu64 " %14.3f\n",
                           label, s->records, s->lost_events, s->sessions, s->span_ticks, rate);
        }
        if (context)
            trx_stats_context_text(t, &st, opt->rows, o);
        trx_out_str(o, "\nPopular events                 module      id        count       %\n");
        for (uint32_t i = 0; i < n; i++) {
            double pct = u->records ? 100.0 * (double)list[i].count / (double)u->records : 0.0;
            const char *module_name = trx_uia_module_name(t->uia_names, list[i].key >> 16);
            char module[16];
            if (module_name) { /* the logging module's name: its last component */
                const char *dot = strrchr(module_name, '.');
                snprintf(module, sizeof module, "%-6.12s", dot ? dot + 1 : module_name);
            } else {
                snprintf(module, sizeof module, "0x%04" PRIX32, list[i].key >> 16);
            }
            trx_out_printf(o, "  %-28.28s %s  0x%04" PRIX32 " %12" PRIu64 " %7.2f\n",
                           name_of(t, list[i].key, ce, buf), module, list[i].key & 0xFFFFu,
                           list[i].count, pct);
        }
        if (loads)
            write_target_load_text(o, t, &load, context ? st.cores : NULL);
        trx_durations_write_text(o, &durations);
        if (context && st.cores)
            trx_stats_cores_text(t, st.cores, opt->rows, o);
    }
    if (context)
        trx_stats_free(&st);
    free(list);
    trx_target_load_free(&load);
    trx_durations_free(&durations);
    return 0;
}
