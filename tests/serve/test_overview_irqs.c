/*
 * test_overview_irqs.c - trx serve's overview of a SYS/BIOS capture with its
 * Hwi / Swi lanes (trx_overview_set_irqs), against a walk of every event that
 * puts each one on the lane the report's page gives it (trx_report_irqs_step
 * from the start): per chunk, every lane's events and the ticks it ran (from
 * each event to the next on its core, for the lane that has the CPU after the
 * first) exactly, the Hwi / Swi lanes among them; and a seek to any event
 * (trx_overview_seek_index_irqs: checkpoints and the events after them)
 * knows which interrupt runs on each core there, so a served window that
 * starts inside an interrupt puts its first events on that interrupt's lane.
 * Each capture must have run time on an interrupt lane and seeks that land
 * inside an interrupt after a later checkpoint than the first.
 *
 *   test_overview_irqs CAPTURE.uia META.uia.xml [CAPTURE META ...]
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/report_irqs.h"
#include "output/timeline.h"
#include "overview/overview_internal.h"
#include "overview/trace_overview.h"
#include "trx/trx.h"
#include "trx/uia_names.h"
#include "../decode/event_truth.h"
#include "overview_check.h"

/* True when walks `a` and `b` say the same interrupts run on every core. */
static bool same_interrupts(const trx_report_irq_walk *a, const trx_report_irq_walk *b)
{
    for (uint32_t c = 0; c < REPORT_IRQ_CORES; c++) {
        if (a->depth[c] != b->depth[c])
            return false;
        uint32_t d = a->depth[c] < REPORT_IRQ_NEST ? a->depth[c] : REPORT_IRQ_NEST;
        for (uint32_t k = 0; k < d; k++)
            if (a->stack[c][k] != b->stack[c][k])
                return false;
    }
    return true;
}

static bool inside_interrupt(const trx_report_irq_walk *w)
{
    for (uint32_t c = 0; c < REPORT_IRQ_CORES; c++)
        if (w->depth[c])
            return true;
    return false;
}

/* The events whose seeks are checked: around every checkpoint, and spread over the trace. */
static bool sampled(const trx_overview *o, uint64_t i, uint64_t n)
{
    if (i % (n / 499 + 1) == 0)
        return true;
    uint64_t cps = atomic_load(&o->checkpoints_ready);
    for (uint64_t k = 0; k < cps; k++)
        if (i >= o->checkpoint_at[k] && i < o->checkpoint_at[k] + 64)
            return true;
    return false;
}

