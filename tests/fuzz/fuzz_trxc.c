/* fuzz_trxc.c - libFuzzer target: the event-definition parser (TraceX .trxc
 * and trx event descriptions) on arbitrary text; a failure must leave no
 * definitions and a one-line error whose offset lies inside the input; what
 * it reads goes through every `trx describe` writer. */
#include <stdio.h>
#include <string.h>

#include "fuzz_check.h"
#include "output/describe.h"
#include "trx/catalog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    trx_custom_events ce;
    trx_error err;
    memset(&err, 0, sizeof err);
    if (trx_custom_events_parse(&ce, (const char *)data, size, &err) != 0) {
        if (ce.count != 0 || ce.items != NULL || err.offset > size || err.message[0] == '\0' ||
            strchr(err.message, '\n'))
            __builtin_trap();
        return 0;
    }
    for (uint32_t i = 0; i < ce.count; i++) {
        if (trx_custom_events_find(&ce, ce.items[i].id) == NULL)
            __builtin_trap();
    }
    static FILE *sink;
    static trx_out out;
    if (!sink && (sink = fopen("/dev/null", "w")) != NULL)
        trx_out_init(&out, sink, false);
    for (int f = 0; sink && f <= TRX_DESCRIBE_CSV; f++) {
        trx_describe_options o = {.format = (trx_describe_format)f, .source = "fuzz/in.csv"};
        trx_describe_write(&ce, &o, &out);
    }
    trx_custom_events_free(&ce);
    return 0;
}
