/* sysbios_model.h - SYS/BIOS's scheduler in a UIA capture as the common
 * event model sees it: which task runs on each core (Task.LM_switch), which
 * interrupt (Hwi and Swi LM_begin / LD_end, nested), so that every event
 * gets its context and next context on its own core, and the scheduler's
 * events their kind (resume, suspend, ISR enter ...), as TXTB events have
 * them; the format-neutral analyses then run on it. Events are matched by
 * name (research/sysbios-events.md: the longName's tail), so every build's
 * ids and every CPU family's Hwi module work. Tasks are the threads (their
 * handles, or per (core, handle) on an AMP capture: sysbios_tasks.h),
 * added to the thread table by the open pass; the Idle task's time is idle
 * time (trx_thread.idle, from the ELF). */
#ifndef TRX_SYSBIOS_MODEL_H
#define TRX_SYSBIOS_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "decode/sysbios_tasks.h"
#include "trx/trx.h"
#include "trx/uia_names.h"

#define TRX_SYSBIOS_SLOTS 64 /* hash slots for the scheduler's event words (at most 32 used) */
#define TRX_SYSBIOS_NEST 32  /* Hwi / Swi nesting kept per core (deeper: counted only) */

typedef struct sysbios_core {
    uint32_t task;  /* the running task's handle, 0 = none seen yet */
    int32_t thread; /* its thread index, -1 for none */
    bool idle;      /* the task is the idle task (trx_thread.idle): its time is idle */
    uint32_t depth; /* Hwi and Swi nesting */
    uint32_t open[TRX_SYSBIOS_NEST]; /* per level: the Hwi's number or the Swi's handle */
    uint32_t context;  /* what the core runs now (kept with the above): its events' context */
    int32_t ev_thread; /* and their thread: -1 in an interrupt, the idle task or before a task */
} sysbios_core;

typedef struct trx_sysbios_model {
    uint32_t word[TRX_SYSBIOS_SLOTS]; /* event << 16 | module, by hash */
    uint8_t role[TRX_SYSBIOS_SLOTS];  /* what the event is (sysbios_model.c); 0: empty slot */
    uint64_t task_slots; /* bit per slot of a word whose records name tasks: a filter */
    uint32_t words;
    uint32_t cores;
    sysbios_core *core;
    const trx_pair_map *amp; /* AMP: (core, handle) -> thread; NULL: one instance */
} trx_sysbios_model;

/* The hash slot of event word `word` (event << 16 | module): 0..63. */
static inline uint32_t trx_sysbios_slot(uint32_t word)
{
    return (word * 2654435761u) >> 26;
}

/* False when records of event word `word` name no task that
 * trx_sysbios_note_tasks would note: one bit test, for the open's hot path
 * (true: maybe; note_tasks looks the word up). */
static inline bool trx_sysbios_may_note(const trx_sysbios_model *m, uint32_t word)
{
    return (m->task_slots >> trx_sysbios_slot(word)) & 1u;
}

/* Finds the scheduler's events among `names` (NULL: none); `cores`: the
 * per-core state to keep (0: none, for the open pass); `amp`: the AMP
 * capture's (core, handle) -> thread map (NULL: tasks are per handle). 0
 * (model->words 0 when there are none: events keep the initialization
 * context), or -1 when out of memory. */
int trx_sysbios_init(trx_sysbios_model *m, const struct trx_uia_names *names, uint32_t cores,
                     const trx_pair_map *amp);

/* dst becomes a copy of src (its own per-core state); 0, or -1 when out of
 * memory (dst then has none: free it with trx_sysbios_free). */
int trx_sysbios_copy(trx_sysbios_model *dst, const trx_sysbios_model *src);

/* True when `names` name SYS/BIOS's Task, Hwi or Swi events. */
bool trx_sysbios_named(const struct trx_uia_names *names);

/* The open pass: the tasks record `word` of stream `stream` with `n`
 * arguments `args` names are noted in `k` (their function, for names from
 * the ELF, and priorities). 0, or -1 when out of memory. */
int trx_sysbios_note_tasks(const trx_sysbios_model *m, trx_sysbios_tasks *k, uint32_t stream,
                           uint32_t word, const uint32_t *args, uint32_t n);

/* The task handle of an LM_switch record `word` with `n` arguments `args`
 * switches to (its newtsk); false when the record is no LM_switch. */
bool trx_sysbios_switch_to(const trx_sysbios_model *m, uint32_t word, const uint32_t *args,
                           uint32_t n, uint32_t *next);

/* Gives `ev` (its core, id, module and info words set) its kind, subject,
 * context, next context and thread (the tasks are threads since the open
 * pass). */
void trx_sysbios_apply(trx_sysbios_model *m, const trx_trace *t, trx_event *ev);

void trx_sysbios_free(trx_sysbios_model *m);

#endif
