/* fuzz_decode.c - libFuzzer target: the whole read path on arbitrary input:
 * load (format detected), open the TXTB buffer, run TraceX's model once
 * (trx_trace_prepare), walk every event with a cursor, the per-core
 * analyses (with their invariants) and write the TraceX dump (to /dev/null),
 * close. */
#include <stdio.h>
#include <string.h>

#include "fuzz_check.h"
#include "output/dump_text.h"
#include "trx/cores.h"
#include "trx/stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    trx_image img;
    trx_error err;
    memset(&err, 0, sizeof err);
    if (trx_image_load_memory(&img, data, size, TRX_FORMAT_AUTO, &err) != 0)
        return 0;
    trx_trace t;
    if (trx_trace_open_image(&t, &img, "fuzz-input", &err) != 0) {
        if (strchr(err.message, '\n') || err.message[0] == '\0')
            __builtin_trap();
        return 0; /* the trace released the image */
    }
    trx_trace_prepare(&t);
    trx_cursor c;
    if (trx_cursor_init(&c, &t) == 0) {
        trx_event ev;
        uint64_t n = 0;
        while (trx_cursor_next(&c, &ev)) {
            if (ev.index != n++) /* events are numbered consecutively */
                __builtin_trap();
        }
        if (n != t.total_events) /* prepare counted the same events */
            __builtin_trap();
        trx_cursor_free(&c);
    }
    /* the per-core analyses: every stored event counted on one core, and
     * every core's time split exactly over its states */
    trx_core_summary cs;
    if (trx_core_summary_compute(&t, &cs) == 0) {
        uint64_t sum = 0;
        for (uint32_t k = 0; k < cs.core_count; k++)
            sum += cs.events[k];
        if (sum + cs.beyond != t.total_events - t.synthetic_events)
            __builtin_trap();
    }
    trx_core_summary_free(&cs);
    trx_core_stats ks;
    if (trx_core_stats_compute(&t, &ks) == 0) {
        for (uint32_t k = 0; k < ks.core_count; k++) {
            const trx_core_profile *p = &ks.cores[k];
            if (p->thread_ticks + p->interrupt_ticks + p->idle_ticks + p->init_ticks +
                    p->unknown_ticks !=
                ks.span_ticks)
                __builtin_trap();
        }
        if (ks.parallel_ticks > ks.span_ticks)
            __builtin_trap();
        trx_core_stats_free(&ks);
    }
    static FILE *null_out;
    static trx_out out;
    if (!null_out)
        null_out = fopen("/dev/null", "w");
    if (null_out) {
        trx_out_init(&out, null_out, false);
        if (trx_dump_write(&t, &out, "fuzz-input", "/dev/null") != 0)
            __builtin_trap(); /* only fails when out of memory */
        trx_out_flush(&out);
    }
    trx_trace_close(&t);
    return 0;
}
