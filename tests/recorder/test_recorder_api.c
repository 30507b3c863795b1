/*
 * test_recorder_api.c - the tx_trace_* seed API and the recorder's own calls
 * in critical-section mode: every status code, then the bytes written,
 * checked with a small reader written here (not the trx decoder).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "trx/recorder.h"

#define HDR 48u
#define OBJ (16u + TX_TRACE_OBJECT_REGISTRY_NAME)
#define ENT 32u

/* 4-byte aligned scratch buffer for every test. */
static uint32_t buffer_words[16384];
#define BUF ((uint8_t *)buffer_words)

/* ------------------------------------------------------- independent reader */

static uint32_t rd32(const uint8_t *b, size_t off)
{
    uint32_t v;
    memcpy(&v, b + off, 4);
    return v;
}

static uint16_t rd16(const uint8_t *b, size_t off)
{
    uint16_t v;
    memcpy(&v, b + off, 2);
    return v;
}

static uint32_t addr32(const void *p)
{
    return (uint32_t)(uintptr_t)p;
}

/* Byte offset of the entry area for a buffer with `reg` registry entries. */
static size_t entries_off(uint32_t reg)
{
    return HDR + (size_t)reg * OBJ;
}

/* Offset of the header's current pointer, as a buffer offset. */
static size_t current_off(const uint8_t *b)
{
    return (size_t)(rd32(b, 32) - rd32(b, 8));
}

typedef struct rd_entry {
    uint32_t ctx, prio, id, ts, info[4];
} rd_entry;

static rd_entry entry_at(const uint8_t *b, size_t off)
{
    rd_entry e;
    e.ctx = rd32(b, off);
    e.prio = rd32(b, off + 4);
    e.id = rd32(b, off + 8);
    e.ts = rd32(b, off + 12);
    for (int i = 0; i < 4; i++) {
        e.info[i] = rd32(b, off + 16 + 4 * (size_t)i);
    }
    return e;
}

/* The newest entry (the one just before the current pointer). */
static rd_entry newest(const uint8_t *b)
{
    size_t cur = current_off(b);
    size_t start = (size_t)(rd32(b, 24) - rd32(b, 8));
    size_t end = (size_t)(rd32(b, 28) - rd32(b, 8));
    size_t off = cur == start ? end - ENT : cur - ENT;
    return entry_at(b, off);
}

/* ------------------------------------------------------------------ setup */

static int notify_count;
static void *notify_arg;

static void count_notify(VOID *buffer)
{
    notify_count++;
    notify_arg = buffer;
}

static int reset(void **state)
{
    (void)state;
    tx_trace_disable();
    tx_trace_buffer_full_notify(NULL);
    trx_recorder_enable_callback(NULL);
    trx_recorder_thread_set(NULL, 0, 0);
    memset(buffer_words, 0xA5, sizeof buffer_words);
    trx_trace_simulated_time = 0;
    notify_count = 0;
    notify_arg = NULL;
    return 0;
}

/* ------------------------------------------------------------------ tests */

static void test_status_codes_size_boundary(void **state)
{
    (void)state;
    static const uint32_t regs[] = {0, 1, 3, 30};
    for (size_t k = 0; k < sizeof regs / sizeof regs[0]; k++) {
        uint32_t need = HDR + regs[k] * OBJ + ENT;
        assert_int_equal(tx_trace_enable(BUF, need - 1, regs[k]), TX_SIZE_ERROR);
        assert_int_equal(tx_trace_disable(), TX_NOT_DONE); /* nothing was enabled */
        assert_int_equal(tx_trace_enable(BUF, need, regs[k]), TX_SUCCESS);
        /* exactly one entry: both RUNNING events went to it, current wrapped to it */
        assert_int_equal(rd32(BUF, 28) - rd32(BUF, 24), ENT);
        assert_int_equal(rd32(BUF, 32), rd32(BUF, 24));
        assert_int_equal(rd32(BUF, entries_off(regs[k]) + 8), TX_TRACE_RUNNING);
        assert_int_equal(tx_trace_disable(), TX_SUCCESS);
    }
    assert_int_equal(tx_trace_enable(BUF, 0, 0), TX_SIZE_ERROR);
    assert_int_equal(tx_trace_enable(BUF, HDR + ENT - 1, 0), TX_SIZE_ERROR);
    assert_int_equal(tx_trace_enable(BUF, 4096, 0xFFFFFFFFu), TX_SIZE_ERROR); /* overflow */
    assert_int_equal(tx_trace_enable(NULL, 4096, 1), TX_PTR_ERROR);
    assert_int_equal(tx_trace_enable(BUF + 2, 4096, 1), TX_PTR_ERROR);
    assert_int_equal(tx_trace_disable(), TX_NOT_DONE);
}

