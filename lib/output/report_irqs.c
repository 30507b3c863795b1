/*
 * report_irqs.c - the report's Hwi and Swi lanes (report_irqs.h): one pass
 * collects the interrupts a UIA trace's events begin (ISR_ENTER's number,
 * SWI_BEGIN's handle) and marks the timeline lanes something lies on; a walk
 * keeps per core the stack of interrupts running (as the statistics' ISR
 * durations nest them: a thread event ends any left open).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/target_load.h"
#include "output/events_names.h"
#include "output/json_string.h"
#include "output/report_irqs.h"
#include "output/timeline.h"
#include "trx/elf.h"

#define NONE UINT16_MAX

_Static_assert(TRX_REPORT_IRQ_NAME >= TRX_SYMBOL_TEXT + 64, "room for a symbol and its words");

static int irq_order(const void *x, const void *y)
{
    const trx_report_irq *a = x, *b = y;
    if (a->swi != b->swi)
        return a->swi ? 1 : -1;
    if (a->core != b->core)
        return a->core < b->core ? -1 : 1;
    return a->key < b->key ? -1 : a->key > b->key;
}

/* The core an interrupt lane is keyed by (0 unless the cores carry contexts). */
static uint32_t lane_core(const trx_trace *t, const trx_event *ev)
{
    return trx_trace_context_cores(t) > 1 ? ev->core : 0;
}

/* Index of (swi, core, key) among irqs->irq[0..count) (sorted), or NONE. */
static uint16_t irq_index(const trx_report_irqs *irqs, bool swi, uint32_t core, uint32_t key)
{
    trx_report_irq probe = {swi, core, key, 0};
    uint32_t lo = 0, hi = irqs->count;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        int c = irq_order(&irqs->irq[mid], &probe);
        if (c == 0)
            return (uint16_t)mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NONE;
}

void trx_report_irqs_step(const trx_report_irqs *irqs, trx_report_irq_walk *walk,
                          const trx_trace *t, const trx_event *ev, uint32_t *lane, uint32_t *next)
{
    if (!irqs || !irqs->count)
        return;
    uint32_t core = ev->core < REPORT_IRQ_CORES ? ev->core : 0;
    uint8_t *depth = &walk->depth[core];
    uint16_t *stack = walk->stack[core];
    bool isr_lane = *lane >= t->thread_count && *lane < irqs->base &&
                    trx_context_kind_of(ev->context) == TRX_CTX_ISR;
    if (isr_lane && *depth > 0 && *depth <= REPORT_IRQ_NEST && stack[*depth - 1] != NONE)
        *lane = irqs->base + stack[*depth - 1];
    bool begin = ev->kind == TRX_KIND_ISR_ENTER || ev->kind == TRX_KIND_SWI_BEGIN;
    if (begin) {
        if (*depth < REPORT_IRQ_NEST)
            stack[*depth] =
                irq_index(irqs, ev->kind == TRX_KIND_SWI_BEGIN, lane_core(t, ev), ev->subject);
        if (*depth < UINT8_MAX)
            (*depth)++;
    } else if (ev->kind == TRX_KIND_ISR_EXIT || ev->kind == TRX_KIND_SWI_END) {
        if (*depth > 0)
            (*depth)--;
    } else if (ev->context != TRX_CONTEXT_ISR) {
        *depth = 0; /* a thread runs: any interrupt left open is over */
    }
    bool next_isr = *next >= t->thread_count && *next < irqs->base &&
                    trx_context_kind_of(ev->next_context) == TRX_CTX_ISR;
    if (next_isr && *depth > 0 && *depth <= REPORT_IRQ_NEST && stack[*depth - 1] != NONE)
        *next = irqs->base + stack[*depth - 1];
}

/* Adds (swi, core, key) to the unsorted list being collected. */
static void collect(trx_report_irqs *irqs, const trx_trace *t, const trx_event *ev)
{
    bool swi = ev->kind == TRX_KIND_SWI_BEGIN;
    uint32_t core = lane_core(t, ev);
    for (uint32_t i = 0; i < irqs->count; i++) /* few interrupts: a short scan */
        if (irqs->irq[i].swi == swi && irqs->irq[i].core == core && irqs->irq[i].key == ev->subject)
            return;
    if (irqs->count < REPORT_IRQ_LANES)
        irqs->irq[irqs->count++] = (trx_report_irq){swi, core, ev->subject, ev->info[1]};
}

