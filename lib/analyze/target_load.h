/* target_load.h - the load a SYS/BIOS target measured itself (ti.sysbios.
 * utils.Load: LS_cpuLoad, LS_taskLoad, LS_hwiLoad, LS_swiLoad), kept as
 * series per core beside trx's own load. Events are matched by name
 * (--uia-meta), so every build's module and event ids work. */
#ifndef TRX_TARGET_LOAD_H
#define TRX_TARGET_LOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "trx/trx.h"

/* One report: cpu (percent), task (handle, time, total, function), hwi/swi (time, total). */
typedef struct trx_load_report {
    uint32_t core;
    uint64_t ticks;
    uint32_t a[4];
} trx_load_report;

enum { TRX_LOAD_CPU, TRX_LOAD_TASK, TRX_LOAD_HWI, TRX_LOAD_SWI, TRX_LOAD_KINDS };

typedef struct trx_target_load {
    uint32_t key[TRX_LOAD_KINDS][8]; /* event words (event << 16 | module) naming each kind */
    uint32_t keys[TRX_LOAD_KINDS];
    trx_load_report *report[TRX_LOAD_KINDS];
    uint64_t count[TRX_LOAD_KINDS], cap[TRX_LOAD_KINDS];
    bool failed; /* out of memory: the series are incomplete */
} trx_target_load;

/* Finds the Load events among t's UIA names; false when there are none. */
bool trx_target_load_init(trx_target_load *l, const trx_trace *t);

/* Keeps `ev` when it is a Load report. */
void trx_target_load_feed(trx_target_load *l, const trx_trace *t, const trx_event *ev);

void trx_target_load_free(trx_target_load *l);

#endif
