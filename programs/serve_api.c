/*
 * serve_api.c - the answers of `trx serve` (fixed paths, GET only; the
 * server has checked the Host and the token already):
 *   /             the report page (same page code as `trx report`, no events)
 *   /api/status   how far the overview and the statistics are; the generation
 *   /api/meta     the page's #trx-meta of this generation (a live capture grows;
 *                 ?generation=N: 409 when that is no longer the one served)
 *   /api/view     ?from=T&to=T&cols=N: the exact events of that time range
 *                 when there are at most SERVE_EVENTS_MAX, else its summary
 *                 (axis=index: from and to are event numbers, the sequential mode)
 *   /api/locate   ?axis=ticks|index&from=A&to=B: that range on the other axis
 *   /api/events   ?first=I&count=N: the events from number I (jumps, search)
 *   /api/stats    `trx stats --json` of the trace (once computed), its
 *                 inversion list left out: /api/inversions?first=K&count=N pages it
 *   /api/search   ?q=TEXT&from=I&dir=1|-1: the next match after (before) I
 *   /api/latency  the Responses view's data and the late marks (once computed)
 *   /api/why      ?thread=ADDRESS&instance=N: its critical path (`trx why --json`)
 *   /api/durations the UIABenchmark durations ({"durations": [...]} as `trx stats
 *                 --json` gives them; one pass over the trace per request)
 * Event records are the report's (report_events.c), so the page decodes and
 * draws a window exactly as it does a whole report.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/durations.h"
#include "output/durations_output.h"
#include "output/export_args.h"
#include "output/json_string.h"
#include "output/path_output.h"
#include "output/report.h"
#include "output/report_irqs.h"
#include "output/stats_json.h"
#include "output/timeline.h"
#include "serve_api.h"
#include "util/address_map.h"

static void num(trx_out *w, uint64_t v)
{
    trx_out_u64_pad(w, v, 0, ' ');
}

static bool query_u64(const trx_http_request *r, const char *name, uint64_t *v)
{
    char text[32];
    return trx_http_query_get(r->query, name, text, sizeof text) && cli_parse_u64(text, v);
}

static int bad_request(trx_out *w, const char **type, const char *what)
{
    *type = "text/plain; charset=utf-8";
    trx_out_str(w, "trx serve: ");
    trx_out_str(w, what);
    trx_out_char(w, '\n');
    return 400;
}

static int status(serve_state *s, trx_out *w)
{
    const trx_overview *o = s->overview;
    trx_out_str(w, "{\"ready\":");
    num(w, trx_overview_ready(o));
    trx_out_str(w, ",\"walked\":");
    num(w, trx_overview_walked(o));
    trx_out_str(w, ",\"total\":");
    num(w, trx_overview_total(o));
    trx_out_str(w, ",\"ready_ticks\":");
    num(w, trx_overview_ready_ticks(o));
    trx_out_str(w, trx_overview_done(o) ? ",\"done\":true" : ",\"done\":false");
    trx_out_str(w, atomic_load(&s->stats_ready) ? ",\"stats\":true" : ",\"stats\":false");
    trx_out_str(w, atomic_load(&s->latency_ready) ? ",\"latency\":true" : ",\"latency\":false");
    trx_out_str(w, ",\"memory\":");
    num(w, trx_overview_memory(o));
    const trx_trace *t = &s->in->trace;
    trx_out_str(w, ",\"generation\":");
    num(w, s->generation);
    trx_out_str(w, s->live ? ",\"live\":true" : ",\"live\":false");
    trx_out_str(w, ",\"span_ticks\":");
    num(w, t->max_ticks);
    trx_out_str(w, ",\"lost_events\":");
    num(w, t->lost_events);
    trx_out_str(w, ",\"gap_count\":");
    num(w, t->gap_count);
    trx_out_str(w, "}\n");
    return 200;
}

/* The lost-event gaps before events first..last: [before event, lost, from, to], ... */
static void write_gaps(const trx_trace *t, uint64_t first, uint64_t last, trx_out *w)
{
    uint64_t lo = 0, hi = t->gap_count;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (t->gaps[mid].index < first)
            lo = mid + 1;
        else
            hi = mid;
    }
    trx_out_str(w, ",\"gaps\":[");
    for (uint64_t i = lo; i < t->gap_count && t->gaps[i].index <= last; i++)
        trx_report_gap_json(w, &t->gaps[i], i == lo);
    trx_out_char(w, ']');
}

