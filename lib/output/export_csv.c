/*
 * export_csv.c - `trx export --to csv`: one RFC 4180 row per event for
 * spreadsheets and data frames: event number, relative ticks, time in µs
 * (--ticks-per-second, else 1 tick = 1 µs), id, name, component, context
 * kind and name, priority, the context that runs next, the raw information
 * fields, the decoded arguments ("Caption=value (object name); ...") and
 * the events lost right before (lost_before; UIA sequence gaps).
 */
#include <string.h>

#include "output/events_names.h"
#include "output/export_args.h"
#include "output/export_formats.h"

/* Writes one field, quoted (quotes doubled) when it holds , " CR or LF. */
static void field(trx_out *w, const char *s)
{
    if (strpbrk(s, ",\"\r\n") == NULL) {
        trx_out_str(w, s);
        return;
    }
    trx_out_char(w, '"');
    for (; *s; s++) {
        if (*s == '"')
            trx_out_char(w, '"');
        trx_out_char(w, *s);
    }
    trx_out_char(w, '"');
}

static void num(trx_out *w, uint64_t v)
{
    trx_out_u64_pad(w, v, 0, ' ');
}

/* Text inside a quoted field (quotes doubled). */
static void quoted_part(trx_out *w, const char *s)
{
    for (; *s; s++) {
        if (*s == '"')
            trx_out_char(w, '"');
        trx_out_char(w, *s);
    }
}

/* The decoded arguments as one quoted field. */
static void args_field(trx_out *w, const trx_trace *t, const trx_event *ev,
                       const trx_custom_events *ce)
{
    trx_export_arg a[4];
    int n = trx_export_args(t, ev, ce, a);
    trx_out_char(w, '"');
    for (int k = 0; k < n; k++) {
        if (k)
            trx_out_str(w, "; ");
        quoted_part(w, a[k].label);
        trx_out_char(w, '=');
        if (a[k].object) {
            trx_out_str(w, "0x");
            trx_out_hex32(w, a[k].value);
            trx_out_str(w, " (");
            quoted_part(w, a[k].object);
            trx_out_char(w, ')');
        } else {
            trx_out_word(w, a[k].value, a[k].is_signed);
        }
    }
    trx_out_char(w, '"');
}

int trx_export_csv(trx_trace *t, trx_out *w, const trx_export_options *o)
{
    trx_trace_prepare(t);
    trx_cursor c;
    if (trx_cursor_init(&c, t) < 0)
        return -1;
    trx_out_str(w, "index,ticks,time_us,id,name,component,context,context_name,priority,"
                   "next_context_name,info1,info2,info3,info4,args,synthetic,lost_before\n");
    trx_event ev;
    uint32_t n = 0;
    while (trx_cursor_next(&c, &ev)) {
        num(w, ev.index);
        trx_out_char(w, ',');
        num(w, ev.ticks);
        trx_out_char(w, ',');
        trx_out_us_from_ns(w, trx_export_ticks_to_ns(o, ev.ticks));
        trx_out_char(w, ',');
        num(w, ev.id);
        trx_out_char(w, ',');
        char buf[32];
        field(w, trx_export_event_name(t, &ev, o->custom, buf));
        trx_out_char(w, ',');
        trx_out_str(w, trx_export_category_of(t, ev.id, ev.kind));
        trx_out_char(w, ',');
        trx_out_str(w, trx_event_context_word(&ev));
        trx_out_char(w, ',');
        field(w, trx_event_thread_name(t, &ev));
        trx_out_char(w, ',');
        if (trx_context_kind_of(ev.context) == TRX_CTX_THREAD)
            num(w, trx_shown_priority(t, ev.priority));
        trx_out_char(w, ',');
        const char *next = trx_context_name(t, ev.next_context);
        field(w, next ? next : "Un-named Thread");
        for (int k = 0; k < 4; k++) {
            trx_out_char(w, ',');
            num(w, ev.info[k]);
        }
        trx_out_char(w, ',');
        args_field(w, t, &ev, o->custom);
        trx_out_str(w, ev.synthetic ? ",1," : ",0,");
        num(w, ev.lost_before);
        trx_out_char(w, '\n');
        if ((++n & 1023u) == 0 && w->error)
            break;
    }
    trx_cursor_free(&c);
    return 0;
}
