/*
 * export_chrome_json.c - `trx export --to chrome-json`: Chrome's Trace Event
 * Format, read by chrome://tracing, ui.perfetto.dev and Speedscope-style
 * viewers. One process; one thread (tid = lane + 1) per thread address plus
 * Interrupt, Initialization, Idle (and Unknown) with thread_name metadata;
 * "X" slices for the time each lane runs; an "i" instant per event with its
 * decoded fields as args; "C" counters for queue depth and semaphore count
 * (registered objects); "s"/"f" flow pairs (timeline_flows.c); lost-event
 * gaps as "X" slices on a "Lost events" thread. Timestamps
 * are microseconds (ticks converted with --ticks-per-second, else 1 tick =
 * 1 µs). Per core, a process "CPU n" (pid 1000 + n) whose slices name the
 * thread the core runs (export_cpu_tracks.c). Written in one pass; memory
 * independent of the trace length.
 */
#include <stdio.h>
#include <string.h>

#include "output/events_names.h"
#include "output/export_args.h"
#include "output/export_cpu_tracks.h"
#include "output/export_formats.h"
#include "output/json_string.h"
#include "output/timeline.h"

static void num(trx_out *w, uint64_t v)
{
    trx_out_u64_pad(w, v, 0, ' ');
}

/* ,"ts":T for `ticks`. */
static void ts(trx_out *w, const trx_export_options *o, uint64_t ticks)
{
    trx_out_str(w, ",\"ts\":");
    trx_out_us_from_ns(w, trx_export_ticks_to_ns(o, ticks));
}

/* Starts one element of traceEvents: {"ph":"P","pid":1,"tid":T */
static void open_event(trx_out *w, char ph, uint32_t lane)
{
    trx_out_str(w, ",\n{\"ph\":\"");
    trx_out_char(w, ph);
    trx_out_str(w, "\",\"pid\":1,\"tid\":");
    num(w, (uint64_t)lane + 1);
}

static void write_metadata(trx_out *w, const trx_trace *t)
{
    trx_out_str(w, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"
                   "{\"ph\":\"M\",\"pid\":1,\"tid\":0,\"name\":\"process_name\",\"args\":{"
                   "\"name\":");
    trx_out_json_string(w, t->path ? t->path : "trace");
    trx_out_str(w, "}}");
    uint32_t lanes = trx_lane_count(t);
    for (uint32_t l = 0; l < lanes; l++) {
        if (l < t->thread_count && !trx_lane_is_used_thread(t, l))
            continue;
        open_event(w, 'M', l);
        trx_out_str(w, ",\"name\":\"thread_name\",\"args\":{\"name\":");
        trx_out_json_string(w, trx_lane_name(t, l));
        if (l < t->thread_count) { /* the thread's address, for tools that match by it */
            trx_out_str(w, ",\"address\":");
            num(w, t->threads[l].handle);
        }
        trx_out_str(w, "}}");
        open_event(w, 'M', l);
        trx_out_str(w, ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":");
        num(w, l);
        trx_out_str(w, "}}");
    }
    if (t->gap_count) {
        open_event(w, 'M', trx_lane_lost(t));
        trx_out_str(w, ",\"name\":\"thread_name\",\"args\":{\"name\":\"Lost events\"}}");
    }
}

/* A gap: an X slice over the time the lost events were in, on the Lost events thread. */
static void write_gap(trx_out *w, const trx_trace *t, const trx_export_options *o, const trx_gap *g)
{
    open_event(w, 'X', trx_lane_lost(t));
    trx_out_str(w, ",\"cat\":\"lost\",\"name\":\"");
    num(w, g->lost);
    trx_out_str(w, " events lost\"");
    ts(w, o, g->from_ticks);
    uint64_t a = trx_export_ticks_to_ns(o, g->from_ticks),
             b = trx_export_ticks_to_ns(o, g->to_ticks);
    trx_out_str(w, ",\"dur\":");
    trx_out_us_from_ns(w, b > a ? b - a : 0);
    trx_out_str(w, ",\"args\":{\"lost\":");
    num(w, g->lost);
    trx_out_str(w, ",\"before_event\":");
    num(w, g->index);
    trx_out_str(w, "}}");
}

static void write_slice(trx_out *w, const trx_export_options *o, const trx_run_slice *s)
{
    open_event(w, 'X', s->lane);
    trx_out_str(w, ",\"cat\":\"run\",\"name\":\"running\"");
    ts(w, o, s->start);
    uint64_t a = trx_export_ticks_to_ns(o, s->start), b = trx_export_ticks_to_ns(o, s->end);
    trx_out_str(w, ",\"dur\":");
    trx_out_us_from_ns(w, b - a);
    trx_out_str(w, ",\"args\":{\"ticks\":");
    num(w, s->end - s->start);
    trx_out_str(w, ",\"first_event\":");
    num(w, s->first_event);
    trx_out_str(w, "}}");
}

