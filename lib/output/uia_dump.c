/*
 * uia_dump.c - `trx dump` for a UIA trace, in the spirit of TraceX's raw
 * dump: the summary (trx info's text), every UIAPacket header, then one line
 * per record in event order with its image offset, header type, length,
 * sequence (raw and unwrapped), timestamp, event/module and argument words;
 * a lost-event gap is a line of its own where it lies.
 */
#include <inttypes.h>

#include "output/uia_dump.h"
#include "output/uia_info.h"
#include "trx/uia.h"

int trx_uia_dump_write(trx_trace *t, trx_out *o)
{
    const trx_uia_info *u = trx_uia_info_of(t);
    trx_out_str(o, "UIA raw trace dump\n\n");
    trx_uia_info_write_text(t, o);
    if (u->packet_file) {
        trx_out_str(o, "\nPackets\n  #       offset    length   pktseq  firstevt  sender  logger  "
                       "module  endian  records\n");
        for (uint32_t i = 0; i < u->packet_count; i++) {
            const trx_uia_packet *p = &u->packets[i];
            trx_out_printf(o,
                           "  %-6" PRIu32 " 0x%08" PRIX64 " %8" PRIu32 " %8" PRIu32 " %9" PRIu32
                           " %7" PRIu32 " %7" PRIu32 "  0x%04" PRIX32 "  %-6s %8" PRIu64 "%s\n",
                           i, p->offset, p->length, p->seq, p->first_event, p->sender, p->logger,
                           p->logger_module, p->big_endian ? "big" : "little", p->records,
                           p->duplicate ? "  duplicate (skipped)" : "");
        }
    }
    trx_out_str(o, "\nRecords\n     Index      Offset  Type   Len   Seq        SeqU  Strm          "
                   "   Timestamp   Module      Id  Args\n");
    trx_cursor c;
    trx_event ev;
    if (trx_cursor_init(&c, t) < 0)
        return -1;
    uint64_t n = 0;
    while (trx_cursor_next(&c, &ev)) {
        trx_uia_record r;
        if (!trx_uia_record_get(t, ev.entry, &r))
            continue;
        if (ev.lost_before)
            trx_out_printf(o, "         -  lost %" PRIu32 " event%s (sequence gap)\n",
                           ev.lost_before, ev.lost_before == 1 ? "" : "s");
        trx_out_printf(o,
                       "%10" PRIu64 "  0x%08" PRIX64 "  %4" PRIu32 "  %4" PRIu32 "  %4" PRIu32
                       "  %10" PRIu64 "  %4" PRIu32 "  ",
                       ev.index, r.offset, r.hdr_type, r.length, r.seq_raw, ev.seq, r.stream);
        if (r.time_words)
            trx_out_printf(o, "%18" PRIu64, r.time);
        else
            trx_out_str(o, "                 -");
        trx_out_printf(o, "   0x%04" PRIX32 "  0x%04" PRIX32, r.module, r.event);
        if (r.snapshot) {
            trx_out_printf(o,
                           "  snapshot id %" PRIu32 " addr 0x%08" PRIX32 " %" PRIu32 "/%" PRIu32
                           " bytes file 0x%08" PRIX32 " line %" PRIu32 " fmt 0x%08" PRIX32,
                           r.snapshot_id, r.address, r.this_length, r.total_length, r.file_ptr,
                           r.line, r.fmt_ptr);
        } else {
            for (uint32_t k = 0; k < r.nargs; k++)
                trx_out_printf(o, " %08" PRIX32, trx_uia_record_arg(&r, k));
        }
        trx_out_char(o, '\n');
        if ((++n & 1023u) == 0 && o->error) {
            trx_cursor_free(&c);
            break;
        }
    }
    return 0;
}
