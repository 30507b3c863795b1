/* open_windows.c - open inversion windows bucketed by blocked priority
 * (1024 levels: ThreadX priorities are 10 bits; larger values share the top
 * level and are checked one by one), and inside a level grouped by owner, so
 * the owner's own group is skipped in O(1). A bitmap finds the non-empty
 * levels below a priority. */
#include <stdlib.h>
#include <string.h>

#include "analyze/open_windows.h"
#include "util/address_map.h"

#define LEVELS 1024u
#define TOP (LEVELS - 1u)
#define NIL (-1)

/* The windows of one owner at one level: a doubly linked list of slots. */
typedef struct group {
    uint32_t owner, level;
    int32_t first;      /* first slot */
    int32_t prev, next; /* neighbouring groups of the level */
} group;

/* One window slot. */
typedef struct slot {
    uint32_t blocked_prio;
    int32_t group; /* NIL when closed */
    int32_t prev, next;
} slot;

typedef struct level {
    int32_t first_group;
    trx_address_map owners; /* owner -> group index + 1 (0: none) */
} level;

struct trx_open_windows {
    slot *slots;                     /* grown as windows open */
    uint32_t slot_count, slot_limit; /* allocated; the most slot numbers */
    group *groups;
    uint32_t group_count, group_cap;
    int32_t free_group; /* a free list through group.next */
    level levels[LEVELS];
    uint64_t nonempty[LEVELS / 64];
    uint32_t *closed;
    uint32_t closed_count, closed_cap;
};

trx_open_windows *trx_open_windows_new(uint32_t slots)
{
    trx_open_windows *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->slot_limit = slots ? slots : 1;
    for (uint32_t l = 0; l < LEVELS; l++)
        w->levels[l].first_group = NIL;
    w->free_group = NIL;
    return w;
}

static uint32_t level_of(uint32_t prio)
{
    return prio < TOP ? prio : TOP;
}

/* A free group index, or NIL when out of memory. */
static int32_t new_group(trx_open_windows *w)
{
    if (w->free_group != NIL) {
        int32_t g = w->free_group;
        w->free_group = w->groups[g].next;
        return g;
    }
    if (w->group_count == w->group_cap) {
        uint32_t cap = w->group_cap ? w->group_cap * 2 : 16;
        group *n = realloc(w->groups, (size_t)cap * sizeof *n);
        if (!n)
            return NIL;
        w->groups = n;
        w->group_cap = cap;
    }
    return (int32_t)w->group_count++;
}

/* Unlinks an empty group from its level and frees it. */
static void drop_group(trx_open_windows *w, int32_t g)
{
    group *gr = &w->groups[g];
    level *lv = &w->levels[gr->level];
    if (gr->prev != NIL)
        w->groups[gr->prev].next = gr->next;
    else
        lv->first_group = gr->next;
    if (gr->next != NIL)
        w->groups[gr->next].prev = gr->prev;
    uint32_t *ref = trx_address_map_find(&lv->owners, gr->owner);
    if (ref)
        *ref = 0;
    if (lv->first_group == NIL)
        w->nonempty[gr->level / 64] &= ~(1ull << (gr->level % 64));
    gr->next = w->free_group;
    w->free_group = g;
}

