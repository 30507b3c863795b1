/*
 * txtb_open.c - opening a TXTB trace buffer: validate the control header,
 * read the object registry, find the used entries and their chronological
 * order from the oldest pointer, and vote on the timer direction the way
 * TraceX does (one pass over the entries: txtb_scan.c), then let
 * txtb_salvage.c decide the salvaging view; switching between the two views.
 */
#include <stdlib.h>
#include <string.h>

#include "decode/byte_order.h"
#include "decode/entry_read.h"
#include "decode/object_table.h"
#include "decode/rtos_profile.h"
#include "decode/trace_open.h"
#include "decode/uia_internal.h"
#include "decode/txtb_salvage.h"
#include "decode/txtb_scan.h"
#include "trx/trx.h"

/* Header field offsets. */
enum {
    OFF_ID = 0,
    OFF_MASK = 4,
    OFF_BASE = 8,
    OFF_REG_START = 12,
    OFF_RESERVED1 = 16,
    OFF_NAME_SIZE = 18,
    OFF_REG_END = 20,
    OFF_BUF_START = 24,
    OFF_BUF_END = 28,
    OFF_CURRENT = 32,
    OFF_RESERVED2 = 36,
};

static int read_header(trx_trace *t, trx_error *err)
{
    const uint8_t *p = t->image.data;
    size_t n = t->image.size;
    if (n < 4)
        return trx_error_set(err, n, "file too short for the 4-byte TXTB id (%zu bytes)", n);
    uint32_t id = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    trx_header *h = &t->header;
    if (id == TRX_TXTB_ID)
        h->big_endian = true;
    else if (id == 0x42545854u)
        h->big_endian = false;
    else
        return trx_error_set(err, 0,
                             "expected the TXTB id (54 58 54 42 or 42 54 58 54), found "
                             "%02X %02X %02X %02X",
                             p[0], p[1], p[2], p[3]);
    if (n < TRX_HEADER_SIZE)
        return trx_error_set(err, n, "file too short for the 48-byte TXTB header (%zu bytes)", n);
    bool be = h->big_endian;
    h->id_as_read = id;
    h->timer_mask = trx_rd32(p + OFF_MASK, be);
    h->base_address = trx_rd32(p + OFF_BASE, be);
    h->registry_start = trx_rd32(p + OFF_REG_START, be);
    h->reserved1 = trx_rd16(p + OFF_RESERVED1, be);
    h->name_size = trx_rd16(p + OFF_NAME_SIZE, be);
    h->registry_end = trx_rd32(p + OFF_REG_END, be);
    h->buffer_start = trx_rd32(p + OFF_BUF_START, be);
    h->buffer_end = trx_rd32(p + OFF_BUF_END, be);
    h->buffer_current = trx_rd32(p + OFF_CURRENT, be);
    h->reserved2 = trx_rd32(p + OFF_RESERVED2, be);
    h->reserved3 = trx_rd32(p + OFF_RESERVED2 + 4, be);
    h->reserved4 = trx_rd32(p + OFF_RESERVED2 + 8, be);
    return 0;
}

/* Checks one header pointer: at or after `min_off` (relative to the base),
 * 4-byte aligned, inside the dump. Stores its offset in `*off`. */
static int check_pointer(const trx_trace *t, uint32_t value, unsigned field_off, const char *what,
                         uint64_t min_off, uint64_t *off, trx_error *err)
{
    uint32_t base = t->header.base_address;
    if (value < base)
        return trx_error_set(err, field_off, "%s 0x%08X is below the trace base address 0x%08X",
                             what, value, base);
    uint64_t o = (uint64_t)value - base;
    if (o < min_off)
        return trx_error_set(err, field_off,
                             "%s 0x%08X is out of order: expected at least 0x%08llX", what, value,
                             (unsigned long long)(base + min_off));
    if (o % 4 != 0)
        return trx_error_set(err, field_off, "%s 0x%08X is not 4-byte aligned", what, value);
    if (o > t->image.size)
        return trx_error_set(err, field_off,
                             "%s 0x%08X is outside the dump (%zu bytes from 0x%08X)", what, value,
                             t->image.size, base);
    *off = o;
    return 0;
}

