/* export_args.c - an event's labelled fields and the objects they name (see export_args.h). */
#include "output/export_args.h"

#include "output/events_names.h"

static const char *const plain_labels[4] = {"info1", "info2", "info3", "info4"};

int trx_export_args(const trx_trace *t, const trx_event *ev, const trx_custom_events *ce,
                    trx_export_arg out[4])
{
    const char *labels[4];
    trx_event_labels(ev->id, ce, labels);
    bool known = trx_catalog_find(ev->id) || trx_custom_events_find(ce, ev->id);
    int n = 0;
    for (int k = 0; k < 4; k++) {
        const char *label = known ? labels[k] : plain_labels[k];
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
