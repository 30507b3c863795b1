/*
 * hooks_disabled.c - a kernel-like file with recorder hooks in it. Built
 * without TX_ENABLE_EVENT_TRACE, the hooks must add no code: tools/cross_build.sh
 * compiles it three ways and checks that .text with tracing compiled out equals
 * .text with the hook lines removed (TRX_PROBE_NO_HOOKS), and that nothing
 * refers to the recorder; the build with tracing shows what the hooks cost.
 * The (void) casts keep parameters that only the hooks read from tripping
 * -Wunused-parameter when the hooks are compiled out.
 */
#include "trx/recorder.h"

#if defined(TRX_PROBE_NO_HOOKS)
#define PROBE_HOOK(id, i1, i2, i3, i4, group) ((void)0)
#else
#define PROBE_HOOK(id, i1, i2, i3, i4, group) TRX_TRACE_EVENT(id, i1, i2, i3, i4, group)
#endif

/* A toy kernel object: enough state that the functions do real work. */
typedef struct probe_mutex {
    ULONG owner;
    ULONG count;
    ULONG waiters;
} probe_mutex;

/* Takes the mutex for `thread`; returns 1 when the caller must block. */
int trx_probe_mutex_get(probe_mutex *m, ULONG thread, ULONG wait);
/* Releases one level of ownership; returns the count left. */
ULONG trx_probe_mutex_put(probe_mutex *m, ULONG sp);
/* Marks a thread ready (the resume path of a scheduler). */
void trx_probe_resume(ULONG *ready_bits, ULONG thread, ULONG prio, ULONG sp, ULONG next);

int trx_probe_mutex_get(probe_mutex *m, ULONG thread, ULONG wait)
{
    (void)wait;
    PROBE_HOOK(TX_TRACE_MUTEX_GET, (ULONG)(uintptr_t)m, wait, m->owner, m->count,
               TX_TRACE_MUTEX_EVENTS);
    if (m->owner == 0UL || m->owner == thread) {
        m->owner = thread;
        m->count++;
        return 0;
    }
    m->waiters++;
    return 1;
}

ULONG trx_probe_mutex_put(probe_mutex *m, ULONG sp)
{
    (void)sp;
    PROBE_HOOK(TX_TRACE_MUTEX_PUT, (ULONG)(uintptr_t)m, m->owner, m->count, sp,
               TX_TRACE_MUTEX_EVENTS);
    if (m->count > 0UL && --m->count == 0UL)
        m->owner = 0UL;
    return m->count;
}

void trx_probe_resume(ULONG *ready_bits, ULONG thread, ULONG prio, ULONG sp, ULONG next)
{
    (void)thread;
    (void)sp;
    (void)next;
    PROBE_HOOK(TX_TRACE_THREAD_RESUME, thread, 3UL, sp, next, TX_TRACE_INTERNAL_EVENTS);
    *ready_bits |= 1UL << (prio & 31UL);
}
