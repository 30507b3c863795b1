/* object_table.c - object and thread tables of an opened trace, with an
 * address hash so that per-event lookups cost O(1). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/object_table.h"

#include "trx/elf.h"
#include "util/address_map.h"

#define EMPTY_SLOT UINT32_MAX
#define EMPTY_ENTRY UINT64_MAX /* hash entry: address << 32 | index, EMPTY_SLOT index */

static uint32_t hash_address(uint32_t a)
{
    a ^= a >> 16;
    a *= 0x7FEB352Du;
    a ^= a >> 15;
    return a;
}

/* Sets `key` -> `value` in the map *m, creating it; 0 or -1 (out of memory). */
static int map_put(trx_address_map **m, uint32_t key, uint32_t value, bool keep_first)
{
    if (!*m && !(*m = calloc(1, sizeof **m)))
        return -1;
    bool added;
    uint32_t *v = trx_address_map_slot(*m, key, value, &added);
    if (!v)
        return -1;
    if (!keep_first)
        *v = value;
    return 0;
}

static void map_free(trx_address_map **m)
{
    if (*m) {
        trx_address_map_free(*m);
        free(*m);
        *m = NULL;
    }
}

/* Inserts address -> index unless the address is already present (first match wins). */
static void hash_insert(trx_trace *t, uint32_t address, uint32_t index)
{
    uint32_t m = t->obj_hash_size_ - 1;
    for (uint32_t h = hash_address(address) & m;; h = (h + 1) & m) {
        uint64_t e = t->obj_hash_[h];
        if ((uint32_t)e == EMPTY_SLOT) {
            t->obj_hash_[h] = (uint64_t)address << 32 | index;
            return;
        }
        if ((uint32_t)(e >> 32) == address)
            return;
    }
}

static int hash_rebuild(trx_trace *t, uint32_t size)
{
    uint64_t *h = malloc((size_t)size * sizeof *h);
    if (!h)
        return -1;
    free(t->obj_hash_);
    t->obj_hash_ = h;
    t->obj_hash_size_ = size;
    for (uint32_t i = 0; i < size; i++)
        h[i] = EMPTY_ENTRY;
    for (uint32_t i = 0; i < t->object_count; i++)
        hash_insert(t, t->objects[i].address, i);
    return 0;
}

/* trx_trace_find_object, inlined into the look-ups below (the analyses
 * make several per event). */
static inline int32_t find_object(const trx_trace *t, uint32_t address)
{
    if (!t->obj_hash_size_)
        return -1;
    uint32_t m = t->obj_hash_size_ - 1;
    for (uint32_t h = hash_address(address) & m;; h = (h + 1) & m) {
        uint64_t e = t->obj_hash_[h];
        if ((uint32_t)e == EMPTY_SLOT)
            return -1;
        if ((uint32_t)(e >> 32) == address)
            return (int32_t)(uint32_t)e;
    }
}

int32_t trx_trace_find_object(const trx_trace *t, uint32_t address)
{
    return find_object(t, address);
}

int32_t trx_trace_find_thread(const trx_trace *t, uint32_t address)
{
    int32_t o = find_object(t, address);
    return o < 0 ? -1 : t->obj_thread_[o];
}

uint32_t trx_thread_first_at_its_address(const trx_trace *t, uint32_t thread)
{
    if (t->shared_thread_addresses_ == 0)
        return thread;
    int32_t f = trx_trace_first_thread_at(t, t->threads[thread].address);
    return f >= 0 ? (uint32_t)f : thread;
}

int32_t trx_trace_first_thread_at(const trx_trace *t, uint32_t address)
{
    int32_t o = find_object(t, address);
    if (o < 0)
        return -1;
    if (t->obj_thread_[o] >= 0)
        return t->obj_thread_[o];
    uint32_t th; /* the first object there is not a thread */
    if (t->first_thread_map_ && trx_address_map_get(t->first_thread_map_, address, &th))
        return (int32_t)th;
    return -1;
}

int32_t trx_thread_for_context(const trx_trace *t, uint32_t address)
{
    int32_t o = find_object(t, address);
    if (o < 0)
        return -1; /* Un-named Threads are in the hash too: nothing at this address */
    if (t->obj_thread_[o] >= 0)
        return t->obj_thread_[o];
    /* A non-thread object at this address: an Un-named Thread added for it, if any. */
    uint32_t th;
    if (t->unnamed_map_ && trx_address_map_get(t->unnamed_map_, address, &th))
        return (int32_t)th;
    return -1;
}

