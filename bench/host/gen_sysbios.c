/*
 * gen_sysbios.c - a large SYS/BIOS-shaped UIA capture for timing `trx stats`
 * on UIA against a TXTB trace of the same size (gen_txtb): one core's kernel
 * logger, UIAPacket file of packets of 1024 PrevLen records (HdrType 10,
 * 64-bit timestamps), a scheduler cycling through 8 tasks: application
 * records, Hwis that ready a task, blocks and task switches, with the
 * records' real argument counts (16 to 36 bytes each). Writes FILE and
 * FILE.xml (TI's metadata naming the events). With --benchmarks also
 * UIABenchmark start / stop records of three names (restarts, stops
 * without a start and whole pairs among them) and the target's Load
 * reports (LS_cpuLoad), for System Analyzer's duration and load analyses.
 *
 *   gen_sysbios --out FILE --records N [--benchmarks]
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "put_words.h"

enum { MOD_TASK = 0x8030, MOD_HWI = 0x8031, MOD_APP = 0x8035, MOD_BENCH = 0x8036 };
enum { MOD_LOAD = 0x8037, PER_PACKET = 1024 };
enum { E_SWITCH = 1, E_READY = 2, E_BLOCK = 3, E_HWI_BEGIN = 4, E_HWI_END = 5, E_MARK = 13 };
enum { E_BENCH_START = 20, E_BENCH_STOP = 21, E_CPU_LOAD = 30 };

typedef struct writer {
    FILE *f;
    uint8_t packet[16 + PER_PACKET * 48];
    size_t fill;        /* bytes of records in the packet */
    uint32_t in_packet; /* records in it */
    uint32_t packets, prev;
    uint64_t seq, time;
} writer;

static void flush(writer *w)
{
    if (w->in_packet == 0)
        return;
    put_be(w->packet, 10u << 28 | (uint32_t)(16 + w->fill));
    put_be(w->packet + 4, w->packets << 16 | (uint32_t)((w->seq - w->in_packet) & 0x3FFFu) << 2);
    put_be(w->packet + 8, 0u << 16 | 0x8003u);
    put_be(w->packet + 12, 0xFFFFu << 16);
    fwrite(w->packet, 1, 16 + w->fill, w->f);
    w->packets++;
    w->fill = 0;
    w->in_packet = 0;
    w->prev = 0;
}

static void record(writer *w, uint32_t module, uint32_t event, const uint32_t *args, uint32_t n)
{
    uint32_t len = 16 + 4 * n;
    uint8_t *p = w->packet + 16 + w->fill;
    w->time += 7 + ((uint32_t)(w->seq * 2654435761u) >> 28);
    put_le(p, 10u << 27 | len << 16 | w->prev << 5 | (uint32_t)(w->seq & 31u));
    put_le(p + 4, (uint32_t)w->time);
    put_le(p + 8, (uint32_t)(w->time >> 32));
    put_le(p + 12, event << 16 | module);
    for (uint32_t i = 0; i < n; i++)
        put_le(p + 16 + 4 * i, args[i]);
    w->fill += len;
    w->prev = len;
    w->seq++;
    if (++w->in_packet == PER_PACKET)
        flush(w);
}

static uint32_t task(uint32_t k)
{
    return 0x20001000u + (k & 7u) * 0x100u;
}

