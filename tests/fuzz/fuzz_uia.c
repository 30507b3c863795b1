/* fuzz_uia.c - lean libFuzzer target: the UIA decoder alone on arbitrary
 * bytes (forced UIA, byte order detected; no loader, no analyses, no
 * output): open (packets, halted/wrapped buffers, raw records, snapshots),
 * walk every event and decode its record. Checks: a failed open leaves a
 * one-line error inside the input; events are numbered consecutively, one
 * per record; every record lies inside the input; the gaps add up to the
 * lost total, each at an existing event; snapshots hold at most their total.
 * Inputs whose last byte has bit 1 set are opened with SYS/BIOS's names on
 * module 0 (Task, Hwi, Swi, Semaphore, Load: ids 1-11), so the scheduler
 * model and the per-core statistics run on them too: every figure stays
 * within the span times the cores. Records carrying TXTB entries: the
 * open's quick test agrees with the rebuild (trx_uia_has_record_like). */
#include <string.h>

#include "fuzz_check.h"

#include <stdio.h>
#include <stdlib.h>

#include "decode/stream_txtb.h"
#include "decode/uia_internal.h"
#include "output/convert.h"
#include "output/out_buffer.h"

#include "trx/stats.h"
#include "trx/uia.h"
#include "trx/uia_names.h"

static const char sysbios_xml[] =
    "<uia><evtMap id=\"1\" moduleId=\"0\" longName=\"ti.sysbios.knl.Task.LM_switch\"/>"
    "<evtMap id=\"2\" moduleId=\"0\" longName=\"ti.sysbios.knl.Task.LD_ready\"/>"
    "<evtMap id=\"3\" moduleId=\"0\" longName=\"ti.sysbios.knl.Task.LD_block\"/>"
    "<evtMap id=\"4\" moduleId=\"0\" longName=\"ti.sysbios.family.arm.m3.Hwi.LM_begin\"/>"
    "<evtMap id=\"5\" moduleId=\"0\" longName=\"ti.sysbios.family.arm.m3.Hwi.LD_end\"/>"
    "<evtMap id=\"6\" moduleId=\"0\" longName=\"ti.sysbios.knl.Swi.LM_begin\"/>"
    "<evtMap id=\"7\" moduleId=\"0\" longName=\"ti.sysbios.knl.Swi.LD_end\"/>"
    "<evtMap id=\"8\" moduleId=\"0\" longName=\"ti.sysbios.knl.Swi.LM_post\"/>"
    "<evtMap id=\"9\" moduleId=\"0\" longName=\"ti.sysbios.knl.Semaphore.LM_post\"/>"
    "<evtMap id=\"10\" moduleId=\"0\" longName=\"ti.sysbios.knl.Semaphore.LM_pend\"/>"
    "<evtMap id=\"11\" moduleId=\"0\" longName=\"ti.sysbios.utils.Load.LS_cpuLoad\"/></uia>";

/* The common statistics on a SYS/BIOS-named trace: bounded by span x cores. */
static void check_stats(trx_trace *t)
{
    trx_stats s;
    if (trx_stats_compute(t, &s) != 0)
        return; /* out of memory under the fuzzer's limit */
    /* 128 bits: a span near 2^64 times the cores does not fit 64 */
    unsigned __int128 bound = ((unsigned __int128)s.max_relative_ticks + 1) *
                              trx_trace_context_cores(t),
                      sum = (unsigned __int128)s.interrupt_ticks + s.idle_ticks;
    for (uint32_t i = 0; i < s.thread_count; i++)
        sum += s.threads[i].execution_ticks;
    if (sum > bound)
        __builtin_trap();
    trx_stats_free(&s);
}

/* trx convert --to txtb of the trace (a registry snapshot in it becomes the
 * buffer's registry), then the converted buffer read back as TXTB and walked. */
static void convert_round_trip(trx_trace *t)
{
    char *bytes = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&bytes, &n);
    if (!f)
        return;
    trx_out o;
    trx_out_init(&o, f, false);
    int rc = trx_convert_to_txtb(t, &o);
    if (trx_out_flush(&o) != 0)
        rc = -1;
    fclose(f);
    trx_image img;
    trx_trace back;
    trx_error err;
    if (rc == 0 &&
        trx_image_load_memory(&img, (const uint8_t *)bytes, n, TRX_FORMAT_BIN, &err) == 0) {
        if (trx_trace_open_image(&back, &img, "converted", &err) == 0) {
            trx_cursor c;
            trx_event ev;
            if (trx_cursor_init(&c, &back) == 0) {
                while (trx_cursor_next(&c, &ev)) {
                }
                trx_cursor_free(&c);
            }
            trx_trace_close(&back);
        }
    }
    free(bytes);
}

/* The open's test for records carrying TXTB entries (a stream read as the
 * TXTB trace it carries) finds one wherever the rebuild does. */
static void check_carried_entries(trx_trace *t)
{
    trx_stream_txtb_image b;
    if (trx_stream_txtb_build(t, false, &b) < 0)
        return; /* out of memory under the fuzzer's limit */
    if (b.txtb_events > 0 && !trx_uia_has_record_like(t, 0, 8, TRX_TXTB_IN_UIA))
        __builtin_trap();
    free(b.image);
    free(b.gap_entry);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    trx_trace t;
    static trx_uia_names names;
    static bool names_ready;
    if (!names_ready) {
        trx_error err;
        if (trx_uia_names_parse(&names, sysbios_xml, sizeof sysbios_xml - 1, &err) != 0)
            __builtin_trap();
        names_ready = true;
    }
    trx_endian endian = size > 0 && (data[size - 1] & 1) ? TRX_ENDIAN_AUTO : TRX_ENDIAN_LITTLE;
    bool sysbios = size > 0 && (data[size - 1] & 2);
    if (!fuzz_open_trace_named(&t, data, size, TRX_TRACE_UIA, endian, sysbios ? &names : NULL))
        return 0;
    const trx_uia_info *u = trx_uia_info_of(&t);
    if (!u || u->records == 0)
        __builtin_trap();
    uint64_t lost = 0;
    for (uint64_t g = 0; g < t.gap_count; g++) {
        if (t.gaps[g].index > u->records || t.gaps[g].lost == 0 ||
            (g && t.gaps[g].index <= t.gaps[g - 1].index))
            __builtin_trap();
        lost += t.gaps[g].lost;
    }
    if (lost != t.lost_events)
        __builtin_trap();
    for (uint32_t s = 0; s < u->snapshot_count; s++)
        if (u->snapshots[s].length > u->snapshots[s].total_length)
            __builtin_trap();
    trx_cursor c;
    if (trx_cursor_init(&c, &t) == 0) {
        trx_event ev;
        uint64_t n = 0, lost_seen = 0;
        while (trx_cursor_next(&c, &ev)) {
            if (ev.index != n++)
                __builtin_trap();
            trx_uia_record r;
            if (!trx_uia_record_get(&t, ev.entry, &r) || r.offset + r.length > size ||
                r.hdr_type > 12)
                __builtin_trap();
            lost_seen += ev.lost_before;
        }
        if (n != u->records || lost_seen + u->target_dropped != t.lost_events)
            __builtin_trap();
        trx_cursor_free(&c);
    }
    if (sysbios)
        check_stats(&t);
    check_carried_entries(&t);
    convert_round_trip(&t);
    trx_trace_close(&t);
    return 0;
}
