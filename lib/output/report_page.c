/*
 * report_page.c - `trx report`: fills the page template (report.html) with
 * its style, the trace's data and its script, all inline. Data: #trx-meta
 * (header facts, lanes, registry objects, `trx stats --json`, inversion
 * windows), #trx-events (report_events.c) and #trx-types (names and field
 * captions of the ids used). JSON is written with every '<' as \u003c, so no
 * name from a trace can end a <script> element.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/durations.h"
#include "analyze/target_load.h"
#include "output/durations_output.h"
#include "output/registry_warning.h"
#include "output/events_names.h"
#include "output/export_args.h"
#include "output/json_string.h"
#include "output/report.h"
#include "output/report_irqs.h"
#include "output/stats_json.h"
#include "output/timeline.h"
#include "output/uia_events.h"
#include "trx/elf.h"
#include "util/address_map.h"
#include "trx/stats.h"

/* A JSON writer into a temporary file, copied out with '<' escaped. */
typedef struct json_part {
    FILE *f;
    trx_out out;
} json_part;

static json_part *part_open(void)
{
    json_part *p = malloc(sizeof *p);
    if (!p)
        return NULL;
    if (!(p->f = tmpfile())) {
        free(p);
        return NULL;
    }
    trx_out_init(&p->out, p->f, false);
    return p;
}

/* Copies the part into `w` ('<' as \u003c) and closes it; -1 on a write error. */
static int part_close(json_part *p, trx_out *w)
{
    int rc = trx_out_flush(&p->out);
    rewind(p->f);
    char buf[16384];
    size_t got;
    while (rc == 0 && (got = fread(buf, 1, sizeof buf, p->f)) > 0) {
        size_t start = 0;
        for (size_t i = 0; i < got; i++)
            if (buf[i] == '<') {
                trx_out_mem(w, buf + start, i - start);
                trx_out_str(w, "\\u003c");
                start = i + 1;
            }
        trx_out_mem(w, buf + start, got - start);
    }
    if (ferror(p->f))
        rc = -1;
    fclose(p->f);
    free(p);
    return rc;
}

static void num(trx_out *w, uint64_t v)
{
    trx_out_u64_pad(w, v, 0, ' ');
}

void trx_report_gap_json(trx_out *w, const trx_gap *g, bool first)
{
    trx_out_str(w, first ? "[" : ",[");
    num(w, g->index);
    trx_out_char(w, ',');
    num(w, g->lost);
    trx_out_char(w, ',');
    num(w, g->from_ticks);
    trx_out_char(w, ',');
    num(w, g->to_ticks);
    trx_out_char(w, ']');
}

static const char *lane_kind(const trx_trace *t, uint32_t l)
{
    if (l < t->thread_count)
        return "thread";
    switch (l - t->thread_count) {
    case TRX_LANE_ISR:
        return "isr";
    case TRX_LANE_INIT:
        return "init";
    case TRX_LANE_IDLE:
        return "idle";
    case TRX_LANE_UNKNOWN:
        return "unknown";
    default:
        return "isr"; /* a core's interrupts */
    }
}

/* Which events a page holds: from event `first`, `count` of them; `win` when a window. */
typedef struct page_events {
    uint64_t first, count;
    const trx_report_window *win;
} page_events;

static void write_loads(trx_out *w, const trx_target_load *l);

/* #trx-meta; `s` and `lat`: a report's statistics and responses (NULL:
 * trx serve's page); `irqs`: the Hwi / Swi lanes (NULL: none), `loads`: the
 * target's Load reports for "loads" (NULL: not in the meta; a report has
 * them in #trx-types). */
