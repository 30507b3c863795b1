/* elf_names.c - objects without a name take the name of the data object
 * the firmware's ELF has at their address, threads without one the name of
 * their entry function (see trx/elf.h); an AMP capture's per-core tasks
 * "N/name" (their core, the name of their handle or function), and so any
 * task of one core whose name another thread shows too (core_names.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "decode/core_names.h"
#include "decode/object_table.h"
#include "trx/elf.h"

/* The ELF's name for an object at `address`, or NULL. */
const char *trx_elf_object_name(const trx_elf *e, uint32_t address)
{
    const trx_elf_symbol *s = trx_elf_object_at(e, address);
    return s && strlen(s->name) <= TRX_NAME_MAX ? s->name : NULL;
}

/* True when object `i` is an AMP capture's per-core task (its address a
 * context key, no target address). */
static bool is_core_task(const trx_trace *t, uint32_t i)
{
    int32_t th = trx_trace_find_thread(t, t->objects[i].address);
    return th >= 0 && t->threads[th].object_index == i && t->threads[th].core != TRX_UNKNOWN;
}

/* An AMP task `x` (object `o`): "N/" and the ELF's object at its handle,
 * else its function `f`'s symbol (NULL: none); unchanged without either. */
static void name_core_task(trx_trace *t, const trx_thread *x, trx_object *o,
                           const trx_elf_symbol *f)
{
    const char *name = trx_elf_object_name(t->elf, x->handle);
    if (!name && f && f->kind == TRX_ELF_FUNCTION)
        name = f->name;
    if (!name)
        return;
    const char *kept = trx_core_task_name(t, x->core, name);
    if (kept) /* out of memory: the name stays "N/Task 0x..." */
        o->name = kept;
}

void trx_trace_name_from_elf(trx_trace *t)
{
    for (uint32_t i = 0; t->elf && i < t->object_count; i++) {
        trx_object *o = &t->objects[i];
        if ((!o->unnamed && o->name[0]) || is_core_task(t, i))
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
        if (t->threads[i].core != TRX_UNKNOWN)
            name_core_task(t, &t->threads[i], o, f);
        if (!f || f->kind != TRX_ELF_FUNCTION)
            continue;
        if (o->unnamed && t->threads[i].core == TRX_UNKNOWN && strlen(f->name) <= TRX_NAME_MAX &&
            !trx_elf_object_name(t->elf, o->address))
            o->name = f->name;
        if (strstr(f->name, "sysbios_knl_Idle_loop") && !t->threads[i].idle) {
            t->threads[i].idle = true;
            t->idle_threads++;
        }
    }
    /* names now shown more than once (each core's task2_fxn): "N/name" */
    (void)trx_trace_name_cores_apart(t); /* out of memory: the names stay */
}
