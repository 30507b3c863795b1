/* convert_txtb.c - a UIA trace as a TXTB buffer in the records' byte order (rules in convert.h). */
#include <stdlib.h>
#include <string.h>

#include "output/convert.h"
#include "trx/uia.h"

static bool big; /* byte order of the buffer being written */

static void le32(uint8_t *p, uint32_t v)
{
    for (int k = 0; k < 4; k++)
        p[k] = (uint8_t)(big ? v >> (24 - 8 * k) : v >> (8 * k));
}

static void put32(trx_out *o, uint32_t v)
{
    uint8_t b[4];
    le32(b, v);
    trx_out_mem(o, b, 4);
}

static void entry(trx_out *o, uint32_t context, uint32_t priority, uint32_t id, uint32_t ts,
                  const uint32_t info[4])
{
    put32(o, context);
    put32(o, priority);
    put32(o, id);
    put32(o, ts);
    for (int k = 0; k < 4; k++)
        put32(o, info[k]);
}

int trx_convert_to_txtb(trx_trace *t, trx_out *o)
{
    const trx_uia_info *u = trx_uia_info_of(t);
    if (!u)
        return -1;
    enum { NAME_SIZE = 32, REG = 48, REG_ENTRY = 16 + NAME_SIZE };
    uint64_t entries = u->records + t->gap_count;
    uint32_t buf_start = REG + REG_ENTRY;
    if (entries > (UINT32_MAX - buf_start) / 32)
        return -1;
    uint32_t buf_end = buf_start + (uint32_t)entries * 32;
    uint8_t h[REG + REG_ENTRY];
    memset(h, 0, sizeof h);
    /* the byte order of the records (a TXTB trace converted to UIA comes back as it was) */
    big = u->packet_file ? u->packets[0].big_endian : u->big_endian;
    le32(h, TRX_TXTB_ID);
    le32(h + 4, 0xFFFFFFFFu);
    le32(h + 8, 0);    /* base address */
    le32(h + 12, REG); /* registry start */
    h[big ? 19 : 18] = NAME_SIZE;
    le32(h + 20, REG + REG_ENTRY); /* registry end: one empty entry */
    le32(h + 24, buf_start);
    le32(h + 28, buf_end);
    le32(h + 32, buf_start); /* oldest entry */
    trx_out_mem(o, h, sizeof h);
    trx_cursor c;
    trx_event ev;
    if (trx_cursor_init(&c, t) < 0)
        return -1;
    bool multi = u->stream_count > 1;
    uint64_t last_seq = 0;
    while (trx_cursor_next(&c, &ev)) {
        uint32_t ts = (ev.flags & TRX_EV_TIMESTAMP) ? (uint32_t)ev.time : (uint32_t)ev.index;
        if (ev.lost_before) {
            uint32_t info[4] = {ev.lost_before, ev.core, (uint32_t)(ev.seq - ev.lost_before - 1),
                                (uint32_t)ev.seq};
            entry(o, TRX_CONTEXT_INIT, 0, TRX_LOST_EVENTS_ID | (multi ? ev.core << 24 : 0u), ts,
                  info);
        }
        trx_uia_record r;
        trx_uia_record_get(t, ev.entry, &r);
        uint32_t a[8] = {0};
        for (uint32_t k = 0; k < 8 && k < r.nargs; k++)
            a[k] = trx_uia_record_arg(&r, k);
        if (r.nargs == 8 && a[7] == TRX_TXTB_IN_UIA && r.module == 0)
            entry(o, a[4], a[5], a[6], (uint32_t)r.time, a);
        else
            entry(o, TRX_CONTEXT_INIT, 0, ev.id | (multi ? ev.core << 24 : 0u), ts, a);
        last_seq = ev.seq;
    }
    (void)last_seq;
    return 0;
}