/* The priority inversions over events first..last as [start, end, unbounded]
 * (once the statistics are there; the list is in start order). */
static void write_bands(serve_state *s, uint64_t first, uint64_t last, trx_out *w)
{
    trx_out_str(w, ",\"inversions\":[");
    uint32_t n = atomic_load(&s->stats_ready) && s->bands ? s->inversion_total : 0, shown = 0;
    uint32_t lo = 0, hi = n ? (n - 1) / SERVE_BAND_BLOCK + 1 : 0;
    while (lo < hi) { /* the first block that reaches the window (reach only grows) */
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->band_reach[mid] < first)
            lo = mid + 1;
        else
            hi = mid;
    }
    /* bands end before the window now and then in between: at most a budget of them read */
    uint32_t budget = 1u << 20;
    for (uint32_t i = lo * SERVE_BAND_BLOCK;
         i < n && s->bands[i].start <= last && shown < 10000 && budget--; i++) {
        const serve_band *b = &s->bands[i];
        if (b->end < first)
            continue;
        trx_out_str(w, shown++ ? ",[" : "[");
        num(w, b->start);
        trx_out_char(w, ',');
        num(w, b->end);
        trx_out_str(w, b->unbounded ? ",1]" : ",0]");
    }
    trx_out_char(w, ']');
}

/* The CPU lanes of a multi-core trace (known once its statistics are):
 * ,"cpu_cores":[cores with events],"cores":[runs of events first..last, as
 * the report's member]; nothing for one core. 0, or -1 when out of memory. */
static int write_core_runs(serve_state *s, uint64_t first, uint64_t last, trx_out *w)
{
    const trx_core_stats *cs = atomic_load(&s->stats_ready) ? s->computed.cores : NULL;
    if (!cs || cs->core_count < 2)
        return 0;
    trx_out_str(w, ",\"cpu_cores\":[");
    for (uint32_t c = 0, any = 0; c < cs->core_count; c++)
        if (cs->cores[c].events) {
            trx_out_str(w, any++ ? "," : "");
            num(w, c);
        }
    trx_out_char(w, ']');
    trx_cursor c;
    if (trx_overview_seek_index(s->overview, first > SERVE_CORE_LEAD ? first - SERVE_CORE_LEAD : 0,
                                &c) < 0)
        return -1;
    return trx_report_core_runs_window(&s->in->trace, &c, first, last, w);
}

/* ,"late": the late instances' marks once computed (the page's red wedges). */
static void write_late(serve_state *s, trx_out *w)
{
    if (!atomic_load(&s->latency_ready))
        return;
    trx_out_str(w, ",\"late\":");
    trx_out_mem(w, s->late, s->late_len);
}

/* The events from number `index` on: at most `max`, and (until_ticks) none
 * after the first one past `until` ticks; those of an interrupt already
 * running at `index` on its Hwi / Swi lane. */
static int write_events(serve_state *s, uint64_t index, uint64_t max, bool until_ticks,
                        uint64_t until, trx_out *w)
{
    trx_trace *t = &s->in->trace;
    uint32_t *seen = calloc(65536, sizeof *seen);
    trx_address_map symbols = {0};
    trx_report_encoder e;
    trx_cursor cursor, *c = &cursor;
    if (!seen || trx_report_encoder_init(&e, t, w, seen, s->options.custom, &symbols, NULL) < 0) {
        free(seen);
        return 503;
    }
    /* the page's Hwi / Swi lanes, and which of them run where the window starts */
    if (trx_report_encoder_irqs(&e, s->irqs) < 0 ||
        trx_overview_seek_index_irqs(s->overview, index, c, e.irq_walk) < 0) {
        trx_report_encoder_finish(&e);
        free(seen);
        return 503;
    }
    trx_out_str(w, "{\"mode\":\"events\",\"events\":\"");
    const trx_event *ev;
    uint64_t first = UINT64_MAX, last = 0, first_ticks = 0, last_ticks = 0;
    while (e.count < max && (ev = trx_cursor_next_ref(c)) != NULL) {
        if (first == UINT64_MAX) {
            first = ev->index;
            first_ticks = ev->ticks;
        }
        last = ev->index;
        last_ticks = ev->ticks;
        trx_report_encode(&e, ev);
        if (until_ticks && ev->ticks > until)
            break;
    }
    trx_cursor_free(c);
    trx_report_encoder_finish(&e);
    trx_out_str(w, "\",\"first\":");
    num(w, first == UINT64_MAX ? 0 : first);
    trx_out_str(w, ",\"count\":");
    num(w, e.count);
    trx_out_str(w, ",\"first_ticks\":");
    num(w, first_ticks);
    trx_out_str(w, ",\"last_ticks\":");
    num(w, last_ticks);
    if (e.count)
        write_gaps(t, first, last, w);
    else
        trx_out_str(w, ",\"gaps\":[]");
    write_bands(s, first, last, w);
    if (e.count && write_core_runs(s, first, last, w) < 0) {
        trx_address_map_free(&symbols);
        free(seen);
        return 503;
    }
    write_late(s, w);
    trx_out_str(w, ",\"types\":");
    trx_report_types_json(w, t, e.count, seen, s->options.custom, &symbols, NULL);
    trx_out_str(w, "}\n");
    trx_address_map_free(&symbols);
    free(seen);
    return 200;
}

