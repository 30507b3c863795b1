/*
 * uia_snapshot.c - reassembling snapshots (memory ranges, strings) from
 * their records: records with the same snapshot id in one stream join while
 * each one's address continues where the previous ended; an address jump or
 * fewer bytes than the announced total marks the snapshot incomplete (the
 * data kept is the contiguous part from the first address). At most
 * OPEN_MAX snapshots are open at once (the oldest is closed beyond that), so
 * the work per record is bounded.
 */
#include <stdlib.h>
#include <string.h>

#include "decode/uia_internal.h"

#define OPEN_MAX 32u

/* A snapshot still receiving records. */
typedef struct open_snap {
    uint32_t snap; /* index into u->snaps */
    uint32_t next_address;
    bool broken; /* an address jump: stop appending */
    bool used;
    uint8_t *buf; /* its data so far (moved to u->snap_data when it closes) */
    uint32_t cap;
} open_snap;

struct uia_snap_builder {
    open_snap open[OPEN_MAX];
    uint32_t age;     /* round-robin victim when all are in use */
    size_t *data_off; /* per snapshot: offset into u->snap_data */
    uint32_t data_off_cap;
};

uia_snap_builder *uia_snap_new(void)
{
    return calloc(1, sizeof(uia_snap_builder));
}

static int append(struct trx_uia *u, const uint8_t *p, uint32_t n);

/* Closes an open snapshot: its data joins the pool. 0, or -1 when out of memory. */
static int close_snap(uia_snap_builder *b, struct trx_uia *u, open_snap *o)
{
    trx_uia_snapshot *s = &u->snaps[o->snap];
    if (o->broken || s->length != s->total_length)
        s->incomplete = true;
    o->used = false;
    b->data_off[o->snap] = u->snap_data_len;
    return append(u, o->buf, s->length);
}

static int append(struct trx_uia *u, const uint8_t *p, uint32_t n)
{
    if (n == 0)
        return 0;
    if (u->snap_data_len + n > u->snap_data_cap) {
        size_t cap = u->snap_data_cap ? u->snap_data_cap : 1024;
        while (cap < u->snap_data_len + n)
            cap *= 2;
        uint8_t *q = realloc(u->snap_data, cap);
        if (!q)
            return -1;
        u->snap_data = q;
        u->snap_data_cap = cap;
    }
    memcpy(u->snap_data + u->snap_data_len, p, n);
    u->snap_data_len += n;
    return 0;
}

/* Starts a new snapshot at record `r`. */
static int start_snap(uia_snap_builder *b, struct trx_uia *u, uint64_t event, uint32_t stream,
                      const trx_uia_record *r, open_snap *slot)
{
    if (u->info.snapshot_count == UINT32_MAX)
        return -1;
    if (u->info.snapshot_count >= u->snap_cap) {
        uint32_t cap = u->snap_cap ? u->snap_cap * 2 : 16;
        trx_uia_snapshot *n = realloc(u->snaps, (size_t)cap * sizeof *n);
        if (!n)
            return -1;
        u->snaps = n;
        u->snap_cap = cap;
    }
    if (u->info.snapshot_count >= b->data_off_cap) {
        uint32_t cap = b->data_off_cap ? b->data_off_cap * 2 : 16;
        size_t *n = realloc(b->data_off, (size_t)cap * sizeof *n);
        if (!n)
            return -1;
        b->data_off = n;
        b->data_off_cap = cap;
    }
    uint32_t i = u->info.snapshot_count++;
    trx_uia_snapshot *s = &u->snaps[i];
    memset(s, 0, sizeof *s);
    s->first_event = event;
    s->id = r->snapshot_id;
    s->stream = stream;
    s->address = r->address;
    s->total_length = r->total_length;
    b->data_off[i] = 0;
    slot->snap = i;
    slot->next_address = r->address;
    slot->broken = false;
    slot->used = true;
    return 0;
}

int uia_snap_feed(uia_snap_builder *b, struct trx_uia *u, uint64_t event, uint32_t stream,
                  const trx_uia_record *r)
{
    open_snap *o = NULL;
    for (uint32_t k = 0; k < OPEN_MAX && !o; k++) {
        open_snap *c = &b->open[k];
        if (c->used && u->snaps[c->snap].id == r->snapshot_id && u->snaps[c->snap].stream == stream)
            o = c;
    }
    if (o) {
        trx_uia_snapshot *s = &u->snaps[o->snap];
        bool restart = r->address == s->address && s->length > 0 && !o->broken;
        if (restart || r->total_length != s->total_length) {
            if (close_snap(b, u, o) < 0) /* the same id again from the start: a new one */
                return -1;
            o = NULL;
        } else if (r->address != o->next_address) {
            o->broken = true;
        }
    }
    if (!o) {
        for (uint32_t k = 0; k < OPEN_MAX && !o; k++)
            if (!b->open[k].used)
                o = &b->open[k];
        if (!o) {
            o = &b->open[b->age++ % OPEN_MAX];
            if (close_snap(b, u, o) < 0)
                return -1;
        }
        if (start_snap(b, u, event, stream, r, o) < 0)
            return -1;
    }
    trx_uia_snapshot *s = &u->snaps[o->snap];
    s->records++;
    if (!o->broken) {
        uint32_t n = r->data_length;
        if (s->length + (uint64_t)n > s->total_length) {
            n = s->total_length - s->length; /* more than announced: keep the announced part */
            o->broken = true;
        }
        if (s->length + n > o->cap) {
            uint32_t cap = o->cap ? o->cap : 64;
            while (cap < s->length + n)
                cap *= 2;
            uint8_t *q = realloc(o->buf, cap);
            if (!q)
                return -1;
            o->buf = q;
            o->cap = cap;
        }
        if (n)
            memcpy(o->buf + s->length, r->data, n);
        s->length += n;
        o->next_address = r->address + r->data_length;
        if (s->length == s->total_length && !o->broken)
            return close_snap(b, u, o);
    }
    return 0;
}

int uia_snap_finish(uia_snap_builder *b, struct trx_uia *u)
{
    int rc = 0;
    for (uint32_t k = 0; k < OPEN_MAX; k++) {
        if (b->open[k].used && close_snap(b, u, &b->open[k]) < 0)
            rc = -1;
        free(b->open[k].buf);
    }
    for (uint32_t i = 0; i < u->info.snapshot_count; i++)
        u->snaps[i].data = u->snap_data ? u->snap_data + b->data_off[i] : NULL;
    u->info.snapshots = u->snaps;
    free(b->data_off);
    free(b);
    return rc;
}
