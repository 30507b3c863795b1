/* sysbios_model.c - SYS/BIOS's tasks and interrupts per core (see sysbios_model.h). */
#include "decode/sysbios_model.h"

#include <stdlib.h>
#include <string.h>

#include "decode/object_table.h"
#include "trx/uia_names.h"

/* What a scheduler event is (arguments: research/sysbios-events.md). */
enum {
    SB_NONE,
    SB_SWITCH,    /* oldtsk, oldfunc, newtsk, newfunc */
    SB_READY,     /* tsk, func, pri */
    SB_STOP,      /* tsk, func (LD_block, LM_sleep, LD_exit: no longer ready) */
    SB_YIELD,     /* tsk, func, currThread */
    SB_HWI_BEGIN, /* hwi, func, preThread, intNum, irp */
    SB_HWI_END,   /* hwi */
    SB_SWI_BEGIN, /* swi, func, preThread */
    SB_SWI_END,   /* swi */
    SB_POST,      /* swi / sem / event, ... */
    SB_PEND,      /* sem / event, ... */
    SB_SETPRI     /* tsk, func, oldPri, newPri */
};

static const struct {
    const char *tail;
    uint8_t role;
} events[] = {
    {"Task.LM_switch", SB_SWITCH},  {"Task.LD_ready", SB_READY}, {"Task.LD_block", SB_STOP},
    {"Task.LM_sleep", SB_STOP},     {"Task.LD_exit", SB_STOP},   {"Task.LM_yield", SB_YIELD},
    {"Hwi.LM_begin", SB_HWI_BEGIN}, {"Hwi.LD_end", SB_HWI_END},  {"Swi.LM_begin", SB_SWI_BEGIN},
    {"Swi.LD_end", SB_SWI_END},     {"Swi.LM_post", SB_POST},    {"Semaphore.LM_post", SB_POST},
    {"Semaphore.LM_pend", SB_PEND}, {"Event.LM_post", SB_POST},  {"Event.LM_pend", SB_PEND},
    {"Task.LM_setPri", SB_SETPRI},
};

/* The role of UIA event name `n`, SB_NONE for none. */
static uint8_t role_of(const trx_uia_name *n)
{
    for (size_t k = 0; k < sizeof events / sizeof events[0]; k++)
        if (trx_uia_name_is(n, events[k].tail))
            return events[k].role;
    return SB_NONE;
}

bool trx_sysbios_named(const trx_uia_names *n)
{
    for (uint32_t i = 0; n && i < n->event_count; i++) {
        uint8_t r = role_of(&n->events[i]);
        if (r == SB_SWITCH || r == SB_HWI_BEGIN || r == SB_SWI_BEGIN)
            return true;
    }
    return false;
}

/* The role of event word `word`: one hash probe, mostly. */
static uint8_t role_of_word(const trx_sysbios_model *m, uint32_t word)
{
    for (uint32_t k = trx_sysbios_slot(word);; k = (k + 1) & (TRX_SYSBIOS_SLOTS - 1)) {
        if (m->role[k] == SB_NONE)
            return SB_NONE;
        if (m->word[k] == word)
            return m->role[k];
    }
}

int trx_sysbios_init(trx_sysbios_model *m, const trx_uia_names *n, uint32_t cores,
                     const trx_pair_map *amp)
{
    memset(m, 0, sizeof *m);
    m->amp = amp;
    if (!trx_sysbios_named(n))
        return 0;
    for (uint32_t i = 0; i < n->event_count && m->words < TRX_SYSBIOS_SLOTS / 2; i++) {
        uint8_t r = role_of(&n->events[i]);
        uint32_t word = n->events[i].event << 16 | (n->events[i].module & 0xFFFFu);
        if (r == SB_NONE || role_of_word(m, word) != SB_NONE)
            continue;
        uint32_t k = trx_sysbios_slot(word);
        while (m->role[k] != SB_NONE)
            k = (k + 1) & (TRX_SYSBIOS_SLOTS - 1);
        m->word[k] = word;
        m->role[k] = r;
        m->words++;
        if (r == SB_SWITCH || r == SB_READY || r == SB_STOP || r == SB_YIELD || r == SB_SETPRI)
            m->task_slots |= (uint64_t)1 << trx_sysbios_slot(word); /* note_tasks' roles */
    }
    m->cores = cores;
    if (cores && !(m->core = calloc(cores, sizeof *m->core))) {
        m->words = 0;
        return -1;
    }
    for (uint32_t c = 0; c < cores; c++) {
        m->core[c].thread = -1;
        m->core[c].context = TRX_CONTEXT_INIT;
        m->core[c].ev_thread = -1;
    }
    return 0;
}

int trx_sysbios_note_tasks(const trx_sysbios_model *m, trx_sysbios_tasks *k, uint32_t stream,
                           uint32_t word, const uint32_t *args, uint32_t n)
{
    switch (role_of_word(m, word)) {
    case SB_SWITCH: /* oldtsk, oldfunc, newtsk, newfunc */
        if (n >= 4 && (trx_sysbios_tasks_note(k, stream, args[0], args[1], NULL, 0) < 0 ||
                       trx_sysbios_tasks_note(k, stream, args[2], args[3], NULL, 0) < 0))
            return -1;
        if (n >= 4)
            trx_sysbios_tasks_ran(k, stream, args[2]);
        return 0;
    case SB_READY: /* tsk, func, pri */
        return n >= 3 ? trx_sysbios_tasks_note(k, stream, args[0], args[1], args + 2, 1) : 0;
    case SB_SETPRI: /* tsk, func, oldPri, newPri */
        return n >= 4 ? trx_sysbios_tasks_note(k, stream, args[0], args[1], args + 2, 2) : 0;
    case SB_STOP:
    case SB_YIELD: /* tsk, func, ... */
        return n >= 2 ? trx_sysbios_tasks_note(k, stream, args[0], args[1], NULL, 0) : 0;
    default:
        return 0;
    }
}

