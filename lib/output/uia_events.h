/* uia_events.h - `trx events` lines for UIA records (text, CSV, JSON Lines),
 * lost-event gap lines, names from the UIA names table, and message
 * formatting with xdc.runtime.Text-style format strings. */
#ifndef TRX_UIA_EVENTS_H
#define TRX_UIA_EVENTS_H

#include "output/out_buffer.h"
#include "trx/catalog.h"
#include "trx/trx.h"
#include "trx/uia.h"
#include "trx/uia_names.h"

/* Name of a UIA event of trace `t`: its names table (t->uia_names), else
 * (default module) the TXTB catalogue / custom events, else
 * "Event 0xMMMM:0xEEEE" (module:event) in `buf`. */
const char *trx_uia_event_name(const trx_trace *t, const trx_event *ev, const trx_custom_events *ce,
                               char buf[32]);

/* Formats into `buf` (NUL-terminated, cut at `cap`) `fmt` with the record's argument words: %d %i
 * %u %x %X %o %c %p %s (a target address: printed as 0x...), %$S (same), %$F (file address and line
 * as "[0xFILE:LINE] "), %%; width/flag/length characters accepted. */
void trx_uia_format_message(char *buf, size_t cap, const char *fmt, const uint32_t *args,
                            uint32_t nargs);

/* The same; with an ELF, an address argument (%p, %s, %$S, or "0x%x" as
 * SYS/BIOS prints handles and functions) is followed by " <symbol>"; and
 * is_address[k] (when not NULL; nargs entries) says which arguments are
 * addresses. */
void trx_uia_format_message_elf(char *buf, size_t cap, const char *fmt, const uint32_t *args,
                                uint32_t nargs, const struct trx_elf *elf, bool *is_address);

/* The message format of UIA event `id` of `module` (its names' msg), or NULL. */
const char *trx_uia_message_format(const trx_trace *t, uint32_t id, uint16_t module);

void trx_uia_events_text_header(trx_out *o);
void trx_uia_events_csv_header(trx_out *o);
void trx_uia_events_text_line(trx_out *o, const trx_trace *t, const trx_event *ev,
                              const trx_custom_events *ce);
void trx_uia_events_csv_line(trx_out *o, const trx_trace *t, const trx_event *ev,
                             const trx_custom_events *ce);
void trx_uia_events_jsonl_line(trx_out *o, const trx_trace *t, const trx_event *ev,
                               const trx_custom_events *ce);

#endif
