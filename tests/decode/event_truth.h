/* event_truth.h - for tests that check cursors against a walk from the
 * start: every event of a trace, and a field-by-field comparison. */
#ifndef TRX_TESTS_EVENT_TRUTH_H
#define TRX_TESTS_EVENT_TRUTH_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "trx/trx.h"

/* True when every field of a and b is equal. */
static inline bool same_event(const trx_event *a, const trx_event *b)
{
    return a->index == b->index && a->ticks == b->ticks && a->timestamp == b->timestamp &&
           a->id == b->id && a->raw_id == b->raw_id && a->raw_priority == b->raw_priority &&
           a->context == b->context && a->priority == b->priority && a->threshold == b->threshold &&
           a->next_context == b->next_context && memcmp(a->info, b->info, sizeof a->info) == 0 &&
           a->core == b->core && a->entry == b->entry && a->thread == b->thread &&
           a->synthetic == b->synthetic && a->kind == b->kind && a->flags == b->flags &&
           a->module == b->module && a->priority_change == b->priority_change &&
           a->lost_before == b->lost_before && a->subject == b->subject && a->time == b->time &&
           a->seq == b->seq;
}

/* Every event of `t` from a cursor at the start (free it), or NULL. */
static inline trx_event *all_events(trx_trace *t, uint64_t *count)
{
    trx_cursor c;
    uint64_t cap = 1024, n = 0;
    trx_event *ev = malloc(cap * sizeof *ev);
    if (!ev || trx_cursor_init(&c, t) < 0) {
        free(ev);
        return NULL;
    }
    for (;;) {
        if (n == cap) {
            trx_event *more = realloc(ev, (cap *= 2) * sizeof *ev);
            if (!more) {
                free(ev);
                trx_cursor_free(&c);
                return NULL;
            }
            ev = more;
        }
        if (!trx_cursor_next(&c, &ev[n]))
            break;
        n++;
    }
    *count = n;
    return ev;
}

#endif
