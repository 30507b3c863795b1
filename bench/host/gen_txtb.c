/*
 * gen_txtb.c - writes large, valid synthetic TXTB trace buffers for the
 * benchmarks and smoke tests: either byte order, any entry count, optional
 * wrap, a small object registry and a varied, coherent ThreadX-like event mix
 * (context switches, queues, mutex, semaphore, nested ISRs, time slices,
 * user events) stamped by an up- or down-counting 16- or 32-bit timer.
 * Output is deterministic for a given seed.
 *
 *   gen_txtb --out FILE [--entries N] [--big-endian] [--wrap] [--seed S]
 *            [--timer up32|down32|up16|down16] [--spare K] [--base ADDR] [--cores N]
 *
 * --cores N (2..256) writes a core number in bits 24-31 of every event id, as
 * ThreadX SMP does: each thread runs on a core it is given whenever it is
 * resumed (so threads migrate), interrupts and initialization on the running
 * thread's core. Only those bits change: the same seed gives the same events
 * with or without --cores (for the SMP benchmark).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEADER_SIZE 48u
#define ENTRY_SIZE 32u
#define NAME_SIZE 32u
#define REG_ENTRY_SIZE (16u + NAME_SIZE)
#define REG_CAPACITY 16u
#define CHUNK_ENTRIES 32768u

#define CTX_ISR 0xFFFFFFFFu
#define CTX_INIT 0xF0F0F0F0u

/* ThreadX event ids used by the mix. */
enum {
    EV_RESUME = 1,
    EV_SUSPEND = 2,
    EV_ISR_ENTER = 3,
    EV_ISR_EXIT = 4,
    EV_TIME_SLICE = 5,
    EV_RUNNING = 6,
    EV_MUTEX_GET = 52,
    EV_MUTEX_PUT = 57,
    EV_QUEUE_RECEIVE = 68,
    EV_QUEUE_SEND = 69,
    EV_SEMAPHORE_GET = 83,
    EV_SEMAPHORE_PUT = 88,
    EV_RELINQUISH = 109,
    EV_SLEEP = 112,
    EV_USER_FIRST = 4096
};

/* Thread states (tx_thread_state) written in suspend/resume events. */
enum { ST_READY = 0, ST_SLEEP = 4, ST_QUEUE = 5, ST_SEMAPHORE = 6, ST_MUTEX = 13 };

/* One simulated thread. */
typedef struct sim_thread {
    const char *name;
    uint32_t address, stack_start, stack_size, priority;
    bool ready;
    uint32_t core; /* --cores: the core it runs on */
} sim_thread;

/* Command-line options. */
typedef struct options {
    const char *out;
    uint64_t entries, spare, seed;
    uint32_t base;
    bool big_endian, wrap, count_down;
    uint32_t timer_mask;
    uint32_t cores; /* 0: no core bits */
} options;

/* Generator state: PRNG, timer, scheduler model and the output chunk. */
typedef struct generator {
    uint64_t rng;
    uint32_t mask, now;
    bool count_down, big_endian;
    uint32_t cores;
    sim_thread threads[6];
    unsigned thread_count;
    unsigned current; /* index into threads, or thread_count = idle */
    uint32_t queue, mutex, semaphore, mutex_owner_plus1, enqueued, sem_count;
    uint64_t emitted, limit;
    uint8_t *chunk;
    size_t chunk_used;
    FILE *file;
    bool io_error;
} generator;

/* xorshift64* PRNG: deterministic, fast. */
static uint32_t rnd(generator *g)
{
    g->rng ^= g->rng >> 12;
    g->rng ^= g->rng << 25;
    g->rng ^= g->rng >> 27;
    return (uint32_t)((g->rng * 0x2545F4914F6CDD1DULL) >> 32);
}

/* Uniform value in [0, n). */
static uint32_t rnd_below(generator *g, uint32_t n)
{
    return (uint32_t)(((uint64_t)rnd(g) * n) >> 32);
}

