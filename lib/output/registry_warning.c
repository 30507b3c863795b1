/* registry_warning.c - the words for a full object registry (see
 * registry_warning.h): what it costs and what to change, in the API of the
 * trace's RTOS (ThreadX's tx_trace_enable, FreeRTOS's trx_freertos_enable). */
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
    bool freertos = trx_trace_vocab(t) == TRX_VOCAB_FREERTOS;
    char lost[96] = "";
    if (unregistered > 0)
        snprintf(lost, sizeof lost,
                 "; %" PRId64 " %s context%s named by no entry (Un-named Thread)", unregistered,
                 freertos ? "task" : "thread", unregistered == 1 ? " is" : "s are");
    snprintf(buf, size,
             "the object registry is full (%" PRIu32 " of %" PRIu32
             " entries in use): objects created after it filled have no name%s; give it more "
             "entries (%s's third argument, %s)",
             t->registry_entries - t->registry_free, t->registry_entries, lost,
             freertos ? "trx_freertos_enable" : "tx_trace_enable",
             freertos ? "docs/integration.md" : "docs/recorder.md");
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
