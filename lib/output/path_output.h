/* path_output.h - `trx why`: one instance's critical path (trx_path) as a
 * short story and its segments (text) or as JSON (schema: docs/latency.md),
 * and the names both give to what ran, the locks and their holders. */
#ifndef TRX_PATH_OUTPUT_H
#define TRX_PATH_OUTPUT_H

#include <stddef.h>

#include "output/out_buffer.h"
#include "trx/latency.h"

/* What the writers are told besides the path. */
typedef struct trx_path_view {
    uint64_t ticks_per_second; /* 0: unknown (no *_us) */
    uint64_t median_ticks;     /* the thread's median response, 0: unknown */
} trx_path_view;

/* The name of a context as a path shows it: a thread's name as trx latency
 * gives it (its --elf symbol when the registry has none; 0xADDRESS for no
 * thread of the trace), an ISR ("ISR 15", its
 * --elf handler), a Swi's name or handle, "Initialization", the idle name. */
void trx_path_context_name(const trx_trace *t, uint32_t context, uint32_t isr, bool swi, char *buf,
                           size_t size);

/* The name of an object (a lock): registry, --elf symbol, or 0xADDRESS. */
void trx_path_object_name(const trx_trace *t, uint32_t address, char *buf, size_t size);

/* The one-line story: "high_prio #3 took 145,383 ticks (3.1x its median):
 * 84 % blocked on inv_lock held by low_prio, of which 34 % low_prio was
 * preempted by medium_prio - an unbounded priority inversion". */
void trx_path_story(const trx_trace *t, const trx_path *p, const trx_path_view *v, char *buf,
                    size_t size);

void trx_path_write_text(const trx_trace *t, const trx_path *p, const trx_path_view *v, trx_out *o);
void trx_path_write_json(const trx_trace *t, const trx_path *p, const trx_path_view *v, trx_out *o);

#endif