static int validate_layout(trx_trace *t, uint64_t *reg_off, uint64_t *buf_off, trx_error *err)
{
    const trx_header *h = &t->header;
    uint64_t reg_end_off, buf_end_off, cur_off;
    if (h->name_size > TRX_NAME_MAX)
        return trx_error_set(err, OFF_NAME_SIZE, "object name size %u is larger than %u",
                             h->name_size, TRX_NAME_MAX);
    if (check_pointer(t, h->registry_start, OFF_REG_START, "registry start pointer",
                      TRX_HEADER_SIZE, reg_off, err) ||
        check_pointer(t, h->registry_end, OFF_REG_END, "registry end pointer", *reg_off,
                      &reg_end_off, err) ||
        check_pointer(t, h->buffer_start, OFF_BUF_START, "buffer start pointer", reg_end_off,
                      buf_off, err) ||
        check_pointer(t, h->buffer_end, OFF_BUF_END, "buffer end pointer",
                      *buf_off + TRX_ENTRY_SIZE, &buf_end_off, err))
        return -1;
    uint32_t entry_size = TRX_REGISTRY_FIXED_SIZE + h->name_size;
    if ((reg_end_off - *reg_off) % entry_size != 0)
        return trx_error_set(err, OFF_REG_END,
                             "registry size %llu is not a multiple of the %u-byte entry size",
                             (unsigned long long)(reg_end_off - *reg_off), entry_size);
    if ((buf_end_off - *buf_off) % TRX_ENTRY_SIZE != 0)
        return trx_error_set(err, OFF_BUF_END,
                             "trace area size %llu is not a multiple of 32-byte entries",
                             (unsigned long long)(buf_end_off - *buf_off));
    if (h->buffer_current < h->buffer_start || h->buffer_current >= h->buffer_end ||
        (h->buffer_current - h->buffer_start) % TRX_ENTRY_SIZE != 0)
        return trx_error_set(err, OFF_CURRENT,
                             "oldest-entry pointer 0x%08X is not an entry between 0x%08X and "
                             "0x%08X",
                             h->buffer_current, h->buffer_start, h->buffer_end);
    (void)cur_off;
    t->registry_entries = (uint32_t)((reg_end_off - *reg_off) / entry_size);
    t->capacity = (uint32_t)((buf_end_off - *buf_off) / TRX_ENTRY_SIZE);
    return 0;
}

/* Copies a registry name as TraceX shows it: up to the first NUL, and
 * "Non-ASCII Name" when the first byte is not printable ASCII. */
static void copy_name(char *dst, const uint8_t *src, uint32_t size)
{
    uint32_t n = 0;
    while (n < size && n < TRX_NAME_MAX && src[n] != 0)
        n++;
    if (n == 0 || src[0] < 0x20 || src[0] > 0x7E) {
        strcpy(dst, "Non-ASCII Name");
        return;
    }
    memcpy(dst, src, n);
    dst[n] = 0;
}

static int read_registry(trx_trace *t, uint64_t reg_off, trx_error *err)
{
    const trx_header *h = &t->header;
    uint32_t entry_size = TRX_REGISTRY_FIXED_SIZE + h->name_size;
    /* one pool for the names: at most the registry's own size (the input's) */
    size_t slot = (h->name_size < TRX_NAME_MAX ? h->name_size : TRX_NAME_MAX) + 1;
    if (slot < sizeof "Non-ASCII Name")
        slot = sizeof "Non-ASCII Name";
    free(t->names_);
    t->names_ = malloc((size_t)(t->registry_entries ? t->registry_entries : 1) * slot);
    if (!t->names_)
        return trx_error_set(err, reg_off, "out of memory for the object registry");
    for (uint32_t i = 0; i < t->registry_entries; i++) {
        const uint8_t *e = t->image.data + reg_off + (uint64_t)i * entry_size;
        t->registry_free += e[0] == 1;
        if (e[1] == TRX_OBJ_NONE)
            continue;
        trx_object o;
        memset(&o, 0, sizeof o);
        o.available = e[0];
        o.type = e[1];
        o.reserved1 = e[2];
        o.reserved2 = e[3];
        o.address = trx_rd32(e + 4, h->big_endian);
        o.param1 = trx_rd32(e + 8, h->big_endian);
        o.param2 = trx_rd32(e + 12, h->big_endian);
        o.registry_slot = i;
        char *name = t->names_ + (size_t)i * slot;
        copy_name(name, e + 16, h->name_size);
        o.name = name;
        if (trx_objects_add(t, &o) < 0)
            return trx_error_set(err, reg_off + (uint64_t)i * entry_size,
                                 "out of memory for the object registry");
        t->registry_used++;
    }
    return 0;
}

