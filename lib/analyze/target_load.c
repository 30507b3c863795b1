/* target_load.c - the series of the target's own Load reports (see target_load.h). */
#include "analyze/target_load.h"

#include <stdlib.h>
#include <string.h>

#include "trx/uia.h"
#include "trx/uia_names.h"

static const char *const tails[TRX_LOAD_KINDS] = {"Load.LS_cpuLoad", "Load.LS_taskLoad",
                                                  "Load.LS_hwiLoad", "Load.LS_swiLoad"};

bool trx_target_load_init(trx_target_load *l, const trx_trace *t)
{
    memset(l, 0, sizeof *l);
    const trx_uia_names *n = t->uia_names;
    bool any = false;
    for (uint32_t i = 0; n && t->format == TRX_TRACE_UIA && i < n->event_count; i++)
        for (int k = 0; k < TRX_LOAD_KINDS; k++)
            if (l->keys[k] < 8 && trx_uia_name_is(&n->events[i], tails[k])) {
                l->key[k][l->keys[k]++] =
                    n->events[i].event << 16 | (n->events[i].module & 0xFFFFu);
                any = true;
            }
    return any;
}

void trx_target_load_feed(trx_target_load *l, const trx_trace *t, const trx_event *ev)
{
    uint32_t word = ev->id << 16 | ev->module;
    for (int k = 0; k < TRX_LOAD_KINDS; k++)
        for (uint32_t j = 0; j < l->keys[k]; j++) {
            if (l->key[k][j] != word)
                continue;
            trx_uia_record r;
            if (!trx_uia_record_get(t, ev->entry, &r) || r.snapshot)
                return;
            if (l->count[k] == l->cap[k]) {
                uint64_t cap = l->cap[k] ? l->cap[k] * 2 : 64;
                trx_load_report *p = realloc(l->report[k], (size_t)cap * sizeof *p);
                if (!p) {
                    l->failed = true;
                    return;
                }
                l->report[k] = p;
                l->cap[k] = cap;
            }
            trx_load_report *x = &l->report[k][l->count[k]++];
            x->core = ev->core;
            x->ticks = ev->ticks;
            for (uint32_t a = 0; a < 4; a++)
                x->a[a] = trx_uia_record_arg(&r, a); /* 0 past the record's arguments */
            return;
        }
}

void trx_target_load_free(trx_target_load *l)
{
    for (int k = 0; k < TRX_LOAD_KINDS; k++)
        free(l->report[k]);
    memset(l, 0, sizeof *l);
}
