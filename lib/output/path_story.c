/* path_story.c - the one line of `trx why` a person reads first: how long
 * the instance took against its thread's median, its biggest cause and,
 * when that is a lock wait, what kept the holder from releasing it. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "output/path_output.h"

#define NAME 96

/* The biggest group of alike segments (same state, context, object,
 * holder) among `n` segments from `first`: its first segment and ticks.
 * `only_state` >= 0: only segments in that state are candidates;
 * `skip_running`: running ones are not; `prefer_unbounded`: a group that
 * holds an unbounded segment wins over any that does not. */
static const trx_segment *biggest(const trx_segment *first, uint32_t n, int only_state,
                                  bool skip_running, bool prefer_unbounded, uint64_t *ticks_out)
{
    const trx_segment *best = NULL;
    uint64_t best_ticks = 0;
    bool best_unbounded = false;
    for (uint32_t i = 0; i < n; i++) { /* segments are few: quadratic is fine here */
        const trx_segment *s = &first[i];
        if ((skip_running && s->state == TRX_SEG_RUNNING) ||
            (only_state >= 0 && s->state != only_state))
            continue;
        bool seen = false;
        for (uint32_t j = 0; j < i && !seen; j++)
            seen = first[j].state == s->state && first[j].context == s->context &&
                   first[j].isr == s->isr && first[j].object == s->object &&
                   first[j].holder == s->holder;
        if (seen)
            continue;
        uint64_t ticks = 0;
        bool unbounded = false;
        for (uint32_t j = i; j < n; j++)
            if (first[j].state == s->state && first[j].context == s->context &&
                first[j].isr == s->isr && first[j].object == s->object &&
                first[j].holder == s->holder) {
                ticks += first[j].end_ticks - first[j].start_ticks;
                unbounded |= first[j].unbounded;
            }
        bool better =
            prefer_unbounded && unbounded != best_unbounded ? unbounded : ticks > best_ticks;
        if (!best || better) {
            best = s;
            best_ticks = ticks;
            best_unbounded = unbounded;
        }
    }
    *ticks_out = best_ticks;
    return best;
}

/* "blocked on inv_lock held by low_prio", "preempted by medium_prio" ... */
static void cause(const trx_trace *t, const trx_segment *s, char *buf, size_t size)
{
    char who[NAME], what[NAME];
    trx_path_context_name(t, s->context, s->isr, s->swi, who, sizeof who);
    switch (s->state) {
    case TRX_SEG_RUNNING:
        snprintf(buf, size, "running");
        break;
    case TRX_SEG_PREEMPTED:
        snprintf(buf, size, "preempted by %s", who);
        break;
    case TRX_SEG_INTERRUPTED:
        snprintf(buf, size, "interrupted by %s", who);
        break;
    case TRX_SEG_BLOCKED:
        trx_path_object_name(t, s->object, what, sizeof what);
        trx_path_context_name(t, s->holder, 0, false, who, sizeof who);
        snprintf(buf, size, "blocked on %s held by %s", what, s->holder ? who : "?");
        break;
    case TRX_SEG_WAITING:
        snprintf(buf, size, "waiting for a trigger (a sleep, a queue ...)");
        break;
    default:
        snprintf(buf, size, "ready while %s ran", who);
        break;
    }
}

static unsigned percent(uint64_t part, uint64_t whole)
{
    return whole ? (unsigned)((part * 100 + whole / 2) / whole) : 0;
}

