/* ran_inside.c - the threads that ran inside each priority-inversion window
 * (ran_inside.h). Listening windows sit in one list per waiter priority
 * (0..1023, TXTB's priority range), each in the order the windows opened; a
 * bitmap says which lists are not empty. When a thread's run starts, the
 * lists of waiters with a higher priority (smaller number) than the thread's
 * are walked from their newest window back to the first one the thread has
 * already seen (its watermark: the open sequence number at its previous run
 * start), so each (window, thread) pair is visited once. A window stops
 * listening when it closes or its list is full. */
#include <stdlib.h>
#include <string.h>

#include "analyze/ran_inside.h"
#include "util/address_map.h"

#define LEVELS 1024u
#define NONE UINT32_MAX

typedef struct listener {
    uint32_t prev, next; /* in its level's list (NONE at the ends) */
    uint32_t seq;        /* open sequence number (1, 2, ...) */
    uint16_t level;      /* waiter priority */
    bool listening;
} listener;

struct trx_ran_inside {
    listener *by_key; /* indexed by window key */
    uint32_t cap;
    uint32_t head[LEVELS], tail[LEVELS];
    uint64_t used[LEVELS / 64]; /* bit per level: list not empty */
    uint32_t seq;               /* windows opened so far */
    uint32_t *seen_by_index;    /* thread index -> seq at its last run start */
    uint32_t thread_count;
    trx_address_map seen; /* the same for contexts of no thread index */
};

trx_ran_inside *trx_ran_inside_new(uint32_t thread_count)
{
    trx_ran_inside *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->seen_by_index = calloc(thread_count ? thread_count : 1, sizeof *r->seen_by_index);
    if (!r->seen_by_index) {
        free(r);
        return NULL;
    }
    r->thread_count = thread_count;
    for (uint32_t i = 0; i < LEVELS; i++)
        r->head[i] = r->tail[i] = NONE;
    return r;
}

int trx_ran_inside_open(trx_ran_inside *r, const trx_inversion *v, uint32_t key)
{
    if (key >= r->cap) {
        uint32_t c = r->cap ? r->cap : 64;
        while (c <= key)
            c *= 2;
        listener *p = realloc(r->by_key, (size_t)c * sizeof *p);
        if (!p)
            return -1;
        r->by_key = p;
        r->cap = c;
    }
    uint32_t level = v->waiter_priority < LEVELS ? v->waiter_priority : LEVELS - 1;
    listener *l = &r->by_key[key];
    *l = (listener){.prev = r->tail[level],
                    .next = NONE,
                    .seq = ++r->seq,
                    .level = (uint16_t)level,
                    .listening = true};
    if (r->tail[level] != NONE)
        r->by_key[r->tail[level]].next = key;
    else
        r->head[level] = key;
    r->tail[level] = key;
    r->used[level / 64] |= 1ull << (level % 64);
    return 0;
}

void trx_ran_inside_close(trx_ran_inside *r, uint32_t key)
{
    if (key >= r->cap || !r->by_key[key].listening)
        return;
    listener *l = &r->by_key[key];
    uint32_t level = l->level;
    if (l->prev != NONE)
        r->by_key[l->prev].next = l->next;
    else
        r->head[level] = l->next;
    if (l->next != NONE)
        r->by_key[l->next].prev = l->prev;
    else
        r->tail[level] = l->prev;
    if (r->head[level] == NONE)
        r->used[level / 64] &= ~(1ull << (level % 64));
    l->listening = false;
}

bool trx_ran_inside_list(trx_inversion *v, uint32_t thread)
{
    for (uint8_t i = 0; i < v->ran_inside_count; i++)
        if (v->ran_inside_list[i] == thread)
            return false;
    if (v->ran_inside_count < TRX_RAN_INSIDE_MAX) {
        v->ran_inside_list[v->ran_inside_count++] = thread;
        return false;
    }
    v->ran_inside_more = true;
    return true;
}

int trx_ran_inside_run(trx_ran_inside *r, trx_ran_inside_window_fn window, void *ctx,
                       uint32_t thread, int32_t index, uint32_t prio)
{
    bool added;
    uint32_t *mark = index >= 0 && (uint32_t)index < r->thread_count
                         ? &r->seen_by_index[index]
                         : trx_address_map_slot(&r->seen, thread, 0, &added);
    if (!mark)
        return -1;
    uint32_t since = *mark;
    *mark = r->seq;
    if (since == r->seq)
        return 0; /* no window opened since its last run */
    /* waiters of a higher priority than the thread's: levels below prio */
    uint32_t below = prio < LEVELS ? prio : LEVELS;
    for (uint32_t word = 0; word * 64 < below; word++) {
        uint64_t bits = r->used[word];
        if (word * 64 + 64 > below)
            bits &= (1ull << (below - word * 64)) - 1;
        while (bits) {
            uint32_t level = word * 64 + (uint32_t)__builtin_ctzll(bits);
            bits &= bits - 1;
            for (uint32_t key = r->tail[level]; key != NONE;) {
                listener *l = &r->by_key[key];
                if (l->seq <= since)
                    break; /* it saw this one and all older ones */
                uint32_t prev = l->prev;
                trx_inversion *v = window(ctx, key);
                if (v->holder != thread && v->waiter != thread && trx_ran_inside_list(v, thread))
                    trx_ran_inside_close(r, key);
                key = prev;
            }
        }
    }
    return 0;
}

void trx_ran_inside_free(trx_ran_inside *r)
{
    if (!r)
        return;
    trx_address_map_free(&r->seen);
    free(r->seen_by_index);
    free(r->by_key);
    free(r);
}
