/*
 * export_perfetto.c - `trx export --to perfetto`: Perfetto's protobuf trace
 * (ui.perfetto.dev, trace_processor), encoded here (protobuf_writer.c).
 *
 * Layout: one sequence (trusted_packet_sequence_id 1). First the track
 * descriptors: a process track, a thread track per thread address plus
 * Interrupt, Initialization and Idle, counter tracks for the depth of each
 * registered queue, the count of each registered semaphore and the CPU load
 * (% of each window not idle). Then one TrackEvent packet per change of the
 * running lane (SLICE_END / SLICE_BEGIN "running"), per event (INSTANT with
 * its decoded fields as debug annotations, object names resolved) and per
 * counter value, and an ftrace sched_switch per change of a core's running
 * thread (export_cpu_tracks.c: a CPU track per core). Flows (timeline_flows.c) ride on the events:
 * flow_ids on the cause, terminating_flow_ids on the effect. The worst instances' critical paths
 * (export_path_flows.c, the report's budget) add a slice per instance on a "worst responses"
 * track under its thread's track and flows for the wake-up and each lock handoff. Lost-event gaps
 * are slices on a "Lost events" track. Event names, categories and annotation names are interned
 * the first time they are used. Timestamps are nanoseconds (ticks converted with
 * --ticks-per-second, else 1 tick = 1 µs). Memory: the interning bitmaps and O(threads + objects)
 * state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/events_names.h"
#include "output/export_args.h"
#include "output/export_cpu_tracks.h"
#include "output/export_formats.h"
#include "output/export_path_flows.h"
#include "output/protobuf_writer.h"
#include "output/timeline.h"

/* Field numbers from Perfetto's perfetto_trace.proto. */
enum {
    TRACE_PACKET = 1,
    PKT_TIMESTAMP = 8,
    PKT_SEQUENCE_ID = 10,
    PKT_TRACK_EVENT = 11,
    PKT_INTERNED_DATA = 12,
    PKT_SEQUENCE_FLAGS = 13,
    PKT_TRACK_DESCRIPTOR = 60,
    PKT_FIRST_ON_SEQUENCE = 87,
    SEQ_CLEARED = 1,
    SEQ_NEEDS_STATE = 2,
    TD_UUID = 1,
    TD_NAME = 2,
    TD_PROCESS = 3,
    TD_THREAD = 4,
    TD_PARENT = 5,
    TD_COUNTER = 8,
    PD_PID = 1,
    PD_NAME = 6,
    THD_PID = 1,
    THD_TID = 2,
    THD_NAME = 5,
    CD_UNIT = 3,
    CD_UNIT_NAME = 6,
    UNIT_COUNT = 2,
    TE_CATEGORY_IIDS = 3,
    TE_ANNOTATIONS = 4,
    TE_TYPE = 9,
    TE_NAME_IID = 10,
    TE_NAME = 23,
    TE_TRACK = 11,
    TE_COUNTER = 30,
    TE_DOUBLE_COUNTER = 44,
    TE_FLOW = 47,
    TE_TERMINATING_FLOW = 48,
    TYPE_BEGIN = 1,
    TYPE_END = 2,
    TYPE_INSTANT = 3,
    TYPE_COUNTER = 4,
    DA_NAME_IID = 1,
    DA_UINT = 3,
    DA_INT = 4,
    DA_STRING = 6,
    DA_NAME = 10,
    ID_CATEGORIES = 1,
    ID_EVENT_NAMES = 2,
    ID_ANNOTATION_NAMES = 3,
    INTERNED_IID = 1,
    INTERNED_NAME = 2
};

/* Track uuids. */
#define UUID_PROCESS 1u
#define UUID_LANE(l) (16u + (uint64_t)(l))
#define UUID_LOAD 8u
#define UUID_LOST 9u
#define UUID_OBJECT(o) ((1ull << 32) + (uint64_t)(o))
#define UUID_RESPONSES(l) ((2ull << 32) + (uint64_t)(l)) /* a lane's worst responses */
#define PATH_FLOWS_MAX 16 /* path flows starting or ending at one event */

