/* events_names.c - names, field captions and context words for the event listings. */
#include "output/events_names.h"

#include <string.h>

#include "catalog/vocabulary.h"
#include "trx/elf.h"

/* The RTOS vocabulary's row for `id` (FreeRTOS's names). */
static const trx_vocabulary_row *vocabulary_row(uint32_t id, const trx_custom_events *ce)
{
    return ce && ce->rtos == TRX_RTOS_FREERTOS ? trx_vocabulary_freertos_find(id) : NULL;
}

/* Names come from the user's definitions (--custom: a description or a
 * .trxc), then the RTOS's vocabulary, then the catalogue. */
const char *trx_event_name(uint32_t id, const trx_custom_events *ce)
{
    const trx_custom_event *c = trx_custom_events_find(ce, id);
    if (c)
        return c->name;
    const trx_vocabulary_row *v = vocabulary_row(id, ce);
    if (v)
        return v->name;
    const trx_event_type *e = trx_catalog_find(id);
    if (e) {
        if (e->name[0] && strcmp(e->name, "INVALID") != 0)
            return e->name;
        return e->gui_name[0] ? e->gui_name : e->symbol;
    }
    return id >= TRX_USER_EVENT_START ? "User Event" : "Unknown Event";
}

/* The definition of `id` (the user's, else the RTOS vocabulary's, else the
 * catalogue's): its captions, field types and roles; false when none. */
static bool definition(uint32_t id, const trx_custom_events *ce, const char *labels[4],
                       uint8_t types[4], uint8_t roles[4])
{
    const trx_custom_event *c = trx_custom_events_find(ce, id);
    const trx_vocabulary_row *v = c ? NULL : vocabulary_row(id, ce);
    const trx_event_type *e = c || v ? NULL : trx_catalog_find(id);
    for (int k = 0; k < 4; k++) {
        labels[k] = c ? c->label[k] : v ? v->label[k] : e ? e->label[k] : "";
        types[k] = c ? c->type[k] : v ? v->type[k] : e ? e->type[k] : TRX_FIELD_U32;
        roles[k] = c ? c->role[k] : v ? v->role[k] : e ? e->role[k] : TRX_ROLE_NONE;
    }
    return c || v || e;
}

void trx_event_labels(uint32_t id, const trx_custom_events *ce, const char *labels[4])
{
    uint8_t types[4], roles[4];
    definition(id, ce, labels, types, roles);
}

void trx_event_field_types(uint32_t id, const trx_custom_events *ce, uint8_t types[4])
{
    const char *labels[4];
    uint8_t roles[4];
    definition(id, ce, labels, types, roles);
}

int trx_event_info_symbols(const trx_trace *t, const trx_event *ev, const trx_custom_events *ce,
                           char buf[4][TRX_SYMBOL_TEXT], const char *symbol[4])
{
    const char *labels[4];
    uint8_t types[4], roles[4];
    bool described = t->format == TRX_TRACE_TXTB && definition(ev->id, ce, labels, types, roles);
    int n = 0;
    for (int k = 0; k < 4; k++) {
        uint32_t v = ev->info[k], r = roles[k];
        bool address;
        if (described) /* its role says whether it holds an address */
            address = r == TRX_ROLE_THREAD || r == TRX_ROLE_OBJECT || r == TRX_ROLE_ADDRESS ||
                      r == TRX_ROLE_STACK || r == TRX_ROLE_STRING;
        else /* no description: only a value that is a symbol's own address */
            address = trx_elf_at(t->elf, v) != NULL;
        symbol[k] =
            t->elf && v && address ? trx_elf_describe(t->elf, v, buf[k], TRX_SYMBOL_TEXT) : NULL;
        n += symbol[k] != NULL;
    }
    return n;
}

const char *trx_event_context_word(const trx_event *ev)
{
    switch (trx_context_kind_of(ev->context)) {
    case TRX_CTX_ISR:
        return "isr";
    case TRX_CTX_INIT:
        return "init";
    case TRX_CTX_IDLE:
        return "idle";
    default:
        return "thread";
    }
}

const char *trx_event_thread_name(const trx_trace *t, const trx_event *ev)
{
    if (ev->thread >= 0 && (uint32_t)ev->thread < t->thread_count)
        return t->objects[t->threads[ev->thread].object_index].name;
    const char *name = trx_context_name(t, ev->context);
    return name ? name : "Un-named Thread";
}

const char *trx_swi_name(const trx_trace *t, uint32_t handle)
{
    const char *name = trx_context_name(t, handle);
    return name ? name : trx_elf_object_name(t->elf, handle);
}
