/*
 * uia_cursor.c - UIA records as events of the common model, in the order of
 * their ticks on their core's axis (uia_axes.c): event id, module, 64-bit
 * timestamp, sequence number unwrapped per stream, the lost count of the gap
 * before each record, and the sender as the core. Contexts and kinds:
 * SYS/BIOS's tasks and interrupts per core when the names say which events
 * are its scheduler's (sysbios_model.c); otherwise context
 * TRX_CONTEXT_INIT and thread -1, so thread analyses see no threads.
 * State: O(streams + cores).
 */
#include <stdlib.h>
#include <string.h>

#include "decode/sysbios_model.h"
#include "decode/uia_cursor.h"
#include "decode/uia_internal.h"

struct trx_uia_cursor {
    uint64_t next;       /* next event position */
    uint32_t packet;     /* packet holding its record (packet files) */
    uint64_t packet_end; /* without u->order: the record after that packet's (0: none yet) */
    uia_seq_state *states;
    uint32_t *walk; /* with u->order: per stream, its packet's place in u->stream_packets */
    trx_sysbios_model sysbios; /* the scheduler's contexts (words 0: none) */
};

int trx_uia_cursor_init(trx_cursor *c)
{
    const struct trx_uia *u = c->trace->uia;
    if (!u)
        return -1;
    c->uia_ = calloc(1, sizeof *c->uia_);
    if (!c->uia_)
        return -1;
    uint32_t n = u->info.stream_count ? u->info.stream_count : 1;
    c->uia_->states = calloc(n, sizeof *c->uia_->states);
    c->uia_->walk = u->order ? malloc((size_t)n * sizeof *c->uia_->walk) : NULL;
    if (c->uia_->walk)
        for (uint32_t s = 0; s < n; s++)
            c->uia_->walk[s] = u->stream_packets_at[s];
    if (!c->uia_->states || (u->order && !c->uia_->walk) ||
        trx_sysbios_init(&c->uia_->sysbios, c->trace->uia_names, u->info.cores ? u->info.cores : 1,
                         u->amp ? &u->amp_threads : NULL) < 0) {
        free(c->uia_->states);
        free(c->uia_->walk);
        free(c->uia_);
        c->uia_ = NULL;
        return -1;
    }
    return 0;
}

void trx_uia_cursor_free(trx_cursor *c)
{
    if (c->uia_) {
        free(c->uia_->states);
        free(c->uia_->walk);
        trx_sysbios_free(&c->uia_->sysbios);
        free(c->uia_);
        c->uia_ = NULL;
    }
}

static uint32_t stream_slots(const trx_cursor *c)
{
    uint32_t n = c->trace->uia->info.stream_count;
    return n ? n : 1;
}

int trx_uia_cursor_copy(trx_cursor *dst, const trx_cursor *src)
{
    const struct trx_uia_cursor *k = src->uia_;
    uint32_t n = stream_slots(src);
    struct trx_uia_cursor *d = calloc(1, sizeof *d);
    if (!d)
        return -1;
    dst->uia_ = d;
    d->next = k->next;
    d->packet = k->packet;
    d->packet_end = k->packet_end;
    d->states = malloc((size_t)n * sizeof *d->states);
    d->walk = k->walk ? malloc((size_t)n * sizeof *d->walk) : NULL;
    if (!d->states || (k->walk && !d->walk) || trx_sysbios_copy(&d->sysbios, &k->sysbios) < 0)
        return -1; /* the caller frees dst */
    memcpy(d->states, k->states, (size_t)n * sizeof *d->states);
    if (k->walk)
        memcpy(d->walk, k->walk, (size_t)n * sizeof *d->walk);
    return 0;
}

size_t trx_uia_cursor_state_size(const trx_cursor *c)
{
    if (!c->uia_)
        return 0;
    size_t n = stream_slots(c);
    return sizeof *c->uia_ + n * (sizeof *c->uia_->states + sizeof *c->uia_->walk) +
           (size_t)c->uia_->sysbios.cores * sizeof *c->uia_->sysbios.core;
}

enum { ORDER_LITTLE, ORDER_BIG, ORDER_MIXED }; /* the records' byte orders (be_all, be_bits) */

