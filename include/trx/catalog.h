/*
 * catalog.h - what each event id means: names, information-field labels and
 * filter group for ThreadX, FileX, NetX Duo and USBX events (generated at
 * build time from lib/catalog/events.csv), plus user-defined names from a
 * TraceX custom-event file (.trxc).
 */
#ifndef TRX_CATALOG_H
#define TRX_CATALOG_H

#include <stdint.h>

#include "trx/trx.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One catalogue row. Strings are never NULL ("" when the table is blank). */
typedef struct trx_event_type {
    uint32_t id;
    const char *component; /* "threadx", "filex", "netx", "usbx" */
    const char *symbol;    /* e.g. TML_TRACE_QUEUE_SEND */
    const char *name;      /* display name, e.g. "TX QUEUE SEND" */
    const char *label[4];  /* information-field captions ("" = unused) */
    uint32_t filter_group; /* TX_/FX_/NX_/UX_TRACE_*_EVENTS bit, 0 if unknown */
    const char *gui_name;  /* TraceX GUI name, e.g. "Queue Send" */
} trx_event_type;

/* The row for `id`, or NULL when the catalogue does not know it. */
const trx_event_type *trx_catalog_find(uint32_t id);

/* The exact, padded text TraceX's raw dump prints as the name of `id` (< 1000)
 * -- misalignments included; "INVALID  " where TraceX has no name. */
const char *trx_catalog_dump_name(uint32_t id);

/* Number of rows in the catalogue. */
uint32_t trx_catalog_size(void);

/* A user-event definition from a .trxc file. */
typedef struct trx_custom_event {
    uint32_t id;
    char name[64];
    char abbreviation[4];
    char label[4][64];
} trx_custom_event;

/* The definitions read from a .trxc file. */
typedef struct trx_custom_events {
    trx_custom_event *items;
    uint32_t count;
    /* the RTOS whose own vocabulary names events before the catalogue
     * (trx_rtos: 0 ThreadX = the catalogue alone; 1 FreeRTOS); a user event
     * defined above is named by its definition first */
    int rtos;
} trx_custom_events;

/* Reads a TraceX custom-event file. 0, or -1 with `err` (offset = byte
 * offset of the bad line). Later definitions of an id win, as in TraceX. */
int trx_custom_events_load(trx_custom_events *ce, const char *path, trx_error *err);

/* The same from text in memory (`size` bytes, no terminating NUL needed). */
int trx_custom_events_parse(trx_custom_events *ce, const char *text, size_t size, trx_error *err);

/* The definition for `id`, or NULL. */
const trx_custom_event *trx_custom_events_find(const trx_custom_events *ce, uint32_t id);

/* Releases the definitions; safe on a zeroed struct. */
void trx_custom_events_free(trx_custom_events *ce);

#ifdef __cplusplus
}
#endif
#endif /* TRX_CATALOG_H */
