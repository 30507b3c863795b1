/* info_cores.c - `trx info`'s per-core rows and JSON members (see info_cores.h). */
#include "output/info_cores.h"

#include "output/json_string.h"

static void dec(trx_out *o, uint64_t v)
{
    trx_out_u64_pad(o, v, 0, ' ');
}

static const char *thread_name(const trx_trace *t, int32_t thread)
{
    return t->objects[t->threads[thread].object_index].name;
}

void trx_info_cores_text(const trx_trace *t, const trx_core_summary *s, trx_out *o)
{
    trx_out_str(o, "Cores:              ");
    dec(o, s->core_count);
    trx_out_str(o, s->core_count > 1 ? " (multi-core)\n" : " (single-core)\n");
    trx_out_str(o, "Events per core:    ");
    for (uint32_t c = 0; c < s->core_count; c++) {
        trx_out_str(o, c ? ", core " : "core ");
        dec(o, c);
        trx_out_str(o, ": ");
        dec(o, s->events[c]);
    }
    if (s->beyond) {
        trx_out_str(o, ", ");
        dec(o, s->beyond);
        trx_out_str(o, " on cores above 255 (not counted per core)");
    }
    trx_out_char(o, '\n');
    uint32_t k = 0;
    for (uint32_t c = 0; c < s->core_count; c++) {
        trx_out_str(o, "Core ");
        dec(o, c);
        trx_out_str(o, " threads:");
        for (int pad = c < 10 ? 5 : c < 100 ? 4 : 3; pad > 0; pad--)
            trx_out_char(o, ' ');
        bool any = false;
        for (; k < s->thread_entries && s->threads[k].core == c; k++) {
            if (any)
                trx_out_str(o, ", ");
            any = true;
            trx_out_str(o, thread_name(t, s->threads[k].thread));
            trx_out_str(o, " (");
            dec(o, s->threads[k].events);
            trx_out_char(o, ')');
        }
        trx_out_str(o, any ? "; not a thread: " : "none; not a thread: ");
        dec(o, s->other_events[c]);
        trx_out_char(o, '\n');
    }
}

void trx_info_cores_json(const trx_trace *t, const trx_core_summary *s, trx_out *o)
{
    trx_out_str(o, ",\"cores\":");
    dec(o, s->core_count);
    trx_out_str(o, s->core_count > 1 ? ",\"multi_core\":true" : ",\"multi_core\":false");
    trx_out_str(o, ",\"events_per_core\":[");
    for (uint32_t c = 0; c < s->core_count; c++) {
        if (c)
            trx_out_char(o, ',');
        dec(o, s->events[c]);
    }
    trx_out_char(o, ']');
    if (s->beyond) {
        trx_out_str(o, ",\"events_beyond_core_255\":");
        dec(o, s->beyond);
    }
    trx_out_str(o, ",\"threads_per_core\":[");
    uint32_t k = 0;
    for (uint32_t c = 0; c < s->core_count; c++) {
        trx_out_str(o, c ? ",{\"core\":" : "{\"core\":");
        dec(o, c);
        trx_out_str(o, ",\"threads\":[");
        for (uint32_t first = k; k < s->thread_entries && s->threads[k].core == c; k++) {
            trx_out_str(o, k > first ? ",{\"name\":" : "{\"name\":");
            trx_out_json_string(o, thread_name(t, s->threads[k].thread));
            trx_out_str(o, ",\"address\":");
            dec(o, t->threads[s->threads[k].thread].address);
            trx_out_str(o, ",\"events\":");
            dec(o, s->threads[k].events);
            trx_out_char(o, '}');
        }
        trx_out_str(o, "],\"other_events\":");
        dec(o, s->other_events[c]);
        trx_out_char(o, '}');
    }
    trx_out_char(o, ']');
}
