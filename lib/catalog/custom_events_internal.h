/* custom_events_internal.h - what the two readers of event definitions
 * (custom_events.c: TraceX's .trxc; event_description.c: trx's own
 * descriptions) share: appending a definition and the final sort. */
#ifndef TRX_CUSTOM_EVENTS_INTERNAL_H
#define TRX_CUSTOM_EVENTS_INTERNAL_H

#include "trx/catalog.h"

/* Appends one definition (`cap`: the array's capacity). 0, or -1 when out of memory. */
int trx_custom_events_add(trx_custom_events *ce, uint32_t *cap, const trx_custom_event *ev);

/* Sorts the definitions by id, keeping the last definition of each id. 0, or -1. */
int trx_custom_events_sort(trx_custom_events *ce);

/* Reads a description (event_description.c) into `ce`, which is empty. */
int trx_event_description_parse(trx_custom_events *ce, const char *text, size_t size,
                                trx_error *err);

/* True when the text's first line other than a comment or blank starts with
 * "id," (a description's header row). */
bool trx_is_event_description(const char *text, size_t size);

#endif
