/* open_ticks.c - the relative ticks of a TXTB entry from the open's tick
 * checkpoints (open_ticks.h). A checkpoint at physical entry q holds the
 * steps' figures from the view's first entry through q (txtb_scan.c): the
 * sum of their lengths counting up and how many change the stamp. Counting
 * down, a step that changes the stamp is the timer range minus its length
 * counting up, so the ticks either way follow from the two sums. */
#include "decode/open_ticks.h"
#include "decode/entry_read.h"
#include "decode/txtb_scan.h"

bool trx_open_ticks_at(const trx_trace *t, uint32_t i, uint64_t *ticks, uint32_t *stamp)
{
    if (i >= t->used || !trx_open_counts_fit(t) || !t->open_counts_->tick_span_up)
        return false;
    const trx_open_counts *oc = t->open_counts_;
    const uint8_t *e = t->entries + 12;
    const bool be = t->header.big_endian;
    const uint32_t mask = t->header.timer_mask;
    const uint64_t m1 = (uint64_t)mask + 1;
    /* without an order of its own, the view is [oldest, used) then [0, oldest)
     * physically: each part in physical order */
    const uint32_t p = trx_entry_phys(t, i);
    uint32_t q = p >> oc->tick_shift << oc->tick_shift;
    uint64_t span_up = 0, changes = 0;
    if (p >= t->oldest && q <= t->oldest) {
        q = t->oldest; /* the view's first entry: no step into it */
    } else {
        span_up = oc->tick_span_up[q >> oc->tick_shift];
        changes = oc->tick_changes[q >> oc->tick_shift];
    }
    uint32_t prev = trx_rd32(e + (size_t)q * TRX_ENTRY_SIZE, be) & mask;
    for (uint32_t k = q + 1; k <= p; k++) {
        uint32_t ts = trx_rd32(e + (size_t)k * TRX_ENTRY_SIZE, be) & mask;
        span_up += (uint64_t)ts - prev + (ts < prev ? m1 : 0);
        changes += ts != prev;
        prev = ts;
    }
    *ticks = t->counts_up ? span_up : changes * m1 - span_up;
    *stamp = prev;
    return true;
}
