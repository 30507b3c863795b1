/* events_text.c - `trx events --format text`: one aligned line per event
 * (event names as TraceX's dump prints them under --compat tracex). */
#include <string.h>

#include "output/events_names.h"
#include "output/events_output.h"
#include "trx/elf.h"

#define NAME_WIDTH 26
#define CONTEXT_WIDTH 20

/* Writes `s` cut or padded to exactly `width` columns; control characters print as '?'. */
static void column(trx_out *o, const char *s, size_t width)
{
    size_t i = 0;
    for (; s[i] && i < width; i++) {
        unsigned char c = (unsigned char)s[i];
        trx_out_char(o, c < 0x20 || c == 0x7F ? '?' : (char)c);
    }
    for (; i < width; i++)
        trx_out_char(o, ' ');
}

void trx_events_text_header(trx_out *o)
{
    trx_out_str(
        o, "   Index                 Ticks  Timestamp     Id  Core  Event                       "
           "Context               Prio  Info1     Info2     Info3     Info4\n");
}

void trx_events_text_line(trx_out *o, const trx_trace *t, const trx_event *ev,
                          const trx_custom_events *ce)
{
    static const trx_event_lead_columns lead = {8, 20, 5, 4, {"  ", "   ", "  ", "  ", "  "}};
    if (ev->lost_before) /* a stream's gap (stream_txtb.h) */
        trx_out_printf(o, "       -  *** %u event%s lost here ***\n", (unsigned)ev->lost_before,
                       ev->lost_before == 1 ? "" : "s");
    trx_events_lead_columns(o, ev, &lead);
    /* --compat tracex: the label TraceX's dump prints (its misaligned table) */
    const char *name = t->mode == TRX_MODE_TRACEX && ev->id < 1000 ? trx_catalog_dump_name(ev->id)
                                                                   : trx_event_name(ev->id, ce);
    /* leading spaces of .trxc names would break the column */
    while (*name == ' ')
        name++;
    column(o, name, NAME_WIDTH);
    trx_out_str(o, "  ");
    column(o, trx_event_thread_name(t, ev), CONTEXT_WIDTH);
    trx_out_str(o, "  ");
    if (trx_context_kind_of(ev->context) == TRX_CTX_THREAD)
        trx_out_u64_pad(o, trx_shown_priority(t, ev->priority), 4, ' ');
    else
        trx_out_str(o, "   -");
    for (int k = 0; k < 4; k++) {
        trx_out_str(o, "  ");
        trx_out_hex32(o, ev->info[k]);
    }
    char buf[4][TRX_SYMBOL_TEXT];
    const char *sym[4];
    if (t->elf && trx_event_info_symbols(t, ev, ce, buf, sym)) /* --elf, objdump's way */
        for (int k = 0; k < 4; k++)
            if (sym[k])
                trx_out_printf(o, "  0x%08X <%s>", ev->info[k], sym[k]);
    if (ev->synthetic)
        trx_out_str(o, "  (inserted)");
    trx_out_char(o, '\n');
}
