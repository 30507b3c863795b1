/* event_fanout.c - one cursor walk feeding two groups of analyses, the
 * second on a helper thread (see event_fanout.h). The cursor's events are
 * copied into a ring of batches; the helper runs its group over each batch
 * while the calling thread reads on. Memory: the ring, whatever the trace
 * length. Without POSIX threads in libc (TRX_HAVE_PTHREAD unset) both
 * groups run on the calling thread. */
#include "analyze/event_fanout.h"

#include <stdlib.h>

#ifdef TRX_HAVE_PTHREAD
#include <pthread.h>
#endif

/* The walk on one thread: both groups, event by event. */
static int walk_serial(trx_fanout_source next, void *src, trx_fanout_fn here, void *here_ctx,
                       trx_fanout_fn there, void *there_ctx)
{
    const trx_event *ev;
    while ((ev = next(src))) {
        here(here_ctx, ev);
        there(there_ctx, ev);
    }
    return 0;
}

#ifdef TRX_HAVE_PTHREAD

#define BATCH_EVENTS 2048u
#define RING_BATCHES 4u

typedef struct fanout {
    trx_event *ring; /* RING_BATCHES batches of BATCH_EVENTS events */
    uint32_t fill[RING_BATCHES];
    pthread_mutex_t lock;
    pthread_cond_t changed;
    uint64_t produced, consumed; /* batches handed over / finished by the helper */
    bool end;
    trx_fanout_fn there;
    void *there_ctx;
} fanout;

/* The helper thread: `there` over each batch as it is handed over. */
static void *helper(void *arg)
{
    fanout *f = arg;
    for (uint64_t seq = 0;; seq++) {
        pthread_mutex_lock(&f->lock);
        while (f->produced <= seq && !f->end)
            pthread_cond_wait(&f->changed, &f->lock);
        bool have = f->produced > seq;
        pthread_mutex_unlock(&f->lock);
        if (!have)
            return NULL;
        uint32_t slot = (uint32_t)(seq % RING_BATCHES);
        const trx_event *b = f->ring + (size_t)slot * BATCH_EVENTS;
        for (uint32_t i = 0; i < f->fill[slot]; i++)
            f->there(f->there_ctx, &b[i]);
        pthread_mutex_lock(&f->lock);
        f->consumed = seq + 1;
        pthread_cond_broadcast(&f->changed);
        pthread_mutex_unlock(&f->lock);
    }
}

/* Hands batch `seq` (filled with `n` events) to the helper. */
static void hand_over(fanout *f, uint64_t seq, uint32_t n)
{
    pthread_mutex_lock(&f->lock);
    f->fill[seq % RING_BATCHES] = n;
    f->produced = seq + 1;
    pthread_cond_broadcast(&f->changed);
    pthread_mutex_unlock(&f->lock);
}

/* Waits until the helper is done with the batch that batch `seq` reuses. */
static void wait_for_slot(fanout *f, uint64_t seq)
{
    if (seq < RING_BATCHES)
        return;
    pthread_mutex_lock(&f->lock);
    while (f->consumed + RING_BATCHES <= seq)
        pthread_cond_wait(&f->changed, &f->lock);
    pthread_mutex_unlock(&f->lock);
}

static int walk_parallel(trx_fanout_source next, void *src, trx_fanout_fn here, void *here_ctx,
                         trx_fanout_fn there, void *there_ctx)
{
    fanout f = {0};
    f.there = there;
    f.there_ctx = there_ctx;
    f.ring = malloc((size_t)RING_BATCHES * BATCH_EVENTS * sizeof *f.ring);
    if (!f.ring)
        return -1;
    pthread_t th;
    bool have_lock = pthread_mutex_init(&f.lock, NULL) == 0;
    bool have_cond = have_lock && pthread_cond_init(&f.changed, NULL) == 0;
    if (!have_cond || pthread_create(&th, NULL, helper, &f) != 0) {
        /* no helper thread: the same walk on this one */
        if (have_cond)
            pthread_cond_destroy(&f.changed);
        if (have_lock)
            pthread_mutex_destroy(&f.lock);
        free(f.ring);
        return walk_serial(next, src, here, here_ctx, there, there_ctx);
    }
    uint64_t seq = 0;
    uint32_t n = 0;
    trx_event *batch = f.ring;
    const trx_event *ev;
    while ((ev = next(src))) {
        if (n == 0) {
            wait_for_slot(&f, seq);
            batch = f.ring + (size_t)(seq % RING_BATCHES) * BATCH_EVENTS;
        }
        batch[n] = *ev;
        here(here_ctx, &batch[n]);
        if (++n == BATCH_EVENTS) {
            hand_over(&f, seq++, n);
            n = 0;
        }
    }
    if (n)
        hand_over(&f, seq++, n);
    pthread_mutex_lock(&f.lock);
    f.end = true;
    pthread_cond_broadcast(&f.changed);
    pthread_mutex_unlock(&f.lock);
    pthread_join(th, NULL);
    pthread_cond_destroy(&f.changed);
    pthread_mutex_destroy(&f.lock);
    free(f.ring);
    return 0;
}
#endif

int trx_fanout_walk(trx_fanout_source next, void *src, trx_fanout_fn here, void *here_ctx,
                    trx_fanout_fn there, void *there_ctx, bool parallel)
{
#ifdef TRX_HAVE_PTHREAD
    if (parallel)
        return walk_parallel(next, src, here, here_ctx, there, there_ctx);
#else
    (void)parallel;
#endif
    return walk_serial(next, src, here, here_ctx, there, there_ctx);
}
