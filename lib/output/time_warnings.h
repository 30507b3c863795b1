/* time_warnings.h - what is wrong with a trace's time source, in words: the
 * warnings of `trx info` (stdout) and `trx stats` (stderr). */
#ifndef TRX_TIME_WARNINGS_H
#define TRX_TIME_WARNINGS_H

#include "output/out_buffer.h"
#include "trx/trx.h"

/* One line per problem trx_trace_time_check found (none: nothing written),
 * each starting with `prefix`. */
void trx_time_warnings_write(const trx_trace *t, const trx_time_check *tc, const char *prefix,
                             trx_out *o);

#endif
