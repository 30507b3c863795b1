/* trace_jobs.c - how many threads the analyses of a trace may use (`--jobs`):
 * the caller's choice, else the processors online. Every analysis gives the
 * same result whatever it is; 1 means one walk on the calling thread. */
#include "trx/trx.h"

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

uint32_t trx_trace_jobs(const trx_trace *t)
{
    if (t->jobs)
        return t->jobs;
#if defined(_SC_NPROCESSORS_ONLN)
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 1 ? (uint32_t)(n < 1024 ? n : 1024) : 1u;
#else
    return 1u;
#endif
}
