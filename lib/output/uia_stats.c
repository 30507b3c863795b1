/*
 * uia_stats.c - `trx stats` for a UIA trace: one cursor pass counts events
 * per (module, event id) in a hash table (linear in the events), then the
 * counts are sorted most frequent first. Rates are events per million ticks
 * of each stream's span (UIA records carry no timer frequency). The JSON
 * keeps the TXTB statistics' "popular_services" shape ({id, count, name},
 * plus module) so counts per id compare across formats.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/target_load.h"
#include "output/json_string.h"
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

/* Counts per key with open addressing (keys < 2^32, slot 0 = empty via +1). */
static id_count *count_events(trx_trace *t, uint32_t *out_n, trx_target_load *load, bool loads)
{
    uint32_t size = 1024, used = 0;
    uint64_t *keys = calloc(size, sizeof *keys), *counts = calloc(size, sizeof *counts);
    trx_cursor c;
    trx_event ev;
    if (!keys || !counts || trx_cursor_init(&c, t) < 0)
        goto fail;
    while (trx_cursor_next(&c, &ev)) {
        if (loads)
            trx_target_load_feed(load, t, &ev);
        uint64_t key = ((uint64_t)ev.module << 16 | ev.id) + 1;
        uint32_t h = (uint32_t)(key * 2654435761u) & (size - 1);
        while (keys[h] && keys[h] != key)
            h = (h + 1) & (size - 1);
        if (!keys[h]) {
            keys[h] = key;
            if (++used * 2 > size) {
                uint32_t ns = size * 2;
                uint64_t *nk = calloc(ns, sizeof *nk), *nc = calloc(ns, sizeof *nc);
                if (!nk || !nc) {
                    free(nk);
                    free(nc);
                    trx_cursor_free(&c);
                    goto fail;
                }
                counts[h]++;
                for (uint32_t i = 0; i < size; i++) {
                    if (!keys[i])
                        continue;
                    uint32_t j = (uint32_t)(keys[i] * 2654435761u) & (ns - 1);
                    while (nk[j])
                        j = (j + 1) & (ns - 1);
                    nk[j] = keys[i];
                    nc[j] = counts[i];
                }
                free(keys);
                free(counts);
                keys = nk;
                counts = nc;
                size = ns;
                continue;
            }
        }
        counts[h]++;
    }
    id_count *list = malloc((used ? used : 1) * sizeof *list);
    if (!list)
        goto fail;
    uint32_t n = 0;
    for (uint32_t i = 0; i < size; i++)
        if (keys[i])
            list[n++] = (id_count){(uint32_t)(keys[i] - 1), counts[i]};
    qsort(list, n, sizeof *list, by_count);
    free(keys);
    free(counts);
    *out_n = n;
    return list;
fail:
    free(keys);
    free(counts);
    return NULL;
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

/* target_load: the target's own Load reports per kind (null without them). */
static void write_target_load_json(trx_out *o, const trx_target_load *l, bool any)
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
    trx_out_printf(o, ",\n    \"complete\": %s\n  }", l->failed ? "false" : "true");
}

/* The text: per core, how many CPU load reports, their mean and peak. */
static void write_target_load_text(trx_out *o, const trx_target_load *l)
{
    trx_out_str(o, "\nTarget load (the target's Load module)   reports     mean %     peak %\n");
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
        if (n)
            trx_out_printf(o, "  core %-33" PRIu32 " %8" PRIu64 " %10.2f %10" PRIu64 "\n", c, n,
                           (double)sum / (double)n, peak);
    }
    trx_out_printf(o,
                   "  task / Hwi / Swi load reports: %" PRIu64 " / %" PRIu64 " / %" PRIu64
                   " (stats --json lists them)\n",
                   l->count[TRX_LOAD_TASK], l->count[TRX_LOAD_HWI], l->count[TRX_LOAD_SWI]);
}

int trx_uia_stats_write(trx_trace *t, const trx_custom_events *ce, bool json, trx_out *o)
{
    const trx_uia_info *u = trx_uia_info_of(t);
    uint32_t n = 0;
    trx_target_load load;
    bool loads = trx_target_load_init(&load, t);
    id_count *list = count_events(t, &n, &load, loads);
    if (!list) {
        trx_target_load_free(&load);
        return -1;
    }
    char buf[32];
    if (json) {
        trx_out_printf(o,
                       "{\n  \"format\": \"uia\", \"total_events\": %" PRIu64
                       ", \"lost_events\": %" PRIu64 ", \"gaps\": %" PRIu64
                       ", \"max_relative_ticks\": %" PRIu64 ",\n  \"streams\": [",
                       u->records, t->lost_events, t->gap_count, trx_trace_span_ticks(t));
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
            trx_out_char(o, '}');
        }
        trx_out_str(o, "\n  ]");
        write_target_load_json(o, &load, loads);
        trx_out_str(o, "\n}\n");
    } else {
        trx_out_printf(o, "Trace:    %s (UIA)\nEvents:   %" PRIu64 "\nLost:     ",
                       t->path ? t->path : "-", u->records);
        trx_lost_summary(t, o);
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
        trx_out_str(o, "\nPopular events                 module      id        count       %\n");
        for (uint32_t i = 0; i < n; i++) {
            double pct = u->records ? 100.0 * (double)list[i].count / (double)u->records : 0.0;
            trx_out_printf(o, "  %-28.28s 0x%04" PRIX32 "  0x%04" PRIX32 " %12" PRIu64 " %7.2f\n",
                           name_of(t, list[i].key, ce, buf), list[i].key >> 16,
                           list[i].key & 0xFFFFu, list[i].count, pct);
        }
        if (loads)
            write_target_load_text(o, &load);
    }
    free(list);
    trx_target_load_free(&load);
    return 0;
}