/* Interned ids: names 1 = "running", id + 16 for events; annotation names
 * 1..3 fixed, then per (event id, field) a caption and an "... object" name. */
#define IID_RUNNING 1u
#define IID_EVENT(id) (16u + (uint64_t)(id))
enum { ANN_INDEX = 1, ANN_PRIORITY = 2, ANN_NEXT = 3 };
#define IID_LABEL(id, k) (16u + (uint64_t)(id)*8u + (uint64_t)(k))
#define IID_OBJECT_LABEL(id, k) (16u + (uint64_t)(id)*8u + 4u + (uint64_t)(k))

static const char *const categories[] = {"",     "run",      "threadx", "filex",     "netx",
                                         "usbx", "user",     "task",    "interrupt", "sync",
                                         "uia",  "freertos", "sysbios", "rtos"};

typedef struct perfetto_writer {
    trx_trace *t;
    trx_out *w;
    const trx_export_options *o;
    uint8_t *names_done;  /* bitmap by event id */
    uint8_t *labels_done; /* bitmap by id * 8 + slot */
    bool running_done, fixed_done, unknown_lane_done;
    uint16_t categories_done;
    trx_pb pkt, msg, sub, interned, item;
    trx_path_flows *paths; /* the worst instances' critical paths */
    /* CPU load windows */
    uint64_t window, window_end;
    double busy; /* CPU ticks (core-ticks / cores) busy in the current window */
} perfetto_writer;

static bool bit_test_set(uint8_t *bits, uint64_t i)
{
    uint8_t mask = (uint8_t)(1u << (i & 7));
    bool was = (bits[i >> 3] & mask) != 0;
    bits[i >> 3] |= mask;
    return was;
}

/* Appends one packet (built in p->pkt) to the trace. */
static void emit_packet(perfetto_writer *p)
{
    if (p->pkt.overflow)
        return; /* cannot happen with names <= 255 bytes; never write a broken packet */
    uint8_t head[11];
    head[0] = TRACE_PACKET << 3 | 2;
    size_t n = 1 + trx_pb_encode_varint(head + 1, p->pkt.len);
    trx_out_mem(p->w, head, n);
    trx_out_mem(p->w, p->pkt.data, p->pkt.len);
}

static void descriptor_packet(perfetto_writer *p, const trx_pb *desc, bool first)
{
    trx_pb_reset(&p->pkt);
    trx_pb_varint(&p->pkt, PKT_SEQUENCE_ID, 1);
    if (first) {
        trx_pb_varint(&p->pkt, PKT_SEQUENCE_FLAGS, SEQ_CLEARED);
        trx_pb_varint(&p->pkt, PKT_FIRST_ON_SEQUENCE, 1);
    }
    trx_pb_message(&p->pkt, PKT_TRACK_DESCRIPTOR, desc);
    emit_packet(p);
}

static void lane_descriptor(perfetto_writer *p, uint32_t lane)
{
    trx_pb_reset(&p->sub);
    trx_pb_varint(&p->sub, THD_PID, 1);
    trx_pb_varint(&p->sub, THD_TID, (uint64_t)lane + 1);
    trx_pb_text(&p->sub, THD_NAME, trx_lane_name(p->t, lane));
    trx_pb_reset(&p->msg);
    trx_pb_varint(&p->msg, TD_UUID, UUID_LANE(lane));
    trx_pb_varint(&p->msg, TD_PARENT, UUID_PROCESS);
    trx_pb_message(&p->msg, TD_THREAD, &p->sub);
    descriptor_packet(p, &p->msg, false);
}

