/* test_stats_dispatch.c - the statistics' one dispatch per event
 * (analyze/stats_walk.h): what the id classes and the per-thread fast paths
 * decide on their own. Thread services counted through the hash of
 * (thread, id), with its growth, against counts made here; FileX and NetX
 * ids counted by their classes, their neighbours not. The thread services'
 * recent slots (one per id's low bits): ids that share a slot, threads
 * with slots and beyond them (TRX_TPOP_RECENT_THREADS), across a segment
 * merge, against counts made here. A thread registered at the address of a
 * queue registered before it: its events are its own (the walk is no plain
 * one: the cursor's look-up finds no thread there). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../decode/trace_builder.h"
#include "analyze/segment_units.h"
#include "trx/stats.h"

enum { A = 0x1000, B = 0x2000, USER = 4096, IDS_A = 37, IDS_B = 41, ROUNDS = 400 };

static uint32_t prio(uint32_t p)
{
    return 0x80000000u | p << 16 | p;
}

static test_trace b; /* 64 KiB: static */

/* The count of `id` in a thread's services (0: not listed). */
static uint64_t service_count(const trx_thread_stats *ts, uint32_t id)
{
    for (uint32_t k = 0; k < ts->service_count; k++)
        if (ts->services[k].id == id)
            return ts->services[k].count;
    return 0;
}

/* Two threads, 37 and 41 distinct ids each in interleaved rounds (most
 * counters found through the hash, which grows on the way), FileX and NetX
 * ids and their neighbours. */
static void services_and_components_by_id(void **state)
{
    (void)state;
    memset(&b, 0, sizeof b);
    tb_init(&b, 2, 2 * ROUNDS + 16, false);
    tb_object(&b, 0, TRX_OBJ_THREAD, A, "A", 0x20000, 0x400, 10);
    tb_object(&b, 1, TRX_OBJ_THREAD, B, "B", 0x30000, 0x400, 10);
    uint64_t truth_a[IDS_A] = {0}, truth_b[IDS_B] = {0};
    uint32_t ts = 100;
    for (uint32_t k = 0; k < ROUNDS; k++) {
        uint32_t ia = k * 7 % IDS_A, ib = k * 11 % IDS_B;
        tb_event(&b, A, prio(10), USER + ia, ts += 10, 0, 0, 0, 0);
        tb_event(&b, B, prio(10), USER + 100 + ib, ts += 10, 0, 0, 0, 0);
        truth_a[ia]++;
        truth_b[ib]++;
    }
    /* FileX media open (261) x3, NetX ARP request sent (301) x2; 199, 600: neither */
    const uint32_t ids[] = {261, 199, 301, 261, 600, 301, 261};
    for (uint32_t k = 0; k < sizeof ids / sizeof ids[0]; k++)
        tb_event(&b, A, prio(10), ids[k], ts += 10, 0, 0, 0, 0);
    trx_trace t;
    tb_open(&b, &t);
    t.mode = TRX_MODE_CORRECT;
    trx_stats s;
    assert_int_equal(trx_stats_compute(&t, &s), 0);
    assert_int_equal(s.thread_count, 2);
    for (uint32_t i = 0; i < IDS_A; i++)
        assert_int_equal(service_count(&s.threads[0], USER + i), truth_a[i]);
    for (uint32_t i = 0; i < IDS_B; i++)
        assert_int_equal(service_count(&s.threads[1], USER + 100 + i), truth_b[i]);
    assert_int_equal(service_count(&s.threads[0], 261), 3);
    assert_int_equal(service_count(&s.threads[0], 301), 2);
    assert_int_equal(service_count(&s.threads[0], 199), 1);
    assert_int_equal(service_count(&s.threads[0], 600), 1);
    for (uint32_t i = 0; i < 2; i++) /* nothing else but RUNNING events */
        for (uint32_t k = 0; k < s.threads[i].service_count; k++) {
            uint32_t id = s.threads[i].services[k].id;
            if (id < USER && id != 261 && id != 301 && id != 199 && id != 600)
                assert_int_equal(id, TRX_EVENT_RUNNING);
        }
    assert_int_equal(s.filex.media_opens, 3);
    assert_int_equal(s.netx.arp_requests_sent, 2);
    trx_filex_stats fx = s.filex;
    fx.media_opens = 0;
    trx_netx_stats nx = s.netx;
    nx.arp_requests_sent = 0;
    const trx_filex_stats no_fx = {0};
    const trx_netx_stats no_nx = {0};
    assert_memory_equal(&fx, &no_fx, sizeof fx);
    assert_memory_equal(&nx, &no_nx, sizeof nx);
    trx_stats_free(&s);
    trx_trace_close(&t);
}

/* ---- thread services' recent slots ---- */

enum { TP_THREADS = TRX_TPOP_RECENT_THREADS + 76, TP_EVENTS = 60000 };
/* 5, 261 and 4101 share a recent slot (low 8 bits 5), so do 44 and 300 */
static const uint32_t tp_ids[] = {5, 261, 4101, 44, 300};
#define TP_IDS (sizeof tp_ids / sizeof tp_ids[0])
static uint64_t tp_truth[TP_THREADS][TP_IDS];

