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

/* What an event means to the analyses (an event description's `meaning`;
 * docs/event-descriptions.md). */
typedef enum trx_event_meaning {
    TRX_MEANING_NONE,
    TRX_MEANING_RESUME,  /* a thread became ready (internal resume) */
    TRX_MEANING_SUSPEND, /* a thread stopped being ready (internal suspend) */
    TRX_MEANING_ISR_ENTER,
    TRX_MEANING_ISR_EXIT,
    TRX_MEANING_TIME_SLICE, /* the kernel switched between ready threads at a tick */
    TRX_MEANING_RUNNING,    /* a thread runs from here */
    TRX_MEANING_YIELD,      /* the running thread gave way to a ready one */
    TRX_MEANING_SLEEP,
    TRX_MEANING_CREATE,
    TRX_MEANING_DELETE,
    TRX_MEANING_LOCK_GET, /* a mutex take (an inversion may start) */
    TRX_MEANING_LOCK_PUT,
    TRX_MEANING_SEND, /* a message into a queue */
    TRX_MEANING_RECEIVE,
    TRX_MEANING_SIGNAL, /* a semaphore put, event flags set */
    TRX_MEANING_WAIT,   /* a semaphore get, event flags get */
    TRX_MEANING_PRIORITY_CHANGE,
    TRX_MEANINGS /* number of meanings */
} trx_event_meaning;

/* How an information word is shown: unsigned, signed, hexadecimal. */
typedef enum trx_field_type {
    TRX_FIELD_U32,
    TRX_FIELD_I32,
    TRX_FIELD_HEX,
    TRX_FIELD_TYPES
} trx_field_type;

/* What an information word holds. */
typedef enum trx_field_role {
    TRX_ROLE_NONE,
    TRX_ROLE_THREAD, /* a thread's address (its context word) */
    TRX_ROLE_OBJECT, /* a registered object's address */
    TRX_ROLE_PRIORITY,
    TRX_ROLE_TIMEOUT, /* a wait option, in ticks */
    TRX_ROLE_COUNT,
    TRX_ROLE_SIZE,    /* bytes */
    TRX_ROLE_ADDRESS, /* any other address */
    TRX_ROLE_STACK,   /* the stack pointer (stack usage reads it) */
    TRX_ROLE_STRING,  /* the address of a string */
    TRX_ROLE_STATE,   /* a thread or object state */
    TRX_ROLES         /* number of roles */
} trx_field_role;

/* The words naming meanings, types and roles in a description ("" for
 * TRX_MEANING_NONE and TRX_ROLE_NONE); "?" out of range. */
const char *trx_event_meaning_name(uint32_t meaning);
const char *trx_field_type_name(uint32_t type);
const char *trx_field_role_name(uint32_t role);

/* One catalogue row. Strings are never NULL ("" when the table is blank). */
typedef struct trx_event_type {
    uint32_t id;
    const char *component; /* "threadx", "filex", "netx", "usbx" */
    const char *symbol;    /* e.g. TML_TRACE_QUEUE_SEND */
    const char *name;      /* display name, e.g. "TX QUEUE SEND" */
    const char *label[4];  /* information-field captions ("" = unused) */
    uint32_t filter_group; /* TX_/FX_/NX_/UX_TRACE_*_EVENTS bit, 0 if unknown */
    const char *gui_name;  /* TraceX GUI name, e.g. "Queue Send" */
    uint8_t meaning;       /* trx_event_meaning */
    uint8_t type[4];       /* trx_field_type per information word */
    uint8_t role[4];       /* trx_field_role per information word */
} trx_event_type;

/* The information word (0-3) of event `id` whose catalogue role is `role`,
 * or -1 (e.g. TRX_ROLE_STACK: where stack usage reads the stack pointer). */
int trx_catalog_field_with_role(uint32_t id, trx_field_role role);

/* The row for `id`, or NULL when the catalogue does not know it. */
const trx_event_type *trx_catalog_find(uint32_t id);

/* The exact, padded text TraceX's raw dump prints as the name of `id` (< 1000)
 * -- misalignments included; "INVALID  " where TraceX has no name. */
const char *trx_catalog_dump_name(uint32_t id);

/* Number of rows in the catalogue. */
uint32_t trx_catalog_size(void);

/* The largest id with a row: trx_catalog_find is NULL above it. */
uint32_t trx_catalog_max_id(void);

/* An event definition from a description (docs/event-descriptions.md) or
 * a TraceX .trxc file (which has no meaning, types or roles: zeros). */
typedef struct trx_custom_event {
    uint32_t id;
    char name[64];
    char abbreviation[4];
    char label[4][64];
    uint8_t meaning; /* trx_event_meaning */
    uint8_t type[4]; /* trx_field_type */
    uint8_t role[4]; /* trx_field_role */
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

/* Reads an event description (a first line other than a comment that
 * starts with "id,": docs/event-descriptions.md; any id 0-65535, its name
 * before the catalogue's) or a TraceX custom-event file (user events
 * 4096-65535). 0, or -1 with `err` (offset = byte offset of the bad line).
 * Later definitions of an id win, as in TraceX. */
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
