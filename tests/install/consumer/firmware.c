/* firmware.c - a tiny firmware built against an installed trx only: records
 * user events into a buffer declared with TRX_TRACE_BUFFER. */
#include "trx/recorder.h"

static TRX_TRACE_BUFFER(trace_buffer, 4096);

void firmware_trace_demo(void);
void firmware_trace_demo(void)
{
    tx_trace_enable(trace_buffer, sizeof trace_buffer, 2);
    for (ULONG i = 0; i < 10; i++)
        tx_trace_user_event_insert(4096, i, 0, 0, 0);
    tx_trace_disable();
}
