/* stream_info.c - what `trx info` says about a trace that arrived as a trx
 * stream of TXTB entries, and the gap lists of every trace with gaps. */
#include <inttypes.h>

#include "output/stream_info.h"
#include "output/uia_info.h"
#include "trx/uia.h"

#define TEXT_GAPS_MAX 20 /* gaps listed in the text form (all in JSON) */

void trx_gaps_text(const trx_trace *t, uint64_t max, trx_out *o)
{
    for (uint64_t i = 0; i < t->gap_count && i < max; i++) {
        const trx_gap *g = &t->gaps[i];
        trx_out_printf(o,
                       "  %" PRIu64 " lost before event %" PRIu64 " (stream %" PRIu32
                       ", ticks %" PRIu64 " - %" PRIu64 ")\n",
                       g->lost, g->index, g->stream, g->from_ticks, g->to_ticks);
    }
    if (t->gap_count > max)
        trx_out_printf(o, "  ... %" PRIu64 " more gaps (trx info --json lists all)\n",
                       t->gap_count - max);
}

void trx_gaps_json(const trx_trace *t, trx_out *o)
{
    trx_out_str(o, "\"gaps\":[");
    for (uint64_t i = 0; i < t->gap_count; i++) {
        const trx_gap *g = &t->gaps[i];
        trx_out_printf(o,
                       "%s{\"index\":%" PRIu64 ",\"lost\":%" PRIu64 ",\"from_ticks\":%" PRIu64
                       ",\"to_ticks\":%" PRIu64 ",\"stream\":%" PRIu32 "}",
                       i ? "," : "", g->index, g->lost, g->from_ticks, g->to_ticks, g->stream);
    }
    trx_out_str(o, "]");
}

/* Sessions (target runs) over every stream. */
static uint32_t sessions(const trx_uia_info *u)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < u->stream_count; i++)
        n += u->streams[i].sessions;
    return n;
}

void trx_stream_info_text(const trx_trace *t, trx_out *o)
{
    const trx_uia_info *u = t->stream_source ? trx_uia_info_of(t->stream_source) : NULL;
    if (!u)
        return;
    trx_out_printf(o,
                   "Stream:             trx stream of TXTB entries: %" PRIu32 " packets (%" PRIu32
                   " checked), %" PRIu64 " records, %" PRIu32
                   " session%s; read as the TXTB buffer it carries\n",
                   u->packet_count, u->numbered_packets, u->records, sessions(u),
                   sessions(u) == 1 ? "" : "s");
    trx_out_str(o, "Lost events:        ");
    trx_lost_summary(t, o);
    trx_out_char(o, '\n');
    trx_gaps_text(t, TEXT_GAPS_MAX, o);
    trx_stream_arrival_text(u, o);
}

void trx_stream_arrival_text(const trx_uia_info *u, trx_out *o)
{
    if (u->skipped_front)
        trx_out_printf(o,
                       "Cut at the front:   %" PRIu64
                       " bytes before the first whole packet skipped (joined mid-packet)\n",
                       u->skipped_front);
    if (u->cut_tail)
        trx_out_printf(o,
                       "Cut at the end:     the last packet lacks %" PRIu64
                       " bytes (its whole records read)\n",
                       u->cut_tail);
    if (u->numbered_packets)
        trx_out_printf(
            o, "Stream packets:     %" PRIu32 " checked (trx stream: exact event numbers)\n",
            u->numbered_packets);
    if (u->garbage_bytes || u->corrupt_packets)
        trx_out_printf(o,
                       "Skipped:            %" PRIu64 " bytes that are no packet in %" PRIu32
                       " place%s, %" PRIu32 " packet%s failing the check\n",
                       u->garbage_bytes, u->garbage_runs, u->garbage_runs == 1 ? "" : "s",
                       u->corrupt_packets, u->corrupt_packets == 1 ? "" : "s");
}

void trx_stream_info_json(const trx_trace *t, trx_out *o)
{
    const trx_uia_info *u = t->stream_source ? trx_uia_info_of(t->stream_source) : NULL;
    if (!u)
        return;
    trx_out_printf(
        o,
        ",\"stream\":{\"packets\":%" PRIu32 ",\"stream_packets\":%" PRIu32 ",\"records\":%" PRIu64
        ",\"sessions\":%" PRIu32 ",\"lost_events\":%" PRIu64 ",\"skipped_front_bytes\":%" PRIu64
        ",\"cut_tail_bytes\":%" PRIu64 ",\"garbage_bytes\":%" PRIu64 ",\"garbage_places\":%" PRIu32
        ",\"corrupt_packets\":%" PRIu32 ",",
        u->packet_count, u->numbered_packets, u->records, sessions(u), t->lost_events,
        u->skipped_front, u->cut_tail, u->garbage_bytes, u->garbage_runs, u->corrupt_packets);
    trx_gaps_json(t, o);
    trx_out_str(o, "}");
}
