/* fuzz_segments.c - libFuzzer target, differential: the statistics (both
 * modes) and the latencies (instances; user intervals, also paired by a
 * field; also beside the statistics, as their caller's analysis: check's and
 * diff's one walk) computed over segments of the input's trace and merged
 * (stats_segments.c, latency_segments.c) must give the one walk's JSON
 * byte for byte (in TraceX's mode with its inversion marks, which the
 * JSON does not show), for cuts, warm-ups and options taken from the input's
 * last bytes; the trace is sometimes opened again unprepared (the segments
 * prepare it in parts), a UIA capture with the event names of gen_sysbios's
 * or sysbios_shaped's captures (tests/fuzz/names: SYS/BIOS's tasks and
 * interrupts as contexts; seeds of both in seeds/fuzz_segments). A
 * difference is a finding (trap): the segments' fingerprints and merges
 * on shapes no test wrote. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/latency_segments.h"
#include "analyze/stats_segments.h"
#include "analyze/stats_walk.h"
#include "stats/stats_json_text.h"
#include "trx/trx.h"
#include "trx/uia.h"
#include "trx/uia_names.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The names a UIA input may be read with (loaded once): none, gen_sysbios's, sysbios_shaped's. */
static trx_uia_names names[2];
static bool names_loaded[2];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    static const char *const files[2] = {TRX_SOURCE_DIR "/tests/fuzz/names/gen_sysbios.uia.xml",
                                         TRX_SOURCE_DIR "/tests/fuzz/names/sysbios_shaped.uia.xml"};
    for (int k = 0; k < 2; k++) {
        trx_error err;
        memset(&err, 0, sizeof err);
        names_loaded[k] = trx_uia_names_load(&names[k], files[k], &err) == 0;
        if (!names_loaded[k])
            fprintf(stderr, "fuzz_segments: %s: %s (UIA inputs read without them)\n", files[k],
                    err.message);
    }
    return 0;
}

/* The choices the input makes: a generator seeded with its last 16 bytes
 * (xorshift64*), so that the fuzzer steers them by mutating those. */
typedef struct choices {
    uint64_t x;
} choices;

static choices choices_of(const uint8_t *data, size_t size)
{
    choices c = {0x9E3779B97F4A7C15u};
    for (size_t k = 0; k < 16 && k < size; k++)
        c.x = (c.x ^ data[size - 1 - k]) * 0x100000001B3u;
    if (c.x == 0)
        c.x = 1;
    return c;
}

/* The next `bits` (< 32) bits of the choices. */
static uint64_t take(choices *c, unsigned bits)
{
    c->x ^= c->x >> 12;
    c->x ^= c->x << 25;
    c->x ^= c->x >> 27;
    return ((c->x * 0x2545F4914F6CDD1Du) >> 32) & ((1u << bits) - 1u);
}

/* Opens the input; a UIA capture with names `n` (NULL: none). */
static bool open_input(trx_trace *t, const uint8_t *data, size_t size, const trx_uia_names *n)
{
    trx_image img;
    trx_error err;
    memset(&err, 0, sizeof err);
    if (trx_image_load_memory(&img, data, size, TRX_FORMAT_AUTO, &err) != 0)
        return false;
    trx_open_options o;
    memset(&o, 0, sizeof o);
    o.uia_names = n;
    if (trx_trace_open_image_with(t, &img, "fuzz-input", &o, &err) != 0)
        return false;
    if (t->format == TRX_TRACE_UIA)
        t->uia_names = n;
    return true;
}

/* Both texts made (out of memory: nothing to compare) and different: a
 * finding; with TRX_FUZZ_SHOW set (running the fuzzer on a finding file),
 * `what` and both texts on stderr first. */
static void same_or_trap(char *want, char *got, const char *what)
{
    if (want && got && strcmp(want, got) != 0) {
        if (getenv("TRX_FUZZ_SHOW"))
            fprintf(stderr, "%s\n--- one walk:\n%s\n--- segments:\n%s\n", what, want, got);
        __builtin_trap();
    }
    free(want);
    free(got);
}

