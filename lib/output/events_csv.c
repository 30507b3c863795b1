/* events_csv.c - `trx events --format csv`: a header row, then one RFC 4180 row per event. */
#include <string.h>

#include "output/events_names.h"
#include "output/events_output.h"

/* Writes one field, quoted (quotes doubled) when it holds , " CR or LF. */
static void field(trx_out *o, const char *s)
{
    if (strpbrk(s, ",\"\r\n") == NULL) {
        trx_out_str(o, s);
        return;
    }
    trx_out_char(o, '"');
    for (; *s; s++) {
        if (*s == '"')
            trx_out_char(o, '"');
        trx_out_char(o, *s);
    }
    trx_out_char(o, '"');
}

/* Writes a comma, then `v` as 0x and 8 hex digits. */
static void hex(trx_out *o, uint32_t v)
{
    trx_out_str(o, ",0x");
    trx_out_hex32(o, v);
}

void trx_events_csv_header(trx_out *o)
{
    trx_out_str(o, "index,ticks,timestamp,id,core,name,context,thread,thread_name,priority,"
                   "info1,info2,info3,info4,synthetic\n");
}

void trx_events_csv_line(trx_out *o, const trx_trace *t, const trx_event *ev,
                         const trx_custom_events *ce)
{
    static const trx_event_lead_columns lead = {0, 0, 0, 0, {",", ",0x", ",", ",", ","}};
    trx_events_lead_columns(o, ev, &lead);
    field(o, trx_event_name(ev->id, ce));
    trx_out_char(o, ',');
    trx_out_str(o, trx_event_context_word(ev));
    hex(o, ev->context);
    trx_out_char(o, ',');
    field(o, trx_event_thread_name(t, ev));
    trx_out_char(o, ',');
    if (trx_context_kind_of(ev->context) == TRX_CTX_THREAD)
        trx_out_u64_pad(o, trx_shown_priority(t, ev->priority), 0, ' ');
    for (int k = 0; k < 4; k++)
        hex(o, ev->info[k]);
    trx_out_str(o, ev->synthetic ? ",1\n" : ",0\n");
}
