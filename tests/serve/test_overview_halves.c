/*
 * test_overview_halves.c - the overview trx serve builds with two threads
 * (each walking one half of the trace) tells exactly what the one-thread walk
 * tells: for each trace given, and second halves starting at several places,
 * the summary of the whole span in one column (events, run time and worst
 * response time of every lane) is byte for byte the one-thread one, every
 * event is counted, and a cursor sought to any event (from the checkpoints
 * of either half) produces, field by field, the events a cursor from the
 * start produces there. Also: a cursor started part-way and continued from
 * one that reached its start goes on as a cursor from the start.
 *
 *   test_overview_halves TRACE ...
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/event_cursor_internal.h"
#include "overview/trace_overview.h"
#include "trx/trx.h"
#include "../decode/event_truth.h"
#include "overview_check.h"
#include "../test_sparse.h"

static trx_overview *build(trx_trace *t, uint64_t parallel_min, uint32_t split_from)
{
    trx_overview *o = trx_overview_new(t);
    if (!o)
        return NULL;
    trx_overview_set_parallel_min(o, parallel_min, split_from);
    if (trx_overview_build(o, NULL) < 0) {
        trx_overview_free(o);
        return NULL;
    }
    return o;
}

/* Seeks to events spread over the trace (and around `near`) and compares. */
static void check_seeks(const char *path, const trx_overview *o, const trx_event *truth, uint64_t n,
                        uint64_t near)
{
    uint64_t step = n / 41 + 1;
    for (uint64_t i = 0; i < n + 2 * step; i += step) {
        for (int side = 0; side < 2; side++) {
            uint64_t at = side ? (near + i / step > 20 ? near + i / step - 20 : 0) : i;
            if (at >= n)
                continue;
            trx_cursor c;
            CHECK(trx_overview_seek_index(o, at, &c) == 0, "%s: seek to %llu failed", path,
                  (unsigned long long)at);
            trx_event ev;
            for (uint64_t j = at; j < at + 40 && j < n; j++)
                CHECK(trx_cursor_next(&c, &ev) && same_event(&ev, &truth[j]),
                      "%s: sought to %llu, event %llu differs", path, (unsigned long long)at,
                      (unsigned long long)j);
            trx_cursor_free(&c);
        }
    }
}

/* A cursor started at raw entry `raw` and continued from one that reached it
 * (at once, and as a copy taken 300 events in) produces what `truth` has. */
static void check_continue(const char *path, trx_trace *t, const trx_event *truth, uint64_t n,
                           uint32_t raw)
{
    trx_cursor a, b;
    if (trx_cursor_init(&a, t) < 0 || trx_cursor_init_at(&b, t, raw) < 0) {
        CHECK(false, "%s: cursors at %u: out of memory", path, raw);
        return;
    }
    while (!trx_cursor_reached(&a, raw) && trx_cursor_next_ref(&a))
        ;
    uint64_t first = trx_cursor_returned(&a);
    CHECK(trx_cursor_reached(&a, raw), "%s: the cursor from the start never reached %u", path, raw);
    trx_cursor later;
    trx_event ev;
    for (uint64_t j = first; j < first + 300 && trx_cursor_next(&b, &ev); j++)
        ; /* the copy below is taken 300 events in, as the second half's checkpoints are */
    CHECK(trx_cursor_copy(&later, &b) == 0, "%s: copy failed", path);
    trx_cursor_continue(&later, &a);
    uint64_t j = first + 300 < n ? first + 300 : n;
    while (trx_cursor_next(&later, &ev)) {
        CHECK(j < n && same_event(&ev, &truth[j]), "%s: started at raw %u: event %llu differs",
              path, raw, (unsigned long long)j);
        j++;
    }
    CHECK(j == n, "%s: started at raw %u: ended at %llu of %llu", path, raw, (unsigned long long)j,
          (unsigned long long)n);
    trx_cursor_free(&later);
    trx_cursor_free(&b);
    trx_cursor_init_at(&b, t, raw);
    trx_cursor_continue(&b, &a);
    for (j = first; trx_cursor_next(&b, &ev); j++)
        CHECK(j < n && same_event(&ev, &truth[j]), "%s: continued at raw %u: event %llu differs",
              path, raw, (unsigned long long)j);
    trx_cursor_free(&a);
    trx_cursor_free(&b);
}

static void check_trace(const char *path)
{
    trx_trace t;
    if (!open_prepared(&t, path))
        return;
    uint64_t n = 0;
    trx_event *truth = all_events(&t, &n);
    if (!truth || n < 8 || t.format == TRX_TRACE_UIA || trx_trace_context_cores(&t) > 1) {
        printf("%s: not split (UIA, several cores or too short)\n", path);
        free(truth);
        trx_trace_close(&t);
        return;
    }
    uint64_t span = truth[n - 1].ticks;
    trx_overview *whole = build(&t, UINT64_MAX, 0);
    CHECK(whole && trx_overview_ready(whole) == n, "%s: one walk summarised %llu of %llu", path,
          whole ? (unsigned long long)trx_overview_ready(whole) : 0ULL, (unsigned long long)n);
    char *expect = whole ? summary_text(whole, false, 0, span + 1, 1) : NULL;
    unsigned splits = 0;
    uint32_t every = test_sparse() > 1 ? 3 : 1; /* sparse: the splits at 1/8, 4/8, 7/8 */
    for (uint32_t k = 1; k < 8 && whole; k += every) {
        uint32_t from = (uint32_t)((uint64_t)t.used * k / 8);
        trx_overview *o = build(&t, 0, from);
        CHECK(o != NULL, "%s: split at %u: build failed", path, from);
        if (!o)
            continue;
        CHECK(trx_overview_ready(o) == n, "%s: split at %u: %llu events of %llu", path, from,
              (unsigned long long)trx_overview_ready(o), (unsigned long long)n);
        CHECK(trx_overview_events_between(o, 0, span) == n, "%s: split at %u: events between", path,
              from);
        char *got = summary_text(o, false, 0, span + 1, 1);
        CHECK(got && expect && strcmp(got, expect) == 0,
              "%s: split at %u: whole-span summary differs:\n  one walk %s\n  halves   %s", path,
              from, expect, got);
        free(got);
        check_seeks(path, o, truth, n, n * k / 8);
        trx_overview_free(o);
        for (uint32_t raw = from; raw < t.used; raw++) { /* where the halves split */
            trx_entry e;
            trx_trace_entry(&t, raw, &e);
            if (e.context != TRX_CONTEXT_ISR && e.context != TRX_CONTEXT_INIT && e.context != 0) {
                check_continue(path, &t, truth, n, raw);
                splits++;
                break;
            }
        }
    }
    printf("%s: %llu events, %u splits compared\n", path, (unsigned long long)n, splits);
    free(expect);
    trx_overview_free(whole);
    free(truth);
    trx_trace_close(&t);
}

int main(int argc, char **argv)
{
    return check_traces(argc, argv, check_trace);
}
