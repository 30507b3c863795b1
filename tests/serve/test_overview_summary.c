/*
 * test_overview_summary.c - what trx serve's summaries say, against a walk of
 * every event: for each trace given, the summary by event number (the
 * sequential mode) with one column per chunk of events has, per lane and
 * column, exactly the events of that lane among those numbers, the time it
 * ran while they happened (per mille of their time, to one: the ticks from
 * each event to the next on its core belong to the lane that had the CPU
 * after the first; each chunk's notes hold those ticks exactly) and the lost
 * events before them; the summary by time in one column has every
 * lane's events; /api/locate's conversions bracket every event (the chunk holding an event begins
 * at or before its ticks and ends at or after them; the event found for its ticks is at or before
 * it).
 *
 *   test_overview_summary TRACE ...
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/timeline.h"
#include "overview/overview_internal.h"
#include "overview/trace_overview.h"
#include "trx/trx.h"
#include "../decode/event_truth.h"
#include "overview_check.h"

/* A summary's figures: per lane listed, its busy, events and worst columns. */
typedef struct parsed {
    uint32_t lanes;
    uint32_t lane[1024];
    uint64_t *events; /* lanes x cols */
    uint64_t *busy;   /* lanes x cols, per mille */
    uint64_t *lost;   /* cols */
    bool ok;
} parsed;

/* The next whole number at or after *p (skipping anything else). */
static uint64_t next_number(const char **p)
{
    while (**p && (**p < '0' || **p > '9'))
        (*p)++;
    char *end;
    uint64_t v = strtoull(*p, &end, 10);
    *p = end;
    return v;
}

/* Reads the JSON of a summary of `cols` columns (its own layout, documented
 * in trace_overview.h: [lane,[busy],[events],[worst]] per lane, then lost). */
static parsed parse(const char *json, uint32_t cols)
{
    parsed r = {0};
    const char *p = strstr(json, "\"lanes\":["), *lost = strstr(json, "\"lost\":[");
    if (!p || !lost)
        return r;
    r.events = calloc((size_t)1024 * cols, sizeof *r.events);
    r.busy = calloc((size_t)1024 * cols, sizeof *r.busy);
    r.lost = calloc(cols, sizeof *r.lost);
    if (!r.events || !r.busy || !r.lost)
        return r;
    p += 9;
    while (r.lanes < 1024) {
        const char *q = p;
        next_number(&q);
        if (q > lost)
            break;
        r.lane[r.lanes] = (uint32_t)next_number(&p);
        for (uint32_t x = 0; x < cols; x++)
            r.busy[(size_t)r.lanes * cols + x] = next_number(&p);
        for (uint32_t x = 0; x < cols; x++)
            r.events[(size_t)r.lanes * cols + x] = next_number(&p);
        for (uint32_t x = 0; x < cols; x++)
            next_number(&p); /* worst */
        r.lanes++;
    }
    p = lost + 8;
    for (uint32_t x = 0; x < cols; x++)
        r.lost[x] = next_number(&p);
    r.ok = true;
    return r;
}

