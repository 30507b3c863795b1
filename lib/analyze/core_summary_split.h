/* core_summary_split.h - trx_core_summary_compute_checked with the split
 * point chosen by the caller: the library's two-halves summary, and the
 * test that splits a trace at every entry and compares (test_core_summary_split). */
#ifndef TRX_CORE_SUMMARY_SPLIT_H
#define TRX_CORE_SUMMARY_SPLIT_H

#include <stdbool.h>
#include <stdint.h>

#include "trx/cores.h"

/* The summary (and the time check into *tc, if not NULL) counted as two
 * parts, the entries before chronological index `mid` and those from it,
 * merged after; `mid` 0 or >= the entries: one part. `threaded`: the later
 * part on a helper thread when threads exist. The result does not depend on
 * `mid` or `threaded`. 0, or -1 when out of memory. */
int trx_core_summary_split(trx_trace *t, trx_core_summary *s, trx_time_check *tc, uint32_t mid,
                           bool threaded);

#endif
