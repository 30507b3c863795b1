/* fuzz_export.c - libFuzzer target: every picture-making output on arbitrary
 * input: load, open, then `trx export` in all four formats (Perfetto, Chrome
 * JSON, CSV, CTF stream + metadata) and `trx report`, written to /dev/null;
 * then what `trx serve` does with it: the page shell, the overview, a
 * summary of the whole span and of a narrow range (by time and by event
 * number), a window's CPU runs, and cursor copies from
 * the checkpoints (each must reach the event it was asked for, as many
 * events as the overview counted); the overview built by two threads (the
 * halves split where the input says) must summarise the whole span byte for
 * byte as the one-thread walk and seek to the same events. Each must succeed on any trace that
 * opens (they fail only when out of memory) and never read out of bounds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/export_formats.h"
#include "output/report.h"
#include "overview/trace_overview.h"

/* The summary of the whole span of `ov` in one column, as text (NULL when out of memory). */
static char *whole_span(const trx_overview *ov, uint64_t span, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f)
        return NULL;
    trx_out w;
    trx_out_init(&w, f, false);
    trx_overview_summary_json(ov, 0, span + 1, 1, &w);
    trx_out_flush(&w);
    fclose(f);
    return text;
}

/* The overview by halves (second half from raw entry `split` on) equals `ov`. */
static void compare_halves(trx_trace *t, const trx_overview *ov, uint32_t split)
{
    trx_overview *h = trx_overview_new(t);
    if (!h)
        return;
    trx_overview_set_parallel_min(h, 0, split);
    if (trx_overview_build(h, NULL) == 0) {
        uint64_t total = trx_overview_ready(ov), span = t->max_ticks;
        size_t la = 0, lb = 0;
        char *a = whole_span(ov, span, &la), *b = whole_span(h, span, &lb);
        if (trx_overview_ready(h) != total || (a && b && (la != lb || memcmp(a, b, la) != 0)))
            __builtin_trap();
        free(a);
        free(b);
        for (uint64_t at = 0; at < total; at += total / 5 + 1) {
            trx_cursor x, y;
            if (trx_overview_seek_index(ov, at, &x) != 0)
                break;
            if (trx_overview_seek_index(h, at, &y) == 0) {
                const trx_event *ex = trx_cursor_next_ref(&x), *ey = trx_cursor_next_ref(&y);
                if (!ex || !ey || ex->index != ey->index || ex->ticks != ey->ticks ||
                    ex->context != ey->context || ex->next_context != ey->next_context ||
                    ex->priority != ey->priority)
                    __builtin_trap();
                trx_cursor_free(&y);
            }
            trx_cursor_free(&x);
        }
    }
    trx_overview_free(h);
}

/* The CTF export's stream files: all into the one null output. */
static trx_out *every_stream_to_out(void *ctx, const char *name)
{
    (void)name;
    return ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    trx_image img;
    trx_error err;
    memset(&err, 0, sizeof err);
    if (trx_image_load_memory(&img, data, size, TRX_FORMAT_AUTO, &err) != 0)
        return 0;
    trx_trace t;
    if (trx_trace_open_image(&t, &img, "fuzz-input", &err) != 0)
        return 0; /* the trace released the image */
    static FILE *null_out;
    static trx_out out, meta;
    if (!null_out)
        null_out = fopen("/dev/null", "w");
    if (null_out) {
        trx_export_options o = {size & 1 ? 0 : 80000000u, NULL};
        trx_ctf_sink ctf_files = {every_stream_to_out, &out};
        trx_out_init(&out, null_out, false);
        trx_out_init(&meta, null_out, false);
        if (trx_export_perfetto(&t, &out, &o) != 0 || trx_export_chrome_json(&t, &out, &o) != 0 ||
            trx_export_csv(&t, &out, &o) != 0 || trx_export_ctf(&t, &ctf_files, &meta, &o) != 0 ||
            trx_report_write(&t, &out, &o) != 0)
            __builtin_trap();
        /* trx serve */
        if (trx_report_write_shell(&t, &out, &o) != 0)
            __builtin_trap();
        trx_overview *ov = trx_overview_new(&t);
        if (ov && trx_overview_build(ov, NULL) == 0) {
            uint64_t total = trx_overview_ready(ov), span = t.max_ticks;
            if (total != t.total_events)
                __builtin_trap();
            trx_overview_summary_json(ov, 0, span + 1, 97, &out);
            /* narrower columns than ticks; few enough that 512 lanes of them stay
             * quick in this build (5,000 took 38 s on CI's box) */
            trx_overview_summary_json(ov, span / 3, span / 3 + 2, 240, &out);
            for (uint64_t at = 0; at <= total; at += total / 3 + 1) {
                trx_cursor c;
                if (trx_overview_seek_index(ov, at, &c) != 0)
                    __builtin_trap();
                const trx_event *ev = trx_cursor_next_ref(&c);
                if (at < total && (!ev || ev->index != at))
                    __builtin_trap();
                trx_cursor_free(&c);
            }
            (void)trx_overview_events_between(ov, 0, span);
            (void)trx_overview_index_near(ov, span / 2);
            /* the sequential mode's summary, locate's conversions, a
             * window's CPU runs (cores followed from a lead-in) */
            trx_overview_summary_index_json(ov, total / 4, total / 4 + total / 2 + 1, 61, &out);
            (void)trx_overview_ticks_near(ov, total / 2, false);
            (void)trx_overview_ticks_near(ov, total / 2, true);
            trx_cursor lead;
            if (trx_overview_seek_index(ov, total / 3, &lead) == 0 &&
                trx_report_core_runs_window(&t, &lead, total / 3 + 7, total / 3 + 300, &out) != 0)
                __builtin_trap();
            if (size >= 2)
                compare_halves(&t, ov, t.used ? (data[0] | (uint32_t)data[1] << 8) % t.used : 0);
        }
        trx_overview_free(ov);
        trx_out_flush(&out);
        trx_out_flush(&meta);
    }
    trx_trace_close(&t);
    return 0;
}
