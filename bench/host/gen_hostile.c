/*
 * gen_hostile.c - writes valid TXTB traces shaped to defeat naive analyses
 * (bench/ and the linearity test use them): each shape makes one kind of
 * look-up, rescan or sort grow with the trace if it is not done with the
 * right structure. Little-endian, 32-bit up-counting timer, deterministic.
 *
 *   gen_hostile --shape SHAPE --out FILE [--entries N] [--objects K]
 *
 * Shapes:
 *   isr-resume-new     every ISR resumes a thread never seen before (the
 *                      interrupt RESUME look-ahead)
 *   running-unknown    every RUNNING event goes to a new unknown address
 *   new-contexts       every entry comes from a new unregistered context
 *   open-inversions    priority-inversion windows that never close (a new
 *                      high-priority thread blocks on a held mutex each time)
 *   mixed-owners       inversion windows open at once under two owners and
 *                      several blocked priorities, run into by the owners
 *                      and by a middle-priority thread, ended now and then
 *                      (the finders' bounds on their open windows)
 *   one-closer         two windows open at once, the first held by low, the
 *                      second by low 2 and made unbounded only by low
 *                      running (a finder that takes the first owner for
 *                      all misses it)
 *   objects-window     one open inversion window and K registered objects
 *                      (default 10000)
 *   distinct-ids       65,536 distinct event ids, cycled
 *   isr-keys           ISR 32767 at the start and again after 4,196 other
 *                      ISR numbers in the second half (the ISR table's cap
 *                      of 4,096 keys met by a segment of the statistics
 *                      that the part before's key must not slip through)
 *   same-address       K registered threads (default 10000) at one address,
 *                      each with its own stack, and every entry from that
 *                      address carrying a stack pointer (each thread there
 *                      sees every event of the address)
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEADER_SIZE 48u
#define ENTRY_SIZE 32u
#define NAME_SIZE 32u
#define REG_ENTRY_SIZE (16u + NAME_SIZE)
#define BASE 0x20000000u
#define CTX_ISR 0xFFFFFFFFu
#define WAIT_FOREVER 0xFFFFFFFFu /* a GET's wait option */

enum { OBJ_THREAD = 1, OBJ_MUTEX = 5 };
enum {
    EV_RESUME = 1,
    EV_SUSPEND = 2,
    EV_ISR_ENTER = 3,
    EV_ISR_EXIT = 4,
    EV_MUTEX_GET = 52,
    EV_MUTEX_PUT = 57
};

/* A registered object to write into the registry. */
typedef struct object {
    uint32_t type, address, param1, param2;
    char name[NAME_SIZE];
} object;

/* The trace being written: entries stream to the file after the registry. */
typedef struct writer {
    FILE *f;
    uint32_t now;
    uint64_t written, limit;
    bool io_error;
} writer;

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* Appends one entry unless the requested count is reached; false then. */
static bool entry(writer *w, uint32_t ctx, uint32_t prio, uint32_t id, uint32_t i1, uint32_t i2,
                  uint32_t i3, uint32_t i4)
{
    if (w->written >= w->limit)
        return false;
    uint8_t e[ENTRY_SIZE];
    const uint32_t words[8] = {ctx, prio, id, w->now, i1, i2, i3, i4};
    for (unsigned k = 0; k < 8; k++)
        put32(e + 4 * k, words[k]);
    w->now += 10;
    if (fwrite(e, 1, sizeof e, w->f) != sizeof e)
        w->io_error = true;
    w->written++;
    return true;
}

