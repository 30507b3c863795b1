/*
 * differential_test.c - trx against itself on mutated corpus traces. Each
 * trace of the corpus (and corpus/smp) is checked as it is, then as N
 * mutants: seeded, deterministic changes of one to three entry fields
 * (mutator.c). For every buffer: the dump of the binary equals the dump of
 * the same bytes as Intel HEX, as S-record and in the other byte order; the
 * JSON Lines event listing agrees with the dump on every event's index, id,
 * context and ticks; the statistics over three segments equal the one
 * walk's, byte for byte, in both modes; nothing fails to load
 * (self_consistency.c). Crashes and
 * undefined behaviour show under the sanitizer build.
 *
 * Usage: differential_test [--mutants N] [--seed S] [--trace NAME]
 *                          [--mutant K] [--verbose] [CORPUS_DIR...]
 *   --mutants N   mutants per trace (default 4: a few seconds in `make test`)
 *   --seed S      the run's seed (default 1); a failure names seed and mutant
 *   --trace NAME  only trace files whose name contains NAME
 *   --mutant K    only mutant K (0 = the unmutated trace), to reproduce one
 * Exit status 0 when every check holds, 1 otherwise, 2 on a usage error.
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mutator.h"
#include "self_consistency.h"

#define MAX_TRACES 256
#define MAX_REPORTED 10

typedef struct options {
    unsigned long mutants;
    unsigned long long seed;
    const char *trace_filter;
    long only_mutant; /* -1: all */
    bool verbose;
} options;

static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *data = NULL;
    size_t cap = 0, used = 0, got;
    do {
        if (used == cap) {
            cap = cap ? cap * 2 : 1 << 16;
            uint8_t *n = realloc(data, cap);
            if (!n) {
                free(data);
                fclose(f);
                return NULL;
            }
            data = n;
        }
        got = fread(data + used, 1, cap - used, f);
        used += got;
    } while (got > 0);
    bool failed = ferror(f) != 0;
    fclose(f);
    if (failed) {
        free(data);
        return NULL;
    }
    *size = used;
    return data;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends the .trx files of `dir` (sorted) to `paths`. */
static int list_traces(const char *dir, const char *filter, char **paths, int n)
{
    DIR *d = opendir(dir);
    if (!d)
        return n;
    int first = n;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < MAX_TRACES) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".trx") != 0)
            continue;
        if (filter && !strstr(e->d_name, filter))
            continue;
        char *p = malloc(strlen(dir) + len + 2);
        if (!p)
            break;
        sprintf(p, "%s/%s", dir, e->d_name);
        paths[n++] = p;
    }
    closedir(d);
    qsort(paths + first, (size_t)(n - first), sizeof *paths, compare_names);
    return n;
}

/* A seed for mutant `k` of trace `name`: reproducible one by one. */
static uint64_t mutant_seed(unsigned long long seed, const char *name, unsigned long k)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a of the file name */
    for (const char *p = strrchr(name, '/') ? strrchr(name, '/') + 1 : name; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    return h ^ seed * 0x9E3779B97F4A7C15ull ^ (uint64_t)k * 0xD1B54A32D192ED03ull;
}

static void describe(const mut_change *c, int n, char *out, size_t size)
{
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < n && len < size; i++)
        len += (size_t)snprintf(out + len, size - len, "%sentry %u %s %08X -> %08X", i ? ", " : "",
                                c[i].entry, mut_field_name(c[i].field), c[i].old_value,
                                c[i].new_value);
}