static void test_status_codes_enable_disable(void **state)
{
    (void)state;
    assert_int_equal(tx_trace_disable(), TX_NOT_DONE);
    assert_int_equal(tx_trace_user_event_insert(4096, 1, 2, 3, 4), TX_NOT_DONE);
    assert_int_equal(tx_trace_enable(BUF, 4096, 2), TX_SUCCESS);
    assert_int_equal(tx_trace_enable(BUF, 4096, 2), TX_NOT_DONE);
    assert_int_equal(tx_trace_user_event_insert(4096, 1, 2, 3, 4), TX_SUCCESS);
    assert_int_equal(tx_trace_event_filter(TX_TRACE_QUEUE_EVENTS), TX_SUCCESS);
    assert_int_equal(tx_trace_event_unfilter(TX_TRACE_QUEUE_EVENTS), TX_SUCCESS);
    assert_int_equal(tx_trace_buffer_full_notify(count_notify), TX_SUCCESS);
    assert_int_equal(tx_trace_buffer_full_notify(NULL), TX_SUCCESS);
    assert_int_equal(tx_trace_disable(), TX_SUCCESS);
    assert_int_equal(tx_trace_disable(), TX_NOT_DONE);
    size_t cur = current_off(BUF);
    assert_int_equal(tx_trace_user_event_insert(4097, 1, 2, 3, 4), TX_NOT_DONE);
    tx_trace_isr_enter_insert(1);
    tx_trace_isr_exit_insert(1);
    assert_int_equal(current_off(BUF), cur);                     /* frozen */
    assert_int_equal(tx_trace_enable(BUF, 4096, 2), TX_SUCCESS); /* again after disable */
    assert_int_equal(tx_trace_disable(), TX_SUCCESS);
}

