/* preemptions.c - TraceX's thread-preemption and time-slice counts. A RESUME
 * is judged by the next context of the first later event whose next context
 * is a thread, so RESUMEs wait here until that event arrives. The time-slice
 * count reproduces TraceX's use of the look-ahead variable left over from
 * the preemption loop (tracex.md 2.9). */
#include "analyze/analyses.h"
#include "analyze/segment_units.h"

/* Settles the waiting RESUMEs with look-ahead value v (a thread). */
static void settle(trx_preemption_counter *a, uint32_t v)
{
    if (!a->pending_resumes)
        return;
    /* The first RESUME compares with the thread running then; it makes v
     * the running thread, so later waiting RESUMEs match and every waiting
     * TIME_SLICE (whose next is not a thread) differs. */
    a->preemptions += (v != a->pending_cur) + a->pending_slices;
    a->cur = v;
    a->pending_resumes = a->pending_slices = a->pending_slices_ne = 0;
}

void trx_preemptions_feed(trx_preemption_counter *a, const trx_event *ev)
{
    uint32_t n = ev->next_context;
    if (!a->seen_any) {
        a->first_is_time_slice = ev->kind == TRX_KIND_TIME_SLICE;
        a->seen_any = true;
    }
    if (trx_is_threadish(n))
        settle(a, n);
    if (ev->kind == TRX_KIND_TIME_SLICE)
        a->time_slice_events++;
    if (ev->kind == TRX_KIND_RESUME) {
        if (!a->pending_resumes)
            a->pending_cur = a->cur;
        a->pending_resumes++;
    } else if (ev->kind == TRX_KIND_TIME_SLICE) {
        if (a->pending_resumes) {
            a->pending_slices++;
            a->pending_slices_ne += n != a->pending_cur;
        } else if (n != a->cur) {
            a->preemptions++;
        }
    }
    if (ev->kind != TRX_KIND_RESUME && !a->pending_resumes && trx_is_threadish(n))
        a->cur = n;
    a->last_next = n;
    a->last_is_resume = ev->kind == TRX_KIND_RESUME;
}

void trx_preemptions_finish(trx_preemption_counter *a, trx_stats *s)
{
    /* RESUMEs never settled: the look-ahead ends on the last event's next
     * context (0 for a RESUME that is itself the last event); the running
     * thread stays as it was. */
    if (a->pending_resumes) {
        uint64_t others = a->pending_resumes - (a->last_is_resume ? 1 : 0);
        a->preemptions += others * (a->last_next != a->pending_cur);
        if (a->last_is_resume)
            a->preemptions += a->pending_cur != 0;
        a->preemptions += a->pending_slices_ne;
    }
    s->preemptions = a->preemptions;
    uint32_t stale = a->last_is_resume ? 0 : a->last_next;
    if (stale == TRX_CONTEXT_ISR || stale == TRX_CONTEXT_INIT)
        s->time_slices = a->time_slice_events;
    else if (stale == 0)
        s->time_slices = 0;
    else
        s->time_slices = a->first_is_time_slice ? 1 : 0;
}

/* Segments (segment_units.h). State: the running thread and the RESUMEs
 * waiting for their look-ahead value (with the TIME_SLICEs among them).
 * Results: the counts of preemptions and TIME_SLICE events, added at the
 * merge. Whether the trace's first event is a TIME_SLICE and the last
 * event's next context (what finish reads) are facts of the trace's first
 * and last events, not state: clear_results marks the segment as having
 * seen no event yet (seen_any), and the merge takes the first event's from
 * the part before, the last event's from the segment unless it had none. A RESUME waiting at the
 * boundary counts in the segment that settles it: its part-before copy is never settled, as that
 * state is discarded after the merge. */
enum {
    FP_PRE_CUR = 0x50524331u,
    FP_PRE_PENDING,
};

void trx_preemptions_fingerprint(const trx_preemption_counter *a, const trx_trace *t,
                                 trx_fingerprint *f, uint64_t base)
{
    (void)t;
    (void)base;
    trx_fp_word(f, FP_PRE_CUR, a->cur);
    if (a->pending_resumes) {
        const uint64_t pending[4] = {a->pending_resumes, a->pending_cur, a->pending_slices,
                                     a->pending_slices_ne};
        trx_fp_add(f, FP_PRE_PENDING, pending, 4);
    }
}

void trx_preemptions_clear_results(trx_preemption_counter *a)
{
    a->preemptions = 0;
    a->time_slice_events = 0;
    a->seen_any = false;
}

int trx_preemptions_merge(trx_preemption_counter *later, trx_preemption_counter *earlier,
                          const trx_trace *t, uint64_t offset)
{
    (void)t;
    (void)offset;
    later->preemptions += earlier->preemptions;
    later->time_slice_events += earlier->time_slice_events;
    if (!later->seen_any) { /* the segment had no event */
        later->last_next = earlier->last_next;
        later->last_is_resume = earlier->last_is_resume;
    }
    if (earlier->seen_any) {
        later->seen_any = true;
        later->first_is_time_slice = earlier->first_is_time_slice;
    }
    return 0;
}
