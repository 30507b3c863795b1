/*
 * gdb_host_target.c - a host program the GDB command test (gdb_dump.sh)
 * debugs like firmware: it records user events until the buffer has wrapped,
 * saves its own copy of the buffer to argv[1], and stops in
 * trx_test_stop(), where GDB dumps the buffer through `trx dump` and reads
 * events_recorded.
 */
#include <stdio.h>

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
    if (argc != 2 || tx_trace_enable(trace_buffer, TRACE_BYTES, 4) != TX_SUCCESS)
        return 2;
    trx_trace_thread_register(task, "main loop", task, sizeof task, 3);
    trx_recorder_thread_set(task, 3, 3);
    for (unsigned long i = 0; i < 700; i++) { /* capacity: 249 entries */
        tx_trace_user_event_insert(4096 + (i % 7), i, i * 3, 0, 0);
        events_recorded++;
    }
    tx_trace_disable();
    FILE *f = fopen(argv[1], "wb");
    if (!f || fwrite(trace_buffer, 1, TRACE_BYTES, f) != TRACE_BYTES || fclose(f) != 0)
        return 2;
    trx_test_stop();
    return 0;
}