static void test_layout_bytes(void **state)
{
    (void)state;
    const uint32_t reg = 4, cap = 10, tail = 7;
    const uint32_t size = HDR + reg * OBJ + cap * ENT + tail;
    const uint32_t base = addr32(BUF);
    assert_int_equal(tx_trace_enable(BUF, size, reg), TX_SUCCESS);

    /* header */
    const uint8_t id_le[4] = {0x42, 0x54, 0x58, 0x54};
    assert_memory_equal(BUF, id_le, 4); /* native word on a little-endian host */
    assert_int_equal(rd32(BUF, 0), 0x54585442u);
    assert_int_equal(rd32(BUF, 4), 0xFFFFFFFFu);
    assert_int_equal(rd32(BUF, 8), base);
    assert_int_equal(rd32(BUF, 12), base + HDR);
    assert_int_equal(rd16(BUF, 16), 0);
    assert_int_equal(rd16(BUF, 18), TX_TRACE_OBJECT_REGISTRY_NAME);
    assert_int_equal(rd32(BUF, 20), base + HDR + reg * OBJ);
    assert_int_equal(rd32(BUF, 24), base + HDR + reg * OBJ);
    assert_int_equal(rd32(BUF, 28), base + HDR + reg * OBJ + cap * ENT);
    assert_int_equal(rd32(BUF, 32), base + HDR + reg * OBJ + 2 * ENT); /* two RUNNING */
    assert_int_equal(rd32(BUF, 36), 0xAAAAAAAAu);
    assert_int_equal(rd32(BUF, 40), 0xBBBBBBBBu);
    assert_int_equal(rd32(BUF, 44), 0xCCCCCCCCu);

    /* registry: available = 1, everything else 0 */
    for (uint32_t i = 0; i < reg; i++) {
        const uint8_t *o = BUF + HDR + i * OBJ;
        assert_int_equal(o[0], 1);
        for (uint32_t k = 1; k < OBJ; k++) {
            assert_int_equal(o[k], 0);
        }
    }

    /* the two RUNNING events, in initialization context */
    size_t e0 = entries_off(reg);
    for (uint32_t i = 0; i < 2; i++) {
        rd_entry e = entry_at(BUF, e0 + i * ENT);
        assert_int_equal(e.ctx, 0xF0F0F0F0u);
        assert_int_equal(e.prio, 0);
        assert_int_equal(e.id, 6);
        assert_int_equal(e.ts, i + 1); /* the default per-event counter */
        for (int k = 0; k < 4; k++) {
            assert_int_equal(e.info[k], 0);
        }
    }
    /* the other entries: thread word 0, the rest untouched (as ThreadX) */
    for (uint32_t i = 2; i < cap; i++) {
        assert_int_equal(rd32(BUF, e0 + i * ENT), 0);
        for (uint32_t k = 4; k < ENT; k++) {
            assert_int_equal(BUF[e0 + i * ENT + k], 0xA5);
        }
    }
    for (uint32_t k = 0; k < tail; k++) {
        assert_int_equal(BUF[size - tail + k], 0xA5);
    }
    /* the header's current pointer follows each event */
    assert_int_equal(tx_trace_user_event_insert(5000, 1, 2, 3, 4), TX_SUCCESS);
    assert_int_equal(rd32(BUF, 32), base + HDR + reg * OBJ + 3 * ENT);
}

static void test_user_events(void **state)
{
    (void)state;
    assert_int_equal(tx_trace_enable(BUF, 8192, 0), TX_SUCCESS);
    assert_int_equal(tx_trace_user_event_insert(TX_TRACE_USER_EVENT_START, 11, 12, 13, 14),
                     TX_SUCCESS);
    rd_entry e = newest(BUF);
    assert_int_equal(e.id, 4096);
    assert_int_equal(e.info[0], 11);
    assert_int_equal(e.info[1], 12);
    assert_int_equal(e.info[2], 13);
    assert_int_equal(e.info[3], 14);
    assert_int_equal(e.ts, 3);
    assert_int_equal(tx_trace_user_event_insert(TX_TRACE_USER_EVENT_END, 0xFFFFFFFFu, 0, 1, 2),
                     TX_SUCCESS);
    e = newest(BUF);
    assert_int_equal(e.id, 65535);
    assert_int_equal(e.info[0], 0xFFFFFFFFu);
    assert_int_equal(e.ts, 4);
    /* like ThreadX, ids are not range-checked */
    assert_int_equal(tx_trace_user_event_insert(70000, 0, 0, 0, 0), TX_SUCCESS);
    assert_int_equal(newest(BUF).id, 70000);
}

