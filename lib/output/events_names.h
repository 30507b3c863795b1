/* events_names.h - what the event listings call an event, its fields and its context. */
#ifndef TRX_EVENTS_NAMES_H
#define TRX_EVENTS_NAMES_H

#include "trx/catalog.h"
#include "trx/trx.h"

/* Event name: the catalogue's display name (else its GUI name, else its
 * symbol); else the .trxc name; else "User Event" (id >= 4096) or
 * "Unknown Event". Never NULL. */
const char *trx_event_name(uint32_t id, const trx_custom_events *ce);

/* The four information-field captions ("" where the field has none). */
void trx_event_labels(uint32_t id, const trx_custom_events *ce, const char *labels[4]);

/* "thread", "isr", "init" or "idle". */
const char *trx_event_context_word(const trx_event *ev);

/* Name of the event's context: thread name, "Un-named Thread", "Interrupt",
 * "Initialization" or "Idle". Never NULL. */
const char *trx_event_thread_name(const trx_trace *t, const trx_event *ev);

#endif