/* A summary's columns as asked (a 64-bit number), at most TRX_OVERVIEW_MAX_COLS. */
static uint32_t summary_cols(uint64_t cols)
{
    return (uint32_t)(cols > TRX_OVERVIEW_MAX_COLS ? TRX_OVERVIEW_MAX_COLS : cols);
}

/* /api/view?axis=index: events [from, to] by number (the sequential mode). */
static int view_by_index(serve_state *s, uint64_t from, uint64_t to, uint64_t cols, trx_out *w)
{
    const trx_overview *o = s->overview;
    uint64_t ready = trx_overview_ready(o);
    if (to - from < SERVE_EVENTS_MAX && (trx_overview_done(o) || to < ready))
        return write_events(s, from, to - from + 1, false, 0, w);
    trx_out_str(w, "{\"mode\":\"summary\",\"events_in_view\":");
    num(w, (to < ready ? to + 1 : ready) - (from < ready ? from : ready));
    trx_out_str(w, ",\"summary\":");
    trx_overview_summary_index_json(o, from, to, summary_cols(cols), w);
    write_late(s, w);
    trx_out_str(w, "}\n");
    return 200;
}

static int view(serve_state *s, const trx_http_request *r, trx_out *w, const char **type)
{
    uint64_t from, to, cols;
    char axis[32];
    if (!trx_http_query_get(r->query, "axis", axis, sizeof axis))
        strcpy(axis, "ticks");
    if (!query_u64(r, "from", &from) || !query_u64(r, "to", &to) || !query_u64(r, "cols", &cols) ||
        to < from || cols == 0 || (strcmp(axis, "ticks") != 0 && strcmp(axis, "index") != 0))
        return bad_request(w, type,
                           "view: expected from=A&to=B&cols=N (A, B: ticks, or with axis=index "
                           "event numbers)");
    if (strcmp(axis, "index") == 0)
        return view_by_index(s, from, to, cols, w);
    const trx_overview *o = s->overview;
    uint64_t between = trx_overview_events_between(o, from, to);
    bool known = trx_overview_done(o) || trx_overview_ready_ticks(o) > to;
    if (known && between <= SERVE_EVENTS_MAX)
        return write_events(s, trx_overview_index_near(o, from),
                            SERVE_EVENTS_MAX + 2 * TRX_OVERVIEW_CHUNK, true, to, w);
    trx_out_str(w, "{\"mode\":\"summary\",\"events_in_view\":");
    num(w, between);
    trx_out_str(w, ",\"summary\":");
    trx_overview_summary_json(o, from, to, summary_cols(cols), w);
    write_late(s, w);
    trx_out_str(w, "}\n");
    return 200;
}

/* /api/locate?axis=ticks|index&from=A&to=B: the range on the other axis, to a
 * chunk of events (the page keeps its place when it changes axis). */