static void check_trace(const char *path)
{
    trx_trace t;
    if (!open_prepared(&t, path))
        return;
    uint64_t n = 0;
    trx_event *truth = all_events(&t, &n);
    trx_overview *o = trx_overview_new(&t);
    if (o) /* one walk: every chunk but the last is TRX_OVERVIEW_CHUNK events */
        trx_overview_set_parallel_min(o, UINT64_MAX, 0);
    CHECK(truth && o && trx_overview_build(o, NULL) == 0, "%s: no overview", path);
    if (!truth || !o || n == 0) {
        free(truth);
        trx_overview_free(o);
        trx_trace_close(&t);
        return;
    }
    uint32_t lanes = trx_lane_count(&t);
    uint32_t cols = (uint32_t)((n + TRX_OVERVIEW_CHUNK - 1) / TRX_OVERVIEW_CHUNK);
    if (cols > TRX_OVERVIEW_MAX_COLS || lanes > 512) {
        printf("%s: skipped (%u columns, %u lanes)\n", path, cols, lanes);
        goto out;
    }
    /* the truth per lane and chunk-sized column: events, and ticks run (from
     * each event to the next on its core, the time on the axis never going
     * back, for the lane that has the CPU after the first) */
    uint64_t *want = calloc((size_t)lanes * cols, sizeof *want), *lost = calloc(cols, sizeof *lost);
    uint64_t *per_lane = calloc(lanes, sizeof *per_lane);
    uint64_t *ran = calloc((size_t)lanes * cols, sizeof *ran), *end = calloc(cols, sizeof *end);
    uint32_t cores = trx_trace_context_cores(&t) ? trx_trace_context_cores(&t) : 1;
    uint32_t *run_lane = calloc(cores, sizeof *run_lane);
    uint64_t *since = calloc(cores, sizeof *since), now = 0;
    for (uint32_t k = 0; run_lane && k < cores; k++)
        run_lane[k] = UINT32_MAX;
    for (uint64_t i = 0; want && lost && per_lane && ran && end && run_lane && since && i < n;
         i++) {
        const trx_event *ev = &truth[i];
        uint32_t l = trx_lane_of_event(&t, ev, ev->context), x = (uint32_t)(i / TRX_OVERVIEW_CHUNK);
        if (l < lanes) {
            want[(size_t)l * cols + x]++;
            per_lane[l]++;
        }
        lost[x] += ev->lost_before;
        now = ev->ticks > now ? ev->ticks : now;
        uint32_t core = cores > 1 && ev->core < cores ? ev->core : 0;
        if (run_lane[core] < lanes)
            ran[(size_t)run_lane[core] * cols + x] += now - since[core];
        run_lane[core] = trx_lane_of_event(&t, ev, ev->next_context);
        since[core] = now;
        end[x] = now;
    }
    /* each chunk's notes: the ticks each lane ran in it, exactly */
    uint64_t chunks = atomic_load(&o->chunks_ready);
    CHECK(chunks == cols, "%s: %llu chunks, %u expected", path, (unsigned long long)chunks, cols);
    for (uint64_t x = 0; ran && x < chunks && x < cols; x++) {
        uint64_t noted = 0, truth_ran = 0;
        for (uint32_t k = 0; k < o->chunks[x].note_count; k++) {
            const lane_note *nt = note_at(o, o->chunks[x].notes_at + k);
            uint64_t r = nt->lane < lanes ? ran[(size_t)nt->lane * cols + x] : 0;
            CHECK(nt->busy == r, "%s: chunk %llu, lane %u ran %llu ticks, the events say %llu",
                  path, (unsigned long long)x, nt->lane, (unsigned long long)nt->busy,
                  (unsigned long long)r);
            noted += nt->busy;
        }
        for (uint32_t l = 0; l < lanes; l++)
            truth_ran += ran[(size_t)l * cols + x];
        CHECK(noted == truth_ran, "%s: chunk %llu: %llu ticks run noted, the events say %llu", path,
              (unsigned long long)x, (unsigned long long)noted, (unsigned long long)truth_ran);
    }
    char *json = summary_text(o, true, 0, (uint64_t)cols * TRX_OVERVIEW_CHUNK, cols);
    CHECK(json && strncmp(json, "{\"axis\":\"index\",", 16) == 0, "%s: index summary %.40s", path,
          json ? json : "(none)");
    parsed s = parse(json ? json : "", cols);
    CHECK(s.ok, "%s: index summary unreadable", path);
    uint64_t seen_lanes = 0;
    for (uint32_t k = 0; s.ok && k < s.lanes; k++) {
        uint32_t l = s.lane[k];
        CHECK(l < lanes, "%s: lane %u of %u", path, l, lanes);
        for (uint32_t x = 0; l < lanes && x < cols; x++) {
            CHECK(s.events[(size_t)k * cols + x] == want[(size_t)l * cols + x],
                  "%s: lane %u, events %llu-%llu: summary %llu, events %llu", path, l,
                  (unsigned long long)x * TRX_OVERVIEW_CHUNK,
                  (unsigned long long)(x + 1) * TRX_OVERVIEW_CHUNK - 1,
                  (unsigned long long)s.events[(size_t)k * cols + x],
                  (unsigned long long)want[(size_t)l * cols + x]);
            /* busy: per mille of the column's time (its events' share of a full column) */
            uint64_t t0 = x ? end[x - 1] : 0, in_col = x + 1 < cols
                                                           ? TRX_OVERVIEW_CHUNK
                                                           : n - (uint64_t)x * TRX_OVERVIEW_CHUNK;
            double pm = end[x] > t0
                            ? (double)ran[(size_t)l * cols + x] * 1000.0 / (double)(end[x] - t0) *
                                  (double)in_col / TRX_OVERVIEW_CHUNK
                            : 0;
            uint64_t busy = pm <= 0  ? 0
                            : pm < 1 ? 1
                                     : (uint64_t)(pm + 0.5),
                     got = s.busy[(size_t)k * cols + x];
            CHECK(got + 1 >= busy && got <= busy + 1,
                  "%s: lane %u, events %llu-%llu: busy %llu per mille, it ran %llu of %llu ticks "
                  "(%llu)",
                  path, l, (unsigned long long)x * TRX_OVERVIEW_CHUNK,
                  (unsigned long long)(x + 1) * TRX_OVERVIEW_CHUNK - 1, (unsigned long long)got,
                  (unsigned long long)ran[(size_t)l * cols + x], (unsigned long long)(end[x] - t0),
                  (unsigned long long)busy);
            ran[(size_t)l * cols + x] = 0; /* seen */
        }
        seen_lanes++;
    }
    for (uint64_t k = 0; ran && s.ok && k < (uint64_t)lanes * cols; k++)
        CHECK(ran[k] == 0, "%s: lane %llu ran %llu ticks in column %llu, not listed", path,
              (unsigned long long)(k / cols), (unsigned long long)ran[k],
              (unsigned long long)(k % cols));
    uint64_t lanes_with_events = 0;
    for (uint32_t l = 0; l < lanes; l++)
        lanes_with_events += per_lane[l] > 0;
    CHECK(!s.ok || seen_lanes >= lanes_with_events, "%s: %llu lanes listed, %llu have events", path,
          (unsigned long long)seen_lanes, (unsigned long long)lanes_with_events);
    for (uint32_t x = 0; s.ok && x < cols; x++)
        CHECK(s.lost[x] == lost[x], "%s: column %u lost %llu, events say %llu", path, x,
              (unsigned long long)s.lost[x], (unsigned long long)lost[x]);
    free(s.events);
    free(s.busy);
    free(s.lost);
    free(json);
    free(ran);
    free(end);
    free(run_lane);
    free(since);

    /* by time, one column: each lane's events */
    json = summary_text(o, false, 0, t.max_ticks + 1, 1);
    s = parse(json ? json : "", 1);
    CHECK(s.ok && json && strncmp(json, "{\"axis\":\"ticks\",", 16) == 0, "%s: ticks summary",
          path);
    for (uint32_t k = 0; s.ok && k < s.lanes; k++)
        CHECK(s.lane[k] < lanes && s.events[k] == per_lane[s.lane[k]],
              "%s: lane %u: %llu events in the summary by time, %llu", path, s.lane[k],
              (unsigned long long)s.events[k],
              (unsigned long long)(s.lane[k] < lanes ? per_lane[s.lane[k]] : 0));
    free(s.events);
    free(s.busy);
    free(s.lost);
    free(json);

    /* locate: chunk bounds bracket each event */
    for (uint64_t i = 0; i < n; i += n / 997 + 1) {
        uint64_t a = trx_overview_ticks_near(o, i, false), b = trx_overview_ticks_near(o, i, true);
        CHECK(a <= truth[i].ticks && truth[i].ticks <= b,
              "%s: event %llu at %llu ticks, its chunk %llu-%llu", path, (unsigned long long)i,
              (unsigned long long)truth[i].ticks, (unsigned long long)a, (unsigned long long)b);
        CHECK(trx_overview_index_near(o, truth[i].ticks) <= i,
              "%s: event %llu: index near its ticks is %llu", path, (unsigned long long)i,
              (unsigned long long)trx_overview_index_near(o, truth[i].ticks));
    }
    printf("%s: %llu events, %u lanes, %u columns by number\n", path, (unsigned long long)n, lanes,
           cols);
    free(want);
    free(lost);
    free(per_lane);
out:
    free(truth);
    trx_overview_free(o);
    trx_trace_close(&t);
}

int main(int argc, char **argv)
{
    return check_traces(argc, argv, check_trace);
}
