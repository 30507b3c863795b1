/* export_time.c - tick-to-time conversion shared by the exporters and the report. */
#include "output/export_formats.h"

uint64_t trx_export_rate(const trx_export_options *o)
{
    return o && o->ticks_per_second ? o->ticks_per_second : 1000000u;
}

uint64_t trx_export_ticks_to_ns(const trx_export_options *o, uint64_t ticks)
{
    uint64_t rate = trx_export_rate(o);
    if (rate == 1000000000u)
        return ticks;
    uint64_t whole = ticks / rate, rest = ticks % rate;
    if (whole > UINT64_MAX / 1000000000u)
        return UINT64_MAX;
    /* rest < rate: rest * 1e9 may not fit 64 bits, so split it once more */
    uint64_t ns = whole * 1000000000u;
    uint64_t part = (uint64_t)((double)rest * 1e9 / (double)rate);
    return ns + part;
}

void trx_out_us_from_ns(trx_out *w, uint64_t ns)
{
    trx_out_u64_pad(w, ns / 1000u, 0, ' ');
    uint32_t frac = (uint32_t)(ns % 1000u);
    if (frac) {
        char d[4] = {'.', (char)('0' + frac / 100), (char)('0' + frac / 10 % 10),
                     (char)('0' + frac % 10)};
        trx_out_mem(w, d, frac % 100 == 0 ? 2 : frac % 10 == 0 ? 3 : 4);
    }
}