/* Header and registry for `n` objects and `entries` trace entries. */
static void write_head(FILE *f, const object *objs, uint32_t n, uint64_t entries)
{
    uint32_t reg_start = BASE + HEADER_SIZE;
    uint32_t reg_end = reg_start + n * REG_ENTRY_SIZE;
    uint32_t buf_start = reg_end;
    uint32_t buf_end = buf_start + (uint32_t)entries * ENTRY_SIZE;
    uint8_t h[HEADER_SIZE];
    memset(h, 0, sizeof h);
    put32(h, 0x54585442u);
    put32(h + 4, 0xFFFFFFFFu); /* timer mask */
    put32(h + 8, BASE);
    put32(h + 12, reg_start);
    h[18] = NAME_SIZE; /* name size, little-endian 16-bit at 18 */
    put32(h + 20, reg_end);
    put32(h + 24, buf_start);
    put32(h + 28, buf_end);
    put32(h + 32, buf_start); /* oldest = first: not wrapped */
    fwrite(h, 1, sizeof h, f);
    for (uint32_t i = 0; i < n; i++) {
        uint8_t r[REG_ENTRY_SIZE];
        memset(r, 0, sizeof r);
        r[0] = 0; /* in use */
        r[1] = (uint8_t)objs[i].type;
        put32(r + 4, objs[i].address);
        put32(r + 8, objs[i].param1);
        put32(r + 12, objs[i].param2);
        memcpy(r + 16, objs[i].name, NAME_SIZE);
        fwrite(r, 1, sizeof r, f);
    }
}

static uint32_t prio_word(uint32_t prio)
{
    return prio | 0x80000000u | (prio << 16);
}

