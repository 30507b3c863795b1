/* test_stats_one_walk.c - trx_stats_compute on an unprepared trace runs the
 * analyses in trx_trace_prepare's own walk (decode/prepare_walk.h) when
 * every context is a registered thread, and falls back to prepare + cursor
 * when one is not. Both ways must give the same statistics: for each corpus
 * trace and both modes, the JSON of a fresh trace (one walk) must equal the
 * JSON of a trace prepared first (two walks), byte for byte. The test also
 * checks that the corpus holds traces of both kinds, so both ways are run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../decode/trace_builder.h"
#include "decode/prepare_walk.h"
#include "output/out_buffer.h"
#include "output/stats_json.h"
#include "trx/stats.h"

static const char *const traces[] = {
    "a_sample_threadx.trx",
    "b_sample_wrap.trx",
    "c_prio_inversion_mutex_noinherit.trx",
    "d_interrupts_nested.trx",
    "demo_filex.trx",
    "demo_netx_tcp.trx",
    "demo_threadx.trx",
    "e_user_events_filter.trx",
    "z_every_event_id.trx",
    "smp/smp2_pingpong.trx",
    "smp/smp4_mutex_contention.trx",
    NULL, /* the hand-built trace with an Un-named Thread */
};

/* A hand-built trace with a context that is no registered thread (an
 * Un-named Thread: the one walk stops there and falls back). */
static test_trace unnamed;

static void build_unnamed(void)
{
    enum { A = 0x1000, B = 0x2000, U = 0x7000, M = 0x5000 };
    memset(&unnamed, 0, sizeof unnamed);
    tb_init(&unnamed, 3, 64, false);
    tb_object(&unnamed, 0, TRX_OBJ_THREAD, A, "A", 0x10000, 1024, 10);
    tb_object(&unnamed, 1, TRX_OBJ_THREAD, B, "B", 0x20000, 1024, 20);
    tb_object(&unnamed, 2, TRX_OBJ_MUTEX, M, "lock", 0, 0, 0);
    uint32_t ts = 100;
    for (uint32_t k = 0; k < 4; k++) {
        tb_event(&unnamed, B, 0x80140014u, 52, ts += 10, M, 0, 0, 1); /* B gets the mutex */
        tb_event(&unnamed, A, 0x800A000Au, 52, ts += 10, M, 0xFFFFFFFFu, B, 1);
        tb_event(&unnamed, 0xFFFFFFFFu, A, 3, ts += 10, 5, 0, 0, 0); /* ISR */
        tb_event(&unnamed, 0xFFFFFFFFu, A, 1, ts += 10, U, 0, 0, 0); /* resumes U */
        tb_event(&unnamed, 0xFFFFFFFFu, A, 4, ts += 10, 5, 0, 0, 0);
        tb_event(&unnamed, U, 0x80050005u, 4096, ts += 10, k, 0, 0, 0);
        tb_event(&unnamed, B, 0x80140014u, 57, ts += 10, M, 0, 1, 0);
    }
}

static void open_trace(const char *name, trx_mode mode, trx_trace *t)
{
    if (!name) {
        tb_open(&unnamed, t);
        trx_trace_set_mode(t, mode);
        return;
    }
    char path[512];
    snprintf(path, sizeof path, "%s/corpus/%s", TRX_SHARED_DIR, name);
    trx_error err;
    assert_int_equal(trx_trace_open(t, path, TRX_FORMAT_AUTO, &err), 0);
    trx_trace_set_mode(t, mode);
}

/* The statistics of `name` as JSON (malloc'ed), computed on a fresh trace or
 * on one prepared first. */
static char *stats_json(const char *name, trx_mode mode, bool prepare_first)
{
    trx_trace t;
    open_trace(name, mode, &t);
    if (prepare_first)
        trx_trace_prepare(&t);
    trx_stats s;
    assert_int_equal(trx_stats_compute(&t, &s), 0);
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    assert_non_null(f);
    static trx_out out;
    trx_out_init(&out, f, false);
    trx_stats_write_json(&t, &s, NULL, &out);
    assert_int_equal(trx_out_flush(&out), 0);
    fclose(f);
    trx_stats_free(&s);
    trx_trace_close(&t);
    return text;
}

/* Whether the prepare walk of `name` reaches the end (all contexts registered). */
static bool one_walk_possible(const char *name, trx_mode mode)
{
    trx_trace t;
    open_trace(name, mode, &t);
    trx_prepare_walk *w = trx_prepare_walk_begin(&t);
    assert_non_null(w);
    while (trx_prepare_walk_next(w))
        ;
    bool whole = trx_prepare_walk_end(w) == 0;
    assert_int_equal(t.prepared, whole);
    trx_trace_close(&t);
    return whole;
}

static void test_same_statistics(void **state)
{
    (void)state;
    unsigned one = 0, two = 0;
    build_unnamed();
    for (size_t i = 0; i < sizeof traces / sizeof *traces; i++) {
        for (int m = 0; m < 2; m++) {
            trx_mode mode = m ? TRX_MODE_TRACEX : TRX_MODE_CORRECT;
            char *a = stats_json(traces[i], mode, false);
            char *b = stats_json(traces[i], mode, true);
            if (strcmp(a, b) != 0)
                fail_msg("%s (%s): one walk and two walks differ",
                         traces[i] ? traces[i] : "hand-built", m ? "tracex" : "correct");
            free(a);
            free(b);
            if (one_walk_possible(traces[i], mode))
                one++;
            else
                two++;
        }
    }
    assert_true(one > 0); /* the one-walk way ran */
    assert_true(two > 0); /* and the fall-back */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_statistics),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