static void check_capture(const char *path, const char *meta)
{
    trx_uia_names names;
    trx_error err = {0};
    if (trx_uia_names_load(&names, meta, &err) != 0) {
        CHECK(false, "%s: %s", meta, err.message);
        return;
    }
    trx_open_options opt = {.uia_names = &names};
    trx_trace t;
    if (trx_trace_open_with(&t, path, &opt, &err) != 0) {
        CHECK(false, "%s: %s", path, err.message);
        trx_uia_names_free(&names);
        return;
    }
    t.uia_names = &names;
    trx_trace_prepare(&t);
    uint64_t n = 0;
    trx_event *truth = all_events(&t, &n);
    trx_report_irqs irqs;
    CHECK(trx_report_irqs_find(&t, &irqs, NULL) == 0 && irqs.count > 0, "%s: no Hwi / Swi lanes",
          path);
    trx_overview *o = trx_overview_new(&t);
    if (o)
        trx_overview_set_irqs(o, &irqs);
    CHECK(truth && o && trx_overview_build(o, NULL) == 0, "%s: no overview", path);
    uint32_t lanes = irqs.base + irqs.count;
    uint64_t chunks = o ? atomic_load(&o->chunks_ready) : 0;
    uint64_t cols = (n + TRX_OVERVIEW_CHUNK - 1) / TRX_OVERVIEW_CHUNK;
    CHECK(!o || o->lanes == lanes, "%s: %u lanes in the overview, %u expected", path,
          o ? o->lanes : 0, lanes);
    CHECK(chunks == cols, "%s: %llu chunks, %llu expected", path, (unsigned long long)chunks,
          (unsigned long long)cols);
    uint64_t *events = calloc((size_t)lanes * cols, sizeof *events);
    uint64_t *ran = calloc((size_t)lanes * cols, sizeof *ran);
    uint32_t cores = trx_trace_context_cores(&t) ? trx_trace_context_cores(&t) : 1;
    uint32_t *run_lane = calloc(cores, sizeof *run_lane);
    uint64_t *since = calloc(cores, sizeof *since), now = 0;
    trx_report_irq_walk *walk = calloc(1, sizeof *walk), *sought = calloc(1, sizeof *sought);
    uint64_t seeks = 0, seeks_inside = 0, later_inside = 0, irq_ran = 0, irq_events = 0;
    bool ready = truth && o && chunks == cols && events && ran && run_lane && since && walk &&
                 sought && o->lanes == lanes;
    for (uint32_t k = 0; ready && k < cores; k++)
        run_lane[k] = UINT32_MAX;
    for (uint64_t i = 0; ready && i < n; i++) {
        if (sampled(o, i, n)) { /* a seek to event i knows the interrupts the walk knows */
            trx_cursor c;
            CHECK(trx_overview_seek_index_irqs(o, i, &c, sought) == 0, "%s: no seek to %llu", path,
                  (unsigned long long)i);
            const trx_event *ev = trx_cursor_next_ref(&c);
            CHECK(ev && ev->index == truth[i].index, "%s: the seek to %llu reads event %llu", path,
                  (unsigned long long)i, ev ? (unsigned long long)ev->index : 0ull);
            trx_cursor_free(&c);
            CHECK(same_interrupts(sought, walk),
                  "%s: a seek to event %llu finds other interrupts running than the walk from "
                  "the start",
                  path, (unsigned long long)i);
            seeks++;
            if (inside_interrupt(walk)) {
                seeks_inside++;
                later_inside += atomic_load(&o->checkpoints_ready) > 1 && i >= o->checkpoint_at[1];
            }
        }
        const trx_event *ev = &truth[i];
        uint32_t l = trx_lane_of_event(&t, ev, ev->context);
        uint32_t next = trx_lane_of_event(&t, ev, ev->next_context);
        trx_report_irqs_step(&irqs, walk, &t, ev, &l, &next);
        uint64_t x = i / TRX_OVERVIEW_CHUNK;
        if (l < lanes)
            events[(size_t)l * cols + x]++;
        now = ev->ticks > now ? ev->ticks : now;
        uint32_t core = cores > 1 && ev->core < cores ? ev->core : 0;
        if (run_lane[core] < lanes)
            ran[(size_t)run_lane[core] * cols + x] += now - since[core];
        run_lane[core] = next;
        since[core] = now;
    }
    /* each chunk's notes: every lane's events and run time, exactly */
    for (uint64_t x = 0; ready && x < chunks; x++) {
        for (uint32_t k = 0; k < o->chunks[x].note_count; k++) {
            const lane_note *nt = note_at(o, o->chunks[x].notes_at + k);
            if (nt->lane >= lanes) {
                CHECK(false, "%s: chunk %llu notes lane %u of %u", path, (unsigned long long)x,
                      nt->lane, lanes);
                continue;
            }
            size_t at = (size_t)nt->lane * cols + x;
            CHECK(nt->events == events[at] && nt->busy == ran[at],
                  "%s: chunk %llu, lane %u: %llu events and %llu ticks run noted, the events "
                  "say %llu and %llu",
                  path, (unsigned long long)x, nt->lane, (unsigned long long)nt->events,
                  (unsigned long long)nt->busy, (unsigned long long)events[at],
                  (unsigned long long)ran[at]);
            if (nt->lane >= irqs.base) {
                irq_events += nt->events;
                irq_ran += nt->busy;
            }
            events[at] = ran[at] = 0; /* seen */
        }
        for (uint32_t l = 0; l < lanes; l++)
            CHECK(events[(size_t)l * cols + x] == 0 && ran[(size_t)l * cols + x] == 0,
                  "%s: chunk %llu: lane %u has %llu events and ran %llu ticks, not noted", path,
                  (unsigned long long)x, l, (unsigned long long)events[(size_t)l * cols + x],
                  (unsigned long long)ran[(size_t)l * cols + x]);
    }
    CHECK(!ready || (irq_events > 0 && irq_ran > 0),
          "%s: nothing on the Hwi / Swi lanes (%llu events, %llu ticks)", path,
          (unsigned long long)irq_events, (unsigned long long)irq_ran);
    CHECK(!ready || seeks_inside > 0, "%s: no seek lands inside an interrupt (%llu seeks)", path,
          (unsigned long long)seeks);
    CHECK(!ready || atomic_load(&o->checkpoints_ready) < 2 || later_inside > 0,
          "%s: no seek inside an interrupt after the second checkpoint", path);
    printf("%s: %llu events, %u Hwi / Swi lanes (%llu events, %llu ticks run on them), %llu "
           "seeks (%llu inside an interrupt, %llu of them after checkpoint 1 of %llu)\n",
           path, (unsigned long long)n, irqs.count, (unsigned long long)irq_events,
           (unsigned long long)irq_ran, (unsigned long long)seeks, (unsigned long long)seeks_inside,
           (unsigned long long)later_inside,
           o ? (unsigned long long)atomic_load(&o->checkpoints_ready) : 0ull);
    free(events);
    free(ran);
    free(run_lane);
    free(since);
    free(walk);
    free(sought);
    free(truth);
    trx_overview_free(o);
    trx_report_irqs_free(&irqs);
    trx_trace_close(&t);
    trx_uia_names_free(&names);
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc % 2 == 0) {
        fprintf(stderr, "usage: %s CAPTURE.uia META.uia.xml [CAPTURE META ...]\n", argv[0]);
        return 2;
    }
    for (int k = 1; k + 1 < argc; k += 2)
        check_capture(argv[k], argv[k + 1]);
    if (failures)
        fprintf(stderr, "%d failures\n", failures);
    return failures ? 1 : 0;
}
