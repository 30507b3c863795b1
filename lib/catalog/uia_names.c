/*
 * uia_names.c - the UIA names table: loading a names file (one directive a
 * line: "default-module ID", "module ID NAME", "event MODULE EVENT NAME
 * [FORMAT...]"; '#' comments; ids decimal or 0x hex) or dispatching XML
 * content to the .uia.xml reader; lookups by binary search: by (module,
 * event), and by event id alone (a second index) for records whose logging
 * module is not the one that declared the event.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/uia_names_internal.h"

/* A NUL-terminated copy of n bytes (strndup is not in MinGW). */
static char *copy_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

int trx_uia_names_add_event(trx_uia_names *n, uint32_t module, uint32_t event, const char *name,
                            size_t name_len, const char *format, size_t format_len)
{
    if (n->event_count == n->event_cap) {
        uint32_t cap = n->event_cap ? n->event_cap * 2 : 32;
        trx_uia_name *e = realloc(n->events, (size_t)cap * sizeof *e);
        if (!e)
            return -1;
        n->events = e;
        n->event_cap = cap;
    }
    trx_uia_name *e = &n->events[n->event_count];
    e->module = module;
    e->event = event;
    e->name = copy_n(name, name_len);
    e->format = format ? copy_n(format, format_len) : NULL;
    e->long_name = NULL;
    if (!e->name || (format && !e->format)) {
        free(e->name);
        free(e->format);
        return -1;
    }
    n->event_count++;
    return 0;
}

int trx_uia_names_add_module(trx_uia_names *n, uint32_t id, const char *name, size_t len)
{
    if (n->module_count == n->module_cap) {
        uint32_t cap = n->module_cap ? n->module_cap * 2 : 16;
        trx_uia_module *m = realloc(n->modules, (size_t)cap * sizeof *m);
        if (!m)
            return -1;
        n->modules = m;
        n->module_cap = cap;
    }
    char *s = copy_n(name, len);
    if (!s)
        return -1;
    n->modules[n->module_count++] = (trx_uia_module){id, s};
    return 0;
}

static int cmp_event(const void *a, const void *b)
{
    const trx_uia_name *x = a, *y = b;
    if (x->module != y->module)
        return x->module < y->module ? -1 : 1;
    return x->event < y->event ? -1 : x->event > y->event;
}

