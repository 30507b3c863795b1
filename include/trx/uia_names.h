/*
 * uia_names.h - names and message formats of UIA events: a record's event
 * word is (event id << 16) | the id of the module that LOGGED it (LogSync
 * logging UIASync's syncPoint), and TI makes event ids unique within an
 * application, so a record is named by its exact (module, event) entry, else
 * by the one entry with its event id. The default module's events are named
 * by the TXTB catalogue (and --custom), others come from a names file
 * (docs/uia-decoding.md, "Names file") or TI's <app>.uia.xml metadata
 * (evtMap / modIdMap elements, and the timestamp frequencies it gives).
 */
#ifndef TRX_UIA_NAMES_H
#define TRX_UIA_NAMES_H

#include <stdint.h>

#include "trx/trx.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One named event. */
typedef struct trx_uia_name {
    uint32_t module, event;
    char *name;
    char *format;    /* message format string, or NULL */
    char *long_name; /* TI metadata's longName (ti.sysbios.knl.Task.LM_switch), or NULL */
} trx_uia_name;

/* One named module. */
typedef struct trx_uia_module {
    uint32_t id;
    char *name;
} trx_uia_module;

typedef struct trx_uia_names {
    uint32_t default_module; /* events of this module use the TXTB catalogue (0 unless set) */
    trx_uia_name *events;    /* sorted by (module, event) */
    uint32_t event_count, event_cap;
    trx_uia_module *modules; /* sorted by id */
    uint32_t module_count, module_cap;
    uint32_t *by_event; /* indexes of `events` sorted by (event, module) */
    /* timestamp frequencies TI's metadata gives (Hz; 0: not given):
     * cpuTimestamp (maxTimerFreq / cyclesPerTick: the ticks of each core's
     * records), globalTimestamp (maxTimerFreq: the global timer the sync
     * points read), cpuClock (maxClockFreq: the CPU clock) */
    double cpu_timestamp_hz, global_timestamp_hz, cpu_clock_hz;
} trx_uia_names;

/* Loads a names file or (content starting with '<') a .uia.xml file into
 * `n` (zeroed first). 0, or -1 with `err` (offset in the file). A trace uses
 * the names its `uia_names` member points at (trx.h): each trace its own. */
int trx_uia_names_load(trx_uia_names *n, const char *path, trx_error *err);

/* Same from text in memory; `name` is for messages. */
int trx_uia_names_parse(trx_uia_names *n, const char *text, size_t size, trx_error *err);

/* The entry naming a record of `module` (the logging module) and `event`:
 * the exact (module, event) entry, else the only entry with that event id
 * (TI's ids are unique within an application); NULL when none, or when
 * several entries share the id and none is the exact one. */
const trx_uia_name *trx_uia_names_find(const trx_uia_names *n, uint32_t module, uint32_t event);

/* The exact (module, event) entry only, or NULL. */
const trx_uia_name *trx_uia_names_find_exact(const trx_uia_names *n, uint32_t module,
                                             uint32_t event);

/* A module's name, or NULL. */
const char *trx_uia_module_name(const trx_uia_names *n, uint32_t module);

void trx_uia_names_free(trx_uia_names *n);

/* True when `e` is the event `tail` ("UIASync.syncPoint", "Task.LM_switch":
 * the module's last component and the event): its longName ends with
 * "." + tail, or its name is tail or tail with '_' for '.' (a shortName).
 * Matching the tail, every CPU family's module (ti.sysbios.family.*.Hwi)
 * is one. */
bool trx_uia_name_is(const trx_uia_name *e, const char *tail);

#ifdef __cplusplus
}
#endif
#endif
