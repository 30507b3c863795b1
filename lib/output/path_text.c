/* path_text.c - `trx why` as text: the story line, what released the
 * instance, then its segments indented under it (a lock holder's split
 * under its blocked segment), then the waker's path with --depth. */
#include <inttypes.h>

#include "output/path_output.h"

#define NAME 96
#define MAX_LINES 40 /* segments shown per level (--json lists them all) */

/* A duration: ticks, and microseconds with a known rate. */
static void duration(trx_out *o, uint64_t v, uint64_t tps)
{
    trx_out_printf(o, "%12" PRIu64, v);
    if (tps)
        trx_out_printf(o, " (%.1f us)", (double)v * 1e6 / (double)tps);
}

static void segment_line(const trx_trace *t, const trx_segment *s, uint64_t whole, uint64_t tps,
                         trx_out *o)
{
    char who[NAME], what[NAME];
    uint64_t ticks = s->end_ticks - s->start_ticks;
    trx_out_printf(o, "%*s%" PRIu64 " .. %" PRIu64 " ", (int)(4 + 2 * s->depth), "", s->start_ticks,
                   s->end_ticks);
    duration(o, ticks, tps);
    trx_out_printf(o, " %3u %%  %s", whole ? (unsigned)((ticks * 100 + whole / 2) / whole) : 0,
                   trx_segment_state_name(s->state));
    trx_path_context_name(t, s->context, s->isr, s->swi, who, sizeof who);
    switch (s->state) {
    case TRX_SEG_PREEMPTED:
    case TRX_SEG_INTERRUPTED:
        trx_out_printf(o, " by %s", who);
        break;
    case TRX_SEG_BLOCKED:
        trx_path_object_name(t, s->object, what, sizeof what);
        trx_path_context_name(t, s->holder, 0, false, who, sizeof who);
        trx_out_printf(o, " on %s held by %s", what, s->holder ? who : "?");
        break;
    case TRX_SEG_READY:
        trx_out_printf(o, " (%s ran)", who);
        break;
    default:
        trx_out_printf(o, " (%s)", who);
        break;
    }
    trx_out_str(o, s->unbounded ? "  UNBOUNDED priority inversion\n" : "\n");
}

/* Segments first .. first + n - 1 (percentages of `whole`), children under each. */
static void segment_lines(const trx_trace *t, const trx_path *p, uint32_t first, uint32_t n,
                          uint64_t whole, uint64_t tps, trx_out *o)
{
    for (uint32_t i = 0; i < n; i++) {
        const trx_segment *s = &p->segments[first + i];
        if (i == MAX_LINES) {
            trx_out_printf(o, "%*s... %" PRIu32 " more (--json lists them all)\n",
                           (int)(4 + 2 * s->depth), "", n - i);
            return;
        }
        segment_line(t, s, whole, tps, o);
        segment_lines(t, p, s->first_child, s->child_count, s->end_ticks - s->start_ticks, tps, o);
    }
}

static void path(const trx_trace *t, const trx_path *p, const trx_path_view *v, int level,
                 trx_out *o)
{
    char story[1024], by[NAME], obj[NAME];
    trx_path_story(t, p, v, story, sizeof story);
    trx_out_printf(o, "%s%s\n", level ? "woken by: " : "", story);
    trx_path_context_name(t, p->released_by, p->released_isr, p->released_swi, by, sizeof by);
    trx_out_printf(o, "  released at %" PRIu64 " (event %" PRIu64 ") by %s",
                   p->instance.release_ticks, p->released_index, by);
    if (p->released_object) {
        trx_path_object_name(t, p->released_object, obj, sizeof obj);
        trx_out_printf(o, ", which last named %s", obj);
    }
    trx_out_printf(o, "; %s at %" PRIu64 " (event %" PRIu64 ")\n", level ? "posted" : "ended",
                   p->instance.end_ticks, p->instance.end_index);
    trx_out_printf(o, "  segments (start .. end, ticks%s, share):\n",
                   v->ticks_per_second ? " (microseconds)" : "");
    segment_lines(t, p, 0, p->top_count, p->instance.response_ticks, v->ticks_per_second, o);
    if (p->waker) {
        trx_path_view wv = {v->ticks_per_second, 0};
        path(t, p->waker, &wv, level + 1, o);
    }
}

void trx_path_write_text(const trx_trace *t, const trx_path *p, const trx_path_view *v, trx_out *o)
{
    path(t, p, v, 0, o);
}
