/*
 * export_cpu_tracks.c - which thread every core runs, as the exporters draw
 * it (see export_cpu_tracks.h). The core tracker reports each switch of a
 * core; this file turns it into
 *   Perfetto: a TracePacket with an FtraceEventBundle {cpu = core, one
 *             FtraceEvent {timestamp, pid, sched_switch {prev/next comm, pid,
 *             prio, prev_state: S when the thread suspended itself, else R}}}: trace_processor
 * builds a CPU track per core from them; pids are the thread tracks' tids (lane + 1), 0 idle;
 *   Chrome:   a complete ("X") event per stretch a core runs a thread, on
 *             process 1000 + core ("CPU n"), thread id 1, named after the thread.
 */
#include "output/export_cpu_tracks.h"

#include <stdlib.h>

#include "analyze/core_tracker.h"
#include "output/json_string.h"
#include "output/protobuf_writer.h"
#include "output/timeline.h"

/* Field numbers from Perfetto's perfetto_trace.proto. */
enum {
    TRACE_PACKET = 1,
    PKT_FTRACE_EVENTS = 1,
    BUNDLE_CPU = 1,
    BUNDLE_EVENT = 2,
    FE_TIMESTAMP = 1,
    FE_PID = 2,
    FE_SCHED_SWITCH = 4,
    SS_PREV_COMM = 1,
    SS_PREV_PID = 2,
    SS_PREV_PRIO = 3,
    SS_PREV_STATE = 4,
    SS_NEXT_COMM = 5,
    SS_NEXT_PID = 6,
    SS_NEXT_PRIO = 7
};

#define CHROME_CPU_PID 1000u

struct trx_cpu_tracks {
    trx_trace *t;
    trx_out *w;
    const trx_export_options *o;
    trx_cpu_tracks_kind kind;
    trx_core_tracker *tracker;
    trx_pb pkt, bundle, event, sw;
    uint64_t last_ticks;
    uint32_t named[TRX_MAX_CORES / 32]; /* Chrome: cores whose process is named */
    uint64_t since[TRX_MAX_CORES];      /* Chrome: when the core's thread began */
    uint32_t running[TRX_MAX_CORES];    /* Chrome: its context, 0 = none */
};

/* The pid a context has in Perfetto (its thread track's tid), 0 for none. */
static uint32_t pid_of(const trx_trace *t, uint32_t context)
{
    return context ? trx_lane_of(t, context) + 1 : 0;
}

static const char *comm_of(const trx_trace *t, uint32_t context)
{
    return context ? trx_lane_name(t, trx_lane_of(t, context)) : "idle";
}

static uint32_t prio_of(const trx_trace *t, int32_t thread)
{
    return thread >= 0 && t->threads[thread].prio_highest != TRX_UNKNOWN
               ? t->threads[thread].prio_highest
               : 0;
}

static void perfetto_switch(trx_cpu_tracks *c, uint32_t core, uint64_t ticks, uint32_t prev,
                            int32_t prev_thread, uint32_t next, int32_t next_thread, bool blocked)
{
    trx_trace *t = c->t;
    trx_pb_reset(&c->sw);
    trx_pb_text(&c->sw, SS_PREV_COMM, comm_of(t, prev));
    trx_pb_varint(&c->sw, SS_PREV_PID, pid_of(t, prev));
    trx_pb_varint(&c->sw, SS_PREV_PRIO, prio_of(t, prev_thread));
    trx_pb_varint(&c->sw, SS_PREV_STATE, blocked ? 1 : 0); /* S (sleeping) or R (runnable) */
    trx_pb_text(&c->sw, SS_NEXT_COMM, comm_of(t, next));
    trx_pb_varint(&c->sw, SS_NEXT_PID, pid_of(t, next));
    trx_pb_varint(&c->sw, SS_NEXT_PRIO, prio_of(t, next_thread));
    trx_pb_reset(&c->event);
    trx_pb_varint(&c->event, FE_TIMESTAMP, trx_export_ticks_to_ns(c->o, ticks));
    trx_pb_varint(&c->event, FE_PID, pid_of(t, prev));
    trx_pb_message(&c->event, FE_SCHED_SWITCH, &c->sw);
    trx_pb_reset(&c->bundle);
    trx_pb_varint(&c->bundle, BUNDLE_CPU, core);
    trx_pb_message(&c->bundle, BUNDLE_EVENT, &c->event);
    trx_pb_reset(&c->pkt);
    trx_pb_message(&c->pkt, PKT_FTRACE_EVENTS, &c->bundle);
    if (c->pkt.overflow)
        return;
    uint8_t head[11];
    head[0] = TRACE_PACKET << 3 | 2;
    size_t n = 1 + trx_pb_encode_varint(head + 1, c->pkt.len);
    trx_out_mem(c->w, head, n);
    trx_out_mem(c->w, c->pkt.data, c->pkt.len);
}

