/* elf_match.c - is the ELF given with --elf the firmware that wrote the
 * trace? (see trx/elf.h) A TXTB buffer and its registered objects live in
 * the firmware's RAM: the buffer's address and the objects' addresses must
 * fall in the ELF's writable sections. A UIA capture's SYS/BIOS tasks are
 * objects in RAM whose entry functions start where the ELF's functions
 * start. Names from another build mislead. */
#include <stdio.h>

#include "trx/elf.h"

/* 90 % or more of `n`: the few that miss are the trace's noise, not another build. */
static bool most(uint32_t k, uint32_t n)
{
    return k * 10 >= n * 9;
}

/* UIA: the tasks (threads with an entry function) against the ELF. */
static void check_tasks(const trx_trace *t, const trx_elf *e, trx_elf_match *m)
{
    uint32_t tasks = 0, in_ram = 0, at_start = 0;
    for (uint32_t i = 0; i < t->thread_count; i++) {
        const trx_thread *x = &t->threads[i];
        if (!x->entry)
            continue;
        tasks++;
        in_ram += trx_elf_in_ram(e, x->handle);
        const trx_elf_symbol *f = trx_elf_at(e, x->entry);
        at_start += f && f->kind == TRX_ELF_FUNCTION;
    }
    if (tasks == 0) {
        snprintf(m->reason, sizeof m->reason,
                 "a UIA trace without SYS/BIOS tasks: nothing in it says where it was in RAM");
    } else if (!most(in_ram, tasks)) {
        m->verdict = TRX_ELF_MISMATCH;
        snprintf(m->reason, sizeof m->reason,
                 "%u of the %u tasks' handles lie outside the ELF's RAM sections", tasks - in_ram,
                 tasks);
    } else if (!most(at_start, tasks)) {
        m->verdict = TRX_ELF_MISMATCH;
        snprintf(m->reason, sizeof m->reason,
                 "%u of the %u tasks' functions are no function start in the ELF", tasks - at_start,
                 tasks);
    } else {
        m->verdict = TRX_ELF_MATCH;
        snprintf(m->reason, sizeof m->reason,
                 "%u of %u task handles are in its RAM and %u of %u task functions start there",
                 in_ram, tasks, at_start, tasks);
    }
}

void trx_elf_check(const trx_trace *t, trx_elf_match *m)
{
    const trx_elf *e = t->elf;
    m->verdict = TRX_ELF_UNKNOWN;
    m->reason[0] = '\0';
    if (!e) {
        snprintf(m->reason, sizeof m->reason, "no ELF given");
        return;
    }
    bool any_ram = false;
    for (uint32_t i = 0; i < e->section_count; i++)
        any_ram |= e->sections[i].writable;
    if (!any_ram) {
        snprintf(m->reason, sizeof m->reason, "the ELF has no writable sections");
        return;
    }
    if (t->format != TRX_TRACE_TXTB) {
        check_tasks(t, e, m);
        return;
    }
    uint32_t base = t->header.base_address, in = 0, objects = 0;
    for (uint32_t i = 0; i < t->object_count; i++) {
        const trx_object *o = &t->objects[i];
        if (o->unnamed || o->address == 0)
            continue;
        objects++;
        in += trx_elf_in_ram(e, o->address);
    }
    char where[120];
    const char *sym = trx_elf_describe(e, base, where, sizeof where);
    if (!trx_elf_in_ram(e, base)) {
        m->verdict = TRX_ELF_MISMATCH;
        snprintf(m->reason, sizeof m->reason,
                 "the trace buffer at 0x%08X is outside the ELF's RAM sections", base);
    } else if (objects && !most(in, objects)) {
        m->verdict = TRX_ELF_MISMATCH;
        snprintf(m->reason, sizeof m->reason,
                 "%u of the %u registered objects lie outside the ELF's RAM sections", objects - in,
                 objects);
    } else {
        m->verdict = TRX_ELF_MATCH;
        snprintf(m->reason, sizeof m->reason,
                 "the trace buffer at 0x%08X (%s) and %u of %u registered objects are in its RAM",
                 base, sym ? sym : "no symbol", in, objects);
    }
}