static void counter_descriptor(perfetto_writer *p, uint64_t uuid, const char *what,
                               const char *name, const char *unit)
{
    char text[TRX_NAME_MAX + 40];
    size_t a = strlen(what), b = strlen(name);
    memcpy(text, what, a);
    memcpy(text + a, name, b + 1);
    trx_pb_reset(&p->sub);
    if (unit)
        trx_pb_string(&p->sub, CD_UNIT_NAME, unit);
    else
        trx_pb_varint(&p->sub, CD_UNIT, UNIT_COUNT);
    trx_pb_reset(&p->msg);
    trx_pb_varint(&p->msg, TD_UUID, uuid);
    trx_pb_varint(&p->msg, TD_PARENT, UUID_PROCESS);
    trx_pb_text(&p->msg, TD_NAME, text);
    trx_pb_message(&p->msg, TD_COUNTER, &p->sub);
    descriptor_packet(p, &p->msg, false);
}

static void write_descriptors(perfetto_writer *p)
{
    trx_trace *t = p->t;
    trx_pb_reset(&p->sub);
    trx_pb_varint(&p->sub, PD_PID, 1);
    trx_pb_text(&p->sub, PD_NAME, t->path ? t->path : "trace");
    trx_pb_reset(&p->msg);
    trx_pb_varint(&p->msg, TD_UUID, UUID_PROCESS);
    trx_pb_message(&p->msg, TD_PROCESS, &p->sub);
    descriptor_packet(p, &p->msg, true);
    for (uint32_t l = 0; l < t->thread_count; l++)
        if (trx_lane_is_used_thread(t, l))
            lane_descriptor(p, l);
    for (uint32_t k = TRX_LANE_ISR; k <= TRX_LANE_IDLE; k++)
        lane_descriptor(p, t->thread_count + k);
    for (uint32_t l = t->thread_count + TRX_LANE_CORE_ISR; l < trx_lane_count(t); l++)
        lane_descriptor(p, l); /* the cores' interrupts */
    const uint32_t *lanes;
    uint32_t n = trx_path_flows_lanes(p->paths, &lanes);
    for (uint32_t i = 0; i < n; i++) {
        char name[TRX_NAME_MAX + 40];
        snprintf(name, sizeof name, "%.*s: worst responses", TRX_NAME_MAX,
                 trx_lane_name(t, lanes[i]));
        trx_pb_reset(&p->msg);
        trx_pb_varint(&p->msg, TD_UUID, UUID_RESPONSES(lanes[i]));
        trx_pb_varint(&p->msg, TD_PARENT, UUID_LANE(lanes[i]));
        trx_pb_text(&p->msg, TD_NAME, name);
        descriptor_packet(p, &p->msg, false);
    }
    counter_descriptor(p, UUID_LOAD, "CPU load", "", "%");
    if (t->gap_count) {
        trx_pb_reset(&p->msg);
        trx_pb_varint(&p->msg, TD_UUID, UUID_LOST);
        trx_pb_varint(&p->msg, TD_PARENT, UUID_PROCESS);
        trx_pb_string(&p->msg, TD_NAME, "Lost events");
        descriptor_packet(p, &p->msg, false);
    }
    for (uint32_t o = 0; o < t->object_count; o++) {
        const trx_object *ob = &t->objects[o];
        if (ob->type == TRX_OBJ_QUEUE && trx_trace_find_object(t, ob->address) == (int32_t)o)
            counter_descriptor(p, UUID_OBJECT(o), "queue depth: ", ob->name, NULL);
        else if (ob->type == TRX_OBJ_SEMAPHORE &&
                 trx_trace_find_object(t, ob->address) == (int32_t)o)
            counter_descriptor(p, UUID_OBJECT(o), "semaphore count: ", ob->name, NULL);
    }
}

/* Adds an interned entry (iid, name) to the packet's interned data. */
static void intern(perfetto_writer *p, uint32_t kind, uint64_t iid, const char *name)
{
    trx_pb_reset(&p->item);
    trx_pb_varint(&p->item, INTERNED_IID, iid);
    trx_pb_text(&p->item, INTERNED_NAME, name);
    trx_pb_message(&p->interned, kind, &p->item);
}