static int write_meta(trx_out *w, trx_trace *t, const trx_stats *s, const trx_latency *lat,
                      const trx_export_options *o, const page_events *pe,
                      const trx_report_irqs *irqs, const trx_target_load *loads)
{
    trx_out_str(w, "{\"version\":\"" TRX_VERSION_STRING "\",\"source\":");
    trx_out_json_string(w, t->path ? t->path : "");
    trx_out_str(w, t->format == TRX_TRACE_UIA ? ",\"format\":\"TI-UIA\"" : ",\"format\":\"TXTB\"");
    /* the trace's RTOS (trx_trace_vocab); FreeRTOS's view (names, priorities,
     * legend) unless TraceX's was asked for */
    trx_out_str(w, ",\"rtos\":\"");
    trx_out_str(w, o->custom && o->custom->rtos == TRX_RTOS_FREERTOS
                       ? "freertos"
                       : trx_vocab_category(trx_trace_vocab(t) == TRX_VOCAB_FREERTOS
                                                ? TRX_VOCAB_THREADX /* TraceX's view */
                                                : trx_trace_vocab(t)));
    trx_out_char(w, '"');
    trx_out_str(w, t->header.big_endian ? ",\"byte_order\":\"big-endian\""
                                        : ",\"byte_order\":\"little-endian\"");
    trx_out_str(w, ",\"timer_mask\":");
    num(w, t->header.timer_mask);
    trx_out_str(w, t->counts_up ? ",\"counts_up\":true" : ",\"counts_up\":false");
    trx_out_str(w, ",\"capacity\":");
    num(w, t->capacity);
    trx_out_str(w, ",\"used\":");
    num(w, t->used);
    trx_out_str(w, t->wrapped ? ",\"wrapped\":true" : ",\"wrapped\":false");
    trx_out_str(w, ",\"registry_used\":");
    num(w, t->registry_used);
    if (trx_registry_full(t)) { /* the header says it, with what it cost */
        char text[400];
        trx_registry_warning_text(t, trx_trace_unnamed_threads(t), text, sizeof text);
        trx_out_str(w, ",\"registry_full\":true,\"registry_warning\":");
        trx_out_json_string(w, text);
    }
    trx_out_str(w, ",\"span_ticks\":");
    num(w, t->max_ticks);
    trx_out_str(w, ",\"ticks_per_second\":");
    if (o->ticks_per_second)
        num(w, o->ticks_per_second);
    else
        trx_out_str(w, "null");
    trx_out_str(w, ",\"lost_events\":");
    num(w, t->lost_events);
    trx_out_str(w, ",\"context_cores\":");
    num(w, trx_trace_context_cores(t));
    if (trx_trace_time_backwards(t, NULL)) { /* as trx stats --json counts them */
        trx_out_str(w, ",\"time_backwards\":");
        num(w, trx_trace_time_backwards(t, NULL));
    }
    trx_out_str(w, ",\"first_index\":");
    num(w, pe ? pe->first : 0);
    if (pe && pe->win) { /* a part of the trace: which */
        trx_out_str(w, ",\"window\":{\"events\":");
        num(w, pe->count);
        trx_out_str(w, ",\"total\":");
        num(w, t->total_events);
        trx_out_str(w, "}");
    }
    trx_out_str(w, ",\n\"gaps\":[");
    for (uint64_t i = 0; s && i < t->gap_count; i++)
        trx_report_gap_json(w, &t->gaps[i], i == 0);
    trx_out_str(w, "],\n\"lanes\":[");
    uint32_t lanes = trx_lane_count(t);
    for (uint32_t l = 0; l < lanes; l++) {
        trx_out_str(w, l ? ",\n{\"name\":" : "\n{\"name\":");
        trx_out_json_string(w, trx_lane_name(t, l));
        trx_out_str(w, ",\"kind\":\"");
        trx_out_str(w, lane_kind(t, l));
        trx_out_str(w, "\",\"address\":");
        num(w, l < t->thread_count ? t->threads[l].handle : 0);
        bool used = l >= t->thread_count ? trx_report_irqs_lane_used(irqs, l)
                                         : trx_lane_is_used_thread(t, l);
        trx_out_str(w, used ? ",\"used\":true}" : ",\"used\":false}");
    }
    trx_report_irqs_lanes_json(w, t, irqs); /* a lane per Hwi and per Swi */
    trx_out_str(w, "]");
    if (loads) /* the target's own load, a lane per core */
        write_loads(w, loads);
    trx_out_str(w, ",\n\"objects\":[");
    for (uint32_t i = 0; i < t->object_count; i++) {
        trx_out_str(w, i ? ",\n{\"a\":" : "\n{\"a\":");
        num(w, t->objects[i].address);
        trx_out_str(w, ",\"t\":");
        num(w, t->objects[i].type);
        trx_out_str(w, ",\"n\":");
        trx_out_json_string(w, t->objects[i].name);
        trx_out_char(w, '}');
    }
    if (!s) { /* trx serve: gaps, inversions and statistics come on demand */
        trx_out_str(w, "],\n\"serve\":{\"total\":");
        num(w, t->total_events);
        trx_out_str(w, ",\"gap_count\":");
        num(w, t->gap_count);
        trx_out_str(w, "}}\n");
        return 0;
    }
    /* inversion windows as [start, end, 1 if unbounded / non-deterministic]: the
     * correct mode's list when there is one, else TraceX's marks */
    trx_out_str(w, "],\n\"inversions\":[");
    for (uint32_t i = 0; i < s->inversion_count; i++) {
        trx_out_str(w, i ? ",[" : "[");
        num(w, s->inversion_list[i].start_index);
        trx_out_char(w, ',');
        num(w, s->inversion_list[i].end_index);
        trx_out_str(w, s->inversion_list[i].unbounded ? ",1]" : ",0]");
    }
    for (uint32_t i = 0; i < s->mark_count && !s->inversion_count; i++) {
        trx_out_str(w, i ? ",[" : "[");
        num(w, s->marks[i].start);
        trx_out_char(w, ',');
        num(w, s->marks[i].end);
        trx_out_str(w, s->marks[i].bad ? ",1]" : ",0]");
    }
    trx_out_char(w, ']');
    /* CPU lanes only where there are several cores (the page draws none for one) */
    int rc = !s->cores || s->cores->core_count > 1 ? trx_report_core_runs(t, w) : 0;
    /* the Responses view: distributions, worst instances and their paths */
    if (rc == 0) {
        trx_out_str(w, ",\n\"latency\":");
        if (trx_report_latency_json(t, lat, o->ticks_per_second, w) != 0)
            rc = -1;
        trx_out_str(w, ",\n\"late\":");
        trx_report_late_json(t, lat, w);
    }
    /* UIABenchmark durations, as `trx stats --json` gives them */
    trx_durations d;
    if (rc == 0 && trx_durations_compute(t, TRX_DURATIONS_WORST, &d) == 0) {
        trx_out_str(w, ",\n\"durations\":");
        trx_durations_write_json(w, &d);
        trx_durations_free(&d);
    } else {
        rc = -1;
    }
    trx_out_str(w, ",\n\"stats\":");
    trx_stats brief = *s; /* the inversion windows are above, compactly */
    brief.inversion_count = 0;
    trx_stats_write_json(t, &brief, o->custom, w);
    trx_out_str(w, "}\n");
    return rc;
}

