/*
 * inversions_json.c - the "inversions" members of `trx stats --json` (see
 * inversions_json.h). A list can hold hundreds of thousands of windows, each
 * naming its waiter, lock, holder and the threads that ran inside, so each
 * name is escaped once per writer (json_names: by thread and object index;
 * a small table of recent addresses keeps each with its address in decimal)
 * and a record goes straight into the output buffer once its size is
 * bounded. (Formatting chunks on helper threads was tried: 12 ms one thread
 * against 16 ms with a helper for b10m's 196,124 inversions; the copies and
 * the serial write cost more than the formatting it shared.)
 */
#include "output/inversions_json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decode/object_table.h"
#include "output/json_string.h"
#include "trx/catalog.h"
#include "trx/trx.h"

/* A name as JSON: quoted and escaped. */
typedef struct name_text {
    const char *bytes;
    uint32_t len; /* 0: not escaped yet */
} name_text;

static const name_text empty_name = {"\"\"", 2};

/* Escaped names live in blocks that never move. */
typedef struct name_block {
    struct name_block *next;
    size_t used, cap;
    char bytes[];
} name_block;

enum { NAME_BLOCK_BYTES = 16 * 1024 };

/* A name looked up by address lately, with the address in decimal. */
typedef struct recent_name {
    uint32_t address;
    uint8_t digits_len; /* 0: empty entry */
    char digits[10];
    name_text name;
} recent_name;

enum { RECENT_BITS = 8 };

/* One writer's escaped names. */
typedef struct json_names {
    recent_name recent_context[1u << RECENT_BITS]; /* by a hash of the address */
    recent_name recent_object[1u << RECENT_BITS];
    const trx_trace *t;
    name_text *by_thread; /* per thread index */
    name_text *by_object; /* per object index */
    name_text special[4]; /* by trx_context_kind: Interrupt, Initialization, Idle */
    name_block *blocks;
    bool failed; /* out of memory: a name was written as "" */
} json_names;

static bool names_init(json_names *n, const trx_trace *t)
{
    memset(n, 0, sizeof *n);
    n->t = t;
    n->by_thread = calloc(t->thread_count ? t->thread_count : 1, sizeof *n->by_thread);
    n->by_object = calloc(t->object_count ? t->object_count : 1, sizeof *n->by_object);
    return n->by_thread && n->by_object;
}

static void names_free(json_names *n)
{
    free(n->by_thread);
    free(n->by_object);
    for (name_block *b = n->blocks, *next; b; b = next) {
        next = b->next;
        free(b);
    }
}

/* `name` quoted and escaped into the blocks. */
static name_text escape_name(json_names *n, const char *name)
{
    size_t need = TRX_JSON_ESCAPE_MAX * strlen(name) + 2;
    name_block *b = n->blocks;
    if (!b || b->cap - b->used < need) {
        size_t cap = need > NAME_BLOCK_BYTES ? need : NAME_BLOCK_BYTES;
        b = malloc(sizeof *b + cap);
        if (!b) {
            n->failed = true;
            return empty_name;
        }
        b->next = n->blocks;
        b->used = 0;
        b->cap = cap;
        n->blocks = b;
    }
    char *d = b->bytes + b->used;
    d[0] = '"';
    size_t len = 1 + trx_json_escape_some(d + 1, need - 2, &name); /* room for all of it */
    d[len++] = '"';
    b->used += len;
    return (name_text){d, (uint32_t)len};
}

/* The name of `context` as trx_context_name gives it ("" when unknown). */
static name_text find_context_name(json_names *n, uint32_t context)
{
    trx_context_kind kind = trx_context_kind_of(context);
    name_text *slot;
    if (kind == TRX_CTX_THREAD) {
        int32_t th = trx_thread_for_context(n->t, context);
        if (th < 0 || (uint32_t)th >= n->t->thread_count)
            return empty_name;
        slot = &n->by_thread[th];
    } else {
        slot = &n->special[kind & 3u];
    }
    if (slot->len == 0) {
        const char *s = trx_context_name(n->t, context);
        *slot = escape_name(n, s ? s : "");
    }
    return *slot;
}