/* Starts a TrackEvent packet at `ticks`: resets pkt, msg (the event) and interned. */
static void begin_event(perfetto_writer *p, uint64_t ticks, uint64_t track, uint32_t type)
{
    trx_pb_reset(&p->pkt);
    trx_pb_reset(&p->msg);
    trx_pb_reset(&p->interned);
    trx_pb_varint(&p->pkt, PKT_TIMESTAMP, trx_export_ticks_to_ns(p->o, ticks));
    trx_pb_varint(&p->pkt, PKT_SEQUENCE_ID, 1);
    trx_pb_varint(&p->pkt, PKT_SEQUENCE_FLAGS, SEQ_NEEDS_STATE);
    trx_pb_varint(&p->msg, TE_TYPE, type);
    trx_pb_varint(&p->msg, TE_TRACK, track);
}

static void end_event(perfetto_writer *p)
{
    trx_pb_message(&p->pkt, PKT_TRACK_EVENT, &p->msg);
    if (p->interned.len)
        trx_pb_message(&p->pkt, PKT_INTERNED_DATA, &p->interned);
    emit_packet(p);
}

static void category(perfetto_writer *p, uint32_t iid)
{
    if (!(p->categories_done & (1u << iid))) {
        p->categories_done |= (uint16_t)(1u << iid);
        intern(p, ID_CATEGORIES, iid, categories[iid]);
    }
    trx_pb_varint(&p->msg, TE_CATEGORY_IIDS, iid);
}

static uint32_t category_of(const trx_trace *t, const trx_event *ev)
{
    const char *c = trx_export_category_of(t, ev->id, ev->kind);
    for (uint32_t i = 2; i < sizeof categories / sizeof categories[0]; i++)
        if (strcmp(c, categories[i]) == 0)
            return i;
    return 6;
}

static void ensure_lane(perfetto_writer *p, uint32_t lane)
{
    if (lane == p->t->thread_count + TRX_LANE_UNKNOWN && !p->unknown_lane_done) {
        p->unknown_lane_done = true;
        lane_descriptor(p, lane);
    }
}

static void slice_end(perfetto_writer *p, uint32_t lane, uint64_t ticks)
{
    begin_event(p, ticks, UUID_LANE(lane), TYPE_END);
    end_event(p);
}

static void slice_begin(perfetto_writer *p, uint32_t lane, uint64_t ticks, const trx_flow *ended,
                        int n, const uint64_t *path_ended, int path_n)
{
    ensure_lane(p, lane);
    begin_event(p, ticks, UUID_LANE(lane), TYPE_BEGIN);
    if (!p->running_done) {
        p->running_done = true;
        intern(p, ID_EVENT_NAMES, IID_RUNNING, "running");
    }
    trx_pb_varint(&p->msg, TE_NAME_IID, IID_RUNNING);
    category(p, 1);
    for (int i = 0; i < n; i++)
        trx_pb_fixed64(&p->msg, TE_TERMINATING_FLOW, ended[i].id);
    for (int i = 0; i < path_n; i++)
        trx_pb_fixed64(&p->msg, TE_TERMINATING_FLOW, path_ended[i]);
    end_event(p);
}

/* One debug annotation: interned name `iid`, a uint or a string value. */
static void annotation(perfetto_writer *p, uint64_t iid, uint64_t value, const char *text)
{
    trx_pb_reset(&p->sub);
    trx_pb_varint(&p->sub, DA_NAME_IID, iid);
    if (text)
        trx_pb_text(&p->sub, DA_STRING, text);
    else
        trx_pb_varint(&p->sub, DA_UINT, value);
    trx_pb_message(&p->msg, TE_ANNOTATIONS, &p->sub);
}

