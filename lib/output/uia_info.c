/* uia_info.c - `trx info` for a UIA trace: what the decoder found (packets,
 * duplicates, streams with their records, losses and sessions, gaps,
 * snapshots, byte order, backwards time, how each core's clock was put on
 * the time axis and the tick rate), as text or one JSON object. */
#include <inttypes.h>

#include "output/info_elf.h"
#include "output/json_string.h"
#include "output/stream_info.h"
#include "output/uia_info.h"
#include "trx/uia.h"

#define TEXT_GAPS_MAX 20 /* gaps listed in the text form (all in JSON) */

void trx_lost_summary(const trx_trace *t, trx_out *o)
{
    if (t->lost_events == 0) {
        trx_out_str(o, t->format == TRX_TRACE_UIA ? "no events lost (sequence numbers continuous)"
                                                  : "unknown (TXTB records no sequence numbers)");
        return;
    }
    trx_out_printf(o, "%" PRIu64 " events lost in %" PRIu64 " gap%s", t->lost_events, t->gap_count,
                   t->gap_count == 1 ? "" : "s");
}

static void stream_name(trx_out *o, const trx_uia_stream *s)
{
    if (s->sender == TRX_UIA_NONE)
        trx_out_str(o, "raw records");
    else
        trx_out_printf(o, "sender %" PRIu32 " logger %" PRIu32, s->sender, s->logger);
}

/* How the records are timed: one clock, one per core (senders), or every
 * core aligned onto the global timer by sync points. */
static void time_axes(trx_out *o, const trx_uia_info *u)
{
    if (u->aligned)
        trx_out_printf(o,
                       "%" PRIu32 " cores aligned by %" PRIu64
                       " sync points: ticks of the global timer from the first record",
                       u->cores, u->sync_points);
    else if (u->cores > 1 && u->sync_points)
        trx_out_printf(o,
                       "one clock per core, each its own axis: %" PRIu64
                       " sync points, not two on every core (one session each)",
                       u->sync_points);
    else if (u->cores > 1)
        trx_out_str(o, "one clock per core (sender), each its own axis: no sync points known "
                       "(--uia-meta names UIASync's)");
    else
        trx_out_str(o, "one clock (every logger of one core shares it)");
}

/* Per core: its sync points and how its clock maps onto the global timer
 * (g = offset + rate x its timestamp), or that it has none; its frequency. */
static void core_times_text(trx_out *o, const trx_uia_info *u)
{
    for (uint32_t k = 0; u->core_time && u->cores > 1 && k < u->cores; k++) {
        const trx_uia_core_time *c = &u->core_time[k];
        trx_out_printf(o, "  core %" PRIu32 ": ", k);
        if (!c->sync_points)
            trx_out_str(o, "no sync points");
        else if (c->rate > 0)
            trx_out_printf(o, "%" PRIu64 " sync points, global = %.6g + %.9g x core ticks%s",
                           c->sync_points, c->offset, c->rate, c->aligned ? "" : " (not applied)");
        else
            trx_out_printf(o, "%" PRIu64 " sync point%s: two at different times needed",
                           c->sync_points, c->sync_points == 1 ? "" : "s");
        if (c->timestamp_hz > 0)
            trx_out_printf(o, ", timestamps at %.9g Hz", c->timestamp_hz);
        trx_out_char(o, '\n');
    }
}

