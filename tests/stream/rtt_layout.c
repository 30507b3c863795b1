/*
 * rtt_layout.c - the RTT control block and up-buffer descriptor laid out
 * as the probes' RTT readers expect, field by field, checked at compile
 * time: OpenOCD (src/rtt/rtt.h, src/target/rtt.c) reads the id in 16 bytes,
 * the number of up-buffers at 16 and of down-buffers at 20 (32-bit words),
 * descriptors from 24, up-buffers first; each descriptor 24 bytes on a
 * 32-bit target (name 0, buffer 4, size 8, write offset 12, read offset 16,
 * flags 20) and 32 on a 64-bit one (name 0, buffer 8, size 16, write 20,
 * read 24, flags 28). Built for the host (64-bit) by CMake and for
 * Cortex-M by the rtt_layout_cortex_m test (arm-none-eabi-gcc -c).
 */
#include <stddef.h>

#include "trx/stream_recorder.h"

#define RTT_ID_LENGTH 16
#define RTT_CHANNEL_SIZE (sizeof(void *) == 8 ? 32 : 24)

_Static_assert(sizeof(((trx_rtt_control *)0)->id) == RTT_ID_LENGTH, "id length");
_Static_assert(offsetof(trx_rtt_control, max_up_buffers) == 16, "number of up-buffers");
_Static_assert(sizeof(((trx_rtt_control *)0)->max_up_buffers) == 4, "a 32-bit word");
_Static_assert(offsetof(trx_rtt_control, max_down_buffers) == 20, "number of down-buffers");
_Static_assert(offsetof(trx_rtt_control, up) == 24, "up-buffers from 24");
_Static_assert(offsetof(trx_rtt_control, down) == 24 + TRX_RTT_UP_BUFFERS * RTT_CHANNEL_SIZE,
               "down-buffers after the up-buffers");
_Static_assert(sizeof(trx_stream_ring) == RTT_CHANNEL_SIZE, "descriptor size");
_Static_assert(offsetof(trx_stream_ring, name) == 0, "name pointer");
_Static_assert(offsetof(trx_stream_ring, buffer) == sizeof(void *), "buffer pointer");
_Static_assert(offsetof(trx_stream_ring, size) == 2 * sizeof(void *), "size");
_Static_assert(offsetof(trx_stream_ring, write_offset) == 2 * sizeof(void *) + 4, "write offset");
_Static_assert(offsetof(trx_stream_ring, read_offset) == 2 * sizeof(void *) + 8, "read offset");
_Static_assert(offsetof(trx_stream_ring, flags) == 2 * sizeof(void *) + 12, "flags");
_Static_assert(sizeof(((trx_stream_ring *)0)->size) == 4 &&
                   sizeof(((trx_stream_ring *)0)->write_offset) == 4 &&
                   sizeof(((trx_stream_ring *)0)->read_offset) == 4,
               "32-bit sizes and offsets");

int trx_rtt_layout_checked(void);
int trx_rtt_layout_checked(void)
{
    return 1;
}