/* An event's field: int_value when its description declares it i32, else uint_value. */
static void field_annotation(perfetto_writer *p, uint64_t iid, const trx_export_arg *arg)
{
    if (!arg->is_signed) {
        annotation(p, iid, arg->value, NULL);
        return;
    }
    trx_pb_reset(&p->sub);
    trx_pb_varint(&p->sub, DA_NAME_IID, iid);
    trx_pb_varint(&p->sub, DA_INT, (uint64_t)(int64_t)(int32_t)arg->value);
    trx_pb_message(&p->msg, TE_ANNOTATIONS, &p->sub);
}

/* The same with its name written out (UIA: names and captions depend on the module too). */
static void annotation_named(perfetto_writer *p, const char *name, uint64_t value, const char *text)
{
    trx_pb_reset(&p->sub);
    trx_pb_text(&p->sub, DA_NAME, name);
    if (text)
        trx_pb_text(&p->sub, DA_STRING, text);
    else
        trx_pb_varint(&p->sub, DA_UINT, value);
    trx_pb_message(&p->msg, TE_ANNOTATIONS, &p->sub);
}

/* The decoded fields of a UIA event, names written out (not interned by id). */
static void uia_fields(perfetto_writer *p, const trx_export_arg *args, int n)
{
    for (int k = 0; k < n; k++) {
        annotation_named(p, args[k].label, args[k].value, NULL);
        if (args[k].object) {
            char name[96];
            snprintf(name, sizeof name, "%.80s object", args[k].label);
            annotation_named(p, name, 0, args[k].object);
        }
    }
}

static void instant(perfetto_writer *p, const trx_event *ev, uint32_t lane,
                    const trx_flow_step *step, const uint64_t *path_started, int path_n)
{
    bool uia = p->t->format == TRX_TRACE_UIA;
    ensure_lane(p, lane);
    begin_event(p, ev->ticks, UUID_LANE(lane), TYPE_INSTANT);
    if (uia) {
        char buf[32];
        trx_pb_text(&p->msg, TE_NAME, trx_export_event_name(p->t, ev, p->o->custom, buf));
    } else {
        if (!bit_test_set(p->names_done, ev->id))
            intern(p, ID_EVENT_NAMES, IID_EVENT(ev->id), trx_event_name(ev->id, p->o->custom));
        trx_pb_varint(&p->msg, TE_NAME_IID, IID_EVENT(ev->id));
    }
    category(p, category_of(p->t, ev));
    if (!p->fixed_done) {
        p->fixed_done = true;
        intern(p, ID_ANNOTATION_NAMES, ANN_INDEX, "index");
        intern(p, ID_ANNOTATION_NAMES, ANN_PRIORITY, "priority");
        intern(p, ID_ANNOTATION_NAMES, ANN_NEXT, "next context");
    }
    annotation(p, ANN_INDEX, ev->index, NULL);
    if (trx_context_kind_of(ev->context) == TRX_CTX_THREAD)
        annotation(p, ANN_PRIORITY, trx_shown_priority(p->t, ev->priority), NULL);
    const char *next = trx_context_name(p->t, ev->next_context);
    annotation(p, ANN_NEXT, 0, next ? next : "Un-named Thread");
    trx_export_arg args[4];
    int n = trx_export_args(p->t, ev, p->o->custom, args);
    if (uia)
        uia_fields(p, args, n);
    for (int k = 0; k < n && !uia; k++) {
        if (!bit_test_set(p->labels_done, IID_LABEL(ev->id, k) - 16))
            intern(p, ID_ANNOTATION_NAMES, IID_LABEL(ev->id, k), args[k].label);
        field_annotation(p, IID_LABEL(ev->id, k), &args[k]);
        if (args[k].object) {
            if (!bit_test_set(p->labels_done, IID_OBJECT_LABEL(ev->id, k) - 16)) {
                char name[96];
                size_t len = strlen(args[k].label);
                if (len > sizeof name - 8)
                    len = sizeof name - 8;
                memcpy(name, args[k].label, len);
                memcpy(name + len, " object", 8);
                intern(p, ID_ANNOTATION_NAMES, IID_OBJECT_LABEL(ev->id, k), name);
            }
            annotation(p, IID_OBJECT_LABEL(ev->id, k), 0, args[k].object);
        }
    }
    if (step->starts)
        trx_pb_fixed64(&p->msg, TE_FLOW, step->start.id);
    for (int i = 0; i < path_n; i++)
        trx_pb_fixed64(&p->msg, TE_FLOW, path_started[i]);
    if (step->ends)
        trx_pb_fixed64(&p->msg, TE_TERMINATING_FLOW, step->end.id);
    end_event(p);
}