static void test_filter_constants(void **state)
{
    (void)state;
    assert_int_equal(TX_TRACE_ALL_EVENTS, 0x000007FFu);
    assert_int_equal(FX_TRACE_ALL_EVENTS, 0x00007800u);
    assert_int_equal(NX_TRACE_ALL_EVENTS, 0x00FF8000u);
    assert_int_equal(UX_TRACE_ALL_EVENTS, 0x7F000000u);
    assert_int_equal(TX_TRACE_USER_EVENTS, 0x80000000u);
    assert_int_equal(TX_TRACE_INTERNAL_EVENTS | TX_TRACE_BLOCK_POOL_EVENTS |
                         TX_TRACE_BYTE_POOL_EVENTS | TX_TRACE_EVENT_FLAGS_EVENTS |
                         TX_TRACE_INTERRUPT_CONTROL_EVENT | TX_TRACE_MUTEX_EVENTS |
                         TX_TRACE_QUEUE_EVENTS | TX_TRACE_SEMAPHORE_EVENTS |
                         TX_TRACE_THREAD_EVENTS | TX_TRACE_TIME_EVENTS | TX_TRACE_TIMER_EVENTS,
                     TX_TRACE_ALL_EVENTS);
    assert_int_equal(FX_TRACE_INTERNAL_EVENTS | FX_TRACE_MEDIA_EVENTS | FX_TRACE_DIRECTORY_EVENTS |
                         FX_TRACE_FILE_EVENTS,
                     FX_TRACE_ALL_EVENTS);
    assert_int_equal(NX_TRACE_INTERNAL_EVENTS | NX_TRACE_ARP_EVENTS | NX_TRACE_ICMP_EVENTS |
                         NX_TRACE_IGMP_EVENTS | NX_TRACE_IP_EVENTS | NX_TRACE_PACKET_EVENTS |
                         NX_TRACE_RARP_EVENTS | NX_TRACE_TCP_EVENTS | NX_TRACE_UDP_EVENTS,
                     NX_TRACE_ALL_EVENTS);
    assert_int_equal(UX_TRACE_ERRORS | UX_TRACE_HOST_STACK_EVENTS | UX_TRACE_DEVICE_STACK_EVENTS |
                         UX_TRACE_HOST_CONTROLLER_EVENTS | UX_TRACE_DEVICE_CONTROLLER_EVENTS |
                         UX_TRACE_HOST_CLASS_EVENTS | UX_TRACE_DEVICE_CLASS_EVENTS,
                     UX_TRACE_ALL_EVENTS);
    assert_int_equal(TX_SUCCESS, 0x00);
    assert_int_equal(TX_SIZE_ERROR, 0x05);
    assert_int_equal(TX_NOT_DONE, 0x20);
    assert_int_equal(TX_FEATURE_NOT_ENABLED, 0xFF);
    assert_int_equal(TX_TRACE_ISR_ENTER, 3);
    assert_int_equal(TX_TRACE_ISR_EXIT, 4);
    assert_int_equal(TX_TRACE_RUNNING, 6);
    assert_int_equal(TX_TRACE_THREAD_RESUME, 1);
    assert_int_equal(TX_TRACE_THREAD_SUSPEND, 2);
    assert_int_equal(TX_TRACE_QUEUE_SEND, 69);
}

