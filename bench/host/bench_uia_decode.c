/*
 * bench_uia_decode.c - UIA decoder throughput: builds in memory a UIAPacket
 * file of N records (default 10 M; LoggerStopMode-like packets of 1024
 * HdrType 10 records, 64-bit timestamp, event word and 2 arguments, 24
 * bytes each, one sequence gap every 100 000 records) and times the open
 * (the decode pass: headers, sequence unwrap and gaps, record index) and a
 * full trx_cursor pass, best of RUNS. Prints records per second. With
 * LOGGERS > 1 the records are written by that many loggers of one core (one
 * clock), record g by logger g % LOGGERS, each logger's packets in the file
 * as they fill: their time windows overlap and the decoder merges them.
 *
 *   bench_uia_decode [RECORDS=10000000] [RUNS=3] [LOGGERS=1]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trx/uia.h"

#include "put_words.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The packet file; returns its size. */
static size_t build(uint8_t *buf, uint64_t records, uint32_t loggers)
{
    enum { PER_PACKET = 1024, REC = 24 };
    size_t off = 0;
    uint64_t per_logger = (records + loggers - 1) / loggers;
    uint64_t *seq = calloc(loggers, sizeof *seq);
    if (!seq)
        return 0;
    for (uint64_t q = 0; q * PER_PACKET < per_logger; q++) {
        for (uint32_t l = 0; l < loggers; l++) {
            uint32_t n = 0; /* records of logger l in its packet q */
            for (uint64_t j = q * PER_PACKET; j < (q + 1) * PER_PACKET; j++)
                n += j * loggers + l < records;
            if (n == 0)
                continue;
            put_be(buf + off, 10u << 28 | (16u + n * REC));
            put_be(buf + off + 4, (uint32_t)q << 16 | (uint32_t)(seq[l] & 0x3FFFu) << 2);
            put_be(buf + off + 8, l << 16 | 0x8003u);
            put_be(buf + off + 12, 0xFFFFu << 16);
            off += 16;
            uint32_t prev = 0;
            for (uint32_t k = 0; k < n; k++, seq[l]++) {
                uint64_t g = (q * PER_PACKET + k) * loggers + l;
                if (g % 100000 == 99999)
                    seq[l] += 3;
                uint64_t ts = g * 37;
                put_le(buf + off, 10u << 27 | REC << 16 | prev << 5 | (uint32_t)(seq[l] & 31u));
                put_le(buf + off + 4, (uint32_t)ts);
                put_le(buf + off + 8, (uint32_t)(ts >> 32));
                put_le(buf + off + 12, (uint32_t)(g % 50) << 16 | 0x8001u);
                put_le(buf + off + 16, (uint32_t)k);
                put_le(buf + off + 20, (uint32_t)g);
                prev = REC;
                off += REC;
            }
        }
    }
    free(seq);
    return off;
}

int main(int argc, char **argv)
{
    uint64_t records = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000000u;
    int runs = argc > 2 ? atoi(argv[2]) : 3;
    uint32_t loggers = argc > 3 ? (uint32_t)atoi(argv[3]) : 1u;
    if (loggers < 1 || loggers > 1000)
        loggers = 1;
    size_t cap = (size_t)records * 24 + (size_t)(records / 1024 + 2) * 16 * loggers;
    uint8_t *buf = malloc(cap);
    if (!buf || records == 0) {
        fprintf(stderr, "bench_uia_decode: cannot allocate %zu bytes\n", cap);
        return 1;
    }
    size_t size = build(buf, records, loggers);
    double best_open = 1e9, best_walk = 1e9;
    uint64_t decoded = 0, lost = 0;
    for (int r = 0; r < runs; r++) {
        trx_image img;
        trx_error err;
        trx_trace t;
        /* the image borrows buf: loaded "from memory" would copy it, so build the struct */
        memset(&img, 0, sizeof img);
        img.data = buf;
        img.size = size;
        img.format = TRX_FORMAT_BIN;
        double t0 = now_seconds();
        if (trx_trace_open_image(&t, &img, "bench", &err) != 0) {
            fprintf(stderr, "bench_uia_decode: %s at %llu\n", err.message,
                    (unsigned long long)err.offset);
            return 1;
        }
        double t1 = now_seconds();
        trx_cursor c;
        trx_event ev;
        uint64_t n = 0, sum = 0;
        if (trx_cursor_init(&c, &t) == 0)
            while (trx_cursor_next(&c, &ev)) {
                n++;
                sum += ev.id;
            }
        double t2 = now_seconds();
        decoded = n;
        lost = t.lost_events;
        if (t1 - t0 < best_open)
            best_open = t1 - t0;
        if (t2 - t1 < best_walk)
            best_walk = t2 - t1;
        volatile uint64_t sink = sum;
        (void)sink;
        t.image.data = NULL; /* not ours to free */
        t.image.size = 0;
        trx_trace_close(&t);
    }
    printf("UIA file: %llu records, %zu bytes (%.1f bytes/record), %llu lost in gaps\n",
           (unsigned long long)decoded, size, (double)size / (double)decoded,
           (unsigned long long)lost);
    printf("decode (trx_trace_open)   %8.3f s = %8.1f M records/s\n", best_open,
           (double)decoded / best_open / 1e6);
    printf("cursor pass (events)      %8.3f s = %8.1f M records/s\n", best_walk,
           (double)decoded / best_walk / 1e6);
    free(buf);
    return 0;
}
