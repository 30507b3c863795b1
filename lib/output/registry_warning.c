/* registry_warning.c - the words for a full object registry (see
 * registry_warning.h): what it costs and what to change. */
#include "output/registry_warning.h"

#include <inttypes.h>
#include <stdio.h>

void trx_registry_warning_text(const trx_trace *t, int64_t unregistered, char *buf, size_t size)
{
    if (!size)
        return;
    buf[0] = '\0';
    if (!trx_registry_full(t))
        return;
    char lost[96] = "";
    if (unregistered > 0)
        snprintf(lost, sizeof lost,
                 "; %" PRId64 " thread context%s named by no entry (Un-named Thread)", unregistered,
                 unregistered == 1 ? " is" : "s are");
    snprintf(buf, size,
             "the object registry is full (%" PRIu32 " of %" PRIu32
             " entries in use): objects created after it filled have no name%s; give it more "
             "entries (tx_trace_enable's third argument, docs/recorder.md)",
             t->registry_entries - t->registry_free, t->registry_entries, lost);
}

void trx_registry_warning_write(const trx_trace *t, int64_t unregistered, const char *prefix,
                                trx_out *o)
{
    char text[400];
    trx_registry_warning_text(t, unregistered, text, sizeof text);
    if (!text[0])
        return;
    trx_out_str(o, prefix);
    trx_out_str(o, text);
    trx_out_char(o, '\n');
}