/* trx_objects_add with `there` = find_object(t, o->address), known already. */
static int32_t add_object(trx_trace *t, const trx_object *o, int32_t there)
{
    if (t->object_count == t->object_cap) {
        uint32_t cap = t->object_cap ? t->object_cap * 2 : 16;
        trx_object *no = realloc(t->objects, (size_t)cap * sizeof *no);
        if (!no)
            return -1;
        t->objects = no;
        int32_t *nt = realloc(t->obj_thread_, (size_t)cap * sizeof *nt);
        if (!nt)
            return -1;
        t->obj_thread_ = nt;
        t->object_cap = cap;
    }
    if (o->type == TRX_OBJ_THREAD && t->thread_count == t->thread_cap) {
        uint32_t cap = t->thread_cap ? t->thread_cap * 2 : 16;
        trx_thread *nt = realloc(t->threads, (size_t)cap * sizeof *nt);
        if (!nt)
            return -1;
        t->threads = nt;
        t->thread_cap = cap;
    }
    uint32_t idx = t->object_count++;
    t->objects[idx] = *o;
    t->obj_thread_[idx] = -1;
    if (o->type == TRX_OBJ_THREAD) {
        trx_thread *th = &t->threads[t->thread_count];
        memset(th, 0, sizeof *th);
        th->address = th->handle = o->address;
        th->core = th->ran_core = TRX_UNKNOWN;
        th->object_index = idx;
        th->stack_start = o->param1;
        th->stack_size = o->param2;
        th->prio_lowest = th->prio_highest = TRX_UNKNOWN;
        th->pt_lowest = th->pt_highest = TRX_UNKNOWN;
        /* The first thread at an address hidden behind a non-thread object
         * (the hash finds the first object there) is kept aside. */
        if (there >= 0 && t->obj_thread_[there] >= 0) {
            t->shared_thread_addresses_++;
        } else if (there >= 0) {
            bool added;
            if (!t->first_thread_map_ &&
                !(t->first_thread_map_ = calloc(1, sizeof(trx_address_map))))
                return -1;
            if (!trx_address_map_slot(t->first_thread_map_, o->address, t->thread_count, &added))
                return -1;
            t->shared_thread_addresses_ += !added;
        }
        if (!o->unnamed && (o->reserved1 & 0x80)) {
            uint32_t prio = (uint32_t)(o->reserved1 & 3) << 8 | o->reserved2;
            th->prio_lowest = th->prio_highest = prio;
        }
        t->obj_thread_[idx] = (int32_t)t->thread_count++;
    }
    if (t->object_count * 2 > t->obj_hash_size_) {
        uint32_t size = t->obj_hash_size_ ? t->obj_hash_size_ * 2 : 64;
        while (size < t->object_count * 2)
            size *= 2;
        if (hash_rebuild(t, size) < 0)
            return -1;
    } else {
        hash_insert(t, o->address, idx);
    }
    return (int32_t)idx;
}

int32_t trx_objects_add(trx_trace *t, const trx_object *o)
{
    return add_object(t, o, find_object(t, o->address));
}

/* An Un-named Thread at `address`, whose first object (if any) is `there`, no thread. */
static int32_t add_unnamed(trx_trace *t, uint32_t address, uint32_t priority, int32_t there)
{
    trx_object o;
    memset(&o, 0, sizeof o);
    o.address = address;
    o.type = TRX_OBJ_THREAD;
    o.unnamed = true;
    o.registry_slot = UINT32_MAX;
    o.name = trx_elf_object_name(t->elf, address); /* --elf: the object's own symbol */
    if (!o.name)
        o.name = "Un-named Thread";
    int32_t idx = add_object(t, &o, there);
    if (idx < 0)
        return -1;
    int32_t th = t->obj_thread_[idx];
    if (there >= 0 && map_put(&t->unnamed_map_, address, (uint32_t)th, false) < 0)
        return -1;
    t->threads[th].prio_lowest = t->threads[th].prio_highest = priority;
    return th;
}

int32_t trx_objects_add_unnamed_thread(trx_trace *t, uint32_t address, uint32_t priority)
{
    return add_unnamed(t, address, priority, find_object(t, address));
}