static uint32_t function(uint32_t k)
{
    return 0x00001001u + (k & 7u) * 0x40u;
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    unsigned long long records = 0;
    bool benchmarks = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--benchmarks"))
            benchmarks = true;
        else if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(argv[i], "--records") && i + 1 < argc)
            records = strtoull(argv[++i], NULL, 10);
    }
    if (!out || records == 0) {
        fprintf(stderr, "usage: gen_sysbios --out FILE --records N [--benchmarks]\n");
        return 2;
    }
    static writer w;
    if (!(w.f = fopen(out, "wb"))) {
        perror(out);
        return 1;
    }
    uint32_t running = 0;
    for (uint64_t n = 0; w.seq < records; n++) {
        uint32_t next = running + 1 + (uint32_t)(n % 3), a[5];
        a[0] = (uint32_t)n;
        a[1] = running;
        record(&w, MOD_APP, E_MARK, a, 2);
        if (benchmarks && n % 5 == 0 && w.seq < records) { /* a name's start */
            uint32_t name = 0x0000A000u + 0x10u * (uint32_t)(n / 5 % 3);
            record(&w, MOD_BENCH, E_BENCH_START, &name, 1);
        }
        if (benchmarks && (n % 7 == 3 || n % 11 == 6) && w.seq < records) { /* a stop */
            uint32_t name = 0x0000A000u + 0x10u * (uint32_t)(n % 7 == 3 ? n / 7 % 3 : n / 11 % 3);
            record(&w, MOD_BENCH, E_BENCH_STOP, &name, 1);
        }
        if (benchmarks && n % 500 == 499 && w.seq < records) {
            uint32_t percent = (uint32_t)(n / 500 % 100);
            record(&w, MOD_LOAD, E_CPU_LOAD, &percent, 1);
        }
        if (w.seq >= records)
            break;
        uint32_t irq = 15 + (uint32_t)(n % 4);
        uint32_t hwi[5] = {0x20008000u + irq * 16, 0x3001u, 2, irq, 0x1234u};
        record(&w, MOD_HWI, E_HWI_BEGIN, hwi, 5);
        uint32_t r[3] = {task(next), function(next), 5};
        if (w.seq < records)
            record(&w, MOD_TASK, E_READY, r, 3);
        if (w.seq < records)
            record(&w, MOD_HWI, E_HWI_END, hwi, 1);
        uint32_t b[2] = {task(running), function(running)};
        if (n % 2 && w.seq < records)
            record(&w, MOD_TASK, E_BLOCK, b, 2);
        uint32_t s[4] = {task(running), function(running), task(next), function(next)};
        if (w.seq < records)
            record(&w, MOD_TASK, E_SWITCH, s, 4);
        running = next;
    }
    flush(&w);
    fclose(w.f);
    char meta[4096];
    snprintf(meta, sizeof meta, "%s.xml", out);
    FILE *m = fopen(meta, "w");
    if (!m) {
        perror(meta);
        return 1;
    }
    fprintf(m, "<uia>\n"
               " <evtMap id=\"1\" moduleId=\"32816\" longName=\"ti.sysbios.knl.Task.LM_switch\"/>\n"
               " <evtMap id=\"2\" moduleId=\"32816\" longName=\"ti.sysbios.knl.Task.LD_ready\"/>\n"
               " <evtMap id=\"3\" moduleId=\"32816\" longName=\"ti.sysbios.knl.Task.LD_block\"/>\n"
               " <evtMap id=\"4\" moduleId=\"32817\" "
               "longName=\"ti.sysbios.family.arm.m3.Hwi.LM_begin\"/>\n"
               " <evtMap id=\"5\" moduleId=\"32817\" "
               "longName=\"ti.sysbios.family.arm.m3.Hwi.LD_end\"/>\n"
               " <evtMap id=\"13\" moduleId=\"32821\" longName=\"app.App.mark\"/>\n"
               " <evtMap id=\"20\" moduleId=\"32822\" "
               "longName=\"ti.uia.events.UIABenchmark.start\"/>\n"
               " <evtMap id=\"21\" moduleId=\"32822\" "
               "longName=\"ti.uia.events.UIABenchmark.stop\"/>\n"
               " <evtMap id=\"30\" moduleId=\"32823\" "
               "longName=\"ti.sysbios.utils.Load.LS_cpuLoad\"/>\n"
               "</uia>\n");
    fclose(m);
    printf("%s: %llu records in %u packets\n", out, (unsigned long long)w.seq, w.packets);
    return 0;
}