/* A worst instance: a slice over its response on its lane's worst-responses
 * track, its story and figures as annotations. */
static void path_slice_begin(perfetto_writer *p, const trx_path_slice *s)
{
    begin_event(p, s->release_ticks, UUID_RESPONSES(s->lane), TYPE_BEGIN);
    trx_pb_text(&p->msg, TE_NAME, s->name);
    annotation_named(p, "story", 0, s->story);
    annotation_named(p, "instance", s->number, NULL);
    annotation_named(p, "response ticks", s->response_ticks, NULL);
    end_event(p);
}

static void path_slice_end(perfetto_writer *p, const trx_path_slice *s)
{
    begin_event(p, s->end_ticks, UUID_RESPONSES(s->lane), TYPE_END);
    end_event(p);
}

/* A gap: a slice "N events lost" over the time the lost events were in. */
static void gap_slice(perfetto_writer *p, const trx_gap *g)
{
    char name[48];
    snprintf(name, sizeof name, "%llu events lost", (unsigned long long)g->lost);
    begin_event(p, g->from_ticks, UUID_LOST, TYPE_BEGIN);
    trx_pb_string(&p->msg, TE_NAME, name);
    trx_pb_reset(&p->sub);
    trx_pb_string(&p->sub, DA_NAME, "lost");
    trx_pb_varint(&p->sub, DA_UINT, g->lost);
    trx_pb_message(&p->msg, TE_ANNOTATIONS, &p->sub);
    end_event(p);
    begin_event(p, g->to_ticks > g->from_ticks ? g->to_ticks : g->from_ticks, UUID_LOST, TYPE_END);
    end_event(p);
}

static void counter_value(perfetto_writer *p, uint64_t ticks, uint64_t track, uint64_t v)
{
    begin_event(p, ticks, track, TYPE_COUNTER);
    trx_pb_varint(&p->msg, TE_COUNTER, v);
    end_event(p);
}

/* Queue depth / semaphore count as recorded by the event, for registered objects. */
static void object_counter(perfetto_writer *p, const trx_event *ev)
{
    uint32_t value;
    uint8_t type;
    switch (ev->kind) {
    case TRX_KIND_QUEUE_SEND:
    case TRX_KIND_QUEUE_RECEIVE:
        value = ev->info[3], type = TRX_OBJ_QUEUE;
        break;
    case TRX_KIND_SEM_GET:
        value = ev->info[2], type = TRX_OBJ_SEMAPHORE;
        break;
    case TRX_KIND_SEM_PUT:
        value = ev->info[1], type = TRX_OBJ_SEMAPHORE;
        break;
    default:
        return;
    }
    int32_t o = trx_trace_find_object(p->t, ev->info[0]);
    if (o >= 0 && p->t->objects[o].type == type && !ev->synthetic)
        counter_value(p, ev->ticks, UUID_OBJECT(o), value);
}

/* Accounts `from`..`to` in the CPU-load windows with `busy` of `cores` cores
 * running something other than idle, writing each finished window. */
static void load_account(perfetto_writer *p, uint32_t busy, uint32_t cores, uint64_t from,
                         uint64_t to)
{
    while (from < to) {
        uint64_t stop = to < p->window_end ? to : p->window_end;
        if (busy)
            p->busy += (double)(stop - from) * busy / cores;
        from = stop;
        if (from == p->window_end) {
            begin_event(p, p->window_end - p->window, UUID_LOAD, TYPE_COUNTER);
            trx_pb_double(&p->msg, TE_DOUBLE_COUNTER, 100.0 * (double)p->busy / (double)p->window);
            end_event(p);
            p->busy = 0;
            p->window_end += p->window;
        }
    }
}

