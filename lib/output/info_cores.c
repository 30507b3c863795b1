/* info_cores.c - `trx info`'s per-core rows and JSON members (see info_cores.h). */
#include "output/info_cores.h"

#include "output/json_string.h"

static void dec(trx_out *o, uint64_t v)
{
    trx_out_u64_pad(o, v, 0, ' ');
}

/* The name of a summary's thread: registered, or an Un-named Thread. */
static const char *thread_name(const trx_trace *t, const trx_core_thread *ct)
{
    return ct->thread >= 0 ? t->objects[t->threads[ct->thread].object_index].name
                           : "Un-named Thread";
}

/* Threads a core's text line names before "and K more": the busiest. */
enum { TEXT_THREADS = 10 };

/* Whether a comes before b in the busiest list: more events, then summary order. */
static bool busier(const trx_core_thread *v, uint32_t a, uint32_t b)
{
    return v[a].events != v[b].events ? v[a].events > v[b].events : a < b;
}

/* Writes a core's threads (entries first..end-1): all of them in summary
 * order when there are at most TEXT_THREADS, else the TEXT_THREADS busiest
 * (one pass keeping a small sorted list: linear in the threads) and how many
 * more, with their events. */
static void core_threads_text(const trx_trace *t, const trx_core_summary *s, uint32_t first,
                              uint32_t end, trx_out *o)
{
    const trx_core_thread *v = s->threads;
    uint32_t top[TEXT_THREADS], n = 0;
    if (end - first <= TEXT_THREADS) {
        for (uint32_t k = first; k < end; k++)
            top[n++] = k;
    } else {
        for (uint32_t k = first; k < end; k++) {
            if (n == TEXT_THREADS && !busier(v, k, top[n - 1]))
                continue;
            uint32_t at = n < TEXT_THREADS ? n++ : n - 1;
            while (at > 0 && busier(v, k, top[at - 1])) {
                top[at] = top[at - 1];
                at--;
            }
            top[at] = k;
        }
    }
    uint64_t shown_events = 0, all_events = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            trx_out_str(o, ", ");
        trx_out_str(o, thread_name(t, &v[top[i]]));
        trx_out_str(o, " (");
        dec(o, v[top[i]].events);
        trx_out_char(o, ')');
        shown_events += v[top[i]].events;
    }
    for (uint32_t k = first; k < end; k++)
        all_events += v[k].events;
    if (end - first > n) {
        trx_out_str(o, ", and ");
        dec(o, end - first - n);
        trx_out_str(o, " more (");
        dec(o, all_events - shown_events);
        trx_out_str(o, " events; info --json lists them)");
    }
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
        uint32_t first = k;
        while (k < s->thread_entries && s->threads[k].core == c)
            k++;
        core_threads_text(t, s, first, k, o);
        trx_out_str(o, k > first ? "; not a thread: " : "none; not a thread: ");
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
            trx_out_json_string(o, thread_name(t, &s->threads[k]));
            trx_out_str(o, ",\"address\":");
            dec(o, s->threads[k].address);
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
