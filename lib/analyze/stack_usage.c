/* stack_usage.c - TraceX's stack usage: the smallest free stack a thread's
 * own events show, from the information field that holds the stack pointer
 * for each event id (tracex.md 2.11): stack pointer - stack start, or 0 (the
 * last such event) once a pointer is below the start. Every thread at an
 * address sees that address's events; instead of updating each of them per
 * event, an address keeps its lowest pointer (and the first event with it)
 * and, per distinct stack start there, the last event whose pointer was
 * below that start - O(log starts) per event, each thread's figure read off
 * at the end. */
#include <stdlib.h>
#include <string.h>

#include "analyze/analyses.h"
#include "trx/catalog.h"
#include "analyze/segment_units.h"

int trx_stack_usage_field(uint32_t id)
{
    return trx_catalog_field_with_role(id, TRX_ROLE_STACK);
}

/* Ascending, for qsort of (group, start) pairs packed in a uint64_t. */
static int ascending(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* First position in starts[0..n) whose start is above `sp`. */
static uint32_t first_above(const uint32_t *starts, uint32_t n, uint32_t sp)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (starts[mid] > sp)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

int trx_stack_usage_init(trx_stack_usage *u, const trx_trace *t)
{
    memset(u, 0, sizeof *u);
    uint32_t n = t->thread_count;
    if (t->shared_thread_addresses_ == 0) {
        u->one_each = true;
        u->below = calloc(n ? n : 1, sizeof *u->below);
        u->groups = calloc(n ? n : 1, sizeof *u->groups);
        u->group_count = u->start_count = n;
        if (!u->below || !u->groups) {
            trx_stack_usage_discard(u);
            return -1;
        }
        return 0;
    }
    u->group_of = malloc((n ? n : 1) * sizeof *u->group_of);
    uint64_t *pairs = malloc((n ? n : 1) * sizeof *pairs);
    u->starts = malloc((n ? n : 1) * sizeof *u->starts);
    u->below = calloc(n ? n : 1, sizeof *u->below);
    u->groups = calloc(n ? n : 1, sizeof *u->groups);
    if (!u->group_of || !pairs || !u->starts || !u->below || !u->groups) {
        free(pairs);
        trx_stack_usage_discard(u);
        return -1;
    }
    /* a group per address, named by its first thread; its distinct starts, sorted */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t first = trx_thread_first_at_its_address(t, i);
        pairs[i] = (uint64_t)first << 32 | t->threads[i].stack_start;
    }
    bool sorted = true; /* mostly: threads at addresses of their own, in order */
    for (uint32_t i = 1; i < n && sorted; i++)
        sorted = pairs[i - 1] <= pairs[i];
    if (!sorted)
        qsort(pairs, n, sizeof *pairs, ascending);
    for (uint32_t i = 0; i < n; i++)
        u->group_of[i] = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t first = (uint32_t)(pairs[i] >> 32), start = (uint32_t)pairs[i];
        if (u->group_of[first] == UINT32_MAX) {
            u->group_of[first] = u->group_count;
            u->groups[u->group_count++] = (trx_stack_group){.first_start = u->start_count};
        }
        trx_stack_group *g = &u->groups[u->group_of[first]];
        if (g->start_count == 0 || u->starts[u->start_count - 1] != start) {
            u->starts[u->start_count++] = start;
            g->start_count++;
        }
    }
    free(pairs);
    return 0;
}

void trx_stack_usage_feed_shared(trx_stack_usage *u, uint64_t index, uint32_t first, uint32_t sp)
{
    trx_stack_group *g = &u->groups[u->group_of[first]];
    if (!g->seen || sp < g->min_sp) {
        g->seen = true;
        g->min_sp = sp;
        g->min_index = index;
    }
    uint32_t k = first_above(u->starts + g->first_start, g->start_count, sp);
    if (k < g->start_count)
        u->below[g->first_start + k] = index + 1; /* the latest, for every start from k up */
}

int trx_stack_usage_finish(trx_stack_usage *u, const trx_trace *t, trx_stats *s)
{
    /* per group: the last event below each start = the latest of those below it or a lower one */
    for (uint32_t gi = 0; !u->one_each && gi < u->group_count; gi++) {
        const trx_stack_group *g = &u->groups[gi];
        for (uint32_t k = 1; k < g->start_count; k++) {
            uint64_t *b = &u->below[g->first_start + k];
            if (b[-1] > *b)
                *b = b[-1];
        }
    }
    for (uint32_t i = 0; i < t->thread_count && i < s->thread_count; i++) {
        const trx_thread *th = &t->threads[i];
        trx_thread_stats *ts = &s->threads[i];
        const trx_stack_group *g;
        uint64_t last_below;
        if (u->one_each) {
            g = &u->groups[i];
            last_below = u->below[i];
        } else {
            g = &u->groups[u->group_of[trx_thread_first_at_its_address(t, i)]];
            uint32_t k =
                first_above(u->starts + g->first_start, g->start_count, th->stack_start) - 1;
            last_below = u->below[g->first_start + k];
        }
        ts->stack_min_available = th->stack_size;
        ts->stack_min_event = 0;
        if (last_below) {
            ts->stack_min_available = 0;
            ts->stack_min_event = last_below - 1;
        } else if (g->seen && g->min_sp - th->stack_start < th->stack_size) {
            ts->stack_min_available = g->min_sp - th->stack_start;
            ts->stack_min_event = g->min_index;
        }
    }
    trx_stack_usage_discard(u);
    return 0;
}

void trx_stack_usage_discard(trx_stack_usage *u)
{
    free(u->group_of);
    free(u->starts);
    free(u->below);
    free(u->groups);
    memset(u, 0, sizeof *u);
}

/* Segments (segment_units.h). No state: the lowest pointer of each group
 * (the first event with it) and the last event below each start are all
 * results. */
void trx_stack_usage_fingerprint(const trx_stack_usage *u, const trx_trace *t, trx_fingerprint *f,
                                 uint64_t base)
{
    (void)u;
    (void)t;
    (void)f;
    (void)base;
}

void trx_stack_usage_clear_results(trx_stack_usage *u)
{
    for (uint32_t g = 0; g < u->group_count; g++) {
        u->groups[g].seen = false;
        u->groups[g].min_sp = 0;
        u->groups[g].min_index = 0;
    }
    for (uint32_t k = 0; k < u->start_count; k++)
        u->below[k] = 0;
}

int trx_stack_usage_merge(trx_stack_usage *later, trx_stack_usage *earlier, const trx_trace *t,
                          uint64_t offset)
{
    (void)t;
    /* both were set up from the same trace: the same groups and starts */
    for (uint32_t g = 0; g < later->group_count && g < earlier->group_count; g++) {
        trx_stack_group *l = &later->groups[g];
        const trx_stack_group *e = &earlier->groups[g];
        if (e->seen && (!l->seen || e->min_sp <= l->min_sp)) {
            l->seen = true; /* the earlier event wins a tie: it was first */
            l->min_sp = e->min_sp;
            l->min_index = e->min_index;
        } else if (l->seen) {
            l->min_index += offset;
        }
    }
    for (uint32_t k = 0; k < later->start_count && k < earlier->start_count; k++)
        later->below[k] = later->below[k] ? later->below[k] + offset : earlier->below[k];
    return 0;
}
