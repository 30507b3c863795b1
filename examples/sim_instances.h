/*
 * sim_instances.h - the simulated kernel's truth about every instance (job)
 * of every thread, as include/trx/latency.h defines one: from its release
 * (a RESUME that makes it ready after waiting for a trigger) to its next
 * wait (a SUSPEND other than for a mutex; waiting for a mutex inside it is
 * "blocked"). For every tick of an instance the kernel knows what the
 * thread was doing: running, preempted by which thread, interrupted by which
 * ISR, blocked on which mutex held by whom (and what that holder did
 * meanwhile), or ready while nothing ran (initialization). The kernel calls
 * these hooks at the trace records that change a state, so every figure is
 * in the trace's ticks and switches where the trace shows them.
 *
 * Written as JSON Lines (demo.latency.truth): a header line, then one line
 * per instance, in the order they ended, then the ones still open.
 */
#ifndef SIM_INSTANCES_H
#define SIM_INSTANCES_H

#include <stdio.h>

#include "sim_kernel.h"

/* Starts the record; `first_timestamp` is the trace's first event's time
 * (ticks in the truth count from it). */
void sim_instances_begin(ULONG first_timestamp);

/* The object and service of the post that follows (a semaphore put, a queue
 * send, a thread resume), NULL when none: who released a thread names it. */
void sim_instances_posting(const char *object, const char *service);

/* After the RESUME record of `t` (at the current time): a release, or the
 * grant of the mutex it waited for. */
void sim_instances_resumed(sim_thread *t);

/* After the SUSPEND record of `t` in `state` (waiting for `object`, a mutex
 * when state is SIM_MUTEX_SUSP): blocked, or the end of its instance. */
void sim_instances_suspended(sim_thread *t, enum sim_state state, const void *object);

/* After an ISR's ENTER / EXIT record: the innermost recorded ISR. */
void sim_instances_isr_enter(sim_isr *isr);
void sim_instances_isr_exit(void);

/* Charges `cycles` of trace time from now on to every open instance. */
void sim_instances_charge(ULONG cycles);

/* Writes the header, every ended instance and the still open ones (as
 * incomplete) to `f`. 0, or -1 on a write error. */
int sim_instances_write(FILE *f, const char *trace_name);

#endif /* SIM_INSTANCES_H */