/* Stores a 32-bit value in the chosen byte order. */
static void put32(uint8_t *p, uint32_t v, bool big)
{
    if (big) {
        p[0] = (uint8_t)(v >> 24);
        p[1] = (uint8_t)(v >> 16);
        p[2] = (uint8_t)(v >> 8);
        p[3] = (uint8_t)v;
    } else {
        p[0] = (uint8_t)v;
        p[1] = (uint8_t)(v >> 8);
        p[2] = (uint8_t)(v >> 16);
        p[3] = (uint8_t)(v >> 24);
    }
}

/* Stores a 16-bit value in the chosen byte order. */
static void put16(uint8_t *p, uint16_t v, bool big)
{
    p[big ? 0 : 1] = (uint8_t)(v >> 8);
    p[big ? 1 : 0] = (uint8_t)v;
}

/* Writes the pending chunk to the file. */
static void flush_chunk(generator *g)
{
    if (g->chunk_used > 0 && fwrite(g->chunk, 1, g->chunk_used, g->file) != g->chunk_used)
        g->io_error = true;
    g->chunk_used = 0;
}

/* --cores: the core an event of `context` is logged on (no PRNG use, so the
 * event stream stays the same). */
static uint32_t core_of(const generator *g, uint32_t context)
{
    uint32_t k = (context - g->threads[0].address) / 0xB0u;
    if (context >= g->threads[0].address && k < g->thread_count && g->threads[k].address == context)
        return g->threads[k].core;
    return g->current < g->thread_count ? g->threads[g->current].core : 0;
}

/* Appends one trace entry (if the requested count is not reached yet). */
static void emit(generator *g, uint32_t context, uint32_t priority, uint32_t id, uint32_t i1,
                 uint32_t i2, uint32_t i3, uint32_t i4)
{
    if (g->emitted >= g->limit)
        return;
    uint32_t step = 1 + rnd_below(g, (id == EV_ISR_ENTER || id == EV_ISR_EXIT) ? 40 : 400);
    g->now = (g->count_down ? g->now - step : g->now + step) & g->mask;
    uint8_t *p = g->chunk + g->chunk_used;
    if (g->cores > 1)
        id |= core_of(g, context) << 24;
    const uint32_t words[8] = {context, priority, id, g->now, i1, i2, i3, i4};
    for (unsigned k = 0; k < 8; k++)
        put32(p + 4 * k, words[k], g->big_endian);
    g->chunk_used += ENTRY_SIZE;
    g->emitted++;
    if (g->chunk_used == (size_t)CHUNK_ENTRIES * ENTRY_SIZE)
        flush_chunk(g);
}

/* True while the idle "thread" runs (no thread is current). */
static bool idle(const generator *g)
{
    return g->current >= g->thread_count;
}

/* Address of the running thread (0 when idle). */
static uint32_t current_address(const generator *g)
{
    return idle(g) ? 0 : g->threads[g->current].address;
}

/* ThreadX's priority word for a thread: prio | 0x80000000 | threshold << 16. */
static uint32_t priority_word(const sim_thread *t)
{
    return t->priority | 0x80000000u | (t->priority << 16);
}

/* A plausible stack pointer inside thread t's stack. */
static uint32_t stack_pointer(generator *g, const sim_thread *t)
{
    return t->stack_start + t->stack_size - 64 - 4 * rnd_below(g, t->stack_size / 8);
}

/* Highest-priority ready thread other than `except` (thread_count = idle). */
static unsigned pick_ready(const generator *g, unsigned except)
{
    unsigned best = g->thread_count;
    for (unsigned k = 0; k < g->thread_count; k++) {
        if (k == except || !g->threads[k].ready)
            continue;
        if (best == g->thread_count || g->threads[k].priority < g->threads[best].priority)
            best = k;
    }
    return best;
}

/* Index of a random suspended thread, or thread_count when all are ready. */
static unsigned pick_suspended(generator *g)
{
    unsigned start = rnd_below(g, g->thread_count);
    for (unsigned n = 0; n < g->thread_count; n++) {
        unsigned k = (start + n) % g->thread_count;
        if (!g->threads[k].ready)
            return k;
    }
    return g->thread_count;
}

