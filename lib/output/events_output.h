/* events_output.h - `trx events`: one line per event as aligned text, CSV or JSON Lines. */
#ifndef TRX_EVENTS_OUTPUT_H
#define TRX_EVENTS_OUTPUT_H

#include "output/event_filter.h"
#include "output/out_buffer.h"
#include "trx/catalog.h"
#include "trx/trx.h"

typedef enum trx_events_format {
    TRX_EVENTS_TEXT,
    TRX_EVENTS_CSV,
    TRX_EVENTS_JSONL
} trx_events_format;

/* Layout of the columns every text and CSV line starts with (events_columns.c):
 * index, ticks, timestamp, id, core. A width of 0 writes just the digits needed. */
typedef struct trx_event_lead_columns {
    int index_width, ticks_width, id_width, core_width;
    const char *after[5]; /* written after the index, ticks, timestamp, id and core */
} trx_event_lead_columns;

/* Writes the index, ticks, timestamp (8 hex digits), id and core of `ev` as `c` lays them out. */
void trx_events_lead_columns(trx_out *o, const trx_event *ev, const trx_event_lead_columns *c);

/* Aligned text (events_text.c): a column-header line, then one line per event. */
void trx_events_text_header(trx_out *o);
void trx_events_text_line(trx_out *o, const trx_trace *t, const trx_event *ev,
                          const trx_custom_events *ce);

/* CSV (events_csv.c): a header row, then RFC 4180 rows. */
void trx_events_csv_header(trx_out *o);
void trx_events_csv_line(trx_out *o, const trx_trace *t, const trx_event *ev,
                         const trx_custom_events *ce);

/* JSON Lines (events_jsonl.c): one object per event, no header. */
void trx_events_jsonl_line(trx_out *o, const trx_trace *t, const trx_event *ev,
                           const trx_custom_events *ce);

/* Lists the events of `t` that pass `f` (events_list.c). 0, or -1 when out
 * of memory. Stops early after a write error (left in `o` for trx_out_flush). */
int trx_events_write(trx_trace *t, trx_out *o, trx_events_format format, const trx_event_filter *f,
                     const trx_custom_events *ce);

#endif