void trx_uia_info_write_text(const trx_trace *t, trx_out *o)
{
    const trx_uia_info *u = trx_uia_info_of(t);
    trx_out_printf(o, "File:               %s\n", t->path ? t->path : "-");
    trx_out_printf(o, "Format:             %s\n", trx_input_format_name(t->image.format));
    trx_out_str(o, "Trace format:       UIA ");
    if (u->packet_file)
        trx_out_printf(o,
                       "(UIAPacket file: %" PRIu32 " packets, %" PRIu32 " duplicate%s skipped)\n",
                       u->packet_count, u->duplicate_packets, u->duplicate_packets == 1 ? "" : "s");
    else
        trx_out_str(o, "(raw record buffer, no packet header)\n");
    trx_out_printf(o, "Image:              %zu bytes at 0x%08" PRIX32 "\n", t->image.size,
                   (uint32_t)t->image.base);
    if (!u->packet_file)
        trx_out_printf(o, "Byte order:         %s%s\n",
                       u->big_endian ? "big-endian" : "little-endian",
                       u->endian_detected ? " (detected)" : "");
    trx_out_printf(o, "Wrapped:            %s\n",
                   u->wrapped ? "yes (older records read back along PrevLen)" : "no");
    trx_out_printf(o, "Records:            %" PRIu64 "\n", u->records);
    trx_out_str(o, "Lost events:        ");
    trx_lost_summary(t, o);
    trx_out_char(o, '\n');
    trx_gaps_text(t, TEXT_GAPS_MAX, o);
    if (u->target_dropped)
        trx_out_printf(o,
                       "Dropped by target:  %" PRIu64 " records after the last one (stop policy)\n",
                       u->target_dropped);
    trx_out_printf(o, "Streams:            %" PRIu32 "\n", u->stream_count);
    for (uint32_t i = 0; i < u->stream_count; i++) {
        const trx_uia_stream *s = &u->streams[i];
        trx_out_printf(o, "  %" PRIu32 ": ", i);
        stream_name(o, s);
        trx_out_printf(o, " (core %" PRIu32 ")", s->core);
        trx_out_printf(o,
                       ": %" PRIu64 " records, %" PRIu64 " lost, %" PRIu32
                       " session%s, ticks 0 - %" PRIu64 "\n",
                       s->records, s->lost_events, s->sessions, s->sessions == 1 ? "" : "s",
                       s->span_ticks);
    }
    uint32_t incomplete = 0;
    for (uint32_t i = 0; i < u->snapshot_count; i++)
        incomplete += u->snapshots[i].incomplete;
    trx_out_printf(o, "Snapshots:          %" PRIu32 " (%" PRIu32 " incomplete)\n",
                   u->snapshot_count, incomplete);
    trx_out_str(o, "Time:               ");
    time_axes(o, u);
    trx_out_char(o, '\n');
    core_times_text(o, u);
    uint64_t rate = trx_trace_ticks_per_second(t);
    if (rate)
        trx_out_printf(o, "Tick rate:          %" PRIu64 " ticks per second (%s)\n", rate,
                       u->aligned ? "the global timer" : "the cores' timestamps");
    else
        trx_out_str(o, "Tick rate:          unknown (--ticks-per-us X, or metadata giving it)\n");
    uint64_t span = trx_trace_span_ticks(t);
    trx_out_printf(o, "Relative ticks:     0 - %" PRIu64 " (%s", span,
                   u->aligned ? "the global timer's, from the first record"
                              : "each core from its first timestamp");
    if (rate)
        trx_out_printf(o, "; %.6f s", (double)span / (double)rate);
    trx_out_str(o, ")\n");
    trx_stream_arrival_text(u, o);
    if (t->thread_count) /* SYS/BIOS's tasks (sysbios_model.c) */
        trx_out_printf(o, "Tasks:              %" PRIu32 " (SYS/BIOS)\n", t->thread_count);
    if (t->elf) {
        trx_out_str(o, "ELF:                ");
        trx_info_elf_text(t, o);
        trx_out_char(o, '\n');
    }
    if (u->time_backwards)
        trx_out_printf(o,
                       "Warning:            timestamps go backwards at %" PRIu64
                       " records (first at offset %" PRIu64
                       "): broken time source? Records kept in stored order\n",
                       u->time_backwards, u->first_backwards_offset);
}