/* The pass over the entries (txtb_scan.c), then TraceX's view from it. */
static void scan_entries(trx_trace *t, const trx_open_options *o, trx_scan_result *r)
{
    trx_txtb_scan(t, o ? o->jobs : 0,
                  !o               ? TRX_SCAN_COUNT_NONE
                  : o->core_counts ? TRX_SCAN_COUNT_CORES
                  : o->time_counts ? TRX_SCAN_COUNT_TIME
                                   : TRX_SCAN_COUNT_NONE,
                  r);
    const uint32_t cap = t->capacity;
    const uint32_t oldest = (t->header.buffer_current - t->header.buffer_start) / TRX_ENTRY_SIZE;
    trx_trace_view *v = &t->view_tracex_;
    v->used = r->tracex_used;
    v->oldest = oldest < r->tracex_used ? oldest : 0;
    v->wrapped = r->tracex_used == cap && cap > 0;
    v->votes_up = (uint32_t)(r->up > UINT32_MAX ? UINT32_MAX : r->up);
    v->votes_down = (uint32_t)(r->down > UINT32_MAX ? UINT32_MAX : r->down);
    v->counts_up = r->up > r->down;
}

/* Makes the fields of `v` the trace's current view. */
static void apply_view(trx_trace *t, const trx_trace_view *v, bool tracex)
{
    t->used = v->used;
    t->oldest = v->oldest;
    t->wrapped = v->wrapped;
    t->counts_up = v->counts_up;
    t->votes_up = v->votes_up;
    t->votes_down = v->votes_down;
    t->view_is_tracex_ = tracex;
}

void trx_trace_use_view(trx_trace *t)
{
    bool tracex = t->mode == TRX_MODE_TRACEX;
    if (t->format == TRX_TRACE_TXTB && tracex != t->view_is_tracex_)
        apply_view(t, tracex ? &t->view_tracex_ : &t->view_salvage_, tracex);
}

void trx_trace_set_mode(trx_trace *t, trx_mode mode)
{
    t->mode = mode;
    trx_trace_use_view(t);
}

int trx_txtb_open(trx_trace *t, const trx_open_options *o, trx_error *err)
{
    uint64_t reg_off = 0, buf_off = 0;
    if (read_header(t, err) || validate_layout(t, &reg_off, &buf_off, err) ||
        read_registry(t, reg_off, err)) {
        trx_trace_close(t);
        return -1;
    }
    t->entries = t->image.data + buf_off;
    t->entry_check = t->header.reserved1 == TRX_ENTRY_CHECK_MARK;
    trx_rtos_profile_detect(t);
    trx_scan_result scan;
    scan_entries(t, o, &scan);
    if (trx_salvage(t, &scan, err) < 0) {
        trx_trace_close(t);
        return -1;
    }
    apply_view(t, &t->view_salvage_, false);
    return 0;
}

void trx_trace_close(trx_trace *t)
{
    if (t->stream_source) {
        trx_trace_close(t->stream_source);
        free(t->stream_source);
    }
    free(t->gap_entry_);
    trx_open_counts_free(t);
    trx_uia_free(t);
    free(t->damaged);
    free(t->order_);
    trx_image_free(&t->image);
    trx_objects_free(t);
    memset(t, 0, sizeof *t);
}

uint32_t trx_trace_entry_index(const trx_trace *t, uint32_t chrono)
{
    return trx_entry_phys(t, chrono);
}

void trx_trace_entry(const trx_trace *t, uint32_t chrono, trx_entry *out)
{
    trx_entry_read_phys(t, trx_entry_phys(t, chrono), out);
}
