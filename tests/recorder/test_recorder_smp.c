/*
 * test_recorder_smp.c - the recorder on two cores: two host threads, each
 * playing one core (pinned to host CPU 0 / 1 when the host allows), insert
 * user events at the same time in lock-free mode, the core coming from the
 * port's TRX_PORT_CORE_ID hook. Every entry must carry its writer's core in
 * id bits 24-31 (and the 16-bit id unchanged), the writers must have
 * overlapped, and the host library must count per core exactly what each
 * writer inserted.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "trx/cores.h"
#include "trx/recorder.h"

#define CORES 2
#define INSERTS 400000u
#define CAPACITY (1024u * 1024u) /* no wrap: every insert stays in the buffer */
#define REGISTRY 4u
#define USER_ID 4200u

_Thread_local unsigned long smp_test_core;
_Thread_local void *smp_test_thread;
_Thread_local unsigned long smp_test_inserts;

#define BUFFER_BYTES (48 + REGISTRY * (16 + TX_TRACE_OBJECT_REGISTRY_NAME) + CAPACITY * 32)
static uint32_t *buffer_words;        /* BUFFER_BYTES, see buffer_in_one_4g_window */
static char thread_blocks[CORES][64]; /* the two "threads" (control blocks) */
static pthread_barrier_t start_line;
static ULONG clock_start[CORES], clock_end[CORES];
static unsigned long inserted[CORES];
static uint32_t progress[CORES]; /* inserts done so far, per writer (atomic) */

static ULONG event_clock(void)
{
    return __atomic_load_n(&trx_trace_simulated_time, __ATOMIC_RELAXED);
}

static void *writer(void *arg)
{
    unsigned long core = (unsigned long)(uintptr_t)arg;
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET((int)core, &set);
    (void)pthread_setaffinity_np(pthread_self(), sizeof set, &set); /* best effort */
#endif
    smp_test_core = core;
    smp_test_thread = thread_blocks[core];
    pthread_barrier_wait(&start_line);
    clock_start[core] = event_clock();
    for (uint32_t seq = 0; seq < INSERTS; seq++) {
        /* halfway, wait for the other writer to have begun: the two insert at
         * the same time however the host schedules them (a loaded host may
         * otherwise run one writer to the end before the other starts) */
        if (seq == INSERTS / 2)
            while (__atomic_load_n(&progress[CORES - 1 - core], __ATOMIC_ACQUIRE) == 0)
                sched_yield();
        tx_trace_user_event_insert(USER_ID + core, seq, core, 0, 0);
        __atomic_store_n(&progress[core], seq + 1, __ATOMIC_RELEASE);
    }
    clock_end[core] = event_clock();
    inserted[core] = smp_test_inserts;
    return NULL;
}

static uint32_t rd32(const uint8_t *b, size_t off)
{
    uint32_t v;
    memcpy(&v, b + off, 4);
    return v;
}

/* The recorder stores 32-bit addresses (the host's truncated): a buffer
 * whose truncated addresses wrap past 2^32 cannot be a target's. Of two
 * buffers side by side in one allocation, at most one straddles such a
 * boundary (the buffer is far below 2 GiB): use the other. */
static uint32_t *buffer_in_one_4g_window(void **block)
{
    uint8_t *p = *block = malloc(2 * (size_t)BUFFER_BYTES + 64);
    if (!p)
        return NULL;
    p += (64 - (uintptr_t)p % 64) % 64;
    if ((uint64_t)((uintptr_t)p & 0xFFFFFFFFu) + BUFFER_BYTES > 0xFFFFFFFFu)
        p += BUFFER_BYTES;
    return (uint32_t *)(void *)p;
}

