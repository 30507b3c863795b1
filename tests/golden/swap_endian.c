/*
 * swap_endian.c - test tool: rewrites a TXTB trace buffer in the other byte
 * order (little <-> big endian), as a big-endian target would have written
 * it. Every 32-bit header word, the two 16-bit header fields, the 32-bit
 * words of each registry entry (offsets 4, 8, 12) and every 32-bit word of
 * each trace entry are swapped; registry bytes 0-3 and names are untouched.
 * The layout comes from the header pointers minus the base address.
 *
 *   swap_endian IN OUT
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "txtb_swap.h"

/* Reads a whole file into a heap buffer; NULL on error. */
static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    uint8_t *data = NULL;
    size_t cap = 0, used = 0;
    for (;;) {
        if (used == cap) {
            size_t ncap = cap ? cap * 2 : 65536;
            uint8_t *n = realloc(data, ncap);
            if (n == NULL) {
                free(data);
                fclose(f);
                return NULL;
            }
            data = n;
            cap = ncap;
        }
        size_t got = fread(data + used, 1, cap - used, f);
        used += got;
        if (got == 0)
            break;
    }
    bool failed = ferror(f) != 0;
    fclose(f);
    if (failed) {
        free(data);
        return NULL;
    }
    *size = used;
    return data;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: swap_endian IN OUT\n");
        return 2;
    }
    size_t size = 0;
    uint8_t *data = read_file(argv[1], &size);
    if (data == NULL) {
        fprintf(stderr, "swap_endian: cannot read %s\n", argv[1]);
        return 1;
    }
    const char *problem = txtb_swap_byte_order(data, size);
    if (problem != NULL) {
        fprintf(stderr, "swap_endian: %s: %s\n", argv[1], problem);
        free(data);
        return 1;
    }
    FILE *f = fopen(argv[2], "wb");
    bool ok = f != NULL && fwrite(data, 1, size, f) == size;
    if (f != NULL && fclose(f) != 0)
        ok = false;
    free(data);
    if (!ok) {
        fprintf(stderr, "swap_endian: cannot write %s\n", argv[2]);
        return 1;
    }
    return 0;
}
