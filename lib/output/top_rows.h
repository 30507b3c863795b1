/* top_rows.h - which rows a long table of the text report keeps: the
 * `limit` rows with the largest key, in their table order, chosen in
 * O(n log limit) (a million-thread table prints `limit` rows and a count). */
#ifndef TRX_TOP_ROWS_H
#define TRX_TOP_ROWS_H

#include <stdbool.h>
#include <stdint.h>

#include "output/out_buffer.h"

/* The key of row i of a table (larger: kept first). */
typedef uint64_t (*trx_row_key_fn)(const void *ctx, uint32_t i);

/* The rows of a table of n rows to print, ascending. All when limit is 0 or
 * at least n (*rows NULL then: print every row); else the `limit` largest
 * keys (ties: the earlier row), *rows an array of *count indices the caller
 * frees. -1 when out of memory. */
int trx_top_rows(uint32_t n, uint32_t limit, trx_row_key_fn key, const void *ctx, uint32_t **rows,
                 uint32_t *count);

/* Writes row i of a table. */
typedef void (*trx_row_write_fn)(trx_out *o, const void *ctx, uint32_t i);

/* Writes the rows trx_top_rows keeps of a table of n rows (every row when
 * out of memory), then "  ... and K more THING (--all lists every one)"
 * when it left K out. */
void trx_write_top_rows(trx_out *o, uint32_t n, uint32_t limit, trx_row_key_fn key,
                        trx_row_write_fn row, const void *ctx, const char *thing);

#endif