int main(int argc, char **argv)
{
    const char *shape = NULL, *out = NULL;
    uint64_t entries = 100000;
    uint32_t objects = 10000;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--shape") == 0)
            shape = argv[i + 1];
        else if (strcmp(argv[i], "--out") == 0)
            out = argv[i + 1];
        else if (strcmp(argv[i], "--entries") == 0)
            entries = strtoull(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--objects") == 0)
            objects = (uint32_t)strtoul(argv[i + 1], NULL, 10);
        else {
            fprintf(stderr, "gen_hostile: unknown option '%s'\n", argv[i]);
            return 1;
        }
    }
    if (!shape || !out || entries == 0 || entries > 100000000u) {
        fprintf(stderr,
                "usage: gen_hostile --shape SHAPE --out FILE [--entries N] [--objects K]\n");
        return 1;
    }
    bool many = strcmp(shape, "objects-window") == 0;
    bool same = strcmp(shape, "same-address") == 0;
    bool mixed = strcmp(shape, "mixed-owners") == 0 || strcmp(shape, "one-closer") == 0;
    uint32_t nobj = many || same ? objects + 3 : mixed ? 6 : 3;
    object *objs = calloc(nobj, sizeof *objs);
    if (!objs)
        return 1;
    /* Two registered threads (low and high priority) and a mutex; more
     * registered mutexes for objects-window. */
    const uint32_t lo = 0x30000000u, hi = 0x30000100u, mutex = 0x30000200u;
    objs[0] = (object){OBJ_THREAD, lo, 0x31000000u, 1024, "low"};
    objs[1] = (object){OBJ_THREAD, hi, 0x31001000u, 1024, "high"};
    objs[2] = (object){OBJ_MUTEX, mutex, 0, 0, "mutex"};
    const uint32_t lo2 = 0x30000300u, mid = 0x30000400u, mutex2 = 0x30000500u;
    if (mixed) {
        objs[3] = (object){OBJ_THREAD, lo2, 0x31002000u, 1024, "low 2"};
        objs[4] = (object){OBJ_THREAD, mid, 0x31003000u, 1024, "middle"};
        objs[5] = (object){OBJ_MUTEX, mutex2, 0, 0, "mutex 2"};
    }
    for (uint32_t k = 3; k < nobj && !mixed; k++) {
        if (same)
            objs[k] = (object){OBJ_THREAD, lo, 0x32000000u + 0x1000u * k, 4096, ""};
        else
            objs[k] = (object){OBJ_MUTEX, 0x40000000u + 16u * k, 0, 0, ""};
        snprintf(objs[k].name, NAME_SIZE, same ? "t%u" : "m%u", (unsigned)k);
    }
    FILE *f = fopen(out, "wb");
    if (!f) {
        fprintf(stderr, "gen_hostile: %s: %s\n", out, strerror(errno));
        return 1;
    }
    write_head(f, objs, nobj, entries);
    writer w = {f, 1000, 0, entries, false};
    uint32_t fresh = 0x50000000u; /* addresses never registered, 16 apart */
    if (strcmp(shape, "isr-resume-new") == 0) {
        while (entry(&w, lo, prio_word(20), 200, 0, 0, 0, 0) &&
               entry(&w, CTX_ISR, lo, EV_ISR_ENTER, 5, 0, 0, 0) &&
               entry(&w, CTX_ISR, lo, EV_RESUME, fresh += 16, 3, 0, 0) &&
               entry(&w, CTX_ISR, lo, EV_ISR_EXIT, 5, 0, 0, 0))
            ;
    } else if (strcmp(shape, "running-unknown") == 0) {
        while (entry(&w, lo, prio_word(20), EV_SUSPEND, hi, 4, 0, fresh += 16))
            ;
    } else if (strcmp(shape, "new-contexts") == 0) {
        while (entry(&w, fresh += 16, prio_word(10), 200, 0, 0, 0, 0))
            ;
    } else if (strcmp(shape, "open-inversions") == 0) {
        /* low holds the mutex; every new thread of higher priority blocks on it. */
        entry(&w, lo, prio_word(20), EV_MUTEX_GET, mutex, 0, 0, 0);
        while (entry(&w, fresh += 16, prio_word(5), EV_MUTEX_GET, mutex, 0, lo, 0) &&
               entry(&w, lo, prio_word(20), 200, 0, 0, 0, 0))
            ;
    } else if (strcmp(shape, "one-closer") == 0) {
        bool ok = entry(&w, lo, prio_word(20), EV_MUTEX_GET, mutex, 0, 0, 0) &&
                  entry(&w, lo2, prio_word(22), EV_MUTEX_GET, mutex2, 0, 0, 0);
        const uint32_t a = fresh, b = fresh + 16;
        while (ok)
            ok = entry(&w, a, prio_word(5), EV_MUTEX_GET, mutex, WAIT_FOREVER, lo, 0) &&
                 entry(&w, a, prio_word(5), EV_SUSPEND, a, 13, 0, b) &&
                 entry(&w, b, prio_word(5), EV_MUTEX_GET, mutex2, WAIT_FOREVER, lo2, 0) &&
                 entry(&w, b, prio_word(5), EV_SUSPEND, b, 13, 0, lo) &&
                 entry(&w, lo, prio_word(20), 200, 0, 0, 0, 0) &&  /* b's window unbounded */
                 entry(&w, lo2, prio_word(22), 200, 0, 0, 0, 0) && /* a's */
                 entry(&w, a, prio_word(5), 200, 0, 0, 0, 0) &&    /* both end */
                 entry(&w, b, prio_word(5), 200, 0, 0, 0, 0) &&
                 entry(&w, lo, prio_word(20), EV_MUTEX_PUT, mutex, lo, 1, 0) &&
                 entry(&w, lo2, prio_word(22), EV_MUTEX_PUT, mutex2, lo2, 1, 0) &&
                 entry(&w, lo, prio_word(20), EV_MUTEX_GET, mutex, 0, 0, 0) &&
                 entry(&w, lo2, prio_word(22), EV_MUTEX_GET, mutex2, 0, 0, 0);
    } else if (mixed) {
        /* low holds mutex, low 2 mutex 2; each round a waiter of priority
         * 5-7 blocks on mutex (its GET, then its SUSPEND) and one of 9-10 on
         * mutex 2 (eight waiters in
         * turn: a waiter's next event ends its window), middle (7) runs,
         * then low, and every third round low 2; every fourth the owners put
         * and take their mutexes again */
        bool ok = entry(&w, lo, prio_word(20), EV_MUTEX_GET, mutex, 0, 0, 0) &&
                  entry(&w, lo2, prio_word(22), EV_MUTEX_GET, mutex2, 0, 0, 0);
        for (uint32_t r = 0; ok; r++) {
            uint32_t a = fresh + 16 * (2 * r % 8), b = fresh + 16 * ((2 * r + 1) % 8);
            ok = entry(&w, a, prio_word(5 + r % 3), EV_MUTEX_GET, mutex, WAIT_FOREVER, lo, 0) &&
                 entry(&w, a, prio_word(5 + r % 3), EV_SUSPEND, a, 13, 0, b) &&
                 entry(&w, b, prio_word(9 + r % 2), EV_MUTEX_GET, mutex2, WAIT_FOREVER, lo2, 0) &&
                 entry(&w, b, prio_word(9 + r % 2), EV_SUSPEND, b, 13, 0, mid) &&
                 entry(&w, mid, prio_word(7), 200, 0, 0, 0, 0) &&
                 entry(&w, lo, prio_word(20), 200, 0, 0, 0, 0) &&
                 (r % 3 != 2 || entry(&w, lo2, prio_word(22), 200, 0, 0, 0, 0)) &&
                 (r % 4 != 3 || (entry(&w, lo, prio_word(20), EV_MUTEX_PUT, mutex, lo, 1, 0) &&
                                 entry(&w, lo2, prio_word(22), EV_MUTEX_PUT, mutex2, lo2, 1, 0) &&
                                 entry(&w, lo, prio_word(20), EV_MUTEX_GET, mutex, 0, 0, 0) &&
                                 entry(&w, lo2, prio_word(22), EV_MUTEX_GET, mutex2, 0, 0, 0)));
        }
    } else if (strcmp(shape, "objects-window") == 0) {
        entry(&w, lo, prio_word(20), EV_MUTEX_GET, mutex, 0, 0, 0);
        entry(&w, hi, prio_word(5), EV_MUTEX_GET, mutex, 0, lo, 0);
        while (entry(&w, lo, prio_word(20), 200, 0, 0, 0, 0))
            ;
    } else if (same) {
        /* low resumes high (no switch: high is lower) with a stack pointer
         * wandering over every thread's stack at low's address */
        uint32_t span = 0x1000u * nobj;
        for (uint32_t n = 0;; n++)
            if (!entry(&w, lo, prio_word(20), EV_RESUME, hi, 3,
                       0x32000000u + (uint32_t)((n * 0x13579ull) % span), lo))
                break;
    } else if (strcmp(shape, "isr-keys") == 0) {
        bool ok = entry(&w, lo, prio_word(20), 200, 0, 0, 0, 0) &&
                  entry(&w, CTX_ISR, lo, EV_ISR_ENTER, 0, 32767, 0, 0) &&
                  entry(&w, CTX_ISR, lo, EV_ISR_EXIT, 0, 32767, 0, 0);
        while (ok && w.written < entries / 2)
            ok = entry(&w, lo, prio_word(20), 200, 0, 0, 0, 0);
        for (uint32_t n = 1; ok && n <= 4096 + 100; n++)
            ok = entry(&w, CTX_ISR, lo, EV_ISR_ENTER, 0, n, 0, 0) &&
                 entry(&w, CTX_ISR, lo, EV_ISR_EXIT, 0, n, 0, 0) &&
                 entry(&w, lo, prio_word(20), 200, 0, 0, 0, 0);
        for (uint32_t k = 0; ok && k < 3; k++)
            ok = entry(&w, CTX_ISR, lo, EV_ISR_ENTER, 0, 32767, 0, 0) &&
                 entry(&w, CTX_ISR, lo, EV_ISR_EXIT, 0, 32767, 0, 0) &&
                 entry(&w, lo, prio_word(20), 200, 0, 0, 0, 0);
        while (ok && entry(&w, lo, prio_word(20), 200, 0, 0, 0, 0))
            ;
    } else if (strcmp(shape, "distinct-ids") == 0) {
        for (uint32_t id = 0;; id = (id + 1) & 0xFFFFu)
            if (!entry(&w, lo, prio_word(20), id < 7 ? id + 200 : id, 0, 0, 0, 0))
                break;
    } else {
        fprintf(stderr, "gen_hostile: unknown shape '%s'\n", shape);
        fclose(f);
        free(objs);
        return 1;
    }
    free(objs);
    if (w.io_error || fclose(f) != 0) {
        fprintf(stderr, "gen_hostile: %s: write error\n", out);
        return 1;
    }
    return 0;
}