/* The running thread blocks (state `state`); the scheduler picks the next. */
static void suspend_current(generator *g, uint32_t state)
{
    sim_thread *t = &g->threads[g->current];
    t->ready = false;
    unsigned next = pick_ready(g, g->current);
    uint32_t next_addr = next < g->thread_count ? g->threads[next].address : 0;
    emit(g, t->address, priority_word(t), EV_SUSPEND, t->address, state, stack_pointer(g, t),
         next_addr);
    g->current = next;
}

/* Thread or ISR code makes thread `k` ready; preempts when it is more urgent. */
static void resume_thread(generator *g, unsigned k, bool from_isr, uint32_t interrupted)
{
    sim_thread *r = &g->threads[k];
    r->ready = true;
    if (g->cores > 1)
        r->core = (uint32_t)((g->emitted / 3 + k) % g->cores); /* may move */
    bool preempt = idle(g) || r->priority < g->threads[g->current].priority;
    unsigned next = preempt ? k : g->current;
    uint32_t next_addr = g->threads[next].address;
    if (from_isr) {
        emit(g, CTX_ISR, interrupted, EV_RESUME, r->address, ST_SEMAPHORE,
             0x20040000u - 4 * rnd_below(g, 64), next_addr);
    } else {
        sim_thread *t = &g->threads[g->current];
        emit(g, t->address, priority_word(t), EV_RESUME, r->address, ST_QUEUE, stack_pointer(g, t),
             next_addr);
    }
    g->current = next;
}

/* One interrupt: enter, some work (maybe a nested ISR, a semaphore put that
 * resumes a thread, a time slice for the timer ISR), exit. */
static void interrupt(generator *g, uint32_t isr_id, uint32_t nesting)
{
    uint32_t interrupted = current_address(g);
    uint32_t sp = 0x20040000u - 0x40 * nesting - 4 * rnd_below(g, 16);
    emit(g, CTX_ISR, interrupted, EV_ISR_ENTER, sp, isr_id, nesting, 0);
    if (nesting == 1 && rnd_below(g, 8) == 0)
        interrupt(g, 7, 2);
    if (isr_id == 0 && !idle(g) && rnd_below(g, 3) == 0) {
        unsigned next = pick_ready(g, g->current);
        if (next < g->thread_count &&
            g->threads[next].priority == g->threads[g->current].priority) {
            emit(g, CTX_ISR, interrupted, EV_TIME_SLICE, g->threads[next].address, nesting, 0, sp);
            g->current = next;
        }
    } else if (isr_id != 0) {
        g->sem_count++;
        emit(g, CTX_ISR, interrupted, EV_SEMAPHORE_PUT, g->semaphore, g->sem_count, 0, sp);
        unsigned k = pick_suspended(g);
        if (k < g->thread_count)
            resume_thread(g, k, true, interrupted);
    }
    emit(g, CTX_ISR, interrupted, EV_ISR_EXIT, sp, isr_id, nesting, 0);
}

