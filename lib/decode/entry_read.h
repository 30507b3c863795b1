/* entry_read.h - reading trace entry number `chrono` (chronological) from
 * the mapped buffer, inline for the event cursor's hot path; the public
 * trx_trace_entry / trx_trace_entry_index are these same functions. */
#ifndef TRX_ENTRY_READ_H
#define TRX_ENTRY_READ_H

#include <string.h>

#include "decode/byte_order.h"
#include "trx/trx.h"

/* Physical index in the buffer of chronological entry `chrono`. */
static inline uint32_t trx_entry_phys(const trx_trace *t, uint32_t chrono)
{
    if (t->order_ && !t->view_is_tracex_)
        return t->order_[chrono];
    uint32_t first = t->used - t->oldest; /* entries from oldest to the end of the used part */
    return chrono < first ? t->oldest + chrono : chrono - first;
}

/* Decodes the entry at physical index `phys` into host order. */
static inline void trx_entry_read_phys(const trx_trace *t, uint32_t phys, trx_entry *out)
{
    const uint8_t *p = t->entries + (size_t)phys * TRX_ENTRY_SIZE;
    const bool be = t->header.big_endian;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (!be) { /* the stored words are trx_entry's fields, in order and in host order */
        _Static_assert(sizeof(trx_entry) == TRX_ENTRY_SIZE, "trx_entry is the stored entry");
        memcpy(out, p, TRX_ENTRY_SIZE);
        return;
    }
#endif
    out->context = trx_rd32(p, be);
    out->priority = trx_rd32(p + 4, be);
    out->id = trx_rd32(p + 8, be);
    out->timestamp = trx_rd32(p + 12, be);
    for (int k = 0; k < 4; k++)
        out->info[k] = trx_rd32(p + 16 + 4 * k, be);
}

#endif
