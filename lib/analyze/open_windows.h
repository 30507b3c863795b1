/* open_windows.h - the priority-inversion windows that are open, arranged so
 * that an event finds the ones it closes (owner other than the event's
 * context, blocked priority numerically below the event's) in time
 * proportional to what it closes plus the number of priority levels in use,
 * never to the number of open windows or of objects. */
#ifndef TRX_OPEN_WINDOWS_H
#define TRX_OPEN_WINDOWS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct trx_open_windows trx_open_windows;

/* A set for windows identified by slot 0 .. slots-1; NULL when out of memory. */
trx_open_windows *trx_open_windows_new(uint32_t slots);

/* Opens window `slot` (not open yet): held by `owner`, blocking a thread of
 * priority `blocked_prio`. 0, or -1 when out of memory. */
int trx_open_windows_add(trx_open_windows *w, uint32_t slot, uint32_t owner, uint32_t blocked_prio);

/* Closes window `slot` (open). */
void trx_open_windows_remove(trx_open_windows *w, uint32_t slot);

/* Closes every open window an event of `context` with priority `prio`
 * closes (owner != context and prio > blocked priority) and lists their
 * slots in ascending order in *closed (valid until the next call). Returns
 * how many; -1 when out of memory (nothing closed then). */
int64_t trx_open_windows_close_for(trx_open_windows *w, uint32_t context, uint32_t prio,
                                   const uint32_t **closed);

/* The finders (inversions_correct.c, priority_inversions.c) skip
 * trx_open_windows_close_for where bounds they keep on the open windows
 * (their smallest blocked priority, whether one owner holds them all) show
 * that it closes none. Tests set this to ask at every event instead, and
 * compare (test_inversion_bounds). */
extern bool trx_open_windows_ask_always;

/* Releases the set; NULL is fine. */
void trx_open_windows_free(trx_open_windows *w);

#endif