/* Event k of the sequence: its thread (-1: none) and id slot; threads
 * mostly repeat their last ids, sometimes alternate between ids of one slot. */
static int32_t tp_event(uint32_t k, uint32_t *slot)
{
    uint32_t r = k * 2654435761u;
    *slot = (k / 3 + (r >> 7)) % TP_IDS;
    if (r % 97 == 0)
        return -1;
    return (int32_t)(k / 5 % 40 == 0 ? (r >> 11) % TP_THREADS : (r >> 11) % 9 * 120 + 3);
}

static void tp_feed(trx_thread_popularity *p, uint32_t from, uint32_t to)
{
    for (uint32_t k = from; k < to; k++) {
        uint32_t slot;
        int32_t th = tp_event(k, &slot);
        trx_event ev;
        memset(&ev, 0, sizeof ev);
        ev.id = tp_ids[slot];
        trx_thread_popularity_feed(p, &ev, th);
        if (th >= 0)
            tp_truth[th][slot]++;
    }
}

static void thread_services_recent_slots(void **state)
{
    (void)state;
    memset(tp_truth, 0, sizeof tp_truth);
    trx_thread_popularity earlier, later;
    memset(&earlier, 0, sizeof earlier);
    memset(&later, 0, sizeof later);
    tp_feed(&earlier, 0, TP_EVENTS / 3);
    tp_feed(&later, TP_EVENTS / 3, 2 * TP_EVENTS / 3);
    assert_int_equal(earlier.recent_threads, TRX_TPOP_RECENT_THREADS);
    /* later takes the merged counters and goes on counting */
    assert_int_equal(trx_thread_popularity_merge(&later, &earlier, NULL, 0), 0);
    trx_thread_popularity_discard(&earlier);
    tp_feed(&later, 2 * TP_EVENTS / 3, TP_EVENTS);
    trx_stats s;
    memset(&s, 0, sizeof s);
    s.thread_count = TP_THREADS;
    s.threads = calloc(TP_THREADS, sizeof *s.threads);
    assert_non_null(s.threads);
    assert_int_equal(trx_thread_popularity_finish(&later, &s), 0);
    uint32_t beyond = 0;
    for (uint32_t th = 0; th < TP_THREADS; th++) {
        uint32_t listed = 0;
        for (uint32_t i = 0; i < TP_IDS; i++) {
            assert_int_equal(service_count(&s.threads[th], tp_ids[i]), tp_truth[th][i]);
            listed += tp_truth[th][i] != 0;
        }
        assert_int_equal(s.threads[th].service_count, listed);
        beyond += th >= TRX_TPOP_RECENT_THREADS && listed;
    }
    assert_true(beyond > 10); /* threads without recent slots were counted too */
    trx_stats_free(&s);
}

/* A queue and then thread Q at one address, thread A elsewhere: Q's events
 * are counted for Q (trx_trace_first_thread_at), in every per-thread figure. */
static void thread_behind_an_object(void **state)
{
    (void)state;
    enum { QADDR = 0x5000, EVENTS = 12 };
    memset(&b, 0, sizeof b);
    tb_init(&b, 3, 64, false);
    tb_object(&b, 0, TRX_OBJ_QUEUE, QADDR, "queue", 0, 0, 0);
    tb_object(&b, 1, TRX_OBJ_THREAD, QADDR, "Q", 0x20000, 0x400, 10);
    tb_object(&b, 2, TRX_OBJ_THREAD, A, "A", 0x30000, 0x400, 10);
    uint32_t ts = 100;
    for (uint32_t k = 0; k < EVENTS; k++)
        tb_event(&b, k % 3 == 2 ? A : QADDR, prio(10), USER + k % 2, ts += 10, 0, 0, 0, 0);
    trx_trace t;
    tb_open(&b, &t);
    t.mode = TRX_MODE_CORRECT;
    trx_stats s;
    assert_int_equal(trx_stats_compute(&t, &s), 0);
    const trx_thread_stats *q = NULL, *a = NULL;
    for (uint32_t i = 0; i < s.thread_count; i++) {
        if (t.threads[i].address == QADDR && !q) /* the registered one: first */
            q = &s.threads[i];
        if (t.threads[i].address == A)
            a = &s.threads[i];
    }
    assert_non_null(q);
    assert_non_null(a);
    assert_int_equal(q->total_events, EVENTS - EVENTS / 3);
    assert_int_equal(a->total_events, EVENTS / 3);
    assert_int_equal(service_count(q, USER), 4);
    assert_int_equal(service_count(q, USER + 1), 4);
    assert_true(q->execution_ticks >= 70); /* its events' intervals, 10 ticks each */
    trx_stats_free(&s);
    trx_trace_close(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(services_and_components_by_id),
        cmocka_unit_test(thread_services_recent_slots),
        cmocka_unit_test(thread_behind_an_object),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
