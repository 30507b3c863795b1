/* stats.c - runs every analysis over a trace in one walk of its events
 * (after trx_trace_prepare's walk, which completes the thread table). */
#include <stdlib.h>
#include <string.h>

#include "analyze/analyses.h"
#include "analyze/core_tracker.h"

/* The correct mode's windows as marks (start, end, unbounded) for the report. */
static int marks_from_list(trx_stats *s)
{
    if (s->inversion_count == 0)
        return 0;
    s->marks = malloc(s->inversion_count * sizeof *s->marks);
    if (!s->marks)
        return -1;
    for (uint32_t i = 0; i < s->inversion_count; i++) {
        const trx_inversion *v = &s->inversion_list[i];
        s->marks[i] = (trx_inversion_mark){v->start_index, v->end_index, i, v->unbounded};
    }
    s->mark_count = s->inversion_count;
    return 0;
}

int trx_stats_compute(trx_trace *t, trx_stats *s)
{
    return trx_stats_compute_windowed(t, s, 0);
}

int trx_stats_compute_windowed(trx_trace *t, trx_stats *s, uint64_t window)
{
    memset(s, 0, sizeof *s);
    trx_trace_prepare(t);
    s->mode = t->mode;
    bool correct = t->mode == TRX_MODE_CORRECT;
    s->max_relative_ticks = t->max_ticks;
    if (t->mode == TRX_MODE_TRACEX && s->max_relative_ticks == 0)
        s->max_relative_ticks = 1;
    s->thread_count = t->thread_count;
    s->threads = calloc(t->thread_count ? t->thread_count : 1, sizeof *s->threads);
    trx_inversion_finder *inv = trx_inversions_new(t);
    trx_popularity pop;
    int pop_ok = trx_popularity_init(&pop);
    pop.tracex_order = t->mode == TRX_MODE_TRACEX;
    if (!s->threads || !inv || pop_ok < 0) {
        if (inv)
            trx_inversions_finish(inv, s);
        if (pop_ok == 0)
            trx_popularity_finish(&pop, s);
        trx_stats_free(s);
        return -1;
    }
    trx_cursor c;
    const trx_event *ev;

    trx_switch_counter sw = {0};
    trx_preemption_counter pre = {0};
    trx_interrupt_counter irq = {0};
    trx_profile prof = {0};
    trx_thread_popularity tpop = {0};
    tpop.tracex_order = t->mode == TRX_MODE_TRACEX;
    trx_stack_usage_init(t, s);
    trx_correct_performance perf = {0};
    trx_timing timing;
    if (window == 0)
        window = t->max_ticks / 100 ? t->max_ticks / 100 : 1;
    if (trx_timing_init(&timing, window) < 0)
        goto fail;
    trx_core_tracker *cores = NULL;
    trx_correct_inversions *cinv = NULL;
    if (correct && !(cores = trx_core_tracker_new(t)))
        goto fail;
    if ((correct && !(cinv = trx_correct_inversions_new(t))) || trx_cursor_init(&c, t) < 0) {
        trx_core_tracker_discard(cores);
        if (cinv)
            trx_correct_inversions_finish(cinv, s);
        trx_timing_finish(&timing, s);
        goto fail;
    }
    while ((ev = trx_cursor_next_ref(&c))) {
        if (correct) {
            trx_correct_performance_feed(&perf, ev);
            trx_correct_inversions_feed(cinv, ev);
        } else {
            trx_switches_feed(&sw, ev);
            trx_preemptions_feed(&pre, ev);
            trx_interrupts_feed(&irq, ev);
            trx_inversions_feed(inv, ev);
        }
        trx_profile_feed(&prof, t, ev, s);
        trx_thread_counts_feed(t, ev, s);
        trx_stack_usage_feed(t, ev, s);
        trx_popularity_feed(&pop, ev);
        trx_thread_popularity_feed(&tpop, t, ev, s);
        trx_filex_feed(&s->filex, ev);
        trx_netx_feed(&s->netx, ev);
        trx_timing_feed(&timing, ev);
        if (cores)
            trx_core_tracker_feed(cores, ev);
    }
    int r = 0, rt = trx_timing_finish(&timing, s);
    if (correct) {
        trx_correct_performance_finish(&perf, s);
        r = perf.oom ? -1 : 0;
        trx_inversions_finish(inv, s); /* TraceX's finder, unused here */
        free(s->marks);
        s->marks = NULL;
        s->mark_count = 0;
        if (trx_correct_inversions_finish(cinv, s) < 0 || marks_from_list(s) < 0)
            r = -1;
    } else {
        s->context_switches = sw.switches;
        trx_preemptions_finish(&pre, s);
        s->interrupts = irq.interrupts;
        s->nested_interrupts = irq.nested;
        r = trx_inversions_finish(inv, s);
    }
    if (rt < 0)
        r = -1;
    if (cores) {
        if ((s->cores = malloc(sizeof *s->cores)) == NULL) {
            trx_core_tracker_discard(cores);
            r = -1;
        } else if (trx_core_tracker_finish(cores, s->cores) < 0) {
            r = -1;
        }
    }
    if (trx_thread_popularity_finish(&tpop, s) < 0)
        r = -1;
    if (trx_popularity_finish(&pop, s) < 0 || r < 0) {
        trx_stats_free(s);
        return -1;
    }
    return 0;
fail:
    trx_inversions_finish(inv, s);
    trx_popularity_finish(&pop, s);
    trx_stats_free(s);
    return -1;
}

void trx_stats_free(trx_stats *s)
{
    for (uint32_t i = 0; s->threads && i < s->thread_count; i++)
        free(s->threads[i].services);
    free(s->threads);
    free(s->services);
    free(s->marks);
    free(s->inversion_list);
    free(s->isr);
    free(s->latency);
    free(s->response);
    free(s->load_busy);
    if (s->cores)
        trx_core_stats_free(s->cores);
    free(s->cores);
    memset(s, 0, sizeof *s);
}
