/* make_uia_gaps.c - writes a small UIA buffer with known lost-event gaps for
 * the export tests: 60 records (type 1, 64-bit timestamps every 100 ticks,
 * two arguments), with 3 records missing before record 20 and 7 before
 * record 45 (sequence numbers skip). --backwards: time also goes back
 * 1500 ticks across the first gap (what a fuzzer found to drive the CPU-load
 * windows by tick values and to underflow busy time).
 *
 * usage: make_uia_gaps OUT [--backwards] */
#include <stdio.h>
#include <string.h>

#include "uia/uia_builder.h"

int main(int argc, char **argv)
{
    if (argc != 2 && !(argc == 3 && strcmp(argv[2], "--backwards") == 0)) {
        fprintf(stderr, "usage: make_uia_gaps OUT [--backwards]\n");
        return 2;
    }
    uint64_t back = argc == 3 ? 1500u : 0u;
    ub b;
    ub_init(&b, false);
    uint32_t seq = 0;
    for (uint32_t i = 0; i < 60; i++) {
        if (i == 20)
            seq += 3;
        if (i == 45)
            seq += 7;
        uint32_t args[2] = {i, 0x20001000u + i % 4};
        uint64_t ts = 1000u + 100u * (uint64_t)seq - (i >= 20 ? back : 0u);
        ub_event(&b, 1, seq, ts, 1u + i % 5, 0x8000u, args, 2);
        seq++;
    }
    FILE *f = fopen(argv[1], "wb");
    if (!f || fwrite(b.buf, 1, b.len, f) != b.len || fclose(f) != 0) {
        perror(argv[1]);
        return 1;
    }
    ub_free(&b);
    return 0;
}
