/*
 * report_events.c - the events of a report, compact: one record of varints
 * per event (tick delta, id, lane*4 + flows*2 + synthetic, next lane, priority when the
 * context is a thread, the four information fields each as the zigzag
 * difference from the same field of the previous event with that id: object
 * pointers and wait options repeat, counters step) and, when flagged in the
 * lane word, the flows that end at the event (timeline_flows.c: how many,
 * then each start as a distance back), written as base64 on one
 * line (the page decodes it without first stripping white space). Streamed: memory (1 MiB of
 * previous fields) does not depend on the trace length.
 */
#include <stdlib.h>
#include <string.h>

#include "output/events_names.h"
#include "analyze/target_load.h"
#include "output/report.h"
#include "output/report_irqs.h"
#include "output/uia_events.h"
#include "util/address_map.h"
#include "output/timeline.h"

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void b64_group(trx_base64 *b, const uint8_t *p, int n)
{
    char out[5];
    uint32_t v = (uint32_t)p[0] << 16 | (n > 1 ? (uint32_t)p[1] << 8 : 0) | (n > 2 ? p[2] : 0);
    out[0] = alphabet[v >> 18];
    out[1] = alphabet[(v >> 12) & 63];
    out[2] = n > 1 ? alphabet[(v >> 6) & 63] : '=';
    out[3] = n > 2 ? alphabet[v & 63] : '=';
    trx_out_mem(b->w, out, 4);
}

static void b64_bytes(trx_base64 *b, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        b->carry[b->n++] = p[i];
        if (b->n == 3) {
            b64_group(b, b->carry, 3);
            b->n = 0;
        }
    }
}

static void b64_finish(trx_base64 *b)
{
    if (b->n)
        b64_group(b, b->carry, b->n);
    b->n = 0;
}

