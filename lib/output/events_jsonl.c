/* events_jsonl.c - `trx events --format jsonl`: one JSON object per line per event. */
#include "output/events_names.h"
#include "output/events_output.h"
#include "output/json_string.h"
#include "trx/elf.h"

static void num(trx_out *o, uint64_t v)
{
    trx_out_u64_pad(o, v, 0, ' ');
}

void trx_events_jsonl_line(trx_out *o, const trx_trace *t, const trx_event *ev,
                           const trx_custom_events *ce)
{
    trx_out_str(o, "{\"index\":");
    num(o, ev->index);
    trx_out_str(o, ",\"ticks\":");
    num(o, ev->ticks);
    trx_out_str(o, ",\"timestamp\":");
    num(o, ev->timestamp);
    trx_out_str(o, ",\"id\":");
    num(o, ev->id);
    trx_out_str(o, ",\"core\":");
    num(o, ev->core);
    trx_out_str(o, ",\"name\":");
    trx_out_json_string(o, trx_event_name(ev->id, ce));
    trx_out_str(o, ",\"context\":\"");
    trx_out_str(o, trx_event_context_word(ev));
    trx_out_str(o, "\",\"thread\":");
    num(o, ev->context);
    trx_out_str(o, ",\"thread_name\":");
    trx_out_json_string(o, trx_event_thread_name(t, ev));
    trx_out_str(o, ",\"priority\":");
    if (trx_context_kind_of(ev->context) == TRX_CTX_THREAD)
        num(o, trx_shown_priority(t, ev->priority));
    else
        trx_out_str(o, "null");
    trx_out_str(o, ",\"info\":[");
    for (int k = 0; k < 4; k++) {
        if (k)
            trx_out_char(o, ',');
        num(o, ev->info[k]);
    }
    if (t->elf) { /* --elf: each info word's symbol, null where none */
        char buf[4][TRX_SYMBOL_TEXT];
        const char *sym[4];
        trx_event_info_symbols(t, ev, ce, buf, sym);
        trx_out_str(o, "],\"info_symbols\":[");
        for (int k = 0; k < 4; k++) {
            if (k)
                trx_out_char(o, ',');
            if (sym[k])
                trx_out_json_string(o, sym[k]);
            else
                trx_out_str(o, "null");
        }
    }
    trx_out_str(o, ev->synthetic ? "],\"synthetic\":true," : "],\"synthetic\":false,");
    if (t->gap_count) /* a stream's trace: the events lost right before this one */
        trx_out_printf(o, "\"lost_before\":%u,", (unsigned)ev->lost_before);
    trx_out_str(o, "\"args\":{");
    const char *labels[4];
    uint8_t types[4]; /* an i32 field is signed here as in every export */
    trx_event_labels(ev->id, ce, labels);
    trx_event_field_types(ev->id, ce, types);
    bool first = true;
    for (int k = 0; k < 4; k++) {
        if (!labels[k][0])
            continue;
        /* a caption used twice keeps only its first field (no duplicate keys) */
        bool repeated = false;
        for (int j = 0; j < k; j++)
            if (labels[j][0] && labels[j] == labels[k])
                repeated = true;
        if (repeated)
            continue;
        if (!first)
            trx_out_char(o, ',');
        first = false;
        trx_out_json_string(o, labels[k]);
        trx_out_char(o, ':');
        trx_out_word(o, ev->info[k], types[k] == TRX_FIELD_I32);
    }
    trx_out_str(o, "}}\n");
}