/* Chrome: the slice core `core` ran `context` from its start to `ticks`. */
static void chrome_slice(trx_cpu_tracks *c, uint32_t core, uint64_t ticks)
{
    uint32_t context = c->running[core];
    if (!context || ticks <= c->since[core])
        return;
    trx_out *w = c->w;
    if (!(c->named[core / 32] & (1u << (core % 32)))) {
        c->named[core / 32] |= 1u << (core % 32);
        trx_out_printf(w,
                       ",\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,\"tid\":1,"
                       "\"args\":{\"name\":\"CPU %u\"}},\n{\"ph\":\"M\",\"name\":"
                       "\"process_sort_index\",\"pid\":%u,\"tid\":1,\"args\":{\"sort_index\":%u}}",
                       CHROME_CPU_PID + core, core, CHROME_CPU_PID + core, core);
    }
    trx_out_str(w, ",\n{\"ph\":\"X\",\"cat\":\"cpu\",\"name\":");
    trx_out_json_string(w, comm_of(c->t, context));
    trx_out_printf(w, ",\"pid\":%u,\"tid\":1,\"ts\":", CHROME_CPU_PID + core);
    trx_out_us_from_ns(w, trx_export_ticks_to_ns(c->o, c->since[core]));
    trx_out_str(w, ",\"dur\":");
    trx_out_us_from_ns(w, trx_export_ticks_to_ns(c->o, ticks) -
                              trx_export_ticks_to_ns(c->o, c->since[core]));
    trx_out_printf(w, ",\"args\":{\"core\":%u,\"ticks\":%llu}}", core,
                   (unsigned long long)(ticks - c->since[core]));
}

static void on_switch(void *ctx, uint32_t core, uint64_t ticks, uint32_t prev, int32_t prev_thread,
                      uint32_t next, int32_t next_thread, bool blocked)
{
    trx_cpu_tracks *c = ctx;
    if (c->kind == TRX_CPU_TRACKS_PERFETTO) {
        perfetto_switch(c, core, ticks, prev, prev_thread, next, next_thread, blocked);
        return;
    }
    chrome_slice(c, core, ticks);
    c->running[core] = next;
    c->since[core] = ticks;
}

trx_cpu_tracks *trx_cpu_tracks_new(trx_trace *t, trx_out *w, const trx_export_options *o,
                                   trx_cpu_tracks_kind kind)
{
    trx_cpu_tracks *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->t = t;
    c->w = w;
    c->o = o;
    c->kind = kind;
    if (!(c->tracker = trx_core_tracker_new(t))) {
        free(c);
        return NULL;
    }
    trx_core_tracker_listen(c->tracker, on_switch, c);
    return c;
}

void trx_cpu_tracks_feed(trx_cpu_tracks *c, const trx_event *ev)
{
    c->last_ticks = ev->ticks;
    trx_core_tracker_feed(c->tracker, ev);
}

void trx_cpu_tracks_finish(trx_cpu_tracks *c)
{
    if (!c)
        return;
    if (c->kind == TRX_CPU_TRACKS_CHROME)
        for (uint32_t core = 0; core < TRX_MAX_CORES; core++)
            chrome_slice(c, core, c->last_ticks);
    trx_core_tracker_discard(c->tracker);
    free(c);
}
