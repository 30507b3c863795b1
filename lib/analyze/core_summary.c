/* core_summary.c - the stored events of a trace counted per core and per
 * (core, thread) for `trx info` (see trx/cores.h). */
#include <stdlib.h>
#include <string.h>

#include "analyze/core_thread_map.h"

int trx_core_summary_compute(trx_trace *t, trx_core_summary *s)
{
    memset(s, 0, sizeof *s);
    s->core_count = 1;
    trx_trace_prepare(t);
    trx_core_thread_map map = {0};
    trx_cursor c;
    trx_event ev;
    if (trx_cursor_init(&c, t) < 0)
        return -1;
    while (trx_cursor_next(&c, &ev)) {
        if (ev.synthetic)
            continue;
        if (ev.core >= TRX_MAX_CORES) {
            s->beyond++;
            continue;
        }
        uint32_t core = ev.core;
        if (core >= s->core_count)
            s->core_count = core + 1;
        s->events[core]++;
        if (ev.thread < 0) {
            s->other_events[core]++;
            continue;
        }
        trx_core_thread *ct = trx_core_thread_map_get(&map, core, ev.thread);
        if (ct)
            ct->events++;
    }
    return trx_core_thread_map_finish(&map, &s->threads, &s->thread_entries);
}

void trx_core_summary_free(trx_core_summary *s)
{
    free(s->threads);
    memset(s, 0, sizeof *s);
}