/* One service call (or context switch) made by the running thread. */
static void thread_step(generator *g)
{
    sim_thread *t = &g->threads[g->current];
    uint32_t ctx = t->address, prio = priority_word(t), sp = stack_pointer(g, t);
    uint32_t r = rnd_below(g, 100);
    if (r < 16) {
        g->enqueued++;
        emit(g, ctx, prio, EV_QUEUE_SEND, g->queue, 0x20008000u + 16 * rnd_below(g, 64),
             rnd_below(g, 2) ? 0xFFFFFFFFu : 0, g->enqueued);
    } else if (r < 32) {
        if (g->enqueued > 0)
            g->enqueued--;
        emit(g, ctx, prio, EV_QUEUE_RECEIVE, g->queue, 0x20009000u + 16 * rnd_below(g, 64),
             0xFFFFFFFFu, g->enqueued);
    } else if (r < 44) {
        if (g->mutex_owner_plus1 == g->current + 1) {
            emit(g, ctx, prio, EV_MUTEX_PUT, g->mutex, ctx, 0, sp);
            g->mutex_owner_plus1 = 0;
        } else if (g->mutex_owner_plus1 == 0) {
            emit(g, ctx, prio, EV_MUTEX_GET, g->mutex, 0xFFFFFFFFu, 0, 0);
            g->mutex_owner_plus1 = g->current + 1;
        } else {
            emit(g, ctx, prio, EV_MUTEX_GET, g->mutex, 0xFFFFFFFFu,
                 g->threads[g->mutex_owner_plus1 - 1].address, 1);
            suspend_current(g, ST_MUTEX);
        }
    } else if (r < 52) {
        emit(g, ctx, prio, EV_SEMAPHORE_GET, g->semaphore, 0xFFFFFFFFu, g->sem_count, sp);
        if (g->sem_count > 0)
            g->sem_count--;
        else
            suspend_current(g, ST_SEMAPHORE);
    } else if (r < 62) {
        uint32_t id = EV_USER_FIRST + rnd_below(g, 4) * 1000 + rnd_below(g, 3);
        emit(g, ctx, prio, id, (uint32_t)g->emitted, 0xDEADBEEFu, id, ~(uint32_t)g->emitted);
    } else if (r < 68) {
        emit(g, ctx, prio, EV_SLEEP, 1 + rnd_below(g, 10), 0, sp, 0);
        suspend_current(g, ST_SLEEP);
    } else if (r < 74) {
        unsigned next = pick_ready(g, g->current);
        bool same = next < g->thread_count && g->threads[next].priority == t->priority;
        emit(g, ctx, prio, EV_RELINQUISH, sp, same ? g->threads[next].address : 0, 0, 0);
        if (same)
            g->current = next;
    } else if (r < 86) {
        unsigned k = pick_suspended(g);
        if (k < g->thread_count)
            resume_thread(g, k, false, 0);
        else
            emit(g, ctx, prio, EV_QUEUE_RECEIVE, g->queue, 0x20009000u, 0, g->enqueued);
    } else if (r < 92) {
        suspend_current(g, ST_QUEUE);
    } else {
        interrupt(g, rnd_below(g, 2) ? 0 : 5, 1);
    }
}

/* Produces events until `limit` entries have been emitted in total. */
static void run_until(generator *g, uint64_t limit)
{
    g->limit = limit;
    while (g->emitted < g->limit) {
        if (idle(g) || rnd_below(g, 12) == 0)
            interrupt(g, idle(g) ? 5 : (rnd_below(g, 3) ? 0 : 5), 1);
        else
            thread_step(g);
    }
}

/* Registry entry `slot` for an object. */
static void put_registry(uint8_t *reg, unsigned slot, uint8_t type, uint8_t r1, uint8_t r2,
                         uint32_t address, uint32_t p1, uint32_t p2, const char *name, bool big)
{
    uint8_t *e = reg + (size_t)slot * REG_ENTRY_SIZE;
    e[0] = 0;
    e[1] = type;
    e[2] = r1;
    e[3] = r2;
    put32(e + 4, address, big);
    put32(e + 8, p1, big);
    put32(e + 12, p2, big);
    size_t n = strlen(name);
    memcpy(e + 16, name, n < NAME_SIZE ? n : NAME_SIZE - 1);
}

/* Sets up the simulated system (threads and objects). */
static void init_system(generator *g)
{
    static const char *names[6] = {
        "System Timer Thread", "producer", "consumer", "worker 1", "worker 2", "logger"};
    static const uint32_t prios[6] = {0, 10, 12, 16, 16, 20};
    g->thread_count = 6;
    for (unsigned k = 0; k < g->thread_count; k++) {
        sim_thread *t = &g->threads[k];
        t->name = names[k];
        t->priority = prios[k];
        t->address = 0x20001000u + 0xB0u * k;
        t->stack_size = 1024u + 512u * k;
        t->stack_start = 0x20010000u + 0x1000u * k;
        t->ready = k >= 3; /* the workers and the logger start ready */
        t->core = g->cores > 1 ? k % g->cores : 0;
    }
    g->queue = 0x20002000u;
    g->mutex = 0x20002100u;
    g->semaphore = 0x20002200u;
    g->current = pick_ready(g, g->thread_count);
}

