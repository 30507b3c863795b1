/* describe.h - what `trx describe` writes from one event description (or a
 * .trxc): a C header with a typed inline function per user event for the
 * recorder, a TraceX .trxc, a SEGGER SystemView description, or the
 * description itself (docs/event-descriptions.md). */
#ifndef TRX_DESCRIBE_H
#define TRX_DESCRIBE_H

#include "output/out_buffer.h"
#include "trx/catalog.h"

typedef enum trx_describe_format {
    TRX_DESCRIBE_HEADER,
    TRX_DESCRIBE_TRXC,
    TRX_DESCRIBE_SYSTEMVIEW,
    TRX_DESCRIBE_CSV
} trx_describe_format;

typedef struct trx_describe_options {
    trx_describe_format format;
    const char *source;  /* the description's file name, for the generated comment */
    const char *prefix;  /* header: function prefix (default "trx_event_") */
    const char *include; /* header: the recorder API's header (default "trx/tx_trace.h") */
    const char *guard;   /* header: include guard (default from the source name) */
} trx_describe_options;

/* Writes the definitions `ce` as `o->format` says. The header, .trxc and
 * SystemView file hold the user events (ids 4096-65535) only. */
void trx_describe_write(const trx_custom_events *ce, const trx_describe_options *opt, trx_out *w);

#endif
