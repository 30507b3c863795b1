/* make_uia_gaps.c - writes a small UIA buffer with known lost-event gaps for
 * the export tests: 60 records (type 1, 64-bit timestamps every 100 ticks,
 * two arguments), with 3 records missing before record 20 and 7 before
 * record 45 (sequence numbers skip).
 *
 * usage: make_uia_gaps OUT */
#include <stdio.h>

#include "uia/uia_builder.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: make_uia_gaps OUT\n");
        return 2;
    }
    ub b;
    ub_init(&b, false);
    uint32_t seq = 0;
    for (uint32_t i = 0; i < 60; i++) {
        if (i == 20)
            seq += 3;
        if (i == 45)
            seq += 7;
        uint32_t args[2] = {i, 0x20001000u + i % 4};
        ub_event(&b, 1, seq, 1000u + 100u * (seq), 1u + i % 5, 0x8000u, args, 2);
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
