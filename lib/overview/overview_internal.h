/* overview_internal.h - what trace_overview.c (the queries and summaries)
 * and overview_build.c (the pass that fills it) share: the overview's
 * chunks, lane notes and checkpoints. */
#ifndef TRX_OVERVIEW_INTERNAL_H
#define TRX_OVERVIEW_INTERNAL_H

#include "output/report_irqs.h"
#include "overview/trace_overview.h"

typedef struct lane_note {
    uint32_t lane;
    uint32_t events;
    uint64_t busy;  /* ticks the lane ran, ending in this chunk */
    uint64_t worst; /* the longest response time (RESUME -> CPU) that ended in it */
} lane_note;

typedef struct chunk {
    uint64_t first;     /* index of its first event */
    uint64_t end_ticks; /* ticks of its last event (never less than the previous chunk's) */
    uint64_t lost;      /* events lost right before its events */
    uint64_t notes_at;  /* its first note */
    uint32_t note_count;
} chunk;

#define NOTE_BLOCK_SHIFT 16u
#define NOTE_BLOCK ((uint64_t)1 << NOTE_BLOCK_SHIFT)
/* Traces of at least this many entries are summarised by two threads, each
 * walking one half (TXTB, one core; trx_overview_set_parallel_min). */
#define PARALLEL_MIN_ENTRIES ((uint64_t)1 << 20)

struct trx_overview {
    trx_trace *t;
    uint64_t total, chunk_cap;
    chunk *chunks;
    lane_note **blocks; /* notes in fixed blocks: published notes never move */
    uint64_t block_cap, notes_used;
    uint64_t interval; /* events per checkpoint (from the start of each half) */
    trx_cursor *checkpoints;
    uint64_t *checkpoint_at; /* the index of each checkpoint's next event */
    uint64_t checkpoint_cap;
    const trx_report_irqs *irqs;         /* the Hwi / Swi lanes (NULL: none) */
    trx_report_irq_walk *checkpoint_irq; /* per checkpoint: the interrupts running (with irqs) */
    uint32_t lanes;
    uint64_t parallel_min;
    uint32_t split_from;            /* raw entry from which to look for the split (0: the middle) */
    _Atomic uint64_t ready;         /* events whose chunks are published */
    _Atomic uint64_t second_walked; /* events the second half has walked (not yet published) */
    _Atomic uint64_t chunks_ready;
    _Atomic uint64_t checkpoints_ready;
    _Atomic uint64_t ready_ticks;
    atomic_bool done;
};

static inline const lane_note *note_at(const trx_overview *o, uint64_t i)
{
    return &o->blocks[i >> NOTE_BLOCK_SHIFT][i & (NOTE_BLOCK - 1)];
}

#endif
