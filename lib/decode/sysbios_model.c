/* sysbios_model.c - SYS/BIOS's tasks and interrupts per core (see sysbios_model.h). */
#include "decode/sysbios_model.h"

#include <stdlib.h>
#include <string.h>

#include "decode/object_table.h"
#include "trx/elf.h"
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
    SB_PEND       /* sem / event, ... */
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
};

/* The role of UIA event name `n`, SB_NONE for none. */
static uint8_t role_of(const trx_uia_name *n)
{
    for (size_t k = 0; k < sizeof events / sizeof events[0]; k++)
        if (trx_uia_name_is(n, events[k].tail))
            return events[k].role;
    return SB_NONE;
}

bool trx_sysbios_named(const trx_trace *t)
{
    const trx_uia_names *n = t->uia_names;
    for (uint32_t i = 0; n && i < n->event_count; i++) {
        uint8_t r = role_of(&n->events[i]);
        if (r == SB_SWITCH || r == SB_HWI_BEGIN || r == SB_SWI_BEGIN)
            return true;
    }
    return false;
}

int trx_sysbios_init(trx_sysbios_model *m, const trx_trace *t, uint32_t cores)
{
    memset(m, 0, sizeof *m);
    if (!trx_sysbios_named(t))
        return 0;
    const trx_uia_names *n = t->uia_names;
    for (uint32_t i = 0; i < n->event_count && m->words < TRX_SYSBIOS_WORDS; i++) {
        uint8_t r = role_of(&n->events[i]);
        if (r == SB_NONE)
            continue;
        m->word[m->words] = n->events[i].event << 16 | (n->events[i].module & 0xFFFFu);
        m->role[m->words++] = r;
    }
    m->cores = cores ? cores : 1;
    m->core = calloc(m->cores, sizeof *m->core);
    if (!m->core) {
        m->words = 0;
        return -1;
    }
    return 0;
}

/* Task `handle`'s thread: added in the prepare pass (named by the ELF's
 * symbol of `function` when the ELF names nothing at the handle), looked up
 * after. -1 for none. */
static int32_t task_thread(trx_trace *t, uint32_t handle, uint32_t function, bool prepare)
{
    if (handle == 0 || handle == TRX_CONTEXT_ISR || handle == TRX_CONTEXT_INIT ||
        handle == TRX_CONTEXT_IDLE)
        return -1;
    if (!prepare)
        return trx_thread_for_context(t, handle);
    bool added;
    int32_t th = trx_objects_thread_or_unnamed(t, handle, TRX_UNKNOWN, &added);
    trx_object *o = th >= 0 ? &t->objects[t->threads[th].object_index] : NULL;
    if (!o || !o->unnamed || (t->elf && trx_elf_object_name(t->elf, handle)))
        return th; /* named by the ELF's object at the handle */
    const trx_elf_symbol *f = t->elf && function ? trx_elf_at(t->elf, function) : NULL;
    if (f && f->kind == TRX_ELF_FUNCTION && strlen(f->name) <= TRX_NAME_MAX)
        o->name = f->name; /* its function's symbol */
    else if (added)
        o->name = trx_objects_made_name(t, "Task", handle); /* its address */
    if (!o->name)
        o->name = "Un-named Thread"; /* out of memory for the name */
    return th;
}

/* What core `c` runs outside its interrupts: its task, or initialization. */
static uint32_t running(const sysbios_core *c)
{
    return c->depth ? TRX_CONTEXT_ISR : c->task ? c->task : TRX_CONTEXT_INIT;
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

void trx_sysbios_apply(trx_sysbios_model *m, trx_trace *t, trx_event *ev, bool prepare)
{
    uint32_t word = ev->id << 16 | ev->module;
    sysbios_core *c = &m->core[ev->core < m->cores ? ev->core : 0];
    uint8_t role = SB_NONE;
    for (uint32_t i = 0; i < m->words; i++)
        if (m->word[i] == word) {
            role = m->role[i];
            break;
        }
    uint32_t ctx = running(c);
    switch (role) {
    case SB_SWITCH:
        task_thread(t, ev->info[0], ev->info[1], prepare);
        task_thread(t, ev->info[2], ev->info[3], prepare);
        ev->kind = TRX_KIND_SWITCH;
        ev->subject = ev->info[2];
        c->task = ev->info[2];
        c->depth = 0; /* the scheduler runs with every interrupt over */
        break;
    case SB_READY:
    case SB_STOP:
    case SB_YIELD:
        task_thread(t, ev->info[0], ev->info[1], prepare);
        ev->kind = role == SB_READY  ? TRX_KIND_RESUME
                   : role == SB_STOP ? TRX_KIND_SUSPEND
                                     : TRX_KIND_YIELD;
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
    case SB_PEND:
        ev->kind = role == SB_POST ? TRX_KIND_POST : TRX_KIND_PEND;
        ev->subject = ev->info[0];
        break;
    default:
        break;
    }
    ev->context = ctx;
    ev->next_context = running(c);
    ev->thread =
        ctx == TRX_CONTEXT_ISR || ctx == TRX_CONTEXT_INIT ? -1 : task_thread(t, ctx, 0, false);
    ev->flags |= TRX_EV_CONTEXT;
}

void trx_sysbios_free(trx_sysbios_model *m)
{
    free(m->core);
    memset(m, 0, sizeof *m);
}
