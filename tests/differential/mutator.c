/* mutator.c - seeded field mutations of trace entries (see mutator.h). */
#include "mutator.h"

#include <stdlib.h>
#include <string.h>

void mut_rng_seed(mut_rng *r, uint64_t seed)
{
    r->state = seed;
}

uint64_t mut_rng_next(mut_rng *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint32_t mut_rng_below(mut_rng *r, uint32_t n)
{
    return (uint32_t)(mut_rng_next(r) % n);
}

static uint32_t random32(mut_rng *r)
{
    return (uint32_t)mut_rng_next(r);
}

int mut_layout_init(mut_layout *l, const trx_trace *t)
{
    memset(l, 0, sizeof *l);
    l->entries_offset = (size_t)(t->entries - t->image.data);
    l->capacity = t->capacity;
    l->used = t->used;
    l->big_endian = t->header.big_endian;
    uint32_t n = t->object_count ? t->object_count : 1;
    l->threads = malloc(n * sizeof *l->threads);
    l->others = malloc(n * sizeof *l->others);
    if (!l->threads || !l->others) {
        mut_layout_free(l);
        return -1;
    }
    for (uint32_t i = 0; i < t->object_count; i++) {
        const trx_object *o = &t->objects[i];
        if (o->unnamed)
            continue;
        if (o->type == TRX_OBJ_THREAD)
            l->threads[l->thread_count++] = o->address;
        else
            l->others[l->other_count++] = o->address;
    }
    return 0;
}

void mut_layout_free(mut_layout *l)
{
    free(l->threads);
    free(l->others);
    l->threads = l->others = NULL;
}

const char *mut_field_name(int field)
{
    static const char *const names[8] = {"context", "priority", "id",    "timestamp",
                                         "info1",   "info2",    "info3", "info4"};
    return field >= 0 && field < 8 ? names[field] : "?";
}

static uint8_t *word_at(const mut_layout *l, uint8_t *bytes, uint32_t entry, int field)
{
    return bytes + l->entries_offset + (size_t)entry * TRX_ENTRY_SIZE + 4u * (unsigned)field;
}

static uint32_t get_word(const mut_layout *l, const uint8_t *p)
{
    if (l->big_endian)
        return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static void put_word(const mut_layout *l, uint8_t *p, uint32_t v)
{
    for (int k = 0; k < 4; k++)
        p[k] = (uint8_t)(l->big_endian ? v >> (24 - 8 * k) : v >> (8 * k));
}

/* An address as a next-thread word or context might hold it. */
static uint32_t some_address(const mut_layout *l, mut_rng *r)
{
    uint32_t k = mut_rng_below(r, 100);
    if (k < 45 && l->thread_count)
        return l->threads[mut_rng_below(r, l->thread_count)];
    if (k < 65 && l->other_count)
        return l->others[mut_rng_below(r, l->other_count)];
    if (k < 80) { /* unknown: near a thread, or anywhere */
        uint32_t near =
            l->thread_count ? l->threads[mut_rng_below(r, l->thread_count)] : 0x20000000u;
        return mut_rng_below(r, 2) ? near + 4u * (1 + mut_rng_below(r, 64)) : random32(r) & ~3u;
    }
    if (k < 88)
        return TRX_CONTEXT_IDLE;
    return k < 94 ? TRX_CONTEXT_ISR : TRX_CONTEXT_INIT;
}

static uint32_t new_context(const mut_layout *l, mut_rng *r)
{
    uint32_t k = mut_rng_below(r, 100);
    if (k < 55 && l->thread_count)
        return l->threads[mut_rng_below(r, l->thread_count)];
    if (k < 65 && l->other_count)
        return l->others[mut_rng_below(r, l->other_count)];
    if (k < 75)
        return TRX_CONTEXT_ISR;
    if (k < 83)
        return TRX_CONTEXT_INIT;
    if (k < 95)
        return some_address(l, r) | 0x10u; /* mostly unknown, never 0 */
    return 0; /* ends the trace there (TraceX stops at the first context 0) */
}

static uint32_t new_priority(const mut_layout *l, mut_rng *r)
{
    uint32_t k = mut_rng_below(r, 100);
    if (k < 40)
        return 0x80000000u | mut_rng_below(r, 32) << 16 | mut_rng_below(r, 32);
    if (k < 55)
        return mut_rng_below(r, 1024);
    if (k < 70)
        return some_address(l, r); /* an ISR's interrupted thread */
    return k < 80 ? 0 : random32(r);
}

static uint32_t new_id(mut_rng *r)
{
    static const uint32_t model_ids[] = {1,  2,  3,  4,  5,   6,   52,  57,
                                         68, 69, 83, 88, 100, 109, 111, 114};
    uint32_t k = mut_rng_below(r, 100);
    if (k < 35)
        return model_ids[mut_rng_below(r, sizeof model_ids / sizeof model_ids[0])];
    if (k < 60)
        return mut_rng_below(r, 1001);
    if (k < 72)
        return TRX_USER_EVENT_START + mut_rng_below(r, 65536 - TRX_USER_EVENT_START);
    if (k < 82)
        return mut_rng_below(r, 4) << 24 | mut_rng_below(r, 1001); /* an SMP core number */
    return random32(r);
}

static uint32_t new_timestamp(const mut_layout *l, mut_rng *r, uint8_t *bytes, uint32_t entry,
                              uint32_t old)
{
    uint32_t k = mut_rng_below(r, 100);
    if (k < 50)
        return old + mut_rng_below(r, 2001) - 1000;
    if (k < 70)
        return old ^ 1u << mut_rng_below(r, 32);
    if (k < 85 || entry == 0)
        return random32(r);
    return get_word(l, word_at(l, bytes, entry - 1, 3)); /* no time passed */
}

static uint32_t new_info(const mut_layout *l, mut_rng *r)
{
    uint32_t k = mut_rng_below(r, 100);
    if (k < 45)
        return some_address(l, r);
    if (k < 60)
        return mut_rng_below(r, 256);
    return k < 75 ? 0 : random32(r);
}

static uint32_t pick_entry(const mut_layout *l, mut_rng *r)
{
    if (l->used == 0)
        return 0;
    if (l->used < l->capacity && mut_rng_below(r, 16) == 0)
        return l->used; /* a new entry after the last one */
    return mut_rng_below(r, l->used);
}

static void change(const mut_layout *l, uint8_t *bytes, mut_change *c, uint32_t entry, int field,
                   uint32_t value)
{
    uint8_t *p = word_at(l, bytes, entry, field);
    c->entry = entry;
    c->field = field;
    c->old_value = get_word(l, p);
    c->new_value = value;
    put_word(l, p, value);
}

int mut_apply(const mut_layout *l, mut_rng *r, uint8_t *bytes, mut_change *changes)
{
    if (l->capacity == 0)
        return 0;
    if (mut_rng_below(r, 4) == 0) {
        /* a scheduling event with a next-thread word: resume, suspend,
         * time slice (info1), relinquish (info2), ISR enter/exit */
        static const uint32_t ids[] = {1, 2, 5, 109, 3, 4};
        static const int fields[] = {7, 7, 4, 5, 1, 1};
        uint32_t k = mut_rng_below(r, 6), entry = pick_entry(l, r);
        change(l, bytes, &changes[0], entry, 2, ids[k]);
        change(l, bytes, &changes[1], entry, fields[k], some_address(l, r));
        return 2;
    }
    int n = mut_rng_below(r, 10) < 7 ? 1 : 2 + (int)mut_rng_below(r, 2);
    for (int i = 0; i < n; i++) {
        uint32_t entry = pick_entry(l, r);
        int field = (int)mut_rng_below(r, 8);
        uint32_t old = get_word(l, word_at(l, bytes, entry, field)), v;
        switch (field) {
        case 0:
            v = new_context(l, r);
            break;
        case 1:
            v = new_priority(l, r);
            break;
        case 2:
            v = new_id(r);
            break;
        case 3:
            v = new_timestamp(l, r, bytes, entry, old);
            break;
        default:
            v = new_info(l, r);
            break;
        }
        change(l, bytes, &changes[i], entry, field, v);
    }
    return n;
}
