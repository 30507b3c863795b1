/*
 * recorder_buffer.c - fills a real recorder trace buffer for the export test
 * (kept apart from test_export.c because trx/recorder.h and trx/trx.h both
 * define TRX_TXTB_ID).
 */
#include "recorder_buffer.h"

#include "trx/recorder.h"

/* Records a known sequence into `buffer` (tracing on, then off again). */
int recorder_buffer_fill(void *buffer, unsigned long size, unsigned long *entries)
{
    const trx_txtb_header *h = (const trx_txtb_header *)buffer;
    VOID *thread = (VOID *)(uintptr_t)0x20000100UL;
    if (tx_trace_enable(buffer, size, 4) != TX_SUCCESS)
        return -1;
    if (trx_trace_thread_register(thread, "exporter", (VOID *)(uintptr_t)0x20010000UL, 2048UL, 7) !=
        TX_SUCCESS)
        return -1;
    trx_recorder_thread_set(thread, 7, 7);
    for (ULONG i = 0; i < RECORDER_BUFFER_USER_EVENTS; i++)
        if (tx_trace_user_event_insert(4096UL + i, i, i * 2UL, i * 3UL, 0xA5A5A5A5UL) != TX_SUCCESS)
            return -1;
    trx_recorder_thread_set(NULL, 0, 0);
    if (tx_trace_disable() != TX_SUCCESS)
        return -1;
    *entries = (h->buffer_current - h->buffer_start) / 32UL;
    return 0;
}