/* "loads": the target's own CPU load reports per core, [[core, [[ticks, percent], ...]], ...]. */
static void write_loads(trx_out *w, const trx_target_load *l)
{
    trx_out_str(w, ",\"loads\":[");
    uint32_t cores = 0;
    for (uint64_t i = 0; l && i < l->count[TRX_LOAD_CPU]; i++)
        if (l->report[TRX_LOAD_CPU][i].core + 1 > cores)
            cores = l->report[TRX_LOAD_CPU][i].core + 1;
    bool first_core = true;
    for (uint32_t c = 0; c < cores; c++) {
        bool any = false;
        for (uint64_t i = 0; i < l->count[TRX_LOAD_CPU]; i++) {
            const trx_load_report *r = &l->report[TRX_LOAD_CPU][i];
            if (r->core != c)
                continue;
            if (!any) {
                trx_out_str(w, first_core ? "\n[" : ",\n[");
                num(w, c);
                trx_out_str(w, ",[");
                first_core = false;
            }
            trx_out_str(w, any ? ",[" : "[");
            any = true;
            num(w, r->ticks);
            trx_out_char(w, ',');
            num(w, r->a[0]);
            trx_out_char(w, ']');
        }
        if (any)
            trx_out_str(w, "]]");
    }
    trx_out_char(w, ']');
}