/* Where the trace's events may be cut: raw entries (TXTB) or records (UIA). */
static uint64_t cut_range(const trx_trace *t)
{
    const trx_uia_info *u = trx_uia_info_of(t);
    return u ? u->records : t->used;
}

/* One or two ascending cuts in [1, n) from *w: how many. */
static uint32_t pick_cuts(choices *w, uint64_t n, uint64_t cuts[2])
{
    if (n < 2)
        return 0;
    uint32_t count = 1 + (uint32_t)take(w, 1);
    for (uint32_t k = 0; k < count; k++)
        cuts[k] = 1 + take(w, 20) % (n - 1);
    if (count == 2 && cuts[0] > cuts[1]) {
        uint64_t x = cuts[0];
        cuts[0] = cuts[1];
        cuts[1] = x;
    }
    return count;
}

static const uint64_t warm_ups[4] = {0, 1, 8, 256};

/* The JSON of s followed by its inversion marks (TraceX's mode: the end
 * index written on each window's start event), malloc'd; NULL when out of
 * memory. */
static char *stats_text(const trx_trace *t, const trx_stats *s)
{
    char *json = stats_json_text(t, s), *buf = NULL;
    size_t len = 0;
    FILE *f = json ? open_memstream(&buf, &len) : NULL;
    if (!f) {
        free(json);
        return NULL;
    }
    fputs(json, f);
    for (uint32_t i = 0; i < s->mark_count; i++)
        fprintf(f, "mark %llu %llu %llu %u\n", (unsigned long long)s->marks[i].start,
                (unsigned long long)s->marks[i].end, (unsigned long long)s->marks[i].order,
                (unsigned)s->marks[i].bad);
    fclose(f);
    free(json);
    return buf;
}

/* The statistics of t (prepared, in `mode`) over segments equal the one walk's;
 * `again`: the input opened again, unprepared (or NULL). */
static void stats_same(trx_trace *t, trx_trace *again, trx_mode mode, choices *w)
{
    trx_trace_set_mode(t, mode);
    trx_stats whole;
    if (trx_stats_compute(t, &whole) != 0)
        return;
    char *want = stats_text(t, &whole);
    trx_stats_free(&whole);
    uint64_t cuts[2];
    uint32_t n = pick_cuts(w, cut_range(t), cuts);
    uint64_t warm = warm_ups[take(w, 2)];
    trx_trace *u = t;
    if (again) {
        trx_trace_set_mode(again, mode);
        u = again;
    }
    trx_stats s;
    int rc = n ? trx_stats_compute_segments(u, &s, 0, cuts, n, warm, false, NULL) : -1;
    if (rc == TRX_STATS_SEGMENTS_UNPREPARED) { /* Un-named Threads: prepared first */
        trx_trace_prepare(u);
        rc = trx_stats_compute_segments(u, &s, 0, cuts, n, warm, false, NULL);
    }
    if (rc != 0) {
        free(want);
        return;
    }
    char what[160];
    snprintf(what, sizeof what, "stats (%s mode%s), cuts %llu %llu (%u), warm-up %llu",
             mode == TRX_MODE_CORRECT ? "default" : "TraceX", again ? ", unprepared" : "",
             (unsigned long long)cuts[0], (unsigned long long)(n > 1 ? cuts[1] : 0), n,
             (unsigned long long)warm);
    same_or_trap(want, stats_text(u, &s), what);
    trx_stats_free(&s);
}

/* An event id for user intervals: a TXTB entry's, or one of the first ids. */
static uint32_t id_in(const trx_trace *t, choices *w)
{
    if (t->format != TRX_TRACE_TXTB || t->used == 0)
        return (uint32_t)take(w, 4);
    trx_entry e;
    trx_trace_entry(t, (uint32_t)(take(w, 20) % t->used), &e);
    return e.id & 0xFFFFu;
}

/* trx_latency_compute_segments with the latency beside the statistics (as
 * their caller's analysis: trx_stats_latency_compute's way); the
 * statistics' JSON must be the one walk's too. */
