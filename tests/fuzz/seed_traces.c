/*
 * seed_traces.c - writes the binary TXTB seed traces of the fuzzers (the
 * shapes the decoder tests build: little- and big-endian, wrapped, empty,
 * down-counting 16-bit timer, unregistered contexts, every object type,
 * multi-core ids, and a buffer the real recorder filled) into a directory.
 * tests/fuzz/make_seeds.sh turns them into the committed seed corpora; the
 * fuzz_seeds test checks that they are still what this program writes.
 *
 * usage: seed_traces DIR
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "decode/trace_builder.h"
#include "export/recorder_buffer.h"

#define A 0x20001000u
#define B 0x20002000u
#define ISR TRX_CONTEXT_ISR
#define INIT TRX_CONTEXT_INIT

static const char *out_dir;
static int failures;

/* The priority word of a thread event (preemption-threshold = priority). */
static uint32_t prio(uint32_t p)
{
    return p << 16 | p;
}

static void write_seed(const char *name, const void *bytes, size_t size)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", out_dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(bytes, 1, size, f) != size || fclose(f) != 0) {
        fprintf(stderr, "seed_traces: cannot write %s\n", path);
        failures++;
    }
}

/* Two threads, an interrupt that resumes B, initialization, queue sends. */
static void model(test_trace *b, bool big_endian)
{
    tb_init(b, 4, 16, big_endian);
    tb_object(b, 0, TRX_OBJ_THREAD, A, "thread A", 0x30000, 1024, 5);
    tb_object(b, 1, TRX_OBJ_THREAD, B, "thread B", 0x31000, 1024, 10);
    tb_object(b, 2, TRX_OBJ_QUEUE, 0x5000, "queue", 4, 16, 0);
    tb_event(b, INIT, 0, 6, 100, 0, 0, 0, 0);
    tb_event(b, INIT, 0, 6, 110, 0, 0, 0, 0);
    tb_event(b, A, prio(5), 69, 120, 0x5000, 0, 0, 1);
    tb_event(b, ISR, A, 3, 130, 0x40000, 7, 1, 0);
    tb_event(b, ISR, A, 1, 140, B, 6, 0x31300, B);
    tb_event(b, ISR, A, 4, 150, 0x40000, 7, 1, 0);
    tb_event(b, B, prio(10), 69, 160, 0x5000, 0, 0, 2);
    tb_event(b, B, prio(10), 2, 170, B, 5, 0x31200, A);
    tb_event(b, ISR, A, 3, 180, 0x40000, 8, 1, 0);
    tb_event(b, ISR, A, 4, 190, 0x40000, 8, 1, 0);
    tb_event(b, A, prio(5), 69, 200, 0x5000, 0, 0, 3);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: seed_traces DIR\n");
        return 2;
    }
    out_dir = argv[1];
    static test_trace b;

    model(&b, false);
    write_seed("model_le.trx", b.bytes, b.size);
    model(&b, true);
    write_seed("model_be.trx", b.bytes, b.size);

    /* wrapped: the newest entry physically first, the oldest pointer at 1 */
    tb_init(&b, 1, 4, false);
    tb_object(&b, 0, TRX_OBJ_THREAD, A, "thread A", 0x30000, 1024, 5);
    tb_event(&b, A, prio(5), 69, 400, 0, 0, 0, 4);
    tb_event(&b, A, prio(5), 69, 100, 0, 0, 0, 1);
    tb_event(&b, A, prio(5), 69, 200, 0, 0, 0, 2);
    tb_event(&b, A, prio(5), 69, 300, 0, 0, 0, 3);
    tb_oldest(&b, 1);
    write_seed("wrapped.trx", b.bytes, b.size);

    /* a 16-bit timer counting down (the header's mask says 0xFFFF) */
    tb_init(&b, 1, 8, false);
    b.bytes[4] = 0xFF, b.bytes[5] = 0xFF, b.bytes[6] = 0, b.bytes[7] = 0;
    tb_object(&b, 0, TRX_OBJ_THREAD, A, "thread A", 0x30000, 1024, 5);
    static const uint32_t down[] = {0x0100, 0x00F0, 0x0010, 0xFFF0, 0xFF00, 0x8000};
    for (int i = 0; i < 6; i++)
        tb_event(&b, A, prio(5), 69, down[i] | 0xABCD0000u, 0, 0, 0, 0);
    write_seed("down_timer.trx", b.bytes, b.size);

    /* contexts that are no registered thread (Un-named Threads) */
    tb_init(&b, 0, 4, false);
    tb_event(&b, A, prio(3), 69, 10, 0, 0, 0, 0);
    tb_event(&b, B, prio(4), 69, 20, 0, 0, 0, 0);
    tb_event(&b, A, prio(6), 69, 30, 0, 0, 0, 0);
    write_seed("unregistered.trx", b.bytes, b.size);

    /* nothing recorded yet, big-endian */
    tb_init(&b, 2, 4, true);
    tb_object(&b, 0, TRX_OBJ_MUTEX, 0x7000, "m", 1, 0, 0);
    write_seed("empty_be.trx", b.bytes, b.size);

    /* every object type, FileX / NetX / user events, a free registry slot */
    tb_init(&b, 16, 24, false);
    for (uint8_t type = TRX_OBJ_THREAD; type <= TRX_OBJ_UDP_SOCKET; type++) {
        char name[16];
        snprintf(name, sizeof name, "object %u", type);
        tb_object(&b, type - 1u, type, 0x21000000u + type * 0x100u, name, type, 2u * type,
                  type == TRX_OBJ_THREAD ? 3 : 0);
    }
    uint32_t t0 = 0x21000100u;
    tb_event(&b, INIT, 0, 100, 5, t0, 3, 0x30000, 1024);
    static const uint32_t ids[] = {201, 211, 220, 228, 229, 230, 300,  301,  311,  330,
                                   340, 350, 360, 400, 440, 470, 4096, 4097, 5000, 65535};
    for (uint32_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        tb_event(&b, t0, prio(3), ids[i], 10 + 10 * i, 0x21000900u, i, 2 * i, 3 * i);
    write_seed("objects.trx", b.bytes, b.size);

    /* multi-core: the recording core in id bits 24-31 */
    tb_init(&b, 2, 8, false);
    tb_object(&b, 0, TRX_OBJ_THREAD, A, "core0 thread", 0x30000, 1024, 5);
    tb_object(&b, 1, TRX_OBJ_THREAD, B, "core1 thread", 0x31000, 1024, 5);
    for (uint32_t i = 0; i < 6; i++)
        tb_event(&b, i % 2 ? B : A, prio(5), (i % 2) << 24 | 69, 100 + 10 * i, 0x5000, 0, 0, i);
    write_seed("smp.trx", b.bytes, b.size);

    /* the real recorder: tx_trace_enable, a thread, user events */
    static uint8_t buffer[4096] __attribute__((aligned(8)));
    unsigned long entries = 0;
    if (recorder_buffer_fill(buffer, sizeof buffer, &entries) != 0) {
        fprintf(stderr, "seed_traces: the recorder failed\n");
        failures++;
    } else {
        /* The header holds the buffer's own (host) addresses: move them to
         * 0x20000000 so that the seed is the same on every run. */
        uint32_t base;
        memcpy(&base, buffer + 8, 4);
        for (int off = 8; off <= 32; off += 4) {
            uint32_t v;
            memcpy(&v, buffer + off, 4);
            if (off != 16) /* reserved1 and name size */
                v = v - base + 0x20000000u;
            memcpy(buffer + off, &v, 4);
        }
        write_seed("recorder.trx", buffer, sizeof buffer);
    }
    return failures ? 1 : 0;
}