static size_t varint(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

/* The zigzag code of the 32-bit difference v - prev (small either way -> small). */
static uint32_t zigzag(uint32_t v, uint32_t prev)
{
    uint32_t d = v - prev;
    return d & 0x80000000u ? ~(d << 1) : d << 1;
}

/* Appends the flows ending at this event: count, then per flow
 * (index - start event) * 2 + (1: it ends where a lane starts running). */
static size_t flows_record(uint8_t *p, const trx_event *ev, const trx_flow_step *step,
                           const trx_flow *ran, int ran_count)
{
    size_t n = varint(p, (uint64_t)ran_count + (step->ends ? 1u : 0u));
    if (step->ends)
        n += varint(p + n, (ev->index - step->end.event) << 1);
    for (int i = 0; i < ran_count; i++)
        n += varint(p + n, (ev->index - ran[i].event) << 1 | 1u);
    return n;
}

/* --elf: notes the information words of `ev` that are addresses. */
static void note_symbols(const trx_trace *t, const trx_event *ev, const trx_custom_events *ce,
                         trx_address_map *symbols)
{
    bool address[4] = {false, false, false, false};
    if (t->format == TRX_TRACE_UIA) {
        const char *fmt = trx_uia_message_format(t, ev->id, ev->module);
        char line[256];
        if (fmt)
            trx_uia_format_message_elf(line, sizeof line, fmt, ev->info, 4, t->elf, address);
    } else {
        char buf[4][TRX_SYMBOL_TEXT];
        const char *sym[4];
        trx_event_info_symbols(t, ev, ce, buf, sym);
        for (int k = 0; k < 4; k++)
            address[k] = sym[k] != NULL;
    }
    for (int k = 0; k < 4; k++)
        if (address[k] && symbols->count < REPORT_SYMBOLS &&
            trx_address_map_put(symbols, ev->info[k], 1) < 0)
            return; /* out of memory: fewer names */
}

int trx_report_encoder_init(trx_report_encoder *e, trx_trace *t, trx_out *w, uint32_t *seen,
                            const trx_custom_events *ce, trx_address_map *symbols,
                            trx_target_load *load)
{
    memset(e, 0, sizeof *e);
    e->t = t;
    e->b = (trx_base64){w, {0, 0, 0}, 0};
    e->seen = seen;
    e->ce = ce;
    e->symbols = symbols;
    e->load = load;
    e->cores = trx_trace_context_cores(t);
    e->prev_info = calloc(65536u * 4u, sizeof *e->prev_info);
    e->flows = trx_flows_new(t);
    if (!e->prev_info || !e->flows || trx_run_init(&e->runs, t) < 0) {
        free(e->prev_info);
        trx_flows_free(e->flows);
        return -1;
    }
    return 0;
}

int trx_report_encoder_irqs(trx_report_encoder *e, const trx_report_irqs *irqs)
{
    if (!irqs || !irqs->count)
        return 0;
    if (!e->irq_walk && !(e->irq_walk = calloc(1, sizeof *e->irq_walk)))
        return -1;
    e->irqs = irqs;
    return 0;
}

void trx_report_encode(trx_report_encoder *e, const trx_event *ev)
{
    trx_trace *t = e->t;
    uint8_t rec[80 + 10 * (TRX_FLOWS_PER_LANE + 2)];
    size_t n = varint(rec, ev->ticks > e->prev ? ev->ticks - e->prev : 0); /* never backwards */
    e->prev = ev->ticks > e->prev ? ev->ticks : e->prev;
    n += varint(rec + n, ev->id);
    uint32_t lane = trx_lane_of_event(t, ev, ev->context);
    trx_flow_step step;
    trx_flows_on_event(e->flows, ev, lane, &step);
    trx_flow ran[TRX_FLOWS_PER_LANE];
    int ran_count = 0;
    trx_run_slice closed;
    if (trx_run_feed(&e->runs, t, ev, &closed) & TRX_RUN_STARTED)
        ran_count = trx_flows_on_run(e->flows, e->runs.cur.lane, ran, TRX_FLOWS_PER_LANE);
    bool flows = step.ends || ran_count > 0;
    if (!e->cached || ev->next_context != e->lane_cache_ctx || e->runs.per_core) { /* they repeat */
        e->cached = true;
        e->lane_cache_ctx = ev->next_context;
        e->lane_cache = trx_lane_of_event(t, ev, ev->next_context);
    }
    uint32_t shown = lane, shown_next = e->lane_cache; /* a Hwi's / Swi's own lane */
    if (e->irqs)
        trx_report_irqs_step(e->irqs, e->irq_walk, t, ev, &shown, &shown_next);
    n += varint(rec + n, (uint64_t)shown << 2 | (flows ? 2u : 0u) | (ev->synthetic ? 1u : 0u));
    n += varint(rec + n, shown_next);
    if (e->cores > 1) /* each core's own runs (meta context_cores) */
        n += varint(rec + n, ev->core < e->cores ? ev->core : 0);
    if (lane < t->thread_count)
        n += varint(rec + n, trx_shown_priority(t, ev->priority));
    uint32_t *prev_fields = e->prev_info + 4u * ev->id;
    for (int k = 0; k < 4; k++) {
        n += varint(rec + n, zigzag(ev->info[k], prev_fields[k]));
        prev_fields[k] = ev->info[k];
    }
    if (flows)
        n += flows_record(rec + n, ev, &step, ran, ran_count);
    b64_bytes(&e->b, rec, n);
    if (t->elf && !ev->synthetic && e->symbols)
        note_symbols(t, ev, e->ce, e->symbols);
    if (e->load)
        trx_target_load_feed(e->load, t, ev);
    if (e->seen && !e->seen[ev->id])
        e->seen[ev->id] = (1u + ev->module) | (uint32_t)ev->kind << REPORT_SEEN_KIND;
    e->count++;
}

void trx_report_encoder_finish(trx_report_encoder *e)
{
    b64_finish(&e->b);
    trx_run_free(&e->runs);
    free(e->prev_info);
    trx_flows_free(e->flows);
    free(e->irq_walk);
    e->prev_info = NULL;
    e->flows = NULL;
    e->irq_walk = NULL;
}

/* True when `ev` lies before window `win` (NULL: the whole trace). */
static bool before_window(const trx_report_window *win, const trx_event *ev)
{
    return win && ev->ticks < win->from_ticks;
}

/* True when `ev` (the `count`+1-th in the window) lies past it. */
static bool past_window(const trx_report_window *win, const trx_event *ev, uint64_t count)
{
    return win && (ev->ticks > win->to_ticks || (win->max_events && count >= win->max_events));
}

void trx_report_window_find(trx_trace *t, trx_report_window *win)
{
    trx_cursor c;
    win->first = win->count = 0;
    win->found = true;
    if (trx_cursor_init(&c, t) < 0)
        return;
    const trx_event *ev;
    while ((ev = trx_cursor_next_ref(&c)) != NULL) {
        if (before_window(win, ev)) {
            win->first++;
        } else if (past_window(win, ev, win->count)) {
            trx_cursor_free(&c);
            break;
        } else {
            win->count++;
        }
    }
}

uint64_t trx_report_events(trx_trace *t, trx_out *w, uint32_t *seen, const trx_custom_events *ce,
                           trx_address_map *symbols, trx_target_load *load,
                           const trx_report_window *win, const trx_report_irqs *irqs)
{
    trx_cursor c;
    trx_report_encoder e;
    if (trx_report_encoder_init(&e, t, w, seen, ce, symbols, load) < 0)
        return UINT64_MAX;
    if (trx_report_encoder_irqs(&e, irqs) < 0) {
        trx_report_encoder_finish(&e);
        return UINT64_MAX;
    }
    if (trx_cursor_init(&c, t) < 0) {
        trx_report_encoder_finish(&e);
        return UINT64_MAX;
    }
    const trx_event *ev;
    while ((ev = trx_cursor_next_ref(&c)) != NULL) {
        if (before_window(win, ev))
            continue;
        if (past_window(win, ev, e.count))
            break;
        trx_report_encode(&e, ev);
        if ((e.count & 1023u) == 0 && w->error)
            break;
    }
    trx_cursor_free(&c);
    trx_report_encoder_finish(&e);
    return e.count;
}
