/* events_columns.c - the leading number columns that the text and CSV event listings share. */
#include "output/events_output.h"

/* Writes index, ticks, timestamp (8 hex digits), id and core, padded and separated as `c` says. */
void trx_events_lead_columns(trx_out *o, const trx_event *ev, const trx_event_lead_columns *c)
{
    trx_out_u64_pad(o, ev->index, c->index_width, ' ');
    trx_out_str(o, c->after[0]);
    trx_out_u64_pad(o, ev->ticks, c->ticks_width, ' ');
    trx_out_str(o, c->after[1]);
    trx_out_hex32(o, ev->timestamp);
    trx_out_str(o, c->after[2]);
    trx_out_u64_pad(o, ev->id, c->id_width, ' ');
    trx_out_str(o, c->after[3]);
    trx_out_u64_pad(o, ev->core, c->core_width, ' ');
    trx_out_str(o, c->after[4]);
}