bool trx_sysbios_switch_to(const trx_sysbios_model *m, uint32_t word, const uint32_t *args,
                           uint32_t n, uint32_t *next)
{
    if (n < 4 || role_of_word(m, word) != SB_SWITCH)
        return false;
    *next = args[2];
    return true;
}

/* The context of task `handle` on core `core`: the handle, or on an AMP
 * capture the key of that core's task (the handle when it is none). */
static uint32_t task_context(const trx_sysbios_model *m, const trx_trace *t, uint32_t core,
                             uint32_t handle)
{
    uint32_t th;
    if (!m->amp || !trx_pair_map_get(m->amp, core, handle, &th))
        return handle;
    return t->threads[th].address;
}

/* What core `c` runs outside its interrupts: its task, or initialization. */
static uint32_t running(const sysbios_core *c)
{
    return c->depth  ? TRX_CONTEXT_ISR
           : c->idle ? TRX_CONTEXT_IDLE
           : c->task ? c->task
                     : TRX_CONTEXT_INIT;
}

/* Sets what `c`'s next events get after its state changed: the context it
 * runs and the thread (none in an interrupt, before a task, or for the idle task). */
static void settle(sysbios_core *c)
{
    uint32_t ctx = running(c);
    c->context = ctx;
    c->ev_thread = ctx == TRX_CONTEXT_ISR || ctx == TRX_CONTEXT_INIT || ctx == TRX_CONTEXT_IDLE ? -1
                   : c->depth                                                                   ? -1
                              : c->thread;
}

/* Opens an interrupt level on `c` for `subject`. */
static void open_level(sysbios_core *c, uint32_t subject)
{
    if (c->depth < TRX_SYSBIOS_NEST)
        c->open[c->depth] = subject;
    c->depth++;
}

/* Closes the innermost level of `c`: its subject (`fallback` when the begin
 * was not kept, or there was none). */
static uint32_t close_level(sysbios_core *c, uint32_t fallback)
{
    if (c->depth == 0)
        return fallback;
    c->depth--;
    return c->depth < TRX_SYSBIOS_NEST ? c->open[c->depth] : fallback;
}

void trx_sysbios_apply(trx_sysbios_model *m, const trx_trace *t, trx_event *ev)
{
    uint32_t core = ev->core < m->cores ? ev->core : 0;
    sysbios_core *c = &m->core[core];
    uint8_t role = role_of_word(m, ev->id << 16 | ev->module);
    ev->context = c->context;
    ev->thread = c->ev_thread;
    ev->flags |= TRX_EV_CONTEXT;
    if (role == SB_NONE) { /* most events: the core runs on */
        ev->next_context = c->context;
        return;
    }
    if (m->amp && role >= SB_SWITCH && role <= SB_YIELD) /* tasks: that core's */
        ev->subject = task_context(m, t, core, ev->info[role == SB_SWITCH ? 2 : 0]);
    switch (role) {
    case SB_SWITCH: /* oldtsk, oldfunc, newtsk, newfunc */
        ev->kind = TRX_KIND_SWITCH;
        if (!m->amp)
            ev->subject = ev->info[2];
        c->task = ev->subject;
        c->thread = c->task ? trx_thread_for_context(t, c->task) : -1;
        c->idle = c->thread >= 0 && t->threads[c->thread].idle;
        if (c->idle)
            c->thread = -1;
        c->depth = 0; /* the scheduler runs with every interrupt over */
        break;
    case SB_READY:
        ev->kind = TRX_KIND_RESUME;
        if (!m->amp)
            ev->subject = ev->info[0];
        break;
    case SB_STOP:
        ev->kind = TRX_KIND_SUSPEND;
        if (!m->amp)
            ev->subject = ev->info[0];
        break;
    case SB_YIELD:
        ev->kind = TRX_KIND_YIELD;
        if (!m->amp)
            ev->subject = ev->info[0];
        break;
    case SB_HWI_BEGIN:
        ev->kind = TRX_KIND_ISR_ENTER;
        ev->subject = ev->info[3]; /* intNum */
        open_level(c, ev->subject);
        break;
    case SB_HWI_END:
        ev->kind = TRX_KIND_ISR_EXIT;
        ev->subject = close_level(c, 0);
        break;
    case SB_SWI_BEGIN:
        ev->kind = TRX_KIND_SWI_BEGIN;
        ev->subject = ev->info[0];
        open_level(c, ev->subject);
        break;
    case SB_SWI_END:
        ev->kind = TRX_KIND_SWI_END;
        ev->subject = close_level(c, ev->info[0]);
        break;
    case SB_POST:
        ev->kind = TRX_KIND_POST;
        ev->subject = ev->info[0];
        break;
    case SB_PEND:
        ev->kind = TRX_KIND_PEND;
        ev->subject = ev->info[0];
        break;
    default:
        break;
    }
    settle(c);
    ev->next_context = c->context;
}

int trx_sysbios_copy(trx_sysbios_model *dst, const trx_sysbios_model *src)
{
    *dst = *src;
    dst->core = NULL;
    if (!src->cores || !src->core)
        return 0;
    if (!(dst->core = malloc((size_t)src->cores * sizeof *dst->core))) {
        dst->cores = 0;
        return -1;
    }
    memcpy(dst->core, src->core, (size_t)src->cores * sizeof *dst->core);
    return 0;
}

void trx_sysbios_free(trx_sysbios_model *m)
{
    free(m->core);
    memset(m, 0, sizeof *m);
}
