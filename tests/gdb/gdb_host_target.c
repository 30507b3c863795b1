/*
 * gdb_host_target.c - a host program the GDB command test (gdb_dump.sh)
 * debugs like firmware: it records user events until the buffer has wrapped,
 * saves its own copy of the buffer to argv[1], and stops in
 * trx_test_stop(), where GDB dumps the buffer through `trx dump` and reads
 * events_recorded. argv[2]: "wrapped" (the default), "unwrapped" (a few
 * events) or "stopped" (wrapped, then every time stamp set to one value: a
 * clock that does not run), for `trx info` in GDB against the host's.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "trx/recorder.h"

#define TRACE_BYTES 8192u

static TRX_TRACE_BUFFER(trace_buffer, TRACE_BYTES);
volatile unsigned long events_recorded; /* read by the test through GDB */

/* The known function the debugger stops in. */
void trx_test_stop(void);
__attribute__((noinline)) void trx_test_stop(void)
{
    __asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
    static char task[] = "main loop";
    const char *mode = argc == 3 ? argv[2] : "wrapped";
    if (argc < 2 || argc > 3 || tx_trace_enable(trace_buffer, TRACE_BYTES, 4) != TX_SUCCESS)
        return 2;
    unsigned long events = strcmp(mode, "unwrapped") == 0 ? 40 : 700;
    trx_trace_thread_register(task, "main loop", task, sizeof task, 3);
    trx_recorder_thread_set(task, 3, 3);
    for (unsigned long i = 0; i < events; i++) { /* capacity: 249 entries */
        tx_trace_user_event_insert(4096 + (i % 7), i, i * 3, 0, 0);
        events_recorded++;
    }
    tx_trace_disable();
    if (strcmp(mode, "stopped") == 0) { /* every entry's time stamp word (offset 12) */
        const uint8_t *h = (const uint8_t *)trace_buffer;
        uint32_t base, start, end;
        memcpy(&base, h + 8, 4);
        memcpy(&start, h + 24, 4);
        memcpy(&end, h + 28, 4);
        for (uint32_t off = start - base; off + 32 <= end - base; off += 32)
            memcpy((uint8_t *)trace_buffer + off + 12, &(uint32_t){0x1234u}, 4);
    }
    FILE *f = fopen(argv[1], "wb");
    if (!f || fwrite(trace_buffer, 1, TRACE_BYTES, f) != TRACE_BYTES || fclose(f) != 0)
        return 2;
    trx_test_stop();
    return 0;
}
