/* time_rate.c - the tick rate of a trace's time axis, where the trace or its
 * names tell it (trx_trace_ticks_per_second): UIA sync points and TI's
 * metadata; TXTB dumps carry none. */
#include "trx/trx.h"
#include "trx/uia.h"
#include "trx/uia_names.h"

/* Hz rounded to whole ticks per second; 0 for nothing plausible. */
static uint64_t whole_rate(double hz)
{
    return hz >= 1.0 && hz < 1.8e19 ? (uint64_t)(hz + 0.5) : 0;
}

uint64_t trx_trace_ticks_per_second(const trx_trace *t)
{
    const trx_uia_info *u = trx_uia_info_of(t);
    if (!u)
        return 0;
    const trx_uia_names *n = t->uia_names;
    double meta_cpu = n ? n->cpu_timestamp_hz : 0, hz = 0;
    if (u->aligned) { /* the global timer's ticks */
        hz = n ? n->global_timestamp_hz : 0;
        for (uint32_t k = 0; hz <= 0 && u->core_time && k < u->cores; k++)
            if (u->core_time[k].timestamp_hz > 0)
                hz = u->core_time[k].timestamp_hz * u->core_time[k].rate;
        return whole_rate(hz);
    }
    if (!u->core_time) /* one axis: the one core's timestamps */
        return whole_rate(meta_cpu);
    for (uint32_t k = 0; k < u->cores; k++) { /* each core its own: one rate when all agree */
        double r = u->core_time[k].timestamp_hz > 0 ? u->core_time[k].timestamp_hz : meta_cpu;
        if (r <= 0 || (hz > 0 && (r - hz > hz * 1e-9 || hz - r > hz * 1e-9)))
            return 0;
        hz = r;
    }
    return whole_rate(hz);
}
