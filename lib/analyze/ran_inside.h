/* ran_inside.h - which threads of lower priority than the waiter (other than
 * the holder) ran inside each open priority-inversion window: up to
 * TRX_RAN_INSIDE_MAX per window (then `ran_inside_more`). A thread is looked
 * for when one of its runs starts, in the windows opened since its previous
 * run started, so every (window, thread) pair is looked at most once and the
 * cost stays linear in the events, whatever is open. Windows are known by a
 * key the caller gives (its waiter's slot: one open window per key at a
 * time), so the memory grows with the waiters, not with the windows. */
#ifndef TRX_RAN_INSIDE_H
#define TRX_RAN_INSIDE_H

#include "trx/stats.h"

typedef struct trx_ran_inside trx_ran_inside;

/* An empty tracker for a trace of `thread_count` threads (their
 * watermarks in an array; other contexts in a map); NULL when out of
 * memory. */
trx_ran_inside *trx_ran_inside_new(uint32_t thread_count);

/* Window `key` opens (its waiter blocked; v: its inversion). 0, or -1 out
 * of memory. */
int trx_ran_inside_open(trx_ran_inside *r, const trx_inversion *v, uint32_t key);

/* Window `key` ends (or has listed as many threads as it can). */
void trx_ran_inside_close(trx_ran_inside *r, uint32_t key);

/* The inversion of open window `key` (the caller's). */
typedef trx_inversion *(*trx_ran_inside_window_fn)(void *ctx, uint32_t key);

/* A run of `thread` at priority `prio` starts: it is listed in every window
 * opened since its previous run that it qualifies for (`window` gives their
 * inversions). `index`: the first thread at the address `thread` (one
 * index per address), or -1 for none. 0, or -1 out of memory. */
int trx_ran_inside_run(trx_ran_inside *r, trx_ran_inside_window_fn window, void *ctx,
                       uint32_t thread, int32_t index, uint32_t prio);

/* Lists `thread` in window v (once; past TRX_RAN_INSIDE_MAX only ran_inside_more).
 * Returns true when the window's list is full. */
bool trx_ran_inside_list(trx_inversion *v, uint32_t thread);

/* Releases the tracker; NULL is fine. */
void trx_ran_inside_free(trx_ran_inside *r);

#endif