void trx_report_types_json(trx_out *w, const trx_trace *t, uint64_t count, const uint32_t *seen,
                           const trx_custom_events *ce, const trx_address_map *symbols,
                           const trx_target_load *load)
{
    trx_out_str(w, "{\"count\":");
    num(w, count);
    trx_out_str(w, ",\"types\":{");
    bool first = true;
    for (uint32_t id = 0; id < 65536; id++) {
        if (!seen[id])
            continue;
        uint16_t module = (uint16_t)((seen[id] & ((1u << REPORT_SEEN_KIND) - 1u)) - 1u);
        uint8_t kind = (uint8_t)(seen[id] >> REPORT_SEEN_KIND);
        char buf[32];
        trx_out_str(w, first ? "\n\"" : ",\n\"");
        first = false;
        num(w, id);
        trx_out_str(w, "\":[");
        trx_out_json_string(w, trx_export_type_name(t, id, module, ce, buf));
        trx_out_str(w, ",\"");
        trx_out_str(w, trx_export_category_of(t, id, kind));
        trx_out_str(w, "\",[");
        const char *labels[4];
        trx_export_labels(t, id, module, ce, labels);
        for (int k = 0; k < 4; k++) {
            if (k)
                trx_out_char(w, ',');
            trx_out_json_string(w, labels[k]);
        }
        trx_out_str(w, "],");
        const char *fmt = t->format == TRX_TRACE_UIA ? trx_uia_message_format(t, id, module) : NULL;
        trx_out_json_string(w, fmt ? fmt : ""); /* UIA: the message, formatted by the page */
        trx_out_str(w, "]");
    }
    /* --elf: the symbol of every information word the page shows as an address */
    trx_out_str(w, "},\"symbols\":{");
    bool any = false;
    for (uint32_t i = 0; t->elf && symbols && i < symbols->cap; i++) {
        char name[TRX_SYMBOL_TEXT];
        const trx_address_slot *slot = &symbols->slots[i];
        if (!slot->used || !trx_elf_describe(t->elf, slot->key, name, sizeof name))
            continue;
        trx_out_str(w, any ? ",\n\"" : "\n\"");
        any = true;
        num(w, slot->key);
        trx_out_str(w, "\":");
        trx_out_json_string(w, name);
    }
    trx_out_char(w, '}');
    write_loads(w, load);
    trx_out_str(w, "}\n");
}

/* Writes the template from `*at` up to `marker` (or to the end); moves `*at` past it. */
static void template_until(trx_out *w, const char **at, const char *end, const char *marker)
{
    size_t mlen = strlen(marker);
    const char *p = *at;
    for (; p + mlen <= end; p++)
        if (memcmp(p, marker, mlen) == 0)
            break;
    if (p + mlen > end)
        p = end;
    trx_out_mem(w, *at, (size_t)(p - *at));
    *at = p + mlen < end ? p + mlen : end;
}

static int write_data(trx_trace *t, trx_out *w, const trx_export_options *o, const trx_stats *s,
                      const trx_latency *lat, const page_events *pe)
{
    uint32_t *seen = calloc(65536, sizeof *seen); /* by id: 1 + module of its first event */
    json_part *meta = part_open(), *types = part_open();
    trx_report_irqs *irqs = malloc(sizeof *irqs);
    int rc = -1;
    if (!seen || !meta || !types || !irqs || trx_report_irqs_find(t, irqs, NULL) != 0) {
        free(irqs);
        irqs = NULL;
        goto out;
    }
    int cores_rc = write_meta(&meta->out, t, s, lat, o, pe, irqs, NULL);
    trx_out_str(w, "<script id=\"trx-meta\" type=\"application/json\">");
    rc = part_close(meta, w);
    if (cores_rc != 0)
        rc = -1;
    meta = NULL;
    trx_out_str(w, "</script>\n<script id=\"trx-events\" type=\"text/plain\">\n");
    trx_address_map symbols = {0};
    trx_target_load load;
    bool loads = trx_target_load_init(&load, t);
    uint64_t count =
        trx_report_events(t, w, seen, o->custom, &symbols, loads ? &load : NULL, pe->win, irqs);
    if (count == UINT64_MAX)
        rc = -1;
    trx_out_str(w, "\n</script>\n<script id=\"trx-types\" type=\"application/json\">");
    trx_report_types_json(&types->out, t, count, seen, o->custom, &symbols, loads ? &load : NULL);
    trx_address_map_free(&symbols);
    trx_target_load_free(&load);
    if (part_close(types, w) != 0)
        rc = -1;
    types = NULL;
    trx_out_str(w, "</script>\n");
out:
    if (meta)
        part_close(meta, w);
    if (types)
        part_close(types, w);
    if (irqs)
        trx_report_irqs_free(irqs);
    free(irqs);
    free(seen);
    return rc;
}