/* Each of the 32 group bits: filtered = not recorded, unfiltered = recorded. */
static void test_filter_each_group(void **state)
{
    (void)state;
    assert_int_equal(tx_trace_enable(BUF, 16384, 0), TX_SUCCESS);
    for (int bit = 0; bit < 32; bit++) {
        ULONG group = 1UL << bit;
        ULONG other = 1UL << ((bit + 1) % 32);
        size_t before = current_off(BUF);
        assert_int_equal(tx_trace_event_filter(group), TX_SUCCESS);
        if (group == TX_TRACE_USER_EVENTS) {
            /* filtered user events are not recorded, yet the call succeeds */
            assert_int_equal(tx_trace_user_event_insert(4100, 1, 0, 0, 0), TX_SUCCESS);
        } else {
            trx_trace_insert(200, 1, 0, 0, 0, group);
        }
        assert_int_equal(current_off(BUF), before);
        trx_trace_insert(201, (ULONG)bit, 0, 0, 0, other); /* another group still recorded */
        assert_int_equal(current_off(BUF), before + ENT);
        assert_int_equal(newest(BUF).id, 201);
        assert_int_equal(tx_trace_event_unfilter(group), TX_SUCCESS);
        if (group == TX_TRACE_USER_EVENTS) {
            assert_int_equal(tx_trace_user_event_insert(4101, 2, 0, 0, 0), TX_SUCCESS);
            assert_int_equal(newest(BUF).id, 4101);
        } else {
            trx_trace_insert(202, 2, 0, 0, 0, group);
            assert_int_equal(newest(BUF).id, 202);
        }
        assert_int_equal(current_off(BUF), before + 2 * ENT);
    }
    /* filter everything, then a whole family at a time */
    size_t before = current_off(BUF);
    assert_int_equal(tx_trace_event_filter(0xFFFFFFFFu), TX_SUCCESS);
    tx_trace_isr_enter_insert(1);
    tx_trace_isr_exit_insert(1);
    tx_trace_user_event_insert(4096, 0, 0, 0, 0);
    assert_int_equal(current_off(BUF), before);
    assert_int_equal(tx_trace_event_unfilter(NX_TRACE_ALL_EVENTS), TX_SUCCESS);
    trx_trace_insert(300, 0, 0, 0, 0, NX_TRACE_TCP_EVENTS);
    trx_trace_insert(301, 0, 0, 0, 0, FX_TRACE_FILE_EVENTS);
    assert_int_equal(current_off(BUF), before + ENT);
    assert_int_equal(newest(BUF).id, 300);
    /* enable starts with nothing filtered */
    assert_int_equal(tx_trace_disable(), TX_SUCCESS);
    assert_int_equal(tx_trace_enable(BUF, 16384, 0), TX_SUCCESS);
    trx_trace_insert(302, 0, 0, 0, 0, FX_TRACE_FILE_EVENTS);
    assert_int_equal(newest(BUF).id, 302);
    /* filtering while disabled is kept until the next enable */
    assert_int_equal(tx_trace_disable(), TX_SUCCESS);
    assert_int_equal(tx_trace_event_filter(TX_TRACE_USER_EVENTS), TX_SUCCESS);
    assert_int_equal(tx_trace_user_event_insert(4096, 0, 0, 0, 0), TX_NOT_DONE);
}