static int latency_beside_stats(trx_trace *t, const trx_latency_options *o, trx_latency *l,
                                const uint64_t *cuts, uint32_t n, uint64_t warm)
{
    trx_stats whole, s;
    if (trx_stats_compute(t, &whole) != 0)
        return -1;
    char *want = stats_json_text(t, &whole);
    trx_stats_free(&whole);
    trx_latency_extra *e = trx_latency_extra_new(t, o, l);
    const trx_kept_inversions all = {UINT32_MAX, NULL, NULL};
    int rc = e ? trx_stats_compute_segments_with(t, &s, 0, cuts, n, warm, false, NULL, &all,
                                                 trx_latency_extra_of(e))
               : -1;
    if (e && trx_latency_extra_end(e, rc == 0) != 0 && rc == 0) {
        trx_stats_free(&s);
        rc = -1;
    }
    if (rc != 0) {
        free(want);
        return -1;
    }
    same_or_trap(want, stats_json_text(t, &s), "stats beside the latency");
    trx_stats_free(&s);
    return 0;
}

/* The latencies of t (prepared) over segments equal the one walk's. */
static void latency_same(trx_trace *t, choices *w)
{
    trx_trace_set_mode(t, TRX_MODE_CORRECT);
    trx_latency_options o;
    memset(&o, 0, sizeof o);
    o.worst = 1 + (uint32_t)take(w, 2);
    uint64_t kind = take(w, 2); /* 0, 1: instances; 2: user intervals; 3: paired */
    if (kind >= 2) {
        o.intervals = true;
        o.from = (trx_event_pattern){id_in(t, w), kind == 3 ? (int)take(w, 2) : -1};
        o.to = (trx_event_pattern){id_in(t, w), kind == 3 ? (int)take(w, 2) : -1};
    }
    uint32_t jobs = t->jobs;
    t->jobs = 1;
    trx_latency whole;
    int rc = trx_latency_compute(t, &o, &whole);
    t->jobs = jobs;
    if (rc != 0)
        return;
    char *want = latency_json_text(t, &whole, o.intervals);
    trx_latency_free(&whole);
    uint64_t cuts[2];
    uint32_t n = pick_cuts(w, cut_range(t), cuts);
    uint64_t warm = warm_ups[take(w, 2)];
    bool beside = take(w, 1);
    trx_latency l;
    if (!n || (beside ? latency_beside_stats(t, &o, &l, cuts, n, warm)
                      : trx_latency_compute_segments(t, &o, &l, cuts, n, warm, false, NULL)) != 0) {
        free(want);
        return;
    }
    char what[220];
    snprintf(what, sizeof what,
             "latency%s (worst %u, intervals %d from %u:%d to %u:%d), cuts %llu %llu (%u), "
             "warm-up %llu",
             beside ? " beside the statistics" : "", o.worst, o.intervals, o.from.id, o.from.field,
             o.to.id, o.to.field, (unsigned long long)cuts[0],
             (unsigned long long)(n > 1 ? cuts[1] : 0), n, (unsigned long long)warm);
    same_or_trap(want, latency_json_text(t, &l, o.intervals), what);
    trx_latency_free(&l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    choices c = choices_of(data, size);
    uint32_t which = (uint32_t)take(&c, 2); /* 0, 1: no names; 2, 3: names[which - 2] */
    const trx_uia_names *n = which >= 2 && names_loaded[which - 2] ? &names[which - 2] : NULL;
    trx_trace t;
    if (!open_input(&t, data, size, n))
        return 0;
    t.jobs = 1; /* the one walk: trx_stats_compute / trx_latency_compute */
    trx_trace again;
    bool fresh = take(&c, 1) && open_input(&again, data, size, n);
    if (fresh)
        again.jobs = 1;
    trx_trace_prepare(&t);
    stats_same(&t, fresh ? &again : NULL, TRX_MODE_CORRECT, &c);
    stats_same(&t, NULL, TRX_MODE_TRACEX, &c);
    latency_same(&t, &c);
    if (fresh)
        trx_trace_close(&again);
    trx_trace_close(&t);
    return 0;
}