/* `v` with thousands separated by commas. */
static void grouped(uint64_t v, char *buf, size_t size)
{
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%" PRIu64, v);
    size_t o = 0;
    for (int i = 0; i < n && o + 2 < size; i++) {
        if (i && (n - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
}

void trx_path_story(const trx_trace *t, const trx_path *p, const trx_path_view *v, char *buf,
                    size_t size)
{
    char name[NAME], ticks[40], ratio[48] = "", why[2 * NAME + 64];
    trx_path_context_name(t, p->thread, 0, false, name, sizeof name);
    grouped(p->instance.response_ticks, ticks, sizeof ticks);
    if (v->median_ticks)
        snprintf(ratio, sizeof ratio, " (%.1fx its median)",
                 (double)p->instance.response_ticks / (double)v->median_ticks);
    /* the state it spent most of the time in besides running */
    uint64_t whole = p->instance.response_ticks, part = 0, by_state[TRX_SEG_WAITING + 1] = {0};
    for (uint32_t i = 0; i < p->top_count; i++)
        if (p->segments[i].state <= TRX_SEG_WAITING)
            by_state[p->segments[i].state] += p->segments[i].end_ticks - p->segments[i].start_ticks;
    int state = -1;
    for (int k = TRX_SEG_PREEMPTED; k <= TRX_SEG_WAITING; k++)
        if (by_state[k] && (state < 0 || by_state[k] > by_state[state]))
            state = k;
    const trx_segment *top =
        state >= 0 ? biggest(p->segments, p->top_count, state, true, false, &part) : NULL;
    if (!top || !part) {
        snprintf(buf, size, "%s #%" PRIu64 " took %s ticks%s: it ran all the time", name,
                 p->instance.number, ticks, ratio);
        return;
    }
    cause(t, top, why, sizeof why);
    int n;
    if (state == TRX_SEG_BLOCKED || part == by_state[state])
        n = snprintf(buf, size, "%s #%" PRIu64 " took %s ticks%s: %u %% %s", name,
                     p->instance.number, ticks, ratio, percent(part, whole), why);
    else /* "45 % preempted, 19 % by X" */
        n = snprintf(buf, size, "%s #%" PRIu64 " took %s ticks%s: %u %% %s, %u %% %s", name,
                     p->instance.number, ticks, ratio, percent(by_state[state], whole),
                     trx_segment_state_name(state), percent(part, whole),
                     strchr(why, ' ') ? strchr(why, ' ') + 1 : why);
    if (top->state != TRX_SEG_BLOCKED || n < 0 || (size_t)n >= size)
        return;
    /* the holder's side: every child of the blocked segments of that group */
    uint64_t blocked = 0, inner = 0;
    const trx_segment *worst = NULL;
    for (uint32_t i = 0; i < p->top_count; i++) {
        const trx_segment *s = &p->segments[i];
        if (s->state != TRX_SEG_BLOCKED || s->object != top->object || s->holder != top->holder)
            continue;
        blocked += s->end_ticks - s->start_ticks;
        uint64_t k = 0;
        const trx_segment *c =
            biggest(p->segments + s->first_child, s->child_count, -1, true, true, &k);
        if (c && (!worst || (c->unbounded && !worst->unbounded) ||
                  (c->unbounded == worst->unbounded && k > inner))) {
            worst = c;
            inner = k;
        }
    }
    if (!worst || !inner)
        return;
    inner = 0; /* that cause over every blocked segment of the group */
    for (uint32_t i = 0; i < p->top_count; i++) {
        const trx_segment *s = &p->segments[i];
        if (s->state != TRX_SEG_BLOCKED || s->object != top->object || s->holder != top->holder)
            continue;
        for (uint32_t j = 0; j < s->child_count; j++) {
            const trx_segment *c = &p->segments[s->first_child + j];
            if (c->state == worst->state && c->context == worst->context && c->isr == worst->isr &&
                c->object == worst->object && c->holder == worst->holder)
                inner += c->end_ticks - c->start_ticks;
        }
    }
    char holder[NAME];
    trx_path_context_name(t, top->holder, 0, false, holder, sizeof holder);
    cause(t, worst, why, sizeof why);
    snprintf(buf + n, size - (size_t)n, ", of which %u %% %s was %s%s", percent(inner, blocked),
             holder, why, worst->unbounded ? " - an unbounded priority inversion" : "");
}