static int cmp_module(const void *a, const void *b)
{
    const trx_uia_module *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* An entry's place in the by-event-id index, while it is sorted. */
typedef struct event_key {
    uint32_t event, module, index;
} event_key;

static int cmp_event_key(const void *a, const void *b)
{
    const event_key *x = a, *y = b;
    if (x->event != y->event)
        return x->event < y->event ? -1 : 1;
    return x->module < y->module ? -1 : x->module > y->module;
}

int trx_uia_names_sort(trx_uia_names *n)
{
    if (n->event_count)
        qsort(n->events, n->event_count, sizeof *n->events, cmp_event);
    if (n->module_count)
        qsort(n->modules, n->module_count, sizeof *n->modules, cmp_module);
    free(n->by_event);
    n->by_event = NULL;
    if (!n->event_count)
        return 0;
    event_key *keys = malloc((size_t)n->event_count * sizeof *keys);
    if (!keys || !(n->by_event = malloc((size_t)n->event_count * sizeof *n->by_event))) {
        free(keys);
        return -1;
    }
    for (uint32_t i = 0; i < n->event_count; i++)
        keys[i] = (event_key){n->events[i].event, n->events[i].module, i};
    qsort(keys, n->event_count, sizeof *keys, cmp_event_key);
    for (uint32_t i = 0; i < n->event_count; i++)
        n->by_event[i] = keys[i].index;
    free(keys);
    return 0;
}

/* Parses an id (decimal or 0x hex, up to 32 bits) at *p; advances *p. */
static bool parse_id(const char **p, const char *end, uint32_t *out)
{
    const char *s = *p;
    uint64_t v = 0;
    int base = 10, digits = 0;
    if (end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    for (; s < end; s++, digits++) {
        int d;
        if (*s >= '0' && *s <= '9')
            d = *s - '0';
        else if (base == 16 && *s >= 'a' && *s <= 'f')
            d = *s - 'a' + 10;
        else if (base == 16 && *s >= 'A' && *s <= 'F')
            d = *s - 'A' + 10;
        else
            break;
        v = v * (uint64_t)base + (uint64_t)d;
        if (v > UINT32_MAX)
            return false;
    }
    if (!digits || (s < end && *s != ' ' && *s != '\t'))
        return false;
    *out = (uint32_t)v;
    *p = s;
    return true;
}

static void skip_blanks(const char **p, const char *end)
{
    while (*p < end && (**p == ' ' || **p == '\t'))
        (*p)++;
}

/* The next blank-separated word at *p: its start and length. */
static size_t word(const char **p, const char *end, const char **start)
{
    skip_blanks(p, end);
    *start = *p;
    while (*p < end && **p != ' ' && **p != '\t')
        (*p)++;
    return (size_t)(*p - *start);
}

static int parse_names_file(trx_uia_names *n, const char *text, size_t size, trx_error *err)
{
    const char *p = text, *end = text + size;
    while (p < end) {
        const char *line = p, *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        const char *le = eol;
        if (le > line && le[-1] == '\r')
            le--;
        p = eol < end ? eol + 1 : end;
        const char *q = line, *w;
        size_t wl = word(&q, le, &w);
        if (wl == 0 || *w == '#')
            continue;
        uint64_t off = (uint64_t)(line - text);
        uint32_t a, b;
        if (wl == 14 && memcmp(w, "default-module", 14) == 0) {
            skip_blanks(&q, le);
            if (!parse_id(&q, le, &a))
                return trx_error_set(err, off, "default-module: expected a module id");
            n->default_module = a;
        } else if (wl == 6 && memcmp(w, "module", 6) == 0) {
            skip_blanks(&q, le);
            const char *nm;
            if (!parse_id(&q, le, &a))
                return trx_error_set(err, off, "module: expected a module id");
            size_t nl = word(&q, le, &nm);
            if (!nl)
                return trx_error_set(err, off, "module: expected a name after the id");
            if (trx_uia_names_add_module(n, a, nm, nl) < 0)
                return trx_error_set(err, off, "out of memory");
        } else if (wl == 5 && memcmp(w, "event", 5) == 0) {
            skip_blanks(&q, le);
            if (!parse_id(&q, le, &a))
                return trx_error_set(err, off, "event: expected a module id");
            skip_blanks(&q, le);
            if (!parse_id(&q, le, &b))
                return trx_error_set(err, off, "event: expected an event id after the module id");
            const char *nm;
            size_t nl = word(&q, le, &nm);
            if (!nl)
                return trx_error_set(err, off, "event: expected a name after the ids");
            skip_blanks(&q, le);
            if (trx_uia_names_add_event(n, a, b, nm, nl, q < le ? q : NULL, (size_t)(le - q)) < 0)
                return trx_error_set(err, off, "out of memory");
        } else {
            return trx_error_set(err, off,
                                 "expected 'default-module', 'module' or 'event' at the start of "
                                 "the line");
        }
    }
    return 0;
}

int trx_uia_names_parse(trx_uia_names *n, const char *text, size_t size, trx_error *err)
{
    memset(n, 0, sizeof *n);
    size_t i = 0;
    while (i < size && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
        i++;
    int rc = i < size && text[i] == '<' ? trx_uia_meta_xml_parse(n, text, size, err)
                                        : parse_names_file(n, text, size, err);
    if (rc == 0 && trx_uia_names_sort(n) < 0)
        rc = trx_error_set(err, 0, "out of memory");
    if (rc != 0) {
        trx_uia_names_free(n);
        return -1;
    }
    return 0;
}

int trx_uia_names_load(trx_uia_names *n, const char *path, trx_error *err)
{
    memset(n, 0, sizeof *n);
    FILE *f = fopen(path, "rb");
    if (!f)
        return trx_error_set(err, 0, "cannot open: %s", strerror(errno));
    size_t cap = 65536, len = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            fclose(f);
            return trx_error_set(err, len, "out of memory");
        }
        len += fread(buf + len, 1, cap - len, f);
        if (len < cap)
            break;
        char *nb = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
        if (!nb)
            free(buf);
        buf = nb;
        cap *= 2;
    }
    bool bad = ferror(f) != 0;
    fclose(f);
    if (bad) {
        free(buf);
        return trx_error_set(err, len, "read error");
    }
    int rc = trx_uia_names_parse(n, buf, len, err);
    free(buf);
    return rc;
}

const trx_uia_name *trx_uia_names_find_exact(const trx_uia_names *n, uint32_t module,
                                             uint32_t event)
{
    if (!n || !n->event_count)
        return NULL;
    trx_uia_name key = {module, event, NULL, NULL, NULL};
    return bsearch(&key, n->events, n->event_count, sizeof key, cmp_event);
}

const trx_uia_name *trx_uia_names_find(const trx_uia_names *n, uint32_t module, uint32_t event)
{
    const trx_uia_name *exact = trx_uia_names_find_exact(n, module, event);
    if (exact || !n || !n->by_event)
        return exact;
    uint32_t lo = 0, hi = n->event_count; /* the first entry with an event id >= event */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (n->events[n->by_event[mid]].event < event)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo >= n->event_count || n->events[n->by_event[lo]].event != event)
        return NULL;
    if (lo + 1 < n->event_count && n->events[n->by_event[lo + 1]].event == event)
        return NULL; /* not unique, and none is this module's */
    return &n->events[n->by_event[lo]];
}

const char *trx_uia_module_name(const trx_uia_names *n, uint32_t module)
{
    if (!n || !n->module_count)
        return NULL;
    trx_uia_module key = {module, NULL};
    const trx_uia_module *m = bsearch(&key, n->modules, n->module_count, sizeof key, cmp_module);
    return m ? m->name : NULL;
}

void trx_uia_names_free(trx_uia_names *n)
{
    for (uint32_t i = 0; i < n->event_count; i++) {
        free(n->events[i].name);
        free(n->events[i].format);
        free(n->events[i].long_name);
    }
    for (uint32_t i = 0; i < n->module_count; i++)
        free(n->modules[i].name);
    free(n->events);
    free(n->modules);
    free(n->by_event);
    memset(n, 0, sizeof *n);
}

bool trx_uia_name_is(const trx_uia_name *e, const char *tail)
{
    size_t t = strlen(tail);
    if (e->long_name) {
        size_t l = strlen(e->long_name);
        if (l == t ? strcmp(e->long_name, tail) == 0
                   : l > t && e->long_name[l - t - 1] == '.' &&
                         strcmp(e->long_name + l - t, tail) == 0)
            return true;
    }
    if (strcmp(e->name, tail) == 0)
        return true;
    if (strlen(e->name) != t)
        return false;
    for (size_t i = 0; i < t; i++)
        if (e->name[i] != (tail[i] == '.' ? '_' : tail[i]))
            return false;
    return true;
}
