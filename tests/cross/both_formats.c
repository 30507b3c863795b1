/*
 * both_formats.c - a firmware file that records both formats at once: the
 * RTOS hooks and tx_trace_* write a TXTB buffer, and a UIA logger of its own
 * gets records through trx_uia_*. tests/cross/recorder_configs.sh compiles it
 * with every documented compile line of docs/recorder.md.
 */
#include "trx/recorder.h"
#include "trx/tx_trace.h"
#include "trx/uia_recorder.h"

static ULONG txtb_area[1024];
static ULONG uia_area[256];
static trx_uia_logger uia_logger;

/* Starts both buffers and records one event into each. */
UINT trx_both_formats_start(void);

UINT trx_both_formats_start(void)
{
    UINT status = tx_trace_enable(txtb_area, sizeof txtb_area, 8);
    status |= trx_uia_enable(&uia_logger, uia_area, sizeof uia_area, TRX_UIA_POLICY_WRAP, 0);
    status |= tx_trace_user_event_insert(4200, 1, 2, 3, 4);
    trx_uia_write2(&uia_logger, 0x10685458UL, 1, 2, 0xFFFFFFFFUL);
    return status;
}
