/*
 * test_uia_per_core.c - several cores recording at once without a lock: two
 * host threads (two "cores"), each with its own UIA logger selected by
 * TRX_UIA_HOOK_LOGGER() and its own clock, record 2 M hook events each
 * through the same hook macro concurrently (wrap policy, small buffers that
 * wrap thousands of times). Each buffer must then hold an unbroken run of
 * its own core's records up to the last one: nothing of one core lands in
 * the other's buffer, no record is torn. Shows that the writer keeps no
 * state shared between loggers.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "trx/recorder.h"
#include "uia_test_reader.h"

_Thread_local struct trx_uia_logger *uia_test_core_logger;
_Thread_local uint32_t uia_test_core_clock;

#define CORES 2
#define EVENTS 2000000u
#define BYTES 8192u
static trx_uia_logger loggers[CORES];
static uint32_t buffers[CORES][BYTES / 4];
static pthread_barrier_t start;

static void *core_main(void *arg)
{
    uint32_t core = (uint32_t)(uintptr_t)arg;
    uia_test_core_logger = &loggers[core];
    pthread_barrier_wait(&start);
    for (uint32_t i = 0; i < EVENTS; i++)
        TRX_TRACE_EVENT(TX_TRACE_QUEUE_SEND, core + 1, i, core << 16 | (i & 0xFFFF), 7,
                        TX_TRACE_QUEUE_EVENTS);
    return NULL;
}

static void test_two_cores(void **state)
{
    (void)state;
    static uia_rec newer[1024], older[1024];
    char err[256];
    pthread_t th[CORES];
    for (uint32_t c = 0; c < CORES; c++)
        assert_int_equal(trx_uia_enable(&loggers[c], buffers[c], BYTES, TRX_UIA_POLICY_WRAP, c),
                         TX_SUCCESS);
    pthread_barrier_init(&start, NULL, CORES);
    for (uint32_t c = 0; c < CORES; c++)
        assert_int_equal(pthread_create(&th[c], NULL, core_main, (void *)(uintptr_t)c), 0);
    for (uint32_t c = 0; c < CORES; c++)
        pthread_join(th[c], NULL);
    pthread_barrier_destroy(&start);

    for (uint32_t c = 0; c < CORES; c++) {
        const uint8_t *b = (const uint8_t *)buffers[c];
        uia_pkt p;
        size_t n_new = 0, n_old = 0, write = 0;
        assert_int_equal(uia_read_packet(b, BYTES, &p, err, sizeof err), 0);
        assert_int_equal(p.src, c);
        assert_true(p.pkt_seq > 1000);
        if (uia_walk_forward(b, BYTES, 16, 0, -1, newer, 1024, &n_new, &write, err, sizeof err))
            fail_msg("core %u: %s", c, err);
        if (uia_walk_back(b, BYTES, p.length, write + 4, 0, older, 1024, &n_old, err, sizeof err))
            fail_msg("core %u: %s", c, err);
        uint32_t expect = EVENTS - (uint32_t)(n_old + n_new);
        const uia_rec *all[2] = {older, newer};
        const size_t count[2] = {n_old, n_new};
        for (int part = 0; part < 2; part++) {
            for (size_t i = 0; i < count[part]; i++, expect++) {
                const uia_rec *r = &all[part][i];
                assert_int_equal(r->event_id, TX_TRACE_QUEUE_SEND);
                assert_int_equal(r->nargs, 4);
                assert_int_equal(r->args[0], c + 1);
                assert_int_equal(r->args[1], expect);
                assert_int_equal(r->args[2], c << 16 | (expect & 0xFFFF));
                assert_int_equal(r->ts, expect + 1); /* this core's clock, one tick per record */
            }
        }
        assert_int_equal(expect, EVENTS);
        assert_true(n_old + n_new > 100);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_two_cores)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