int trx_export_perfetto(trx_trace *t, trx_out *w, const trx_export_options *o)
{
    trx_trace_prepare(t);
    perfetto_writer *p = calloc(1, sizeof *p);
    trx_flow_matcher *m = trx_flows_new(t);
    trx_cpu_tracks *cpus = trx_cpu_tracks_new(t, w, o, TRX_CPU_TRACKS_PERFETTO);
    trx_cursor c;
    int rc = -1;
    if (!p || !m || !cpus || !(p->paths = trx_path_flows_new(t, o->ticks_per_second)) ||
        !(p->names_done = calloc(65536 / 8, 1)) || !(p->labels_done = calloc(65536 * 8 / 8, 1)) ||
        trx_cursor_init(&c, t) < 0)
        goto out;
    p->t = t;
    p->w = w;
    p->o = o;
    p->window = trx_trace_span_ticks(t) / 200 + 1;
    p->window_end = p->window;
    write_descriptors(p);
    trx_run_tracker runs;
    if (trx_run_init(&runs, t) < 0) {
        trx_cursor_free(&c);
        goto out;
    }
    trx_event ev;
    uint64_t prev_ticks = 0, gap_at = 0;
    uint32_t n = 0;
    while (trx_cursor_next(&c, &ev)) {
        const trx_gap *g = trx_gap_before(t, &ev, &gap_at);
        if (g)
            gap_slice(p, g);
        if (runs.have || runs.per_core)
            load_account(p, trx_run_busy_cores(&runs, t), runs.cores, prev_ticks, ev.ticks);
        prev_ticks = ev.ticks;
        uint32_t lane = trx_lane_of_event(t, &ev, ev.context);
        trx_flow_step step;
        trx_flows_on_event(m, &ev, lane, &step);
        const trx_path_slice *ps;
        while ((ps = trx_path_flows_end_at(p->paths, ev.index)))
            path_slice_end(p, ps);
        while ((ps = trx_path_flows_begin_at(p->paths, ev.index)))
            path_slice_begin(p, ps);
        uint64_t path_ids[PATH_FLOWS_MAX];
        int path_n = trx_path_flows_on_event(p->paths, &ev, lane, path_ids, PATH_FLOWS_MAX);
        instant(p, &ev, lane, &step, path_ids, path_n);
        object_counter(p, &ev);
        trx_cpu_tracks_feed(cpus, &ev);
        trx_run_slice closed;
        int r = trx_run_feed(&runs, t, &ev, &closed);
        if (r & TRX_RUN_CLOSED)
            slice_end(p, closed.lane, ev.ticks);
        if (r & TRX_RUN_STARTED) {
            trx_flow ended[TRX_FLOWS_PER_LANE];
            int k = trx_flows_on_run(m, runs.cur.lane, ended, TRX_FLOWS_PER_LANE);
            uint64_t path_ids[PATH_FLOWS_MAX];
            int path_n = trx_path_flows_on_run(p->paths, runs.cur.lane, path_ids, PATH_FLOWS_MAX);
            slice_begin(p, runs.cur.lane, ev.ticks, ended, k, path_ids, path_n);
        }
        if ((++n & 1023u) == 0 && w->error)
            break;
    }
    trx_cursor_free(&c);
    trx_run_slice open;
    for (uint32_t i = 0; i < runs.cores; i++)
        if (trx_run_open(&runs, i, &open))
            slice_end(p, open.lane, open.end);
    trx_run_free(&runs);
    rc = 0;
out:
    if (p) {
        free(p->names_done);
        free(p->labels_done);
        trx_path_flows_free(p->paths);
    }
    free(p);
    trx_flows_free(m);
    trx_cpu_tracks_finish(cpus);
    return rc;
}
