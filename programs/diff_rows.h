/*
 * diff_rows.h - the figures `trx diff` compares: every number of two
 * traces' statistics as rows (section, name, field, value in A, value in B),
 * threads and locks matched by name, ISRs by number (AMP: by core and
 * number).
 */
#ifndef TRX_DIFF_ROWS_H
#define TRX_DIFF_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trx/latency.h"
#include "trx/stats.h"
#include "trx/trx.h"

/* One figure in both traces (has_a / has_b false: absent or unknown there). */
typedef struct diff_row {
    const char *section; /* "performance", "execution_profile", ... */
    const char *name;    /* the figure, or the thread / lock it is about (the traces' own
                            strings: valid while they are open); NULL for an ISR */
    uint32_t isr;        /* the ISR number when name is NULL */
    uint32_t isr_core;   /* AMP: that ISR's core ("1/ISR 16"); else TRX_UNKNOWN */
    const char *field;   /* what of it ("ticks", "min_available"); "" for figures */
    bool has_a, has_b;
    uint64_t a, b;
} diff_row;

typedef struct diff_rows {
    diff_row *rows;
    size_t count, cap;
    bool oom;
    /* the sections that need thread / interrupt context, left out when a
     * trace lacks it: in which ("A", "B", "A and B") and why; NULL: none */
    const char *unavailable_in, *unavailable_reason;
} diff_rows;

/* The sections left out when a trace has no thread or interrupt context. */
extern const char diff_context_sections[];

/* One side: a trace and its statistics. */
typedef struct diff_side {
    const trx_trace *trace;
    const trx_stats *stats;
    const trx_latency *latency; /* instance responses (trx latency), or NULL */
} diff_side;

/* A row's name as text ("3" for interrupt number 3, "1/Hwi 3" for core 1's
 * on an AMP capture, `irq` the RTOS's word: trx_interrupt_word); `buf` holds
 * at least 24 bytes. */
const char *diff_row_name(const diff_row *r, const char *irq, char *buf, size_t size);

/* Collects every row, section by section (the rows point at the traces'
 * names: keep both open while using them). 0, or -1 when out of memory. */
int diff_rows_build(diff_rows *d, const diff_side *a, const diff_side *b);

void diff_rows_free(diff_rows *d);

/* Matches names of A with names of B: the k-th occurrence of a name in A
 * with the k-th in B. a_to_b[i] = index in B or -1; b_used[j] set for the
 * matched. O(n log n). 0, or -1 when out of memory. */
int diff_match_names(const char *const *a, size_t na, const char *const *b, size_t nb,
                     int64_t *a_to_b, bool *b_used);

#endif
