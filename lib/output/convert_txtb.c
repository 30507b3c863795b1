/* convert_txtb.c - a UIA trace as a TXTB buffer in the records' byte order (rules in convert.h). */
#include <stdlib.h>
#include <string.h>

#include "output/convert.h"
#include "trx/uia.h"

/* `v` at `p` in the byte order of the buffer being written (`big`). */
static void word32(uint8_t *p, uint32_t v, bool big)
{
    for (int k = 0; k < 4; k++)
        p[k] = (uint8_t)(big ? v >> (24 - 8 * k) : v >> (8 * k));
}

static void entry(trx_out *o, bool big, uint32_t context, uint32_t priority, uint32_t id,
                  uint32_t ts, const uint32_t info[4])
{
    uint8_t b[32];
    word32(b, context, big);
    word32(b + 4, priority, big);
    word32(b + 8, id, big);
    word32(b + 12, ts, big);
    for (int k = 0; k < 4; k++)
        word32(b + 16 + 4 * k, info[k], big);
    trx_out_mem(o, b, sizeof b);
}

/* True when record `event` is the first of a snapshot of a TXTB buffer's
 * object registry (the stream of a TXTB drain). */
static bool is_registry_record(const trx_trace *t, uint64_t event)
{
    trx_uia_record r;
    return trx_uia_record_get(t, (uint32_t)event, &r) && r.module == TRX_UIA_RECORDER_MODULE &&
           r.event == TRX_UIA_TXTB_REGISTRY_EVENT;
}

/* The last whole registry snapshot (entries of 16 + its id bytes), or NULL;
 * *records = the records of all of them (they are no entries). */
static const trx_uia_snapshot *registry_snapshot(const trx_trace *t, const trx_uia_info *u,
                                                 uint64_t *records)
{
    const trx_uia_snapshot *last = NULL;
    *records = 0;
    for (uint32_t i = 0; i < u->snapshot_count; i++) {
        const trx_uia_snapshot *s = &u->snapshots[i];
        if (!is_registry_record(t, s->first_event))
            continue;
        *records += s->records;
        if (!s->incomplete && s->length == s->total_length && s->id >= 4 && s->id <= 0xFFFF &&
            s->id % 4 == 0 && s->length % (16 + s->id) == 0 && s->length > 0)
            last = s;
    }
    return last;
}

int trx_convert_to_txtb(trx_trace *t, trx_out *o)
{
    const trx_uia_info *u = trx_uia_info_of(t);
    if (!u)
        return -1;
    enum { NAME_SIZE = 32, REG = 48, REG_ENTRY = 16 + NAME_SIZE };
    uint64_t skipped;
    const trx_uia_snapshot *reg = registry_snapshot(t, u, &skipped);
    uint32_t reg_bytes = reg ? reg->length : REG_ENTRY;
    uint64_t entries = u->records - skipped + t->gap_count;
    uint32_t buf_start = REG + reg_bytes;
    if (entries > (UINT32_MAX - buf_start) / 32)
        return -1;
    uint32_t buf_end = buf_start + (uint32_t)entries * 32;
    uint8_t h[REG + REG_ENTRY];
    memset(h, 0, sizeof h);
    /* the byte order of the records (a TXTB trace converted to UIA comes back as it was) */
    const bool big = u->packet_file ? u->packets[0].big_endian : u->big_endian;
    word32(h, TRX_TXTB_ID, big);
    word32(h + 4, 0xFFFFFFFFu, big);
    word32(h + 8, 0, big);    /* base address */
    word32(h + 12, REG, big); /* registry start */
    h[big ? 18 : 19] = (uint8_t)((reg ? reg->id : NAME_SIZE) >> 8);
    h[big ? 19 : 18] = (uint8_t)(reg ? reg->id : NAME_SIZE);
    word32(h + 20, REG + reg_bytes, big); /* registry end: the target's, or one empty entry */
    word32(h + 24, buf_start, big);
    word32(h + 28, buf_end, big);
    word32(h + 32, buf_start, big); /* oldest entry */
    if (reg) {                      /* the registry as the target holds it (its own byte order) */
        trx_out_mem(o, h, REG);
        trx_out_mem(o, reg->data, reg->length);
    } else
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
            entry(o, big, TRX_CONTEXT_INIT, 0, TRX_LOST_EVENTS_ID | (multi ? ev.core << 24 : 0u),
                  ts, info);
        }
        trx_uia_record r;
        trx_uia_record_get(t, ev.entry, &r);
        if (r.module == TRX_UIA_RECORDER_MODULE && r.event == TRX_UIA_TXTB_REGISTRY_EVENT)
            continue; /* the registry went into its own area */
        uint32_t a[8] = {0};
        for (uint32_t k = 0; k < 8 && k < r.nargs; k++)
            a[k] = trx_uia_record_arg(&r, k);
        if (r.nargs == 8 && a[7] == TRX_TXTB_IN_UIA && r.module == 0)
            entry(o, big, a[4], a[5], a[6], (uint32_t)r.time, a);
        else
            entry(o, big, TRX_CONTEXT_INIT, 0, ev.id | (multi ? ev.core << 24 : 0u), ts, a);
        last_seq = ev.seq;
    }
    (void)last_seq;
    return 0;
}
