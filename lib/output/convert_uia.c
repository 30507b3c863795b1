/* convert_uia.c - a TXTB trace as a UIAPacket file (rules in convert.h). */
#include <string.h>

#include "output/convert.h"

#define RECORDS_PER_PACKET 1024u
#define RECORD_BYTES 48u /* header, 64-bit timestamp, event word, 8 arguments */

static void be32(trx_out *o, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    trx_out_mem(o, b, 4);
}

/* A payload word in the trace's own byte order. */
static void w32(trx_out *o, uint32_t v, bool big)
{
    if (big)
        be32(o, v);
    else {
        uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
        trx_out_mem(o, b, 4);
    }
}

int trx_convert_to_uia(trx_trace *t, trx_out *o)
{
    if (t->format != TRX_TRACE_TXTB)
        return -1;
    const bool big = t->header.big_endian;
    uint32_t hi = 0, prev = 0;
    for (uint32_t i = 0; i < t->used; i++) {
        if (i % RECORDS_PER_PACKET == 0) {
            uint32_t n = t->used - i < RECORDS_PER_PACKET ? t->used - i : RECORDS_PER_PACKET;
            be32(o, 10u << 28 | (big ? 1u << 27 : 0u) | (16u + n * RECORD_BYTES)); /* EventPkt */
            be32(o, (i / RECORDS_PER_PACKET) << 16 | (i & 0x3FFFu) << 2);
            be32(o, 0x8000u); /* logger instance 0 */
            be32(o, 0xFFFFu << 16);
        }
        trx_entry e;
        trx_trace_entry(t, i, &e);
        if (t->counts_up && i > 0 && e.timestamp < prev)
            hi++;
        prev = e.timestamp;
        w32(o, 1u << 27 | RECORD_BYTES << 16 | (i & 0xFFFFu), big);
        w32(o, e.timestamp, big);
        w32(o, hi, big);
        w32(o, (e.id & 0xFFFFu) << 16, big); /* module 0 */
        for (int k = 0; k < 4; k++)
            w32(o, e.info[k], big);
        w32(o, e.context, big);
        w32(o, e.priority, big);
        w32(o, e.id, big);
        w32(o, TRX_TXTB_IN_UIA, big);
    }
    return t->used ? 0 : -1;
}