static void test_contexts_and_nested_isrs(void **state)
{
    (void)state;
    static int thread_a, thread_b;
    assert_int_equal(tx_trace_enable(BUF, 16384, 0), TX_SUCCESS);
    assert_int_equal(trx_recorder_system_state(), 0xF0F0F0F0u);

    trx_recorder_thread_set(&thread_a, 5, 3);
    assert_int_equal(trx_recorder_system_state(), 0);
    tx_trace_user_event_insert(4096, 0, 0, 0, 0);
    rd_entry e = newest(BUF);
    assert_int_equal(e.ctx, addr32(&thread_a));
    assert_int_equal(e.prio, 5u | 0x80000000u | (3u << 16));

    tx_trace_isr_enter_insert(7);
    e = newest(BUF);
    assert_int_equal(e.id, TX_TRACE_ISR_ENTER);
    assert_int_equal(e.ctx, 0xFFFFFFFFu);
    assert_int_equal(e.prio, addr32(&thread_a)); /* the interrupted thread */
    assert_int_not_equal(e.info[0], 0);          /* a stack address */
    assert_int_equal(e.info[1], 7);
    assert_int_equal(e.info[2], 1); /* nesting counted before the enter event */
    assert_int_equal(e.info[3], 0);
    assert_int_equal(trx_recorder_system_state(), 1);

    tx_trace_user_event_insert(4097, 0, 0, 0, 0);
    assert_int_equal(newest(BUF).ctx, 0xFFFFFFFFu);

    tx_trace_isr_enter_insert(9);
    e = newest(BUF);
    assert_int_equal(e.info[1], 9);
    assert_int_equal(e.info[2], 2);
    tx_trace_isr_exit_insert(9);
    e = newest(BUF);
    assert_int_equal(e.id, TX_TRACE_ISR_EXIT);
    assert_int_equal(e.ctx, 0xFFFFFFFFu); /* exit still in ISR context */
    assert_int_equal(e.info[1], 9);
    assert_int_equal(e.info[2], 2);
    tx_trace_isr_exit_insert(7);
    e = newest(BUF);
    assert_int_equal(e.ctx, 0xFFFFFFFFu);
    assert_int_equal(e.prio, addr32(&thread_a));
    assert_int_equal(e.info[2], 1);
    assert_int_equal(trx_recorder_system_state(), 0);

    tx_trace_user_event_insert(4098, 0, 0, 0, 0);
    assert_int_equal(newest(BUF).ctx, addr32(&thread_a));

    trx_recorder_thread_set(&thread_b, 1023, 0);
    trx_trace_insert(TX_TRACE_THREAD_RESUME, 1, 2, 3, 4, TX_TRACE_INTERNAL_EVENTS);
    e = newest(BUF);
    assert_int_equal(e.ctx, addr32(&thread_b));
    assert_int_equal(e.prio, 1023u | 0x80000000u);
    assert_int_equal(e.id, 1);

    /* no thread: initialization; ISR over no thread: priority word 0 */
    trx_recorder_thread_set(NULL, 0, 0);
    tx_trace_user_event_insert(4099, 0, 0, 0, 0);
    e = newest(BUF);
    assert_int_equal(e.ctx, 0xF0F0F0F0u);
    assert_int_equal(e.prio, 0);
    tx_trace_isr_enter_insert(3);
    e = newest(BUF);
    assert_int_equal(e.ctx, 0xFFFFFFFFu);
    assert_int_equal(e.prio, 0);
    tx_trace_isr_exit_insert(3);
    assert_int_equal(trx_recorder_system_state(), 0xF0F0F0F0u);
    /* an unmatched exit does not underflow the nesting */
    tx_trace_isr_exit_insert(3);
    assert_int_equal(trx_recorder_system_state(), 0xF0F0F0F0u);

    /* explicit context */
    trx_trace_insert_with_context(0x1234u, 0x80000007u, 4200, 1, 2, 3, 4, TX_TRACE_USER_EVENTS);
    e = newest(BUF);
    assert_int_equal(e.ctx, 0x1234u);
    assert_int_equal(e.prio, 0x80000007u);
    assert_int_equal(e.id, 4200);
    assert_int_equal(e.info[3], 4);
}

static void test_full_notify_across_wraps(void **state)
{
    (void)state;
    const uint32_t cap = 8;
    const uint32_t size = HDR + cap * ENT;
    assert_int_equal(tx_trace_buffer_full_notify(count_notify), TX_SUCCESS);
    assert_int_equal(tx_trace_enable(BUF, size, 0), TX_SUCCESS);
    assert_int_equal(notify_count, 0);
    const uint32_t user = 5 * cap + 3;
    for (uint32_t i = 0; i < user; i++) {
        assert_int_equal(tx_trace_user_event_insert(4096 + i, i, ~i, 0, 0), TX_SUCCESS);
        uint32_t total = 2 + i + 1;
        assert_int_equal(notify_count, total / cap); /* exactly once per wrap */
        assert_int_equal(current_off(BUF), HDR + (total % cap) * ENT);
    }
    assert_ptr_equal(notify_arg, BUF); /* the trace buffer start */
    /* chronological from the current pointer: the last 8 user events */
    for (uint32_t k = 0; k < cap; k++) {
        rd_entry e = entry_at(BUF, HDR + ((2 + user + k) % cap) * ENT);
        uint32_t i = user - cap + k;
        assert_int_equal(e.id, 4096 + i);
        assert_int_equal(e.info[0], i);
        assert_int_equal(e.info[1], ~i);
    }
    /* NULL: no more calls */
    assert_int_equal(tx_trace_buffer_full_notify(NULL), TX_SUCCESS);
    for (uint32_t i = 0; i < 3 * cap; i++) {
        tx_trace_user_event_insert(4096, 0, 0, 0, 0);
    }
    assert_int_equal(notify_count, (2 + user) / cap);
}

