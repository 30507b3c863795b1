/* uia_names_internal.h - what the names-file and .uia.xml readers share. */
#ifndef TRX_UIA_NAMES_INTERNAL_H
#define TRX_UIA_NAMES_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "trx/uia_names.h"

/* Adds entries (strings copied); 0, or -1 when out of memory. */
int trx_uia_names_add_event(trx_uia_names *n, uint32_t module, uint32_t event, const char *name,
                            size_t name_len, const char *format, size_t format_len);
int trx_uia_names_add_module(trx_uia_names *n, uint32_t id, const char *name, size_t len);

/* Sorts the tables for the lookups and builds the by-event-id index.
 * 0, or -1 when out of memory. */
int trx_uia_names_sort(trx_uia_names *n);

/* Reads TI's <app>.uia.xml (uia_meta_xml.c). 0, or -1 with `err`. */
int trx_uia_meta_xml_parse(trx_uia_names *n, const char *text, size_t size, trx_error *err);

#endif
