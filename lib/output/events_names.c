/* events_names.c - names, field captions and context words for the event listings. */
#include "output/events_names.h"

#include <string.h>

const char *trx_event_name(uint32_t id, const trx_custom_events *ce)
{
    const trx_event_type *e = trx_catalog_find(id);
    if (e) {
        if (e->name[0] && strcmp(e->name, "INVALID") != 0)
            return e->name;
        return e->gui_name[0] ? e->gui_name : e->symbol;
    }
    const trx_custom_event *c = trx_custom_events_find(ce, id);
    if (c)
        return c->name;
    return id >= TRX_USER_EVENT_START ? "User Event" : "Unknown Event";
}

void trx_event_labels(uint32_t id, const trx_custom_events *ce, const char *labels[4])
{
    const trx_event_type *e = trx_catalog_find(id);
    const trx_custom_event *c = e ? NULL : trx_custom_events_find(ce, id);
    for (int k = 0; k < 4; k++)
        labels[k] = e ? e->label[k] : c ? c->label[k] : "";
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
