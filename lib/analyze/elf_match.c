/* elf_match.c - is the ELF given with --elf the firmware that wrote the
 * trace? (see trx/elf.h) A TXTB buffer and its registered objects live in
 * the firmware's RAM: the buffer's address and the objects' addresses must
 * fall in the ELF's writable sections. Names from another build mislead. */
#include <stdio.h>

#include "trx/elf.h"

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
    if (t->format != TRX_TRACE_TXTB || !any_ram) {
        snprintf(m->reason, sizeof m->reason, "%s",
                 any_ram ? "a UIA trace: nothing in it says where it was in RAM"
                         : "the ELF has no writable sections");
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
    } else if (objects && in * 10 < objects * 9) {
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
