/*
 * bench_stats_kept.c - times trx_stats_compute_kept as `trx serve` calls it
 * (the trace prepared first, as serve's overview does; the first 10,000
 * inversions kept whole, every other one's band stored by its number) and
 * prints digests of what serve keeps: the statistics' JSON and every
 * inversion's band (start, end, unbounded) by number. Equal digests with
 * TRX_STATS_SERIAL=1 (the one walk) show the segments give the same.
 *
 *   bench_stats_kept TRACE [RUNS=3]
 *
 * Not a test: nothing here fails on slowness.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "analyze/analyses.h"
#include "output/stats_json.h"
#include "trx/trx.h"

enum { KEEP = 10000 };

/* The bands given to done, by number (as serve's band_done stores them). */
typedef struct bands {
    trx_inversion_band *v;
    uint8_t *given;
    uint64_t cap, calls;
    int oom;
} bands;

static void band_done(void *ctx, const trx_inversion_band *b, uint32_t number)
{
    bands *s = ctx;
    s->calls++;
    if (number >= s->cap) {
        uint64_t cap = s->cap ? s->cap : 1024;
        while (cap <= number)
            cap *= 2;
        trx_inversion_band *v = realloc(s->v, cap * sizeof *v);
        uint8_t *g = realloc(s->given, cap);
        if (v)
            s->v = v;
        if (g)
            s->given = g;
        if (!v || !g) {
            s->oom = 1;
            return;
        }
        memset(s->given + s->cap, 0, cap - s->cap);
        s->cap = cap;
    }
    s->v[number] = *b;
    s->given[number]++;
}

/* FNV-1a over n bytes, continuing from h. */
/* CPU seconds (user + system) of every thread so far. */
static double cpu_seconds(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ c[i]) * 1099511628211u;
    return h;
}

static uint64_t json_digest(const trx_trace *t, const trx_stats *st)
{
    trx_stats brief = *st; /* as serve writes it: the list paged apart */
    brief.inversion_count = 0;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return 0;
    trx_out o;
    trx_out_init(&o, f, false);
    trx_stats_write_json(t, &brief, NULL, &o);
    trx_out_flush(&o);
    fclose(f);
    uint64_t h = fnv(14695981039346656037u, buf, len);
    free(buf);
    return h;
}

/* Every inversion's band by number: the kept list's, then done's. */
static uint64_t band_digest(const trx_stats *st, const bands *b, uint64_t *missing)
{
    uint64_t h = 14695981039346656037u;
    *missing = 0;
    for (uint64_t i = 0; i < st->inversions; i++) {
        uint64_t w[3];
        if (i < st->inversion_count) {
            const trx_inversion *v = &st->inversion_list[i];
            w[0] = v->start_index, w[1] = v->end_index, w[2] = v->unbounded;
        } else if (i < b->cap && b->given[i] == 1) {
            w[0] = b->v[i].start_index, w[1] = b->v[i].end_index, w[2] = b->v[i].unbounded;
        } else {
            (*missing)++;
            continue;
        }
        h = fnv(h, w, sizeof w);
    }
    return h;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_stats_kept TRACE [RUNS]\n");
        return 2;
    }
    int runs = argc > 2 ? atoi(argv[2]) : 3;
    trx_trace t;
    trx_error err;
    if (trx_trace_open(&t, argv[1], TRX_FORMAT_AUTO, &err) < 0) {
        fprintf(stderr, "bench_stats_kept: %s\n", err.message);
        return 1;
    }
    trx_trace_prepare(&t);
    int rc = 0;
    for (int r = 0; r < runs; r++) {
        bands b = {0};
        trx_stats st;
        struct timespec t0, t1;
        double c0 = cpu_seconds();
        clock_gettime(CLOCK_MONOTONIC, &t0);
        if (trx_stats_compute_kept(&t, &st, KEEP, band_done, &b) != 0) {
            fprintf(stderr, "bench_stats_kept: no statistics\n");
            rc = 1;
            break;
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double cpu = cpu_seconds() - c0;
        uint64_t missing;
        uint64_t bh = band_digest(&st, &b, &missing);
        printf("run %d: %.3f s (CPU %.3f s), %" PRIu64 " inversions (%u kept, %" PRIu64
               " given, %" PRIu64 " missing), json %016" PRIx64 ", bands %016" PRIx64 "%s\n",
               r, (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, cpu,
               st.inversions, st.inversion_count, b.calls, missing, json_digest(&t, &st), bh,
               b.oom ? " (out of memory)" : "");
        trx_stats_free(&st);
        free(b.v);
        free(b.given);
    }
    trx_trace_close(&t);
    return rc;
}
