/* stats_latency.c - the statistics and trx latency's instances of one
 * trace in one walk, for the commands that need both (check, diff, report): where
 * the statistics run on segments, the latency rides on them as their
 * caller's analysis (latency_segments.c), saving a walk of the trace; else
 * each is computed on its own. The results are those of trx_stats_compute
 * and trx_latency_compute, byte for byte. */
#include "analyze/analyses.h"
#include "analyze/latency_segments.h"

int trx_stats_latency_compute(trx_trace *t, trx_stats *s, const trx_latency_options *o,
                              trx_latency *l)
{
    trx_latency_extra *e = trx_latency_extra_new(t, o, l);
    if (!e)
        return -1;
    int rc = trx_stats_compute_extra_on_segments(t, s, 0, trx_latency_extra_of(e));
    if (rc == TRX_STATS_ONE_WALK) { /* each on its own (nothing fed to l) */
        trx_latency_extra_end(e, false);
        if (trx_stats_compute(t, s) != 0)
            return -1;
        if (trx_latency_compute(t, o, l) != 0) {
            trx_stats_free(s);
            return -1;
        }
        return 0;
    }
    if (trx_latency_extra_end(e, rc == 0) != 0) {
        if (rc == 0)
            trx_stats_free(s);
        return -1;
    }
    return rc;
}