/* The callback may disable tracing: the wrap must then leave things frozen. */
static void disable_on_full(VOID *buffer)
{
    notify_count++;
    notify_arg = buffer;
    tx_trace_disable();
}

static void test_notify_may_disable(void **state)
{
    (void)state;
    tx_trace_buffer_full_notify(disable_on_full);
    assert_int_equal(tx_trace_enable(BUF, HDR + 4 * ENT, 0), TX_SUCCESS);
    tx_trace_user_event_insert(4096, 0, 0, 0, 0);
    tx_trace_user_event_insert(4097, 0, 0, 0, 0); /* fills: callback disables */
    assert_int_equal(notify_count, 1);
    assert_int_equal(tx_trace_user_event_insert(4098, 0, 0, 0, 0), TX_NOT_DONE);
    assert_int_equal(rd32(BUF, HDR + 3 * ENT + 8), 4097);
    assert_int_equal(rd32(BUF, HDR + 8), TX_TRACE_RUNNING);
    assert_int_equal(current_off(BUF), HDR);
}

static const char long_name[] = "a_thread_name_longer_than_thirty_two_bytes_indeed";

static void check_object(uint32_t reg_index, uint8_t avail, uint8_t type, uint8_t r1, uint8_t r2,
                         const void *ptr, uint32_t p1, uint32_t p2, const char *name)
{
    const uint8_t *o = BUF + HDR + reg_index * OBJ;
    assert_int_equal(o[0], avail);
    assert_int_equal(o[1], type);
    assert_int_equal(o[2], r1);
    assert_int_equal(o[3], r2);
    assert_int_equal(rd32(o, 4), addr32(ptr));
    assert_int_equal(rd32(o, 8), p1);
    assert_int_equal(rd32(o, 12), p2);
    char expect[TX_TRACE_OBJECT_REGISTRY_NAME];
    memset(expect, 0, sizeof expect);
    strncpy(expect, name, sizeof expect - 1);
    assert_memory_equal(o + 16, expect, sizeof expect);
}

static int thread_1, queue_1, sema_1, mutex_1, extra_1;
static uint8_t stack_1[64];

static void register_existing(void)
{
    assert_int_equal(trx_trace_thread_register(&thread_1, long_name, stack_1, sizeof stack_1, 300),
                     TX_SUCCESS);
}