int32_t trx_objects_thread_or_unnamed(trx_trace *t, uint32_t address, uint32_t priority,
                                      bool *added)
{
    *added = false;
    int32_t o = find_object(t, address);
    if (o >= 0 && t->obj_thread_[o] >= 0)
        return t->obj_thread_[o];
    uint32_t th;
    if (o >= 0 && t->unnamed_map_ && trx_address_map_get(t->unnamed_map_, address, &th))
        return (int32_t)th;
    *added = true;
    return add_unnamed(t, address, priority, o);
}

#define MADE_NAME_SIZE 24u    /* "prefix 0x12345678" and its NUL */
#define MADE_NAMES_CHUNK 256u /* names per chunk (a chunk never moves: names stay valid) */

const char *trx_objects_made_name(trx_trace *t, const char *prefix, uint32_t address)
{
    if (t->made_chunks_ == 0 || t->made_in_last_ == MADE_NAMES_CHUNK) {
        char **list = realloc(t->made_names_, (t->made_chunks_ + 1) * sizeof *list);
        if (!list)
            return NULL;
        t->made_names_ = list;
        if (!(list[t->made_chunks_] = malloc(MADE_NAMES_CHUNK * MADE_NAME_SIZE)))
            return NULL;
        t->made_chunks_++;
        t->made_in_last_ = 0;
    }
    char *name = t->made_names_[t->made_chunks_ - 1] + t->made_in_last_++ * MADE_NAME_SIZE;
    snprintf(name, MADE_NAME_SIZE, "%.12s 0x%08" PRIx32, prefix, address);
    return name;
}

const char *trx_objects_kept_name(trx_trace *t, const char *name)
{
    /* a chunk of its own in the made names' list (the next made name opens a new chunk) */
    size_t n = strlen(name);
    n = n < TRX_NAME_MAX ? n : TRX_NAME_MAX;
    char **list = realloc(t->made_names_, (t->made_chunks_ + 1) * sizeof *list);
    if (!list)
        return NULL;
    t->made_names_ = list;
    char *copy = malloc(n + 1);
    if (!copy)
        return NULL;
    memcpy(copy, name, n);
    copy[n] = '\0';
    list[t->made_chunks_++] = copy;
    t->made_in_last_ = MADE_NAMES_CHUNK;
    return copy;
}

void trx_objects_free(trx_trace *t)
{
    for (uint32_t i = 0; i < t->made_chunks_; i++)
        free(t->made_names_[i]);
    free(t->made_names_);
    t->made_names_ = NULL;
    t->made_chunks_ = t->made_in_last_ = 0;
    free(t->objects);
    free(t->names_);
    t->names_ = NULL;
    free(t->threads);
    free(t->obj_hash_);
    free(t->obj_thread_);
    map_free(&t->unnamed_map_);
    map_free(&t->first_thread_map_);
    t->objects = NULL;
    t->threads = NULL;
    t->obj_hash_ = NULL;
    t->obj_thread_ = NULL;
    t->object_count = t->object_cap = t->thread_count = t->thread_cap = t->obj_hash_size_ = 0;
    t->shared_thread_addresses_ = 0;
}

uint32_t trx_trace_unnamed_threads(const trx_trace *t)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->thread_count; i++)
        n += t->objects[t->threads[i].object_index].unnamed;
    return n;
}

uint32_t trx_context_handle(const trx_trace *t, uint32_t context)
{
    int32_t th = trx_thread_for_context(t, context);
    return th >= 0 ? t->threads[th].handle : context;
}

trx_context_kind trx_context_kind_of(uint32_t context)
{
    if (context == TRX_CONTEXT_ISR)
        return TRX_CTX_ISR;
    if (context == TRX_CONTEXT_INIT)
        return TRX_CTX_INIT;
    if (context == TRX_CONTEXT_IDLE)
        return TRX_CTX_IDLE;
    return TRX_CTX_THREAD;
}

const char *trx_context_name(const trx_trace *t, uint32_t context)
{
    switch (trx_context_kind_of(context)) {
    case TRX_CTX_ISR:
        return "Interrupt";
    case TRX_CTX_INIT:
        return "Initialization";
    case TRX_CTX_IDLE:
        return "Idle";
    default: {
        int32_t th = trx_thread_for_context(t, context);
        return th < 0 ? NULL : t->objects[t->threads[th].object_index].name;
    }
    }
}
