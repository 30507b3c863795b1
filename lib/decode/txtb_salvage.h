/* txtb_salvage.h - between the TXTB scan (txtb_open.c) and the salvaging
 * view (txtb_salvage.c): what the scan found, the per-entry damage test. */
#ifndef TRX_TXTB_SALVAGE_H
#define TRX_TXTB_SALVAGE_H

#include "decode/byte_order.h"
#include "trx/entry_check.h"
#include "trx/trx.h"

/* What one pass over all entries found. */
typedef struct trx_scan_result {
    uint32_t tracex_used;   /* first entry with a zero thread word, or the capacity */
    uint64_t up, down;      /* TraceX's timer vote over the entries before it */
    uint32_t zero_before;   /* zero thread words before the oldest pointer */
    uint32_t written_after; /* non-zero thread words after the oldest pointer */
    uint32_t suspect;       /* written entries that fail trx_entry_damage */
} trx_scan_result;

/* Damage an entry with a non-zero thread word shows by itself: id 0 with
 * info data (half-written) or, in a checked buffer, a wrong check value (torn). */
static inline trx_damage trx_entry_damage(const uint8_t *p, bool be, bool checked)
{
    uint32_t id = trx_rd32(p + 8, be);
    uint32_t i1 = trx_rd32(p + 16, be), i2 = trx_rd32(p + 20, be);
    uint32_t i3 = trx_rd32(p + 24, be), i4 = trx_rd32(p + 28, be);
    if (id == 0 && (i1 | i2 | i3 | i4) != 0)
        return TRX_DAMAGE_HALF_WRITTEN;
    if (checked && trx_entry_check(trx_rd32(p, be), trx_rd32(p + 4, be),
                                   id & TRX_ENTRY_CHECK_ID_MASK, trx_rd32(p + 12, be), i1, i2, i3,
                                   i4) != ((id >> TRX_ENTRY_CHECK_SHIFT) & 0xFFu))
        return TRX_DAMAGE_TORN;
    return TRX_DAMAGE_NONE;
}

/* Decides the salvaging view (t->view_salvage_, t->damaged, t->order_) from
 * the header and the scan; t->view_tracex_ is already set. -1 with `err`
 * when no entry can be trusted, or when out of memory. */
int trx_salvage(trx_trace *t, const trx_scan_result *scan, trx_error *err);

/* Applies the view that t->mode asks for (txtb_open.c). */
void trx_trace_use_view(trx_trace *t);

#endif