/* The name of the object at `address` ("" when none is there). */
static name_text find_object_name(json_names *n, uint32_t address)
{
    int32_t o = trx_trace_find_object(n->t, address);
    if (o < 0 || (uint32_t)o >= n->t->object_count)
        return empty_name;
    name_text *slot = &n->by_object[o];
    if (slot->len == 0)
        *slot = escape_name(n, n->t->objects[o].name);
    return *slot;
}

/* The entry of `address` in `recent` (a table of 2^RECENT_BITS), filled by
 * `find` when it holds another address. */
static const recent_name *recent(json_names *n, recent_name *table, uint32_t address,
                                 name_text (*find)(json_names *, uint32_t))
{
    recent_name *e = &table[(uint32_t)(address * 2654435761u) >> (32 - RECENT_BITS)];
    if (e->digits_len == 0 || e->address != address) {
        e->address = address;
        e->digits_len = (uint8_t)(trx_put_u64(e->digits, address) - e->digits);
        e->name = find(n, address);
    }
    return e;
}

static const recent_name *context_name(json_names *n, uint32_t context)
{
    return recent(n, n->recent_context, context, find_context_name);
}

static const recent_name *object_name(json_names *n, uint32_t address)
{
    return recent(n, n->recent_object, address, find_object_name);
}

/* The names one record writes, and the most bytes it can take. */
typedef struct record_names {
    recent_name waiter, lock, holder; /* copies: a later look-up may take the entry */
    name_text ran[TRX_RAN_INSIDE_MAX];
    uint32_t ran_count;
    size_t bound;
} record_names;

/* A record's words (311 bytes with the longest of each choice: 512 leaves
 * room for more), its ten numbers (20 digits at most) and the ", " between
 * ran_inside names. */
enum { RECORD_FIXED_MAX = 512 + 10 * 20 + 2 * TRX_RAN_INSIDE_MAX };

static void look_up(json_names *n, const trx_inversion *v, record_names *r)
{
    r->waiter = *context_name(n, v->waiter);
    r->lock = *object_name(n, v->lock);
    r->holder = *context_name(n, v->holder);
    r->ran_count =
        v->ran_inside_count < TRX_RAN_INSIDE_MAX ? v->ran_inside_count : TRX_RAN_INSIDE_MAX;
    r->bound = RECORD_FIXED_MAX + r->waiter.name.len + r->lock.name.len + r->holder.name.len;
    for (uint32_t k = 0; k < r->ran_count; k++) {
        r->ran[k] = context_name(n, v->ran_inside_list[k])->name;
        r->bound += r->ran[k].len;
    }
}

#define PUT(p, literal) (memcpy(p, literal, sizeof literal - 1), (p) += sizeof literal - 1)

static char *put_name(char *p, name_text n)
{
    memcpy(p, n.bytes, n.len);
    return p + n.len;
}

/* The address of a name looked up (room for 10 bytes more than it writes). */
static char *put_address(char *p, const recent_name *e)
{
    memcpy(p, e->digits, sizeof e->digits);
    return p + e->digits_len;
}

