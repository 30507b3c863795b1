/* core_names.h - names of per-core tasks as System Analyzer gives them: the
 * core, then the task ("1/task0_fxn"); an AMP capture's tasks always, any
 * other task that ran on one core only when another thread shows the same
 * name (four cores each running their own task2_fxn), so that no two rows
 * share a name; a task that ran on several cores (SMP) keeps its name. */
#ifndef TRX_CORE_NAMES_H
#define TRX_CORE_NAMES_H

#include <stdint.h>

#include "trx/trx.h"

/* "N/name" for core `core` (kept as long as the trace); NULL when out of
 * memory. The hook for the metadata's endpoint names ("C64XP_A.name"):
 * none are read yet, so the core's number stands for its endpoint. */
const char *trx_core_task_name(trx_trace *t, uint32_t core, const char *name);

/* Every thread with one core (trx_thread.core on AMP, else ran_core) whose
 * name another thread shows too gets its core's prefix; AMP tasks not yet
 * prefixed get it too. O(n log n) in the threads. 0, or -1 when out of
 * memory (names then stay as they were). */
int trx_trace_name_cores_apart(trx_trace *t);

#endif
