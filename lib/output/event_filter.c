/* event_filter.c - the event selection of `trx events` (see event_filter.h). */
#include "output/event_filter.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define ID_COUNT 65536u

void trx_event_filter_init(trx_event_filter *f)
{
    memset(f, 0, sizeof *f);
}

void trx_event_filter_free(trx_event_filter *f)
{
    free(f->threads);
    free(f->ids);
    trx_event_filter_init(f);
}

/* Parses "0x..." (1-8 hex digits) or, when `decimal`, plain digits. */
static bool parse_number(const char *s, bool decimal, uint32_t *out)
{
    uint64_t v = 0;
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    } else if (!decimal) {
        return false;
    }
    if (*s == '\0')
        return false;
    for (; *s; s++) {
        int d;
        if (*s >= '0' && *s <= '9')
            d = *s - '0';
        else if (base == 16 && isxdigit((unsigned char)*s))
            d = tolower((unsigned char)*s) - 'a' + 10;
        else
            return false;
        v = v * (uint64_t)base + (uint64_t)d;
        if (v > 0xFFFFFFFFu)
            return false;
    }
    *out = (uint32_t)v;
    return true;
}

static int add_thread_value(trx_event_filter *f, uint32_t value)
{
    uint32_t *p = realloc(f->threads, (f->thread_count + 1) * sizeof *p);
    if (!p)
        return -1;
    f->threads = p;
    f->threads[f->thread_count++] = value;
    return 0;
}

int trx_event_filter_add_thread(trx_event_filter *f, trx_trace *t, const char *spec, trx_error *err)
{
    uint32_t address;
    if (spec[0] == '0' && (spec[1] == 'x' || spec[1] == 'X')) {
        if (!parse_number(spec, false, &address))
            return trx_error_set(err, 0, "--thread %s: not a hex address", spec);
        return add_thread_value(f, address) == 0 ? 0 : trx_error_set(err, 0, "out of memory");
    }
    trx_trace_prepare(t); /* names of Un-named Threads */
    bool found = false;
    for (uint32_t i = 0; i < t->thread_count; i++) {
        const trx_thread *th = &t->threads[i];
        if (strcmp(t->objects[th->object_index].name, spec) != 0)
            continue;
        found = true;
        if (add_thread_value(f, th->address) != 0)
            return trx_error_set(err, 0, "out of memory");
    }
    if (!found)
        return trx_error_set(err, 0, "--thread %s: no thread of that name in the trace", spec);
    return 0;
}

/* Case-insensitive equality, ignoring leading and trailing spaces of `name`. */
static bool same_name(const char *name, const char *spec)
{
    while (*name == ' ')
        name++;
    size_t n = strlen(name);
    while (n > 0 && name[n - 1] == ' ')
        n--;
    if (n == 0 || strlen(spec) != n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)name[i]) != tolower((unsigned char)spec[i]))
            return false;
    return true;
}

static void keep_id(trx_event_filter *f, uint32_t id)
{
    f->ids[id >> 3] |= (uint8_t)(1u << (id & 7u));
}

int trx_event_filter_add_event(trx_event_filter *f, const char *spec, const trx_custom_events *ce,
                               trx_error *err)
{
    if (!f->ids && !(f->ids = calloc(ID_COUNT / 8, 1)))
        return trx_error_set(err, 0, "out of memory");
    uint32_t id;
    if (parse_number(spec, true, &id)) {
        if (id >= ID_COUNT)
            return trx_error_set(err, 0, "--event %s: event ids go from 0 to 65535", spec);
        keep_id(f, id);
        return 0;
    }
    bool found = false;
    for (id = 0; id < ID_COUNT; id++) {
        const trx_event_type *e = trx_catalog_find(id);
        if (!e)
            continue;
        const char *symbol = e->symbol;
        bool match = same_name(e->name, spec) || same_name(symbol, spec) ||
                     same_name(e->gui_name, spec) ||
                     (strncmp(symbol, "TML_", 4) == 0 && same_name(symbol + 4, spec));
        if (match) {
            keep_id(f, id);
            found = true;
        }
    }
    for (uint32_t i = 0; ce && i < ce->count; i++) {
        if (ce->items[i].id < ID_COUNT && same_name(ce->items[i].name, spec)) {
            keep_id(f, ce->items[i].id);
            found = true;
        }
    }
    if (!found)
        return trx_error_set(err, 0, "--event %s: no event of that name or id", spec);
    return 0;
}

int trx_event_filter_add_core(trx_event_filter *f, const char *spec, trx_error *err)
{
    uint32_t core;
    if (spec[0] == '0' && (spec[1] == 'x' || spec[1] == 'X'))
        return trx_error_set(err, 0, "--core %s: a core is a decimal number from 0 to 255", spec);
    if (!parse_number(spec, true, &core) || core > 255)
        return trx_error_set(err, 0, "--core %s: a core is a decimal number from 0 to 255", spec);
    f->have_cores = true;
    f->cores[core >> 3] |= (uint8_t)(1u << (core & 7u));
    return 0;
}

bool trx_event_filter_match(const trx_event_filter *f, const trx_event *ev)
{
    if (f->no_synthetic && ev->synthetic)
        return false;
    if (f->have_from && ev->ticks < f->from)
        return false;
    if (f->have_to && ev->ticks > f->to)
        return false;
    if (f->have_cores && (ev->core > 255 || !(f->cores[ev->core >> 3] & (1u << (ev->core & 7u)))))
        return false;
    if (f->ids && !(f->ids[(ev->id & 0xFFFFu) >> 3] & (1u << (ev->id & 7u))))
        return false;
    if (f->thread_count > 0) {
        uint32_t i = 0;
        while (i < f->thread_count && f->threads[i] != ev->context)
            i++;
        if (i == f->thread_count)
            return false;
    }
    return true;
}

bool trx_event_filter_done(const trx_event_filter *f, const trx_event *ev)
{
    return f->have_to && ev->ticks > f->to;
}