/* Writes header and registry; returns false on an I/O error. */
static bool write_front(generator *g, const options *o, uint64_t capacity, uint64_t oldest)
{
    uint8_t front[HEADER_SIZE + REG_CAPACITY * REG_ENTRY_SIZE];
    memset(front, 0, sizeof front);
    bool big = o->big_endian;
    uint32_t reg_start = o->base + HEADER_SIZE;
    uint32_t reg_end = reg_start + REG_CAPACITY * REG_ENTRY_SIZE;
    uint32_t buf_end = reg_end + (uint32_t)(capacity * ENTRY_SIZE);
    put32(front + 0, 0x54585442u, big);
    put32(front + 4, o->timer_mask, big);
    put32(front + 8, o->base, big);
    put32(front + 12, reg_start, big);
    put16(front + 16, 0, big);
    put16(front + 18, NAME_SIZE, big);
    put32(front + 20, reg_end, big);
    put32(front + 24, reg_end, big);
    put32(front + 28, buf_end, big);
    put32(front + 32, reg_end + (uint32_t)(oldest * ENTRY_SIZE), big);
    put32(front + 36, 0xAAAAAAAAu, big);
    put32(front + 40, 0xBBBBBBBBu, big);
    put32(front + 44, 0xCCCCCCCCu, big);
    uint8_t *reg = front + HEADER_SIZE;
    unsigned slot = 0;
    for (unsigned k = 0; k < g->thread_count; k++) {
        const sim_thread *t = &g->threads[k];
        put_registry(reg, slot++, 1, (uint8_t)(0x80u | (t->priority >> 8)),
                     (uint8_t)(t->priority & 0xFFu), t->address, t->stack_start, t->stack_size,
                     t->name, big);
    }
    put_registry(reg, slot++, 3, 0, 0, g->queue, 64, 16, "msg_queue", big);
    put_registry(reg, slot++, 5, 0, 0, g->mutex, 1, 0, "res_mutex", big);
    put_registry(reg, slot++, 4, 0, 0, g->semaphore, 0, 0, "isr_sem", big);
    for (; slot < REG_CAPACITY; slot++)
        reg[(size_t)slot * REG_ENTRY_SIZE] = 1; /* free entry */
    return fwrite(front, 1, sizeof front, g->file) == sizeof front;
}

/* Prints usage and returns the exit status 2. */
static int usage(void)
{
    fprintf(stderr, "usage: gen_txtb --out FILE [--entries N] [--big-endian] [--wrap] [--seed S]\n"
                    "                [--timer up32|down32|up16|down16] [--spare K] [--base ADDR]\n"
                    "                [--cores N]\n");
    return 2;
}

/* Parses an unsigned number (decimal or 0x hex); false when malformed. */
static bool parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno != 0 || end == s || *end != '\0' || s[0] == '-')
        return false;
    *out = v;
    return true;
}

/* Fills `o` from argv; false on a bad argument. */
static bool parse_options(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->entries = 1000;
    o->seed = 1;
    o->base = 0x20020000u;
    o->timer_mask = 0xFFFFFFFFu;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t n;
        if (strcmp(a, "--big-endian") == 0) {
            o->big_endian = true;
        } else if (strcmp(a, "--wrap") == 0) {
            o->wrap = true;
        } else if (v == NULL) {
            return false;
        } else if (strcmp(a, "--out") == 0) {
            o->out = v;
            i++;
        } else if (strcmp(a, "--entries") == 0 && parse_u64(v, &n)) {
            o->entries = n;
            i++;
        } else if (strcmp(a, "--spare") == 0 && parse_u64(v, &n)) {
            o->spare = n;
            i++;
        } else if (strcmp(a, "--seed") == 0 && parse_u64(v, &n)) {
            o->seed = n;
            i++;
        } else if (strcmp(a, "--base") == 0 && parse_u64(v, &n) && n <= 0xFFFFFFFFu && n % 4 == 0) {
            o->base = (uint32_t)n;
            i++;
        } else if (strcmp(a, "--cores") == 0 && parse_u64(v, &n) && n >= 2 && n <= 256) {
            o->cores = (uint32_t)n;
            i++;
        } else if (strcmp(a, "--timer") == 0) {
            o->count_down = strncmp(v, "down", 4) == 0;
            const char *bits = v + (o->count_down ? 4 : 2);
            if ((!o->count_down && strncmp(v, "up", 2) != 0) ||
                (strcmp(bits, "32") != 0 && strcmp(bits, "16") != 0))
                return false;
            o->timer_mask = strcmp(bits, "16") == 0 ? 0xFFFFu : 0xFFFFFFFFu;
            i++;
        } else {
            return false;
        }
    }
    return o->out != NULL;
}