static void test_two_cores_insert(void **state)
{
    (void)state;
    void *block;
    assert_non_null(buffer_words = buffer_in_one_4g_window(&block));
    memset(buffer_words, 0, BUFFER_BYTES);
    smp_test_core = 0; /* main: initialization on core 0 */
    assert_int_equal(tx_trace_enable(buffer_words, BUFFER_BYTES, REGISTRY), TX_SUCCESS);
    for (int c = 0; c < CORES; c++) {
        char name[16];
        snprintf(name, sizeof name, "core%d writer", c);
        assert_int_equal(trx_trace_thread_register(thread_blocks[c], name, 0, 1024, 10),
                         TX_SUCCESS);
    }
    pthread_t th[CORES];
    assert_int_equal(pthread_barrier_init(&start_line, NULL, CORES), 0);
    for (uintptr_t c = 0; c < CORES; c++)
        assert_int_equal(pthread_create(&th[c], NULL, writer, (void *)c), 0);
    for (int c = 0; c < CORES; c++)
        assert_int_equal(pthread_join(th[c], NULL), 0);
    pthread_barrier_destroy(&start_line);
    assert_int_equal(tx_trace_disable(), TX_SUCCESS);
    /* both writers inserted at the same time */
    assert_true(clock_start[0] < clock_end[1] && clock_start[1] < clock_end[0]);
    for (int c = 0; c < CORES; c++)
        assert_int_equal(inserted[c], INSERTS);

    /* the bytes: every entry carries its writer's core */
    const uint8_t *buf = (const uint8_t *)buffer_words;
    uint32_t base = rd32(buf, 8), start = rd32(buf, 24) - base, end = rd32(buf, 28) - base;
    uint32_t count[CORES] = {0}, switches = 0, last_core = 0;
    for (uint32_t off = start; off < end; off += 32) {
        uint32_t ctx = rd32(buf, off), id = rd32(buf, off + 8);
        if (ctx == 0)
            break;
        uint32_t core = id >> 24;
        if (ctx == TX_TRACE_CONTEXT_INITIALIZE) { /* the two RUNNING events of tx_trace_enable */
            assert_int_equal(id & 0xFF00FFFFu, TX_TRACE_RUNNING); /* 16-23: entry check */
            continue;
        }
        assert_true(core < CORES);
        assert_int_equal(ctx, TRX_ADDRESS_WORD(thread_blocks[core]));
        assert_int_equal(id & 0xFFFFu, USER_ID + core);
        assert_int_equal(rd32(buf, off + 20), core);        /* info 2: the writer's own core */
        assert_int_equal(rd32(buf, off + 16), count[core]); /* its sequence, in order */
        count[core]++;
        switches += core != last_core;
        last_core = core;
    }
    for (int c = 0; c < CORES; c++)
        assert_int_equal(count[c], INSERTS);

    /* the host library's per-core counts */
    trx_image img;
    trx_trace t;
    trx_error err;
    trx_core_summary s;
    assert_int_equal(trx_image_load_memory(&img, buf, BUFFER_BYTES, TRX_FORMAT_BIN, &err), 0);
    assert_int_equal(trx_trace_open_image(&t, &img, "smp", &err), 0);
    assert_int_equal(trx_core_summary_compute(&t, &s), 0);
    assert_int_equal(s.core_count, CORES);
    assert_int_equal(s.events[0], INSERTS + 2); /* + the RUNNING events, on core 0 */
    assert_int_equal(s.events[1], INSERTS);
    assert_int_equal(s.other_events[0], 2);
    assert_int_equal(s.thread_entries, CORES);
    for (uint32_t k = 0; k < s.thread_entries; k++) {
        assert_int_equal(s.threads[k].core, k);
        assert_int_equal(t.threads[s.threads[k].thread].address,
                         TRX_ADDRESS_WORD(thread_blocks[k]));
        assert_int_equal(s.threads[k].events, INSERTS);
    }
    printf("# %u + %u inserts from two cores, %u changes of core in buffer order\n", count[0],
           count[1], switches);
    trx_core_summary_free(&s);
    trx_trace_close(&t);
    free(block);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_cores_insert),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