/* Checks one trace and its mutants; returns the number of failures. */
static unsigned long run_trace(const char *path, const options *o, unsigned long *mutants,
                               unsigned long long *events)
{
    size_t size;
    uint8_t *original = read_file(path, &size);
    if (!original) {
        fprintf(stderr, "differential: %s: cannot read\n", path);
        return 1;
    }
    trx_image img;
    trx_trace t;
    trx_error err;
    mut_layout layout;
    if (trx_image_load_memory(&img, original, size, TRX_FORMAT_BIN, &err) < 0 ||
        trx_trace_open_image(&t, &img, path, &err) < 0) {
        fprintf(stderr, "differential: %s: offset %llu: %s\n", path, (unsigned long long)err.offset,
                err.message);
        free(original);
        return 1;
    }
    int layout_ok = mut_layout_init(&layout, &t);
    trx_trace_close(&t);
    uint8_t *bytes = malloc(size);
    if (layout_ok < 0 || !bytes) {
        fprintf(stderr, "differential: out of memory\n");
        free(original);
        free(bytes);
        return 1;
    }
    unsigned long failures = 0;
    for (unsigned long k = 0; k <= o->mutants; k++) {
        if (o->only_mutant >= 0 && (unsigned long)o->only_mutant != k)
            continue;
        memcpy(bytes, original, size);
        mut_change changes[MUT_MAX_CHANGES];
        int n = 0;
        if (k > 0) {
            mut_rng rng;
            mut_rng_seed(&rng, mutant_seed(o->seed, path, k));
            n = mut_apply(&layout, &rng, bytes, changes);
        }
        char what[400];
        describe(changes, n, what, sizeof what);
        uint64_t ev = 0;
        const char *bad = consistency_check(bytes, size, &ev);
        (*mutants)++;
        *events += ev;
        if (bad) {
            if (++failures <= MAX_REPORTED)
                printf("FAIL %s --seed %llu --mutant %lu (%s): %s\n", path, o->seed, k,
                       n ? what : "unmutated", bad);
        } else if (o->verbose) {
            printf("ok   %s mutant %lu (%s): %llu events\n", path, k, n ? what : "unmutated",
                   (unsigned long long)ev);
        }
    }
    mut_layout_free(&layout);
    free(bytes);
    free(original);
    return failures;
}

static int usage(void)
{
    fprintf(stderr, "usage: differential_test [--mutants N] [--seed S] [--trace NAME] "
                    "[--mutant K] [--verbose] [CORPUS_DIR...]\n");
    return 2;
}

int main(int argc, char **argv)
{
    options o = {4, 1, NULL, -1, false};
    const char *dirs[16];
    int ndirs = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        char *end = NULL;
        if (strcmp(a, "--verbose") == 0) {
            o.verbose = true;
        } else if (i + 1 < argc && strcmp(a, "--mutants") == 0) {
            o.mutants = strtoul(argv[++i], &end, 10);
        } else if (i + 1 < argc && strcmp(a, "--seed") == 0) {
            o.seed = strtoull(argv[++i], &end, 10);
        } else if (i + 1 < argc && strcmp(a, "--mutant") == 0) {
            o.only_mutant = strtol(argv[++i], &end, 10);
        } else if (i + 1 < argc && strcmp(a, "--trace") == 0) {
            o.trace_filter = argv[++i];
        } else if (a[0] != '-' && ndirs < 16) {
            dirs[ndirs++] = a;
        } else {
            return usage();
        }
        if (end && (*end || end == argv[i]))
            return usage();
    }
    if (ndirs == 0) {
        dirs[ndirs++] = TRX_SHARED_DIR "/corpus";
        dirs[ndirs++] = TRX_SHARED_DIR "/corpus/smp";
    }
    if (o.only_mutant > (long)o.mutants)
        o.mutants = (unsigned long)o.only_mutant;
    char *paths[MAX_TRACES];
    int n = 0;
    for (int i = 0; i < ndirs; i++)
        n = list_traces(dirs[i], o.trace_filter, paths, n);
    if (n == 0) {
        fprintf(stderr, "differential: no .trx traces found\n");
        return 1;
    }
    unsigned long failures = 0, mutants = 0;
    unsigned long long events = 0;
    for (int i = 0; i < n; i++) {
        failures += run_trace(paths[i], &o, &mutants, &events);
        free(paths[i]);
    }
    printf("differential: %d traces, %lu buffers (seed %llu), %llu events checked, %lu failed\n", n,
           mutants, o.seed, events, failures);
    return failures ? 1 : 0;
}