/* Writes inversion `v` at `p` (room for r->bound bytes); returns the end. */
static char *put_record(char *p, const trx_trace *t, const trx_inversion *v, const record_names *r,
                        bool first)
{
    if (first)
        PUT(p, "\n    {\"waiter\": ");
    else
        PUT(p, ",\n    {\"waiter\": ");
    p = put_name(p, r->waiter.name);
    PUT(p, ", \"waiter_address\": ");
    p = put_address(p, &r->waiter);
    PUT(p, ", \"waiter_priority\": ");
    p = trx_put_u64(p, trx_shown_priority(t, v->waiter_priority));
    PUT(p, ", \"lock\": ");
    p = put_name(p, r->lock.name);
    PUT(p, ", \"lock_address\": ");
    p = put_address(p, &r->lock);
    if (v->lock_type == TRX_LOCK_MUTEX)
        PUT(p, ", \"lock_type\": \"mutex\", \"holder\": ");
    else
        PUT(p, ", \"lock_type\": \"semaphore\", \"holder\": ");
    p = put_name(p, r->holder.name);
    PUT(p, ", \"holder_address\": ");
    p = put_address(p, &r->holder);
    PUT(p, ", \"holder_priority\": ");
    p = trx_put_u64(p, trx_shown_priority(t, v->holder_priority));
    PUT(p, ", \"start_index\": ");
    p = trx_put_u64(p, v->start_index);
    PUT(p, ", \"end_index\": ");
    p = trx_put_u64(p, v->end_index);
    PUT(p, ", \"start_ticks\": ");
    p = trx_put_u64(p, v->start_ticks);
    PUT(p, ", \"end_ticks\": ");
    p = trx_put_u64(p, v->end_ticks);
    if (v->closed)
        PUT(p, ", \"closed\": true");
    else
        PUT(p, ", \"closed\": false");
    if (v->unbounded)
        PUT(p, ", \"unbounded\": true, \"ran_inside\": [");
    else
        PUT(p, ", \"unbounded\": false, \"ran_inside\": [");
    for (uint32_t k = 0; k < r->ran_count; k++) {
        if (k)
            PUT(p, ", ");
        p = put_name(p, r->ran[k]);
    }
    if (v->ran_inside_more)
        PUT(p, "], \"ran_inside_more\": true}");
    else
        PUT(p, "], \"ran_inside_more\": false}");
    return p;
}

/* Bytes in memory that grow as needed. */
typedef struct text_buf {
    char *bytes;
    size_t len, cap;
} text_buf;

/* Room for `n` more bytes; false when out of memory. */
static bool reserve(text_buf *b, size_t n)
{
    if (b->cap - b->len >= n)
        return true;
    size_t cap = b->cap ? b->cap : 64 * 1024;
    while (cap - b->len < n)
        cap *= 2;
    char *p = realloc(b->bytes, cap);
    if (!p)
        return false;
    b->bytes = p;
    b->cap = cap;
    return true;
}

/* Writes inversions from .. to-1 to `o` (`from` first: no comma before it):
 * into its buffer directly, or through `spill` (CRLF output, a record
 * larger than the buffer). */
static void write_range(trx_out *o, json_names *n, text_buf *spill, const trx_stats *s,
                        uint32_t from, uint32_t to)
{
    record_names r;
    for (uint32_t i = from; i < to; i++) {
        const trx_inversion *v = &s->inversion_list[i];
        bool first_record = i == from;
        look_up(n, v, &r);
        if (!o->crlf) {
            if (r.bound > sizeof o->buf - o->len)
                trx_out_drain_(o);
            if (r.bound <= sizeof o->buf - o->len) {
                o->len = (size_t)(put_record(o->buf + o->len, n->t, v, &r, first_record) - o->buf);
                continue;
            }
        }
        spill->len = 0;
        if (!reserve(spill, r.bound)) {
            n->failed = true;
            return;
        }
        spill->len = (size_t)(put_record(spill->bytes, n->t, v, &r, first_record) - spill->bytes);
        trx_out_mem(o, spill->bytes, spill->len);
    }
}

void trx_inversions_json_write(trx_out *o, const trx_trace *t, const trx_stats *s, uint32_t first,
                               uint32_t end)
{
    if (first >= end)
        return;
    json_names n;
    text_buf spill = {0};
    if (names_init(&n, t))
        write_range(o, &n, &spill, s, first, end);
    else
        n.failed = true;
    if (n.failed && o->error == 0)
        o->error = ENOMEM;
    names_free(&n);
    free(spill.bytes);
}
