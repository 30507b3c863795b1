/* sysbios_model.h - SYS/BIOS's scheduler in a UIA capture as the common
 * event model sees it: which task runs on each core (Task.LM_switch), which
 * interrupt (Hwi and Swi LM_begin / LD_end, nested), so that every event
 * gets its context and next context on its own core, and the scheduler's
 * events their kind (resume, suspend, ISR enter ...), as TXTB events have
 * them; the format-neutral analyses then run on it. Events are matched by
 * name (research/sysbios-events.md: the longName's tail), so every build's
 * ids and every CPU family's Hwi module work. Tasks are the threads (their
 * handles), added to the thread table by the prepare pass. */
#ifndef TRX_SYSBIOS_MODEL_H
#define TRX_SYSBIOS_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "trx/trx.h"

#define TRX_SYSBIOS_WORDS 32 /* scheduler events a capture names (each once per module) */
#define TRX_SYSBIOS_NEST 32  /* Hwi / Swi nesting kept per core (deeper: counted only) */

typedef struct sysbios_core {
    uint32_t task;                   /* the running task's handle, 0 = none seen yet */
    uint32_t depth;                  /* Hwi and Swi nesting */
    uint32_t open[TRX_SYSBIOS_NEST]; /* per level: the Hwi's number or the Swi's handle */
} sysbios_core;

typedef struct trx_sysbios_model {
    uint32_t word[TRX_SYSBIOS_WORDS]; /* event << 16 | module */
    uint8_t role[TRX_SYSBIOS_WORDS];  /* what the event is (sysbios_model.c) */
    uint32_t words;
    uint32_t cores;
    sysbios_core *core;
} trx_sysbios_model;

/* Finds the scheduler's events among t's UIA names. 0 (model->words 0 when
 * there are none: events keep the initialization context), or -1 when out
 * of memory. */
int trx_sysbios_init(trx_sysbios_model *m, const trx_trace *t, uint32_t cores);

/* True when t's UIA names name SYS/BIOS's Task, Hwi or Swi events. */
bool trx_sysbios_named(const trx_trace *t);

/* Gives `ev` (its core, id, module and info words set) its kind, subject,
 * context, next context and thread; `prepare`: adds the tasks it names to
 * t's threads (named by the ELF's symbol of their function when the ELF has
 * none at the handle). */
void trx_sysbios_apply(trx_sysbios_model *m, trx_trace *t, trx_event *ev, bool prepare);

void trx_sysbios_free(trx_sysbios_model *m);

#endif