int trx_report_write(trx_trace *t, trx_out *w, const trx_export_options *o)
{
    return trx_report_write_window(t, w, o, NULL);
}

int trx_report_write_window(trx_trace *t, trx_out *w, const trx_export_options *o,
                            const trx_report_window *win)
{
    trx_stats s;
    trx_latency lat;
    trx_latency_options lo;
    trx_report_latency_options(&lo);
    if (trx_stats_latency_compute(t, &s, &lo, &lat) != 0) /* one walk for both */
        return -1;
    page_events pe = {0, t->total_events, win};
    trx_report_window found;
    if (win && !win->found) {
        found = *win;
        trx_report_window_find(t, &found);
        win = pe.win = &found;
    }
    if (win) {
        pe.first = win->first;
        pe.count = win->count;
    }
    const char *at = (const char *)trx_report_html, *end = at + trx_report_html_size;
    template_until(w, &at, end, "<!-- trx:style -->");
    trx_out_str(w, "<style>\n");
    trx_out_mem(w, trx_report_css, trx_report_css_size);
    trx_out_str(w, "</style>");
    template_until(w, &at, end, "<!-- trx:data -->");
    int rc = write_data(t, w, o, &s, &lat, &pe);
    template_until(w, &at, end, "<!-- trx:script -->");
    trx_out_str(w, "<script>\n");
    trx_out_mem(w, trx_report_js, trx_report_js_size);
    trx_out_str(w, "</script>");
    trx_out_mem(w, at, (size_t)(end - at)); /* the rest of the template */
    trx_stats_free(&s);
    trx_latency_free(&lat);
    return rc;
}

/* A served page's #trx-meta: its Hwi / Swi lanes and the target's load
 * reports found by one pass (UIA traces only). 0, or -1 when out of memory. */
static int served_meta(trx_out *w, trx_trace *t, const trx_export_options *o)
{
    trx_report_irqs *irqs = malloc(sizeof *irqs);
    trx_target_load load;
    bool loads = trx_target_load_init(&load, t);
    int rc = irqs ? trx_report_irqs_find(t, irqs, loads ? &load : NULL) : -1;
    write_meta(w, t, NULL, NULL, o, NULL, rc == 0 ? irqs : NULL, loads ? &load : NULL);
    if (irqs && rc == 0)
        trx_report_irqs_free(irqs);
    free(irqs);
    trx_target_load_free(&load);
    return rc;
}

int trx_report_meta_json(trx_trace *t, trx_out *w, const trx_export_options *o)
{
    trx_trace_prepare(t);
    json_part *meta = part_open();
    if (!meta)
        return -1;
    int rc = served_meta(&meta->out, t, o);
    return part_close(meta, w) != 0 ? -1 : rc;
}

int trx_report_write_shell(trx_trace *t, trx_out *w, const trx_export_options *o)
{
    trx_trace_prepare(t);
    const char *at = (const char *)trx_report_html, *end = at + trx_report_html_size;
    /* the page may fetch from where it came from (its own server), nothing else */
    template_until(w, &at, end, "img-src data:");
    trx_out_str(w, "img-src data:; connect-src 'self'");
    template_until(w, &at, end, "<!-- trx:style -->");
    trx_out_str(w, "<style>\n");
    trx_out_mem(w, trx_report_css, trx_report_css_size);
    trx_out_str(w, "</style>");
    template_until(w, &at, end, "<!-- trx:data -->");
    json_part *meta = part_open();
    if (!meta)
        return -1;
    int meta_rc = served_meta(&meta->out, t, o);
    trx_out_str(w, "<script id=\"trx-meta\" type=\"application/json\">");
    int rc = part_close(meta, w) != 0 ? -1 : meta_rc;
    trx_out_str(w, "</script>\n<script id=\"trx-events\" type=\"text/plain\"></script>\n"
                   "<script id=\"trx-types\" type=\"application/json\">"
                   "{\"count\":0,\"types\":{},\"symbols\":{},\"loads\":[]}</script>\n");
    template_until(w, &at, end, "<!-- trx:script -->");
    trx_out_str(w, "<script>\n");
    trx_out_mem(w, trx_report_js, trx_report_js_size);
    trx_out_str(w, "</script>");
    trx_out_mem(w, at, (size_t)(end - at));
    return rc;
}
