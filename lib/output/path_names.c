/* path_names.c - what `trx why` calls the contexts, locks and holders of a
 * critical path (registry names, --elf symbols for what the registry does
 * not name, else numbers). */
#include <inttypes.h>
#include <stdio.h>

#include "output/events_names.h"
#include "output/path_output.h"
#include "trx/elf.h"

void trx_path_context_name(const trx_trace *t, uint32_t context, uint32_t isr, bool swi, char *buf,
                           size_t size)
{
    if (context == TRX_CONTEXT_ISR) {
        const char *name = NULL;
        if (isr == TRX_UNKNOWN)
            name = "Interrupt";
        else if (swi)
            name = trx_swi_name(t, isr);
        else
            name = trx_elf_isr_name(t->elf, isr);
        if (name)
            snprintf(buf, size, "%s", name);
        else if (swi)
            snprintf(buf, size, "Swi 0x%08" PRIx32, isr);
        else
            snprintf(buf, size, "%s %" PRIu32, trx_interrupt_word(t), isr);
        return;
    }
    if (context == TRX_CONTEXT_INIT) {
        snprintf(buf, size, "Initialization");
        return;
    }
    if (context == TRX_CONTEXT_IDLE) {
        snprintf(buf, size, "%s", trx_idle_name(t));
        return;
    }
    int32_t th = trx_trace_first_thread_at(t, context);
    const trx_object *obj = th >= 0 ? &t->objects[t->threads[th].object_index] : NULL;
    const char *name = obj && obj->unnamed ? trx_elf_object_name(t->elf, context) : NULL;
    if (!name && obj)
        name = obj->name; /* as trx latency names it ("Task 0x20001100", "Un-named Thread") */
    if (name)
        snprintf(buf, size, "%s", name);
    else
        snprintf(buf, size, "0x%08" PRIx32, context);
}

void trx_path_object_name(const trx_trace *t, uint32_t address, char *buf, size_t size)
{
    int32_t k = trx_trace_find_object(t, address);
    const char *name = k >= 0 && !t->objects[k].unnamed ? t->objects[k].name : NULL;
    if (!name || !name[0])
        name = trx_elf_object_name(t->elf, address);
    if (name && name[0])
        snprintf(buf, size, "%s", name);
    else
        snprintf(buf, size, "0x%08" PRIx32, address);
}