int main(int argc, char **argv)
{
    options o;
    if (!parse_options(argc, argv, &o))
        return usage();
    if (o.entries < 1 || (o.wrap && o.spare > 0)) {
        fprintf(stderr, "gen_txtb: need --entries >= 1; --spare makes no sense with --wrap\n");
        return 2;
    }
    uint64_t capacity = o.entries + o.spare;
    uint64_t total = HEADER_SIZE + (uint64_t)REG_CAPACITY * REG_ENTRY_SIZE + capacity * ENTRY_SIZE;
    if ((uint64_t)o.base + total > 0xFFFFFFFFull) {
        fprintf(stderr, "gen_txtb: buffer does not fit in a 32-bit address space\n");
        return 2;
    }
    /* Oldest entry: the middle when wrapped; otherwise the first free entry
     * (which is entry 0 again when the buffer is exactly full). */
    uint64_t oldest = o.wrap ? capacity * 3 / 8 : (o.spare > 0 ? o.entries : 0);

    generator g;
    memset(&g, 0, sizeof g);
    g.rng = o.seed * 0x9E3779B97F4A7C15ULL + 0x1234567ULL;
    g.mask = o.timer_mask;
    g.now = rnd(&g) & g.mask;
    g.count_down = o.count_down;
    g.big_endian = o.big_endian;
    g.cores = o.cores;
    g.chunk = malloc((size_t)CHUNK_ENTRIES * ENTRY_SIZE);
    g.file = fopen(o.out, "wb");
    if (g.chunk == NULL || g.file == NULL) {
        fprintf(stderr, "gen_txtb: cannot write %s: %s\n", o.out, strerror(errno));
        free(g.chunk);
        if (g.file)
            fclose(g.file);
        return 1;
    }
    init_system(&g);
    bool ok = write_front(&g, &o, capacity, oldest);
    long entries_at = (long)(HEADER_SIZE + REG_CAPACITY * REG_ENTRY_SIZE);
    if (o.wrap) {
        /* Chronological order starts at `oldest`: write the newer part
         * (physical oldest..end) first, then the part that wrapped. */
        ok = ok && fseek(g.file, entries_at + (long)(oldest * ENTRY_SIZE), SEEK_SET) == 0;
        run_until(&g, capacity - oldest);
        flush_chunk(&g);
        ok = ok && fseek(g.file, entries_at, SEEK_SET) == 0;
        run_until(&g, capacity);
        flush_chunk(&g);
    } else {
        /* A fresh buffer: tx_trace_enable's two RUNNING events come first. */
        g.limit = o.entries;
        emit(&g, CTX_INIT, 0, EV_RUNNING, 0, 0, 0, 0);
        emit(&g, CTX_INIT, 0, EV_RUNNING, 0, 0, 0, 0);
        run_until(&g, o.entries);
        flush_chunk(&g);
        /* Never-written entries are entirely zero (tx_trace_enable clears them). */
        if (o.spare > 0) {
            memset(g.chunk, 0, (size_t)CHUNK_ENTRIES * ENTRY_SIZE);
            for (uint64_t left = o.spare; left > 0 && ok;) {
                size_t n = left < CHUNK_ENTRIES ? (size_t)left : CHUNK_ENTRIES;
                ok = fwrite(g.chunk, ENTRY_SIZE, n, g.file) == n;
                left -= n;
            }
        }
    }
    ok = ok && !g.io_error;
    if (fclose(g.file) != 0)
        ok = false;
    free(g.chunk);
    if (!ok) {
        fprintf(stderr, "gen_txtb: write error on %s\n", o.out);
        return 1;
    }
    return 0;
}