static void test_registry(void **state)
{
    (void)state;
    assert_int_equal(trx_trace_object_register(3, &queue_1, "q", 1, 2), TX_NOT_DONE); /* off */
    trx_recorder_enable_callback(register_existing);
    assert_int_equal(tx_trace_enable(BUF, 4096, 3), TX_SUCCESS);
    /* registered by the callback, before the RUNNING events */
    check_object(0, 0, 1, 0x80 | (300 >> 8), 300 & 0xFF, &thread_1, addr32(stack_1), 64,
                 "a_thread_name_longer_than_thirt"); /* 31 chars + NUL */
    assert_int_equal(rd32(BUF, entries_off(3) + 8), TX_TRACE_RUNNING);

    assert_int_equal(
        trx_trace_object_register(TX_TRACE_OBJECT_TYPE_QUEUE, &queue_1, "queue 1", 10, 16),
        TX_SUCCESS);
    assert_int_equal(
        trx_trace_object_register(TX_TRACE_OBJECT_TYPE_SEMAPHORE, &sema_1, "sema 1", 1, 0),
        TX_SUCCESS);
    check_object(1, 0, 3, 0, 0, &queue_1, 10, 16, "queue 1");
    check_object(2, 0, 4, 0, 0, &sema_1, 1, 0, "sema 1");

    /* overflow: not registered, nothing changed */
    uint8_t before[3 * OBJ];
    memcpy(before, BUF + HDR, sizeof before);
    assert_int_equal(trx_trace_object_register(TX_TRACE_OBJECT_TYPE_MUTEX, &mutex_1, "m", 1, 0),
                     TX_NOT_DONE);
    assert_memory_equal(before, BUF + HDR, sizeof before);

    /* the same pointer again: same slot, new data */
    assert_int_equal(
        trx_trace_object_register(TX_TRACE_OBJECT_TYPE_QUEUE, &queue_1, "queue one renamed", 20, 8),
        TX_SUCCESS);
    check_object(1, 0, 3, 0, 0, &queue_1, 20, 8, "queue one renamed");

    /* unregister: free, data kept */
    assert_int_equal(trx_trace_object_unregister(&queue_1), TX_SUCCESS);
    check_object(1, 1, 3, 0, 0, &queue_1, 20, 8, "queue one renamed");
    assert_int_equal(trx_trace_object_unregister(&queue_1), TX_NOT_DONE);
    assert_int_equal(trx_trace_object_unregister(&mutex_1), TX_NOT_DONE);

    /* a new object takes the first free slot; NULL name = empty */
    assert_int_equal(trx_trace_object_register(TX_TRACE_OBJECT_TYPE_MUTEX, &mutex_1, NULL, 1, 0),
                     TX_SUCCESS);
    check_object(1, 0, 5, 0, 0, &mutex_1, 1, 0, "");

    /* a freed object registered again finds its old slot */
    assert_int_equal(trx_trace_object_unregister(&sema_1), TX_SUCCESS);
    assert_int_equal(trx_trace_object_unregister(&mutex_1), TX_SUCCESS);
    assert_int_equal(
        trx_trace_object_register(TX_TRACE_OBJECT_TYPE_SEMAPHORE, &sema_1, "sema 1b", 2, 0),
        TX_SUCCESS);
    check_object(2, 0, 4, 0, 0, &sema_1, 2, 0, "sema 1b");
    check_object(1, 1, 5, 0, 0, &mutex_1, 1, 0, "");

    /* exact-fit name: 31 characters kept, NUL last */
    assert_int_equal(
        trx_trace_object_register(6, &extra_1, "0123456789012345678901234567890", 0, 0),
        TX_SUCCESS);
    check_object(1, 0, 6, 0, 0, &extra_1, 0, 0, "0123456789012345678901234567890");

    /* registry of zero entries */
    assert_int_equal(tx_trace_disable(), TX_SUCCESS);
    trx_recorder_enable_callback(NULL);
    assert_int_equal(tx_trace_enable(BUF, 4096, 0), TX_SUCCESS);
    assert_int_equal(trx_trace_object_register(3, &queue_1, "q", 1, 2), TX_NOT_DONE);
    assert_int_equal(tx_trace_disable(), TX_SUCCESS);
    assert_int_equal(trx_trace_object_register(3, &queue_1, "q", 1, 2), TX_NOT_DONE);
}

static void test_inline_macro(void **state)
{
    (void)state;
    assert_int_equal(tx_trace_enable(BUF, 4096, 0), TX_SUCCESS);
    TRX_TRACE_EVENT(TX_TRACE_QUEUE_SEND, 1, 2, 3, 4, TX_TRACE_QUEUE_EVENTS);
    rd_entry e = newest(BUF);
    assert_int_equal(e.id, 69);
    assert_int_equal(e.info[0], 1);
    assert_int_equal(e.info[3], 4);
    assert_int_equal(e.ts, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_status_codes_size_boundary, reset),
        cmocka_unit_test_setup(test_status_codes_enable_disable, reset),
        cmocka_unit_test_setup(test_layout_bytes, reset),
        cmocka_unit_test_setup(test_user_events, reset),
        cmocka_unit_test_setup(test_filter_constants, reset),
        cmocka_unit_test_setup(test_filter_each_group, reset),
        cmocka_unit_test_setup(test_contexts_and_nested_isrs, reset),
        cmocka_unit_test_setup(test_full_notify_across_wraps, reset),
        cmocka_unit_test_setup(test_notify_may_disable, reset),
        cmocka_unit_test_setup(test_registry, reset),
        cmocka_unit_test_setup(test_inline_macro, reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
