/*
 * catalog_table.h - the arrays tools/gen_catalog.c generates from
 * lib/catalog/events.csv (build/generated/catalog_table.c); only
 * lib/catalog/catalog.c reads them.
 */
#ifndef TRX_CATALOG_TABLE_H
#define TRX_CATALOG_TABLE_H

#include <stdint.h>

#include "trx/catalog.h"

#define TRX_CATALOG_DUMP_IDS 1000u

extern const uint32_t trx_catalog_row_count_;
extern const trx_event_type trx_catalog_rows_[];
/* Largest id with a row; trx_catalog_index_[id] = row index + 1, 0 = none. */
extern const uint32_t trx_catalog_max_id_;
extern const uint16_t trx_catalog_index_[];
/* What TraceX's raw dump prints for ids 0..999 (misalignment reconstructed). */
extern const char *const trx_catalog_dump_names_[TRX_CATALOG_DUMP_IDS];

#endif
