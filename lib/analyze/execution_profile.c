/* execution_profile.c - TraceX's execution profile: the ticks between two
 * events go to the first one's next context (a thread, interrupt or idle;
 * initialization time is not summed). Threads sharing an address get the
 * same ticks: only the first is credited here, same_address.c copies them.
 * A trace whose cores carry contexts of their own (SYS/BIOS in a UIA
 * capture) is profiled per core: two events of one core bound an interval
 * of that core, and the figures are the sums over the cores. Where a broken
 * time source runs back (UIA), only time past the latest seen is counted:
 * the figures never exceed the span. */
#include <stdlib.h>
#include <string.h>

#include "analyze/analyses.h"
#include "util/per_core.h"
#include "analyze/segment_units.h"

int trx_profile_init(trx_profile *a, const trx_trace *t)
{
    memset(a, 0, sizeof *a);
    bool failed;
    a->per_core = trx_per_core_new(t, sizeof *a->per_core, &a->cores, &failed);
    return failed ? -1 : 0;
}

void trx_profile_free(trx_profile *a)
{
    free(a->per_core);
    a->per_core = NULL;
}

/* trx_profile_feed: inline in analyses.h (it is fed every event). */

/* Segments (segment_units.h). The state is each core's previous event (its
 * ticks and next context); the look-up caches give the same threads either
 * way and are left out. The results are trx_stats's execution_ticks of each
 * thread, interrupt_ticks and idle_ticks: the interval that ends at a
 * segment's first event is the segment's. */
enum { FP_CORE = 0x50524f43u, FP_ONE = 0x50524f4fu };

static void fingerprint_core(trx_fingerprint *f, uint64_t tag, uint64_t slot,
                             const trx_profile_core *c)
{
    uint64_t w[4] = {slot, c->have_prev, c->prev_next, c->prev_ticks};
    trx_fp_add(f, tag, w, 4);
}

void trx_profile_fingerprint(const trx_profile *a, const trx_trace *t, trx_fingerprint *f,
                             uint64_t base)
{
    (void)t;
    (void)base; /* no event numbers in the state */
    if (!a->per_core)
        fingerprint_core(f, FP_ONE, 0, &a->one);
    for (uint32_t i = 0; a->per_core && i < a->cores; i++)
        fingerprint_core(f, FP_CORE, i, &a->per_core[i]);
}

void trx_profile_clear_results(trx_profile *a, trx_stats *s)
{
    (void)a;
    for (uint32_t i = 0; i < s->thread_count; i++)
        s->threads[i].execution_ticks = 0;
    s->interrupt_ticks = s->idle_ticks = 0;
}

int trx_profile_merge(trx_profile *later, trx_stats *later_s, trx_profile *earlier,
                      const trx_stats *earlier_s, const trx_trace *t, uint64_t offset)
{
    (void)later;
    (void)earlier;
    (void)offset; /* no event numbers */
    uint32_t n = t->thread_count;
    if (n > later_s->thread_count)
        n = later_s->thread_count;
    if (n > earlier_s->thread_count)
        n = earlier_s->thread_count;
    for (uint32_t i = 0; i < n; i++)
        later_s->threads[i].execution_ticks += earlier_s->threads[i].execution_ticks;
    later_s->interrupt_ticks += earlier_s->interrupt_ticks;
    later_s->idle_ticks += earlier_s->idle_ticks;
    return 0;
}