static int locate(serve_state *s, const trx_http_request *r, trx_out *w, const char **type)
{
    uint64_t from, to;
    char axis[32];
    if (!trx_http_query_get(r->query, "axis", axis, sizeof axis) ||
        (strcmp(axis, "ticks") != 0 && strcmp(axis, "index") != 0) ||
        !query_u64(r, "from", &from) || !query_u64(r, "to", &to) || to < from)
        return bad_request(w, type, "locate: expected axis=ticks|index&from=A&to=B");
    const trx_overview *o = s->overview;
    bool by_ticks = strcmp(axis, "ticks") == 0;
    uint64_t a =
        by_ticks ? trx_overview_index_near(o, from) : trx_overview_ticks_near(o, from, false);
    uint64_t b = by_ticks ? trx_overview_index_near(o, to) : trx_overview_ticks_near(o, to, true);
    trx_out_str(w, by_ticks ? "{\"axis\":\"index\",\"from\":" : "{\"axis\":\"ticks\",\"from\":");
    num(w, a);
    trx_out_str(w, ",\"to\":");
    num(w, b > a ? b : a);
    trx_out_str(w, "}\n");
    return 200;
}

static int events(serve_state *s, const trx_http_request *r, trx_out *w, const char **type)
{
    uint64_t first, count;
    if (!query_u64(r, "first", &first) || !query_u64(r, "count", &count))
        return bad_request(w, type, "events: expected first=INDEX&count=N");
    if (count > SERVE_EVENTS_MAX)
        count = SERVE_EVENTS_MAX;
    return write_events(s, first, count, false, 0, w);
}

/* What a search looks for, decided once per request. */
typedef struct search_query {
    char text[200]; /* lower case */
    bool numeric;
    uint32_t number;
    uint32_t lanes;
    uint8_t *lane_hit;             /* per lane, the Hwi / Swi lanes too: its name matches */
    trx_report_irq_walk *irq_walk; /* the Hwi / Swi running per core (s->irqs only) */
    trx_address_map names;         /* module << 16 | id -> 1 + (its name matches) */
} search_query;

static char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* True when `hay` contains `needle` (lower case), ignoring case. */
static bool contains_text(const char *hay, const char *needle)
{
    for (; *hay; hay++) {
        size_t k = 0;
        while (needle[k] && lower(hay[k]) == needle[k])
            k++;
        if (!needle[k])
            return true;
    }
    return false;
}

static bool matches(serve_state *s, search_query *q, const trx_event *ev)
{
    trx_trace *t = &s->in->trace;
    uint32_t lane = trx_lane_of_event(t, ev, ev->context);
    if (q->irq_walk) { /* on the page's Hwi / Swi lane, as the report's search finds it */
        uint32_t next = trx_lane_of_event(t, ev, ev->next_context);
        trx_report_irqs_step(s->irqs, q->irq_walk, t, ev, &lane, &next);
    }
    if (lane < q->lanes && q->lane_hit[lane])
        return true;
    uint32_t key = (uint32_t)ev->module << 16 | (ev->id & 0xFFFFu), hit;
    if (!trx_address_map_get(&q->names, key, &hit)) {
        char buf[64];
        hit = 1 + contains_text(trx_export_type_name(t, ev->id, ev->module, s->options.custom, buf),
                                q->text);
        trx_address_map_put(&q->names, key, hit);
    }
    if (hit == 2)
        return true;
    if (q->numeric) {
        if (ev->id == q->number)
            return true;
        for (int k = 0; k < 4; k++)
            if (ev->info[k] == q->number)
                return true;
    }
    return false;
}