void trx_uia_info_write_json(const trx_trace *t, trx_out *o)
{
    const trx_uia_info *u = trx_uia_info_of(t);
    trx_out_str(o, "{\"file\":");
    trx_out_json_string(o, t->path ? t->path : "");
    trx_out_str(o, ",\"format\":\"uia\",\"input_format\":");
    trx_out_json_string(o, trx_input_format_name(t->image.format));
    trx_out_printf(o, ",\"image_size\":%zu,\"image_base\":%" PRIu64, t->image.size, t->image.base);
    trx_out_printf(o, ",\"packet_file\":%s", u->packet_file ? "true" : "false");
    trx_out_printf(o, ",\"cores\":%" PRIu32 ",\"time_axes\":\"%s\",\"sync_points\":%" PRIu64,
                   u->cores,
                   u->aligned     ? "sync_points"
                   : u->cores > 1 ? "per_core"
                                  : "one_clock",
                   u->sync_points);
    trx_out_printf(o, ",\"ticks_per_second\":%" PRIu64, trx_trace_ticks_per_second(t));
    if (u->core_time && u->cores > 1) {
        trx_out_str(o, ",\"core_time\":[");
        for (uint32_t k = 0; k < u->cores; k++) {
            const trx_uia_core_time *c = &u->core_time[k];
            trx_out_printf(o,
                           "%s{\"core\":%" PRIu32 ",\"sync_points\":%" PRIu64
                           ",\"aligned\":%s,\"rate\":%.17g,\"offset\":%.17g"
                           ",\"timestamp_hz\":%.17g}",
                           k ? "," : "", k, c->sync_points, c->aligned ? "true" : "false", c->rate,
                           c->offset, c->timestamp_hz);
        }
        trx_out_char(o, ']');
    }
    if (!u->packet_file)
        trx_out_printf(o, ",\"byte_order\":\"%s\",\"byte_order_detected\":%s",
                       u->big_endian ? "big" : "little", u->endian_detected ? "true" : "false");
    trx_out_printf(o, ",\"wrapped\":%s,\"records\":%" PRIu64 ",\"lost_events\":%" PRIu64,
                   u->wrapped ? "true" : "false", u->records, t->lost_events);
    trx_out_printf(o, ",\"target_dropped\":%" PRIu64, u->target_dropped);
    trx_out_char(o, ',');
    trx_gaps_json(t, o);
    if (u->packet_file)
        trx_out_printf(o, ",\"packets\":%" PRIu32 ",\"duplicate_packets\":%" PRIu32,
                       u->packet_count, u->duplicate_packets);
    trx_out_str(o, ",\"streams\":[");
    for (uint32_t i = 0; i < u->stream_count; i++) {
        const trx_uia_stream *s = &u->streams[i];
        trx_out_str(o, i ? ",{" : "{");
        if (s->sender == TRX_UIA_NONE)
            trx_out_str(o, "\"sender\":null,\"logger\":null");
        else
            trx_out_printf(o, "\"sender\":%" PRIu32 ",\"logger\":%" PRIu32, s->sender, s->logger);
        trx_out_printf(
            o,
            ",\"core\":%" PRIu32 ",\"records\":%" PRIu64 ",\"lost_events\":%" PRIu64
            ",\"sessions\":%" PRIu32 ",\"last_ticks\":%" PRIu64 ",\"time_backwards\":%" PRIu64 "}",
            s->core, s->records, s->lost_events, s->sessions, s->span_ticks, s->time_backwards);
    }
    uint32_t incomplete = 0;
    for (uint32_t i = 0; i < u->snapshot_count; i++)
        incomplete += u->snapshots[i].incomplete;
    trx_out_printf(o,
                   "],\"snapshots\":%" PRIu32 ",\"incomplete_snapshots\":%" PRIu32
                   ",\"first_ticks\":0,\"last_ticks\":%" PRIu64 ",\"time_backwards\":%" PRIu64
                   ",\"skipped_words\":%" PRIu64 ",\"skipped_front_bytes\":%" PRIu64
                   ",\"cut_tail_bytes\":%" PRIu64 ",\"tasks\":%" PRIu32
                   ",\"garbage_bytes\":%" PRIu64 ",\"garbage_places\":%" PRIu32
                   ",\"corrupt_packets\":%" PRIu32 ",\"stream_packets\":%" PRIu32,
                   u->snapshot_count, incomplete, trx_trace_span_ticks(t), u->time_backwards,
                   u->skipped_words, u->skipped_front, u->cut_tail, t->thread_count,
                   u->garbage_bytes, u->garbage_runs, u->corrupt_packets, u->numbered_packets);
    if (t->elf) { /* --elf: is it the firmware that wrote the trace? */
        trx_out_str(o, ",\"elf\":");
        trx_info_elf_json(t, o);
    }
    trx_out_str(o, "}\n");
}
