/*
 * uia_stream_packet.c - recognising a trx stream packet (a UIAPacket whose
 * first record is the recorder's stream-packet record) and checking it:
 * the check is the recorder's a/b word sum over the whole packet as the
 * target stored it, the check word counted as 0 (docs/streaming.md).
 */
#include "decode/uia_internal.h"

/* Arguments of the stream-packet record: check, number, dropped, session, flags. */
#define FRAME_ARGS 5u

int uia_stream_frame_read(const uint8_t *pkt, uint32_t len, uia_stream_frame *f)
{
    if (len < 16 + 8)
        return UIA_FRAME_NONE;
    bool be = ((trx_rd32(pkt, true) >> 27) & 1u) != 0;
    uia_head h;
    if (uia_parse_head(pkt + 16, len - 16, be, &h) != UIA_HEAD_OK || h.terminator ||
        uia_is_snapshot[h.type] || h.len != 4u * (2 + h.time_words + FRAME_ARGS))
        return UIA_FRAME_NONE;
    const uint8_t *ew = pkt + 16 + 4 * (1 + h.time_words);
    if (trx_rd32(ew, be) != (TRX_UIA_STREAM_PACKET_EVENT << 16 | TRX_UIA_RECORDER_MODULE))
        return UIA_FRAME_NONE;
    const uint8_t *args = ew + 4;
    uint32_t check_at = (uint32_t)(args - pkt), a = 0, b = 0;
    for (uint32_t i = 0; i + 4 <= len; i += 4) {
        a += i == check_at ? 0u : trx_rd32(pkt + i, be);
        b += a;
    }
    if ((len & 3u) || trx_rd32(args, be) != (a ^ (b << 16 | b >> 16)))
        return UIA_FRAME_BAD;
    f->bytes = h.len;
    f->number = trx_rd32(args + 4, be);
    f->target_dropped = trx_rd32(args + 8, be);
    f->session_id = trx_rd32(args + 12, be);
    f->flags = trx_rd32(args + 16, be);
    return UIA_FRAME_OK;
}
