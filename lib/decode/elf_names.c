/* elf_names.c - objects without a name take the name of the data object
 * the firmware's ELF has at their address, threads without one the name of
 * their entry function (see trx/elf.h). */
#include <string.h>

#include "trx/elf.h"

/* The ELF's name for an object at `address`, or NULL. */
const char *trx_elf_object_name(const trx_elf *e, uint32_t address)
{
    const trx_elf_symbol *s = trx_elf_object_at(e, address);
    return s && strlen(s->name) <= TRX_NAME_MAX ? s->name : NULL;
}

void trx_trace_name_from_elf(trx_trace *t)
{
    for (uint32_t i = 0; t->elf && i < t->object_count; i++) {
        trx_object *o = &t->objects[i];
        if (!o->unnamed && o->name[0])
            continue;
        const char *name = trx_elf_object_name(t->elf, o->address);
        if (name)
            o->name = name;
    }
    /* threads still without one: the symbol of their entry function; the
     * one running SYS/BIOS's Idle loop is the idle task (its time is idle) */
    for (uint32_t i = 0; t->elf && i < t->thread_count; i++) {
        trx_object *o = &t->objects[t->threads[i].object_index];
        const trx_elf_symbol *f =
            t->threads[i].entry ? trx_elf_at(t->elf, t->threads[i].entry) : NULL;
        if (!f || f->kind != TRX_ELF_FUNCTION)
            continue;
        if (o->unnamed && strlen(f->name) <= TRX_NAME_MAX &&
            !trx_elf_object_name(t->elf, o->address))
            o->name = f->name;
        if (strstr(f->name, "sysbios_knl_Idle_loop") && !t->threads[i].idle) {
            t->threads[i].idle = true;
            t->idle_threads++;
        }
    }
}
