/* events_names.h - what the event listings call an event, its fields and its context. */
#ifndef TRX_EVENTS_NAMES_H
#define TRX_EVENTS_NAMES_H

#include "trx/catalog.h"
#include "trx/trx.h"

/* Event name: the user's definition (--custom: a description or a .trxc),
 * else the RTOS vocabulary's, else the catalogue's display name (else its GUI
 * name, else its symbol); else "User Event" (id >= 4096) or "Unknown Event".
 * Never NULL. */
const char *trx_event_name(uint32_t id, const trx_custom_events *ce);

/* The four information-field captions ("" where the field has none). */
void trx_event_labels(uint32_t id, const trx_custom_events *ce, const char *labels[4]);

/* The four fields' trx_field_type, from the same definition as the labels
 * (TRX_FIELD_U32 where nothing says). */
void trx_event_field_types(uint32_t id, const trx_custom_events *ce, uint8_t types[4]);

#define TRX_SYMBOL_TEXT 160 /* room for "symbol+0x10" */

/* --elf: the four information words of `ev` as "symbol" or "symbol+0x10"
 * (symbol[k], in buf[k]) or NULL: a field whose description gives it an
 * address role (thread, object, address, stack, string) is looked up; a
 * field no definition describes only when its value is a symbol's own
 * address (a Thumb function's too); other fields never. Returns how many. */
int trx_event_info_symbols(const trx_trace *t, const trx_event *ev, const trx_custom_events *ce,
                           char buf[4][TRX_SYMBOL_TEXT], const char *symbol[4]);

/* The name of software interrupt (SYS/BIOS Swi) `handle`: a thread's or
 * object's name at that address, else with --elf the data object there;
 * NULL when none. */
const char *trx_swi_name(const trx_trace *t, uint32_t handle);

/* "thread", "isr", "init" or "idle". */
const char *trx_event_context_word(const trx_event *ev);

/* Name of the event's context: thread name, "Un-named Thread", "Interrupt",
 * "Initialization" or "Idle". Never NULL. */
const char *trx_event_thread_name(const trx_trace *t, const trx_event *ev);

#endif
