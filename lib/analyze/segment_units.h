/*
 * segment_units.h - each analysis of trx_stats's part in running on segments
 * and merging (segment_merge.h tells the scheme). For every analysis X:
 *   X_fingerprint(a, t, f, base): adds a's state - all of it that later
 *     events or the results at the end depend on, and nothing else (no
 *     results, capacities, caches or pointers) - to f; stored event numbers
 *     as (number - base).
 *   X_clear_results(a): forgets the results so far (the warm-up's), keeping
 *     the state.
 *   X_merge(later, earlier, t, offset): adds `offset` to every event number
 *     in `later` (state and results), then makes later's results those of
 *     the one walk over earlier's events and then later's: counts added,
 *     first-seen orders earlier's first, minima / maxima with the earlier on
 *     ties, lists concatenated in the walk's order. Called only when
 *     earlier's state at its end equals later's at its start (fingerprints).
 *     `earlier` may be left empty (its tables moved); the caller discards it.
 *     0; -1 when out of memory; TRX_MERGE_REFUSED (segment_merge.h) when
 *     the merge would not be exact after all, having changed nothing.
 *   X_discard(a): frees a without results.
 */
#ifndef TRX_SEGMENT_UNITS_H
#define TRX_SEGMENT_UNITS_H

#include "analyze/analyses.h"
#include "analyze/core_tracker.h"
#include "analyze/segment_merge.h"

/* timing.c */
void trx_timing_fingerprint(const trx_timing *a, const trx_trace *t, trx_fingerprint *f,
                            uint64_t base);
void trx_timing_clear_results(trx_timing *a);
int trx_timing_merge(trx_timing *later, trx_timing *earlier, const trx_trace *t, uint64_t offset);
void trx_timing_discard(trx_timing *a);

/* core_tracker.c */
void trx_core_tracker_fingerprint(const trx_core_tracker *k, const trx_trace *t, trx_fingerprint *f,
                                  uint64_t base);
void trx_core_tracker_clear_results(trx_core_tracker *k);
int trx_core_tracker_merge(trx_core_tracker *later, trx_core_tracker *earlier, const trx_trace *t,
                           uint64_t offset);

/* inversions_correct.c */
void trx_correct_inversions_fingerprint(const trx_correct_inversions *f, const trx_trace *t,
                                        trx_fingerprint *fp, uint64_t base);
void trx_correct_inversions_clear_results(trx_correct_inversions *f);
int trx_correct_inversions_merge(trx_correct_inversions *later, trx_correct_inversions *earlier,
                                 const trx_trace *t, uint64_t offset);
void trx_correct_inversions_discard(trx_correct_inversions *f);
/* The windows beyond those kept (trx_correct_inversions_keep) are held as
 * bands with their numbers (24 bytes each) instead of going to `done`: a
 * segment's walk on a thread of its own, whose numbers are known at its
 * merge (which hands them on as the part before would: to its `done`, or
 * held too). */
void trx_correct_inversions_defer(trx_correct_inversions *f);
/* Gives the bands held to `done` (their numbers are the trace's: a walk
 * from the start) and sends the later ones there directly. */
void trx_correct_inversions_hand_over(trx_correct_inversions *f);

/* performance_correct.c */
void trx_correct_performance_fingerprint(const trx_correct_performance *a, const trx_trace *t,
                                         trx_fingerprint *f, uint64_t base);
void trx_correct_performance_clear_results(trx_correct_performance *a);
int trx_correct_performance_merge(trx_correct_performance *later, trx_correct_performance *earlier,
                                  const trx_trace *t, uint64_t offset);
void trx_correct_performance_discard(trx_correct_performance *a);

/* execution_profile.c: its results are in trx_stats (execution_ticks of
 * each thread, interrupt_ticks, idle_ticks) */
void trx_profile_fingerprint(const trx_profile *a, const trx_trace *t, trx_fingerprint *f,
                             uint64_t base);
void trx_profile_clear_results(trx_profile *a, trx_stats *s);
int trx_profile_merge(trx_profile *later, trx_stats *later_s, trx_profile *earlier,
                      const trx_stats *earlier_s, const trx_trace *t, uint64_t offset);

/* stack_usage.c (trx_stack_usage_discard in analyses.h) */
void trx_stack_usage_fingerprint(const trx_stack_usage *u, const trx_trace *t, trx_fingerprint *f,
                                 uint64_t base);
void trx_stack_usage_clear_results(trx_stack_usage *u);
int trx_stack_usage_merge(trx_stack_usage *later, trx_stack_usage *earlier, const trx_trace *t,
                          uint64_t offset);

/* popular_services.c */
void trx_popularity_fingerprint(const trx_popularity *p, const trx_trace *t, trx_fingerprint *f,
                                uint64_t base);
void trx_popularity_clear_results(trx_popularity *p);
int trx_popularity_merge(trx_popularity *later, trx_popularity *earlier, const trx_trace *t,
                         uint64_t offset);
void trx_popularity_discard(trx_popularity *p);

/* thread_services.c */
void trx_thread_popularity_fingerprint(const trx_thread_popularity *p, const trx_trace *t,
                                       trx_fingerprint *f, uint64_t base);
void trx_thread_popularity_clear_results(trx_thread_popularity *p);
int trx_thread_popularity_merge(trx_thread_popularity *later, trx_thread_popularity *earlier,
                                const trx_trace *t, uint64_t offset);
void trx_thread_popularity_discard(trx_thread_popularity *p);

/* context_switches.c, preemptions.c, interrupts.c (TraceX's mode) */
void trx_switches_fingerprint(const trx_switch_counter *a, const trx_trace *t, trx_fingerprint *f,
                              uint64_t base);
void trx_switches_clear_results(trx_switch_counter *a);
int trx_switches_merge(trx_switch_counter *later, trx_switch_counter *earlier, const trx_trace *t,
                       uint64_t offset);
void trx_preemptions_fingerprint(const trx_preemption_counter *a, const trx_trace *t,
                                 trx_fingerprint *f, uint64_t base);
void trx_preemptions_clear_results(trx_preemption_counter *a);
int trx_preemptions_merge(trx_preemption_counter *later, trx_preemption_counter *earlier,
                          const trx_trace *t, uint64_t offset);
void trx_interrupts_fingerprint(const trx_interrupt_counter *a, const trx_trace *t,
                                trx_fingerprint *f, uint64_t base);
void trx_interrupts_clear_results(trx_interrupt_counter *a);
int trx_interrupts_merge(trx_interrupt_counter *later, trx_interrupt_counter *earlier,
                         const trx_trace *t, uint64_t offset);

/* priority_inversions.c (TraceX's mode) */
void trx_inversions_fingerprint(const trx_inversion_finder *f, const trx_trace *t,
                                trx_fingerprint *fp, uint64_t base);
void trx_inversions_clear_results(trx_inversion_finder *f);
int trx_inversions_merge(trx_inversion_finder *later, trx_inversion_finder *earlier,
                         const trx_trace *t, uint64_t offset);
void trx_inversions_discard(trx_inversion_finder *f);

#endif