/* trx_uia_cursor_next, inlined per byte order: `order` a constant. */
static inline __attribute__((always_inline)) bool next_record(trx_cursor *c, trx_event *ev,
                                                              int order)
{
    struct trx_uia_cursor *k = c->uia_;
    const struct trx_uia *u = c->trace->uia;
    if (k->next >= u->info.records) {
        trx_cursor_free(c);
        return false;
    }
    uint64_t pos = k->next++;
    uint64_t i = u->order ? u->order[pos] : pos; /* the record: by time on its core's axis */
    uint32_t stream = 0;
    const uia_pkt_ctx *pk = NULL;
    uia_pkt_ctx ctx;
    if (u->info.packet_count) {
        if (u->order) { /* record i's packet: the next ones of its stream, in turn */
            uint32_t s = u->rec_stream[i], *at = &k->walk[s];
            const uint32_t *list = u->stream_packets, end = u->stream_packets_at[s + 1];
            while (*at + 1 < end && u->pkt_first[list[*at + 1]] <= i)
                ++*at;
            k->packet = list[*at];
        } else if (i >= k->packet_end) { /* the last packet starting at or before record i */
            while (k->packet + 1 < u->info.packet_count && u->pkt_first[k->packet + 1] <= i)
                k->packet++;
            k->packet_end =
                k->packet + 1 < u->info.packet_count ? u->pkt_first[k->packet + 1] : UINT64_MAX;
        }
        const trx_uia_packet *p = &u->packets[k->packet];
        stream = p->stream;
        if (u->pkt_first[k->packet] == i && !p->duplicate) {
            ctx = uia_pkt_ctx_of(p);
            pk = &ctx;
        }
    }
    bool be = order == ORDER_MIXED ? uia_rec_be(u, i) : order == ORDER_BIG;
    const uint8_t *p = c->trace->image.data + uia_rec_offset(u, i);
    uia_head h;
    uia_read_head(p, be, &h);
    uia_step st;
    if (pk)
        uia_step_record(&k->states[stream], &h, pk, &st);
    else /* most records: the step inlined without a packet context */
        uia_step_record(&k->states[stream], &h, NULL, &st);
    uint32_t evw = trx_rd32(p + 4 * (1 + h.time_words), be);
    uint64_t ticks = uia_axis_ticks(u, stream, &k->states[stream], h.time_words != 0, &st);
    /* every field (no memset: a block fill costs more than the stores) */
    ev->index = pos;
    ev->ticks = ticks;
    ev->timestamp = (uint32_t)st.time;
    ev->id = evw >> 16;
    ev->raw_id = evw;
    ev->raw_priority = TRX_UNKNOWN;
    ev->context = TRX_CONTEXT_INIT;
    ev->priority = TRX_UNKNOWN;
    ev->threshold = TRX_UNKNOWN;
    ev->next_context = TRX_CONTEXT_INIT;
    ev->info[0] = ev->info[1] = ev->info[2] = ev->info[3] = 0;
    ev->core = u->stream_core ? u->stream_core[stream] : 0;
    ev->entry = (uint32_t)i;
    ev->thread = -1;
    ev->synthetic = false;
    ev->flags = (uint16_t)(TRX_EV_SEQ | (h.time_words ? TRX_EV_TIMESTAMP : 0u));
    ev->module = (uint16_t)evw;
    ev->lost_before = (uint32_t)st.lost;
    ev->time = st.time;
    ev->seq = st.seq;
    ev->subject = 0;
    ev->kind = TRX_KIND_NONE;
    ev->priority_change = false;
    if (!uia_is_snapshot[h.type]) {
        uint32_t words = (h.len - 4 * (2 + h.time_words)) / 4;
        const uint8_t *a = p + 4 * (2 + h.time_words);
        if (words > 0) /* the first four argument words */
            ev->info[0] = trx_rd32(a, be);
        if (words > 1)
            ev->info[1] = trx_rd32(a + 4, be);
        if (words > 2)
            ev->info[2] = trx_rd32(a + 8, be);
        if (words > 3)
            ev->info[3] = trx_rd32(a + 12, be);
    }
    if (k->sysbios.words) /* the tasks are threads since the open pass */
        trx_sysbios_apply(&k->sysbios, c->trace, ev);
    return true;
}

bool trx_uia_cursor_next(trx_cursor *c, trx_event *ev)
{
    const struct trx_uia *u = c->trace->uia;
    if (u->be_bits)
        return next_record(c, ev, ORDER_MIXED);
    return u->be_all ? next_record(c, ev, ORDER_BIG) : next_record(c, ev, ORDER_LITTLE);
}

uint64_t trx_uia_span_ticks(const trx_trace *t)
{
    return t->uia ? t->uia->span_ticks : 0;
}
