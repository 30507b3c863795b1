/* events_list.c - the `trx events` loop: walk the events, filter, hand each to the chosen format.
 */
#include "output/events_output.h"
#include "output/uia_events.h"

#include <inttypes.h>

int trx_events_write(trx_trace *t, trx_out *o, trx_events_format format, const trx_event_filter *f,
                     const trx_custom_events *ce)
{
    const bool uia = t->format == TRX_TRACE_UIA;
    if (format == TRX_EVENTS_TEXT)
        uia ? trx_uia_events_text_header(o) : trx_events_text_header(o);
    else if (format == TRX_EVENTS_CSV)
        uia ? trx_uia_events_csv_header(o) : trx_events_csv_header(o);
    trx_cursor c;
    trx_event ev;
    if (trx_cursor_init(&c, t) < 0)
        return -1;
    uint32_t n = 0;
    while (trx_cursor_next(&c, &ev)) {
        if (t->format == TRX_TRACE_TXTB && trx_event_filter_done(f, &ev))
            break;
        if (!trx_event_filter_match(f, &ev))
            continue;
        if (uia && format == TRX_EVENTS_JSONL)
            trx_uia_events_jsonl_line(o, t, &ev, ce);
        else if (uia && format == TRX_EVENTS_CSV)
            trx_uia_events_csv_line(o, t, &ev, ce);
        else if (uia)
            trx_uia_events_text_line(o, t, &ev, ce);
        else if (format == TRX_EVENTS_JSONL)
            trx_events_jsonl_line(o, t, &ev, ce);
        else if (format == TRX_EVENTS_CSV)
            trx_events_csv_line(o, t, &ev, ce);
        else
            trx_events_text_line(o, t, &ev, ce);
        if ((++n & 1023u) == 0 && o->error)
            break; /* e.g. the reader of a pipe went away */
    }
    trx_cursor_free(&c);
    const trx_uia_info *u = trx_uia_info_of(t);
    if (u && u->target_dropped && format == TRX_EVENTS_TEXT) /* the gap after the last record */
        trx_out_printf(
            o, "       -  *** %" PRIu64 " events dropped by the target after the last record ***\n",
            u->target_dropped);
    return 0;
}
