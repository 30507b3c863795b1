/*
 * trx_demo_uia.c - the demo workload of trx_demo recorded as TI UIA records
 * instead of TXTB: the same simulated kernel and application, built with
 * TRX_RECORDER_FORMAT_UIA=1 so that the same recorder hooks (rtos_hooks.h)
 * write UIA records (docs/uia-format.md) into one stop-when-full buffer.
 *
 *   OUT_DIR/demo.uia        the UIA buffer (raw memory image: UIAPacket header,
 *                           records, terminator, zeros)
 *   OUT_DIR/demo_uia.truth  key=value: records, bytes used, bytes per event
 *
 * usage: trx_demo_uia [OUT_DIR] [--cycles N]
 * `make run` does not use it; bench/recorder/demo_bytes.sh compares its bytes
 * per event with trx_demo's TXTB buffer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo_workload.h"
#include "sim_kernel.h"
#include "trx/rtos_hooks.h"

#define BUFFER_BYTES (256UL * 1024UL)
#define DEFAULT_CYCLES 800000UL

static ULONG buffer[BUFFER_BYTES / 4];

/* Records from the payload start up to the terminator (host byte order). */
static unsigned long count_records(const ULONG *words, unsigned long count)
{
    unsigned long records = 0, i = 4;
    while (i < count) {
        ULONG len = (words[i] >> 16) & 0x7FFUL;
        if (len == 0)
            break; /* the terminator */
        records++;
        i += len / 4;
    }
    return records;
}

int main(int argc, char **argv)
{
    const char *dir = ".";
    ULONG cycles = DEFAULT_CYCLES;
    char path[4096];
    FILE *f;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--cycles") == 0 && i + 1 < argc) {
            cycles = strtoul(argv[++i], NULL, 0);
        } else if (strcmp(argv[i], "--help") == 0 || argv[i][0] == '-') {
            fprintf(stderr, "usage: trx_demo_uia [OUT_DIR] [--cycles N]\n");
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        } else {
            dir = argv[i];
        }
    }

    UINT status =
        trx_uia_enable(TRX_UIA_HOOK_LOGGER(), buffer, BUFFER_BYTES, TRX_UIA_POLICY_STOP, 0);
    if (status != TX_SUCCESS) {
        fprintf(stderr, "trx_demo_uia: trx_uia_enable failed (0x%02X)\n", status);
        return 1;
    }
    /* the two RUNNING events tx_trace_enable records in the TXTB demo */
    TRX_TRACE_EVENT(TX_TRACE_RUNNING, 0, 0, 0, 0, TX_TRACE_INTERNAL_EVENTS);
    TRX_TRACE_EVENT(TX_TRACE_RUNNING, 0, 0, 0, 0, TX_TRACE_INTERNAL_EVENTS);
    demo_workload_create();
    sim_run(sim_now() + cycles);
    trx_uia_disable(TRX_UIA_HOOK_LOGGER());

    unsigned long records = count_records(buffer, BUFFER_BYTES / 4);
    unsigned long used = trx_uia_used_bytes(TRX_UIA_HOOK_LOGGER());
    if (trx_uia_dropped(TRX_UIA_HOOK_LOGGER()) != 0) {
        fprintf(stderr, "trx_demo_uia: the buffer filled; fewer cycles\n");
        return 1;
    }
    if (records != sim.truth.events + 2UL) {
        fprintf(stderr, "trx_demo_uia: %lu records, %lu expected\n", records,
                (unsigned long)(sim.truth.events + 2UL));
        return 1;
    }
    snprintf(path, sizeof path, "%s/demo.uia", dir);
    f = fopen(path, "wb");
    if (f == NULL || fwrite(buffer, 1, BUFFER_BYTES, f) != BUFFER_BYTES || fclose(f) != 0) {
        fprintf(stderr, "trx_demo_uia: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    snprintf(path, sizeof path, "%s/demo_uia.truth", dir);
    f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "trx_demo_uia: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    fprintf(f, "# trx_demo_uia: the demo workload as UIA records (key=value)\n");
    fprintf(f, "records=%lu\n", records);
    fprintf(f, "timestamp_bits=%d\n", TRX_UIA_TIMESTAMP_BITS);
    fprintf(f, "bytes_used=%lu\n", used);
    fprintf(f, "bytes_per_event=%.2f\n", (double)(used - 16UL - 4UL) / (double)records);
    fprintf(f, "user_events=%lu\n", (unsigned long)sim.truth.user_events);
    fprintf(f, "interrupts=%lu\n", (unsigned long)sim.truth.interrupts);
    if (fclose(f) != 0)
        return 1;
    printf("trx_demo_uia: %lu records, %lu bytes used (%.2f bytes per record, %d-bit timestamps)\n",
           records, used, (double)(used - 20UL) / (double)records, TRX_UIA_TIMESTAMP_BITS);
    printf("trx_demo_uia: wrote %s/demo.uia, %s/demo_uia.truth\n", dir, dir);
    return 0;
}