static int search(serve_state *s, const trx_http_request *r, trx_out *w, const char **type)
{
    search_query q = {0};
    uint64_t from;
    char dir[4];
    if (!trx_http_query_get(r->query, "q", q.text, sizeof q.text) || !q.text[0] ||
        !query_u64(r, "from", &from) || !trx_http_query_get(r->query, "dir", dir, sizeof dir) ||
        (strcmp(dir, "1") != 0 && strcmp(dir, "-1") != 0))
        return bad_request(w, type, "search: expected q=TEXT&from=INDEX&dir=1|-1");
    trx_trace *t = &s->in->trace;
    char *end;
    unsigned long long v = strtoull(q.text, &end, 0);
    for (char *p = q.text; *p; p++)
        *p = lower(*p);
    q.numeric = *end == '\0' && v <= UINT32_MAX && q.text[0] >= '0' && q.text[0] <= '9';
    q.number = (uint32_t)v;
    uint32_t lanes = trx_lane_count(t), irqs = s->irqs ? s->irqs->count : 0;
    q.lanes = lanes + irqs;
    if (!(q.lane_hit = calloc(q.lanes ? q.lanes : 1, 1)) ||
        (irqs && !(q.irq_walk = malloc(sizeof *q.irq_walk)))) {
        free(q.lane_hit);
        return 503;
    }
    for (uint32_t l = 0; l < lanes; l++)
        q.lane_hit[l] = contains_text(trx_lane_name(t, l), q.text);
    for (uint32_t k = 0; k < irqs; k++) { /* "Hwi 15 (hwi0_fxn)", "Swi swi0_fxn" */
        char name[TRX_REPORT_IRQ_NAME];
        trx_report_irqs_lane_name(t, s->irqs, k, name, sizeof name);
        q.lane_hit[lanes + k] = contains_text(name, q.text);
    }
    bool forward = dir[0] == '1';
    uint64_t ready = trx_overview_ready(s->overview);
    /* forward: from+1 on; backward: the block before `from`, its last match */
    char inclusive[4] = ""; /* inclusive=1: `from` itself may match (a search from the start) */
    trx_http_query_get(r->query, "inclusive", inclusive, sizeof inclusive);
    uint64_t start = forward ? from + (strcmp(inclusive, "1") != 0)
                             : (from > SERVE_SEARCH_BUDGET ? from - SERVE_SEARCH_BUDGET : 0);
    uint64_t stop = forward ? start + SERVE_SEARCH_BUDGET : from;
    if (stop > ready)
        stop = ready;
    uint64_t found = UINT64_MAX, found_ticks = 0;
    trx_cursor c;
    int rc = 200;
    if (start < stop) {
        if (trx_overview_seek_index_irqs(s->overview, start, &c, q.irq_walk) < 0) {
            rc = 503;
            goto out;
        }
        const trx_event *ev;
        for (uint64_t i = start; i < stop && (ev = trx_cursor_next_ref(&c)) != NULL; i++)
            if (matches(s, &q, ev)) {
                found = ev->index;
                found_ticks = ev->ticks;
                if (forward)
                    break;
            }
        trx_cursor_free(&c);
    }
    if (found != UINT64_MAX) {
        trx_out_str(w, "{\"found\":");
        num(w, found);
        trx_out_str(w, ",\"ticks\":");
        num(w, found_ticks);
        trx_out_str(w, "}\n");
    } else if (forward ? stop < ready || !trx_overview_done(s->overview) : start > 0) {
        trx_out_str(w, "{\"next\":"); /* not yet: ask again from there */
        num(w, forward ? (stop ? stop - 1 : 0) : start);
        trx_out_str(w, "}\n");
    } else {
        trx_out_str(w, "{\"none\":true}\n");
    }
out:
    free(q.lane_hit);
    free(q.irq_walk);
    trx_address_map_free(&q.names);
    return rc;
}

/* /api/inversions?first=K&count=N: a page of the statistics' inversion list. */
static int inversions(serve_state *s, const trx_http_request *r, trx_out *w, const char **type)
{
    uint64_t first, count;
    if (!query_u64(r, "first", &first) || !query_u64(r, "count", &count))
        return bad_request(w, type, "inversions: expected first=K&count=N");
    if (!atomic_load(&s->stats_ready)) {
        trx_out_str(w, "{\"pending\":true}\n");
        return 200;
    }
    const trx_stats *st = &s->computed;
    uint32_t from = first < st->inversion_count ? (uint32_t)first : st->inversion_count;
    trx_out_str(w, "{\"total\":");
    num(w, s->inversion_total);
    trx_out_str(w, ",\"kept\":");
    num(w, st->inversion_count);
    trx_out_str(w, ",\"first\":");
    num(w, from);
    trx_out_str(w, ",\"inversions\":[");
    trx_stats_inversions_json(w, &s->in->trace, st, from,
                              (uint32_t)(count > 10000 ? 10000 : count));
    trx_out_str(w, "]}\n");
    return 200;
}

/* /api/latency: the Responses view's data ({"latency": ..., "late": ...}) once computed. */
static int latency(serve_state *s, trx_out *w)
{
    if (!atomic_load(&s->latency_ready)) {
        trx_out_str(w, atomic_load(&s->stats_failed) || atomic_load(&s->latency_failed)
                           ? "{\"failed\":true}\n"
                           : "{\"pending\":true}\n");
        return 200;
    }
    trx_out_mem(w, s->latency, s->latency_len);
    return 200;
}

