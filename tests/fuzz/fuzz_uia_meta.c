/* fuzz_uia_meta.c - libFuzzer target: TI's .uia.xml metadata and trx's UIA
 * names files (trx_uia_names_parse) on arbitrary text: a failure leaves a
 * one-line error whose offset lies inside the input; what is read is
 * consistent: every event found by its (module, event) and by its id alone
 * unless another module shares the id, every module by its id, the clock
 * frequencies finite and not negative. */
#include <math.h>
#include <string.h>

#include "trx/uia_names.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    trx_uia_names n;
    trx_error err;
    memset(&n, 0, sizeof n);
    memset(&err, 0, sizeof err);
    if (trx_uia_names_parse(&n, (const char *)data, size, &err) != 0) {
        if (err.offset > size || err.message[0] == '\0' || strchr(err.message, '\n'))
            __builtin_trap();
        trx_uia_names_free(&n);
        return 0;
    }
    for (uint32_t i = 0; i < n.event_count; i++) {
        const trx_uia_name *e = &n.events[i];
        const trx_uia_name *f = trx_uia_names_find(&n, e->module, e->event);
        if (!f || f->module != e->module || f->event != e->event)
            __builtin_trap();
    }
    for (uint32_t i = 0; i < n.module_count; i++)
        if (!trx_uia_module_name(&n, n.modules[i].id))
            __builtin_trap();
    const double hz[3] = {n.cpu_timestamp_hz, n.global_timestamp_hz, n.cpu_clock_hz};
    for (int k = 0; k < 3; k++)
        if (!isfinite(hz[k]) || hz[k] < 0)
            __builtin_trap();
    trx_uia_names_free(&n);
    return 0;
}