static void write_instant(trx_out *w, const trx_trace *t, const trx_export_options *o,
                          const trx_event *ev, uint32_t lane)
{
    open_event(w, 'i', lane);
    trx_out_str(w, ",\"s\":\"t\",\"cat\":\"");
    trx_out_str(w, ev->synthetic ? "synthetic" : trx_export_category_of(t, ev->id, ev->kind));
    trx_out_str(w, "\",\"name\":");
    char buf[32];
    trx_out_json_string(w, trx_export_event_name(t, ev, o->custom, buf));
    ts(w, o, ev->ticks);
    trx_out_str(w, ",\"args\":{\"index\":");
    num(w, ev->index);
    trx_out_str(w, ",\"id\":");
    num(w, ev->id);
    trx_out_str(w, ",\"ticks\":");
    num(w, ev->ticks);
    if (trx_context_kind_of(ev->context) == TRX_CTX_THREAD) {
        trx_out_str(w, ",\"priority\":");
        num(w, trx_shown_priority(t, ev->priority));
    }
    trx_export_arg args[4];
    int n = trx_export_args(t, ev, o->custom, args);
    for (int k = 0; k < n; k++) {
        trx_out_char(w, ',');
        trx_out_json_string(w, args[k].label);
        trx_out_char(w, ':');
        trx_out_word(w, args[k].value, args[k].is_signed);
        if (args[k].object) {
            char key[96];
            snprintf(key, sizeof key, "%s object", args[k].label);
            trx_out_char(w, ',');
            trx_out_json_string(w, key);
            trx_out_char(w, ':');
            trx_out_json_string(w, args[k].object);
        }
    }
    trx_out_str(w, "}}");
}

/* "C" events: queue depth (send / receive: info4 = enqueued) and semaphore
 * count (put: info2, get: info3) of registered objects, as recorded. */
static void write_counter(trx_out *w, const trx_trace *t, const trx_export_options *o,
                          const trx_event *ev)
{
    uint32_t value;
    const char *what;
    uint8_t type;
    switch (ev->kind) {
    case TRX_KIND_QUEUE_SEND:
    case TRX_KIND_QUEUE_RECEIVE:
        value = ev->info[3], what = "queue depth: ", type = TRX_OBJ_QUEUE;
        break;
    case TRX_KIND_SEM_GET:
        value = ev->info[2], what = "semaphore count: ", type = TRX_OBJ_SEMAPHORE;
        break;
    case TRX_KIND_SEM_PUT:
        value = ev->info[1], what = "semaphore count: ", type = TRX_OBJ_SEMAPHORE;
        break;
    default:
        return;
    }
    int32_t obj = trx_trace_find_object(t, ev->info[0]);
    if (obj < 0 || t->objects[obj].type != type || ev->synthetic)
        return;
    char name[TRX_NAME_MAX + 32];
    snprintf(name, sizeof name, "%s%s", what, t->objects[obj].name);
    trx_out_str(w, ",\n{\"ph\":\"C\",\"pid\":1,\"name\":");
    trx_out_json_string(w, name);
    ts(w, o, ev->ticks);
    trx_out_str(w, ",\"args\":{\"value\":");
    num(w, value);
    trx_out_str(w, "}}");
}

/* A flow as an "s" at its start and an "f" (binding to the enclosing slice) at its end. */
static void write_flow(trx_out *w, const trx_export_options *o, const trx_flow *from,
                       uint32_t to_lane, uint64_t to_ticks)
{
    open_event(w, 's', from->lane);
    trx_out_str(w, ",\"cat\":\"flow\",\"name\":\"cause\",\"id\":");
    num(w, from->id);
    ts(w, o, from->ticks);
    trx_out_char(w, '}');
    open_event(w, 'f', to_lane);
    trx_out_str(w, ",\"bp\":\"e\",\"cat\":\"flow\",\"name\":\"cause\",\"id\":");
    num(w, from->id);
    ts(w, o, to_ticks);
    trx_out_char(w, '}');
}

int trx_export_chrome_json(trx_trace *t, trx_out *w, const trx_export_options *o)
{
    trx_trace_prepare(t);
    trx_flow_matcher *m = trx_flows_new(t);
    trx_cpu_tracks *cpus = trx_cpu_tracks_new(t, w, o, TRX_CPU_TRACKS_CHROME);
    trx_cursor c;
    if (!m || !cpus || trx_cursor_init(&c, t) < 0) {
        trx_flows_free(m);
        trx_cpu_tracks_finish(cpus);
        return -1;
    }
    trx_run_tracker runs;
    if (trx_run_init(&runs, t) < 0) {
        trx_cursor_free(&c);
        trx_flows_free(m);
        trx_cpu_tracks_finish(cpus);
        return -1;
    }
    write_metadata(w, t);
    trx_event ev;
    uint64_t gap_at = 0;
    uint32_t n = 0;
    while (trx_cursor_next(&c, &ev)) {
        const trx_gap *g = trx_gap_before(t, &ev, &gap_at);
        if (g)
            write_gap(w, t, o, g);
        uint32_t lane = trx_lane_of_event(t, &ev, ev.context);
        write_instant(w, t, o, &ev, lane);
        write_counter(w, t, o, &ev);
        trx_cpu_tracks_feed(cpus, &ev);
        trx_flow_step step;
        trx_flows_on_event(m, &ev, lane, &step);
        if (step.ends)
            write_flow(w, o, &step.end, lane, ev.ticks);
        trx_run_slice closed;
        int r = trx_run_feed(&runs, t, &ev, &closed);
        if (r & TRX_RUN_CLOSED)
            write_slice(w, o, &closed);
        if (r & TRX_RUN_STARTED) {
            trx_flow ended[TRX_FLOWS_PER_LANE];
            int k = trx_flows_on_run(m, runs.cur.lane, ended, TRX_FLOWS_PER_LANE);
            for (int i = 0; i < k; i++)
                write_flow(w, o, &ended[i], runs.cur.lane, ev.ticks);
        }
        if ((++n & 1023u) == 0 && w->error)
            break;
    }
    trx_cursor_free(&c);
    trx_run_slice open;
    for (uint32_t i = 0; i < runs.cores; i++)
        if (trx_run_open(&runs, i, &open)) /* the last slices, even when empty (as Perfetto's) */
            write_slice(w, o, &open);
    trx_run_free(&runs);
    trx_cpu_tracks_finish(cpus); /* the cores' last slices */
    trx_out_str(w, "\n]}\n");
    trx_flows_free(m);
    return 0;
}