/* /api/why?thread=ADDR&instance=N: that instance's critical path as `trx why --json`. */
static int why(serve_state *s, const trx_http_request *r, trx_out *w, const char **type)
{
    uint64_t address, number;
    if (!query_u64(r, "thread", &address) || !query_u64(r, "instance", &number) || number == 0 ||
        address > UINT32_MAX)
        return bad_request(w, type, "why: expected thread=ADDRESS&instance=N (N from 1)");
    if (!atomic_load(&s->latency_ready)) { /* the helper thread still reads the trace */
        trx_out_str(w, "{\"pending\":true}\n");
        return 200;
    }
    trx_trace *t = &s->in->trace;
    trx_latency_options o = {0};
    o.worst = 1;
    uint64_t median = 0;
    for (uint32_t i = 0; i < s->median_count; i++)
        if (s->median_address[i] == (uint32_t)address)
            median = s->median_ticks[i];
    trx_path p; /* from the last saved state before its release (serve_state_build) */
    int rc = trx_path_compute_indexed(t, &o, s->why_index, (uint32_t)address, number, 0, 0, &p);
    if (rc == 0) {
        trx_path_view v = {s->options.ticks_per_second, median};
        trx_path_write_json(t, &p, &v, w);
    }
    trx_path_free(&p);
    if (rc < 0)
        return 503;
    if (rc > 0)
        return bad_request(w, type,
                           rc == 1
                               ? "why: no such instance of that thread (api/latency lists them)"
                               : "why: that instance is incomplete (outside the trace or across "
                                 "a lost-event gap)");
    return 200;
}

/* /api/durations: the UIABenchmark durations as `trx stats --json` gives them. */
static int durations(serve_state *s, trx_out *w)
{
    trx_durations d;
    if (trx_durations_compute(&s->in->trace, TRX_DURATIONS_WORST, &d) < 0)
        return 503;
    trx_out_str(w, "{\"durations\": ");
    trx_durations_write_json(w, &d);
    trx_out_str(w, "}\n");
    trx_durations_free(&d);
    return 200;
}

int serve_handle(void *state, const trx_http_request *req, trx_out *body, const char **type)
{
    serve_state *s = state;
    *type = "application/json";
    if (strcmp(req->path, "/") == 0) {
        *type = "text/html; charset=utf-8";
        trx_out_mem(body, s->page, s->page_len);
        return 200;
    }
    if (strcmp(req->path, "/api/status") == 0)
        return status(s, body);
    if (strcmp(req->path, "/api/meta") == 0) { /* a newer generation's header and lanes */
        uint64_t g;
        if (query_u64(req, "generation", &g) && g != s->generation) { /* the page asks again */
            trx_out_str(body, "{\"generation\":");
            num(body, s->generation);
            trx_out_str(body, "}\n");
            return 409;
        }
        return trx_report_meta_json(&s->in->trace, body, &s->options) == 0 ? 200 : 503;
    }
    if (strcmp(req->path, "/api/view") == 0)
        return view(s, req, body, type);
    if (strcmp(req->path, "/api/events") == 0)
        return events(s, req, body, type);
    if (strcmp(req->path, "/api/search") == 0)
        return search(s, req, body, type);
    if (strcmp(req->path, "/api/locate") == 0)
        return locate(s, req, body, type);
    if (strcmp(req->path, "/api/inversions") == 0)
        return inversions(s, req, body, type);
    if (strcmp(req->path, "/api/latency") == 0)
        return latency(s, body);
    if (strcmp(req->path, "/api/why") == 0)
        return why(s, req, body, type);
    if (strcmp(req->path, "/api/durations") == 0)
        return durations(s, body);
    if (strcmp(req->path, "/api/stats") == 0) {
        if (!atomic_load(&s->stats_ready)) {
            trx_out_str(body, atomic_load(&s->stats_failed) ? "{\"failed\":true}\n"
                                                            : "{\"pending\":true}\n");
            return 200;
        }
        trx_out_mem(body, s->stats, s->stats_len);
        return 200;
    }
    *type = "text/plain; charset=utf-8";
    trx_out_str(body, "trx serve: no such page\n");
    return 404;
}