int trx_open_windows_add(trx_open_windows *w, uint32_t s, uint32_t owner, uint32_t blocked_prio)
{
    if (s >= w->slot_limit)
        return -1;
    if (s >= w->slot_count) { /* slots up to s, closed */
        uint64_t want = (uint64_t)w->slot_count + w->slot_count / 2 + 16;
        uint32_t cap = want > w->slot_limit ? w->slot_limit : (uint32_t)want;
        if (cap <= s)
            cap = s + 1;
        slot *n = realloc(w->slots, (size_t)cap * sizeof *n);
        if (!n)
            return -1;
        for (uint32_t i = w->slot_count; i < cap; i++)
            n[i] = (slot){0, NIL, NIL, NIL};
        w->slots = n;
        w->slot_count = cap;
    }
    uint32_t l = level_of(blocked_prio);
    level *lv = &w->levels[l];
    bool added;
    uint32_t *ref = trx_address_map_slot(&lv->owners, owner, 0, &added);
    if (!ref)
        return -1;
    int32_t g;
    if (*ref) {
        g = (int32_t)(*ref - 1);
    } else {
        if ((g = new_group(w)) == NIL)
            return -1;
        *ref = (uint32_t)g + 1; /* new_group does not touch the map */
        w->groups[g] = (group){owner, l, NIL, NIL, lv->first_group};
        if (lv->first_group != NIL)
            w->groups[lv->first_group].prev = g;
        lv->first_group = g;
        w->nonempty[l / 64] |= 1ull << (l % 64);
    }
    slot *sl = &w->slots[s];
    *sl = (slot){blocked_prio, g, NIL, w->groups[g].first};
    if (sl->next != NIL)
        w->slots[sl->next].prev = (int32_t)s;
    w->groups[g].first = (int32_t)s;
    return 0;
}

void trx_open_windows_remove(trx_open_windows *w, uint32_t s)
{
    if (s >= w->slot_count)
        return; /* never opened */
    slot *sl = &w->slots[s];
    int32_t g = sl->group;
    if (g == NIL)
        return;
    if (sl->prev != NIL)
        w->slots[sl->prev].next = sl->next;
    else
        w->groups[g].first = sl->next;
    if (sl->next != NIL)
        w->slots[sl->next].prev = sl->prev;
    sl->group = sl->prev = sl->next = NIL;
    if (w->groups[g].first == NIL)
        drop_group(w, g);
}

static int push_closed(trx_open_windows *w, uint32_t s)
{
    if (w->closed_count == w->closed_cap) {
        uint32_t cap = w->closed_cap ? w->closed_cap * 2 : 64;
        uint32_t *n = realloc(w->closed, (size_t)cap * sizeof *n);
        if (!n)
            return -1;
        w->closed = n;
        w->closed_cap = cap;
    }
    w->closed[w->closed_count++] = s;
    return 0;
}

static int by_slot(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Collects the windows of group g that `prio` closes (all of them below the
 * top level). -1 when out of memory. */
static int collect_group(trx_open_windows *w, int32_t g, uint32_t prio)
{
    for (int32_t s = w->groups[g].first; s != NIL; s = w->slots[s].next)
        if (prio > w->slots[s].blocked_prio && push_closed(w, (uint32_t)s) < 0)
            return -1;
    return 0;
}

bool trx_open_windows_ask_always;

int64_t trx_open_windows_close_for(trx_open_windows *w, uint32_t context, uint32_t prio,
                                   const uint32_t **closed)
{
    w->closed_count = 0;
    *closed = w->closed;
    uint32_t limit = prio > TOP ? LEVELS : prio; /* levels that can close */
    for (uint32_t word = 0; word * 64 < limit; word++) {
        uint64_t bits = w->nonempty[word];
        while (bits) {
            uint32_t l = word * 64 + (uint32_t)__builtin_ctzll(bits);
            bits &= bits - 1;
            if (l >= limit)
                break;
            for (int32_t g = w->levels[l].first_group; g != NIL; g = w->groups[g].next)
                if (w->groups[g].owner != context && collect_group(w, g, prio) < 0)
                    return -1;
        }
    }
    for (uint32_t i = 0; i < w->closed_count; i++)
        trx_open_windows_remove(w, w->closed[i]);
    if (w->closed_count > 1)
        qsort(w->closed, w->closed_count, sizeof *w->closed, by_slot);
    *closed = w->closed;
    return w->closed_count;
}

void trx_open_windows_free(trx_open_windows *w)
{
    if (!w)
        return;
    for (uint32_t l = 0; l < LEVELS; l++)
        trx_address_map_free(&w->levels[l].owners);
    free(w->slots);
    free(w->groups);
    free(w->closed);
    free(w);
}
