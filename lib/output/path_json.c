/* path_json.c - `trx why --json`: {"thread", "story",
 * "instance": {"number", "release_index", "end_index", "release_ticks",
 * "end_ticks", "response_ticks", "execution_ticks", "released_by":
 * {"context", "event_index", "object"}}, "segments": [{"start_ticks",
 * "end_ticks", "ticks", "state", "context", "object", "holder",
 * "unbounded", "segments": [...]}], "waker": {...the same...}} with *_us
 * beside the ticks where the rate is known (docs/latency.md). */
#include <inttypes.h>

#include "output/json_string.h"
#include "output/path_output.h"

#define NAME 96

/* `, "key": ticks` and, with a rate, `, "key_us": microseconds`. */
static void ticks(trx_out *o, const char *key, uint64_t v, uint64_t tps, bool first)
{
    trx_out_printf(o, "%s\"%s\": %" PRIu64, first ? "" : ", ", key, v);
    if (tps)
        trx_out_printf(o, ", \"%s_us\": %.3f", key, (double)v * 1e6 / (double)tps);
}

static void name_or_null(trx_out *o, const char *key, const char *name)
{
    trx_out_printf(o, ", \"%s\": ", key);
    if (name)
        trx_out_json_string(o, name);
    else
        trx_out_str(o, "null");
}

/* The segments first .. first + n - 1 and, inside each, its children. */
static void segments(const trx_trace *t, const trx_path *p, uint32_t first, uint32_t n,
                     uint64_t tps, trx_out *o)
{
    trx_out_char(o, '[');
    for (uint32_t i = 0; i < n; i++) {
        const trx_segment *s = &p->segments[first + i];
        char ctx[NAME], obj[NAME], holder[NAME];
        trx_out_str(o, i ? ", {" : "{");
        ticks(o, "start_ticks", s->start_ticks, tps, true);
        ticks(o, "end_ticks", s->end_ticks, tps, false);
        ticks(o, "ticks", s->end_ticks - s->start_ticks, tps, false);
        trx_out_printf(o, ", \"state\": \"%s\"", trx_segment_state_name(s->state));
        trx_path_context_name(t, s->context, s->isr, s->swi, ctx, sizeof ctx);
        name_or_null(o, "context", ctx);
        bool blocked = s->state == TRX_SEG_BLOCKED;
        if (blocked || s->object)
            trx_path_object_name(t, s->object, obj, sizeof obj);
        if (blocked && s->holder)
            trx_path_context_name(t, s->holder, 0, false, holder, sizeof holder);
        name_or_null(o, "object", blocked || s->object ? obj : NULL);
        name_or_null(o, "holder", blocked && s->holder ? holder : NULL);
        trx_out_printf(o, ", \"unbounded\": %s, \"segments\": ", s->unbounded ? "true" : "false");
        segments(t, p, s->first_child, s->child_count, tps, o);
        trx_out_char(o, '}');
    }
    trx_out_char(o, ']');
}

/* One path object (the instance's, or a waker's). */
static void path(const trx_trace *t, const trx_path *p, const trx_path_view *v, trx_out *o)
{
    uint64_t tps = v->ticks_per_second;
    char name[NAME], story[1024];
    trx_path_context_name(t, p->thread, 0, false, name, sizeof name);
    trx_out_str(o, "{\"thread\": ");
    trx_out_json_string(o, name);
    trx_path_story(t, p, v, story, sizeof story);
    trx_out_str(o, ", \"story\": ");
    trx_out_json_string(o, story);
    const trx_instance *in = &p->instance;
    trx_out_printf(o,
                   ",\n \"instance\": {\"number\": %" PRIu64 ", \"release_index\": %" PRIu64
                   ", \"end_index\": %" PRIu64 ", ",
                   in->number, in->release_index, in->end_index);
    ticks(o, "release_ticks", in->release_ticks, tps, true);
    ticks(o, "end_ticks", in->end_ticks, tps, false);
    ticks(o, "response_ticks", in->response_ticks, tps, false);
    ticks(o, "execution_ticks", in->execution_ticks, tps, false);
    char by[NAME], obj[NAME];
    trx_path_context_name(t, p->released_by, p->released_isr, p->released_swi, by, sizeof by);
    trx_out_str(o, ", \"released_by\": {\"context\": ");
    trx_out_json_string(o, by);
    trx_out_printf(o, ", \"event_index\": %" PRIu64, p->released_index);
    if (p->released_object)
        trx_path_object_name(t, p->released_object, obj, sizeof obj);
    name_or_null(o, "object", p->released_object ? obj : NULL);
    trx_out_str(o, "}},\n \"segments\": ");
    segments(t, p, 0, p->top_count, tps, o);
    if (p->waker) {
        trx_path_view wv = {tps, 0};
        trx_out_str(o, ",\n \"waker\": ");
        path(t, p->waker, &wv, o);
    }
    trx_out_char(o, '}');
}

void trx_path_write_json(const trx_trace *t, const trx_path *p, const trx_path_view *v, trx_out *o)
{
    path(t, p, v, o);
    trx_out_char(o, '\n');
}