/* True when `ev`'s words can name an interrupt: a UIA trace's kernel events. */
static bool has_irqs(const trx_trace *t)
{
    return t->format == TRX_TRACE_UIA;
}

int trx_report_irqs_find(trx_trace *t, trx_report_irqs *out, trx_target_load *load)
{
    memset(out, 0, sizeof *out);
    out->lanes = out->base = trx_lane_count(t);
    if (!has_irqs(t))
        return 0;
    trx_cursor c;
    if (trx_cursor_init(&c, t) < 0)
        return -1;
    const trx_event *ev;
    bool any = false;
    while ((ev = trx_cursor_next_ref(&c)) != NULL) { /* first the interrupts */
        if (ev->kind == TRX_KIND_ISR_ENTER || ev->kind == TRX_KIND_SWI_BEGIN) {
            collect(out, t, ev);
            any = true;
        }
        if (load)
            trx_target_load_feed(load, t, ev);
    }
    if (!any)
        return 0;
    qsort(out->irq, out->count, sizeof out->irq[0], irq_order);
    /* then which timeline lanes still carry anything */
    trx_report_irq_walk *walk = calloc(1, sizeof *walk);
    out->used = calloc(out->lanes ? out->lanes : 1, 1);
    if (!walk || !out->used || trx_cursor_init(&c, t) < 0) {
        free(walk);
        trx_report_irqs_free(out);
        return -1;
    }
    while ((ev = trx_cursor_next_ref(&c)) != NULL) {
        uint32_t lane = trx_lane_of_event(t, ev, ev->context);
        uint32_t next = trx_lane_of_event(t, ev, ev->next_context);
        trx_report_irqs_step(out, walk, t, ev, &lane, &next);
        if (lane < out->lanes)
            out->used[lane] = 1;
        if (next < out->lanes)
            out->used[next] = 1;
    }
    free(walk);
    return 0;
}

void trx_report_irqs_free(trx_report_irqs *irqs)
{
    free(irqs->used);
    irqs->used = NULL;
    irqs->count = 0;
}

bool trx_report_irqs_lane_used(const trx_report_irqs *irqs, uint32_t l)
{
    return !irqs || !irqs->used || l >= irqs->lanes || irqs->used[l];
}

/* The name of interrupt lane `q`: "Hwi 15 (hwi0_fxn)", "Swi swi0_fxn" (a
 * Swi without a name: its handle), "core 1/..." when per core. */
static void irq_name(const trx_trace *t, const trx_report_irq *q, bool per_core, char *buf,
                     size_t size)
{
    char sym[TRX_SYMBOL_TEXT];
    const char *name = NULL;
    if (q->swi)
        name = trx_swi_name(t, q->key);
    else
        name = trx_elf_isr_name(t->elf, q->key); /* the vector table's handler */
    if (!name && q->function && t->elf)
        name = trx_elf_describe(t->elf, q->function, sym, sizeof sym);
    char core[24] = "";
    if (per_core)
        snprintf(core, sizeof core, "core %u/", q->core);
    if (q->swi && name)
        snprintf(buf, size, "%sSwi %s", core, name);
    else if (q->swi)
        snprintf(buf, size, "%sSwi 0x%x", core, q->key);
    else if (name)
        snprintf(buf, size, "%sHwi %u (%s)", core, q->key, name);
    else
        snprintf(buf, size, "%sHwi %u", core, q->key);
}

void trx_report_irqs_lane_name(const trx_trace *t, const trx_report_irqs *irqs, uint32_t i,
                               char *buf, size_t size)
{
    if (i < irqs->count)
        irq_name(t, &irqs->irq[i], trx_trace_context_cores(t) > 1, buf, size);
    else if (size)
        buf[0] = '\0';
}

void trx_report_irqs_lanes_json(trx_out *w, const trx_trace *t, const trx_report_irqs *irqs)
{
    for (uint32_t i = 0; irqs && i < irqs->count; i++) {
        const trx_report_irq *q = &irqs->irq[i];
        char name[TRX_REPORT_IRQ_NAME];
        trx_report_irqs_lane_name(t, irqs, i, name, sizeof name);
        trx_out_str(w, ",\n{\"name\":");
        trx_out_json_string(w, name);
        trx_out_printf(w, ",\"kind\":\"%s\",\"address\":%u,\"irq\":%u,\"core\":%u,\"used\":true}",
                       q->swi ? "swi" : "isr", q->swi ? q->key : 0u, q->key, q->core);
    }
}
