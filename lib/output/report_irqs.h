/*
 * report_irqs.h - the report's interrupt lanes of a SYS/BIOS (UIA) trace: a
 * lane per Hwi (by interrupt number) and per Swi (by handle), per core when
 * several cores carry contexts of their own, after the timeline's lanes
 * (trx_lane_count), and which of the timeline's own lanes anything runs on
 * (so that the page shows no empty lane). Found by one pass over the trace
 * (report_irqs.c); the report's encoder then puts each interrupt-context
 * event on the lane of the Hwi / Swi running on its core.
 */
#ifndef TRX_REPORT_IRQS_H
#define TRX_REPORT_IRQS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output/out_buffer.h"
#include "trx/trx.h"

struct trx_target_load;

#define REPORT_IRQ_LANES 256u /* interrupt lanes at most (more share the Interrupt lane) */
#define REPORT_IRQ_NEST 16u   /* nesting followed per core */
#define REPORT_IRQ_CORES 256u /* cores followed (core numbers are 8 bits) */

/* One interrupt lane: a Hwi number or a Swi handle (on `core`). */
typedef struct trx_report_irq {
    bool swi;
    uint32_t core;     /* 0 unless several cores carry contexts */
    uint32_t key;      /* Hwi: interrupt number; Swi: handle */
    uint32_t function; /* its function (the first BEGIN's func word), 0 if none */
} trx_report_irq;

/* The interrupt lanes of a trace (sorted: Hwis by core and number, then
 * Swis by core and handle) and which timeline lanes are used. */
typedef struct trx_report_irqs {
    uint32_t base; /* lane number of irq[0]: trx_lane_count(t) */
    uint32_t count;
    trx_report_irq irq[REPORT_IRQ_LANES];
    uint32_t lanes; /* trx_lane_count(t) */
    uint8_t *used;  /* per timeline lane: an event or a run lies on it */
} trx_report_irqs;

/* Which interrupt runs on each core while the events are walked. */
typedef struct trx_report_irq_walk {
    uint8_t depth[REPORT_IRQ_CORES];
    uint16_t stack[REPORT_IRQ_CORES][REPORT_IRQ_NEST]; /* lane - base, UINT16_MAX: none */
} trx_report_irq_walk;

/* Finds the interrupt lanes of `t` (prepared) with one pass over its events,
 * feeding `load` (the target's Load reports; NULL: none). Only UIA traces
 * whose events name Hwis or Swis get them: otherwise *out stays empty (count
 * 0, used NULL) and 0 is returned without a pass. 0, or -1 when out of memory. */
int trx_report_irqs_find(trx_trace *t, trx_report_irqs *out, struct trx_target_load *load);

void trx_report_irqs_free(trx_report_irqs *irqs);

/* True when timeline lane `l` is used (always when no pass was made). */
bool trx_report_irqs_lane_used(const trx_report_irqs *irqs, uint32_t l);

/* Steps `walk` over `ev`; *lane (of ev->context) and *next (of
 * ev->next_context), the timeline's lanes on entry, become the lanes of the
 * interrupt running on ev's core before and after it where they are
 * interrupt lanes. */
void trx_report_irqs_step(const trx_report_irqs *irqs, trx_report_irq_walk *walk,
                          const trx_trace *t, const trx_event *ev, uint32_t *lane, uint32_t *next);

/* Room for an interrupt lane's name. */
#define TRX_REPORT_IRQ_NAME 224 /* TRX_SYMBOL_TEXT + 64 */

/* The name of interrupt lane `i` (lane irqs->base + i) into buf: "Hwi 15
 * (hwi0_fxn)", "Swi swi0_fxn" ("Swi 0x2000a000" unnamed), "core 1/..." when
 * per core; empty when there is no such lane. */
void trx_report_irqs_lane_name(const trx_trace *t, const trx_report_irqs *irqs, uint32_t i,
                               char *buf, size_t size);

/* The lane entries of the interrupt lanes for #trx-meta's "lanes" (each
 * preceded by a comma): name ("Hwi 15 (hwi0_fxn)", "Swi swi0_fxn" or "Swi
 * 0x2000a000" unnamed, "core 1/Hwi 15 ..." when per core), kind "isr" or
 * "swi", "irq" (number or handle), "core". */
void trx_report_irqs_lanes_json(trx_out *w, const trx_trace *t, const trx_report_irqs *irqs);

#endif
