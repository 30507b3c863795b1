/* export_args.c - an event's labelled fields and the objects they name (see export_args.h). */
#include "catalog/vocabulary.h"
#include "output/export_args.h"

#include <string.h>

#include "output/events_names.h"
#include "output/uia_events.h"

static const char *const plain_labels[4] = {"info1", "info2", "info3", "info4"};
static const char *const uia_labels[4] = {"arg1", "arg2", "arg3", "arg4"};

/* True for a UIA event that the TXTB catalogue does not describe. */
static bool uia_foreign(const trx_trace *t, uint16_t module)
{
    const trx_uia_names *n = t->uia_names;
    return t->format == TRX_TRACE_UIA && module != (n ? n->default_module : 0);
}

const char *trx_export_event_name(const trx_trace *t, const trx_event *ev,
                                  const trx_custom_events *ce, char buf[32])
{
    return t->format == TRX_TRACE_UIA ? trx_uia_event_name(t, ev, ce, buf)
                                      : trx_event_name(ev->id, ce);
}

const char *trx_export_type_name(const trx_trace *t, uint32_t id, uint16_t module,
                                 const trx_custom_events *ce, char buf[32])
{
    trx_event ev;
    memset(&ev, 0, sizeof ev);
    ev.id = id;
    ev.module = module;
    return trx_export_event_name(t, &ev, ce, buf);
}

void trx_export_labels(const trx_trace *t, uint32_t id, uint16_t module,
                       const trx_custom_events *ce, const char *labels[4])
{
    if (uia_foreign(t, module)) {
        for (int k = 0; k < 4; k++)
            labels[k] = uia_labels[k];
        return;
    }
    trx_event_labels(id, ce, labels);
    if (!trx_catalog_find(id) && !trx_custom_events_find(ce, id) &&
        !(ce && ce->rtos == TRX_RTOS_FREERTOS && trx_vocabulary_freertos_find(id)))
        for (int k = 0; k < 4; k++)
            labels[k] = plain_labels[k];
}

void trx_export_field_types(const trx_trace *t, uint32_t id, uint16_t module,
                            const trx_custom_events *ce, uint8_t types[4])
{
    if (uia_foreign(t, module))
        memset(types, TRX_FIELD_U32, 4);
    else
        trx_event_field_types(id, ce, types);
}

int trx_export_args(const trx_trace *t, const trx_event *ev, const trx_custom_events *ce,
                    trx_export_arg out[4])
{
    const char *labels[4];
    uint8_t types[4];
    trx_export_labels(t, ev->id, ev->module, ce, labels);
    trx_export_field_types(t, ev->id, ev->module, ce, types);
    int n = 0;
    for (int k = 0; k < 4; k++) {
        const char *label = labels[k];
        if (!label[0])
            continue;
        bool repeated = false;
        for (int j = 0; j < n; j++)
            if (out[j].label == label)
                repeated = true;
        if (repeated)
            continue;
        out[n].label = label;
        out[n].value = ev->info[k];
        out[n].is_signed = types[k] == TRX_FIELD_I32;
        out[n].object = NULL;
        if (ev->info[k] != 0) {
            int32_t o = trx_trace_find_object(t, ev->info[k]);
            if (o >= 0 && t->objects[o].name[0])
                out[n].object = t->objects[o].name;
        }
        n++;
    }
    return n;
}

const char *trx_export_category(uint32_t id)
{
    const trx_event_type *e = trx_catalog_find(id);
    return e ? e->component : "user";
}

const char *trx_export_category_of(const trx_trace *t, uint32_t id, uint8_t kind)
{
    if (t->format == TRX_TRACE_TXTB) {
        const char *component = trx_export_category(id);
        /* the kernel's events are the trace's RTOS's, whatever the catalogue calls them */
        return strcmp(component, "threadx") == 0 ? trx_vocab_category(trx_trace_vocab(t))
                                                 : component;
    }
    switch (kind) {
    case TRX_KIND_SWITCH:
    case TRX_KIND_RESUME:
    case TRX_KIND_SUSPEND:
    case TRX_KIND_YIELD:
        return "task";
    case TRX_KIND_ISR_ENTER:
    case TRX_KIND_ISR_EXIT:
    case TRX_KIND_SWI_BEGIN:
    case TRX_KIND_SWI_END:
        return "interrupt";
    case TRX_KIND_POST:
    case TRX_KIND_PEND:
        return "sync";
    default:
        return "uia";
    }
}
