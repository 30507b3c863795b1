/*
 * event_description.c - reads a trx event description (the project's own
 * format, docs/event-descriptions.md; grammar in description_format.h) into
 * event definitions: per id its name, meaning and up to four typed fields
 * with their roles. One line at a time into a fixed buffer: nothing is
 * sized by a value in the file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/custom_events_internal.h"
#include "catalog/description_format.h"

#define LINE_MAX_BYTES 4096
#define MAX_COLUMNS 64

/* Where the known columns are (-1: absent). */
typedef struct columns {
    int id, name, meaning, field[4], count;
} columns;

static const char *const field_columns[4] = {"field1", "field2", "field3", "field4"};

const char *trx_event_meaning_name(uint32_t meaning)
{
    return meaning < TRX_MEANINGS ? trx_desc_meanings[meaning] : "?";
}

const char *trx_field_type_name(uint32_t type)
{
    return type < TRX_FIELD_TYPES ? trx_desc_types[type] : "?";
}

const char *trx_field_role_name(uint32_t role)
{
    return role < TRX_ROLES ? trx_desc_roles[role] : "?";
}

/* The next line of text[pos..size) without its end of line: its length, and
 * *next the position after it. */
static size_t next_line(const char *text, size_t size, size_t pos, size_t *next)
{
    const char *nl = memchr(text + pos, '\n', size - pos);
    size_t end = nl ? (size_t)(nl - text) : size;
    *next = nl ? end + 1 : size;
    size_t len = end - pos;
    if (len > 0 && text[pos + len - 1] == '\r')
        len--;
    return len;
}

static bool skipped(const char *line, size_t len)
{
    if (len > 0 && line[0] == '#')
        return true;
    for (size_t i = 0; i < len; i++)
        if (line[i] != ' ' && line[i] != '\t')
            return false;
    return true;
}

bool trx_is_event_description(const char *text, size_t size)
{
    size_t pos = 0, next;
    while (pos < size) {
        size_t len = next_line(text, size, pos, &next);
        if (!skipped(text + pos, len))
            return len >= 3 && memcmp(text + pos, "id,", 3) == 0;
        pos = next;
    }
    return false;
}

static int read_header(char **cells, int n, columns *c, uint64_t offset, unsigned lineno,
                       trx_error *err)
{
    c->id = c->name = c->meaning = -1;
    for (int k = 0; k < 4; k++)
        c->field[k] = -1;
    c->count = n;
    for (int i = 0; i < n; i++) {
        int *slot = NULL;
        if (strcmp(cells[i], "id") == 0)
            slot = &c->id;
        else if (strcmp(cells[i], "name") == 0)
            slot = &c->name;
        else if (strcmp(cells[i], "meaning") == 0)
            slot = &c->meaning;
        for (int k = 0; k < 4; k++)
            if (strcmp(cells[i], field_columns[k]) == 0)
                slot = &c->field[k];
        if (slot && *slot >= 0)
            return trx_error_set(err, offset, "line %u: column \"%s\" named twice", lineno,
                                 cells[i]);
        if (slot)
            *slot = i;
    }
    if (c->id < 0 || c->name < 0)
        return trx_error_set(err, offset, "line %u: the header row needs the columns id and name",
                             lineno);
    return 0;
}

/* Copies `s` into dst[cap]; false when it does not fit. */
static bool copy_cell(char *dst, size_t cap, const char *s)
{
    size_t n = strlen(s);
    if (n >= cap)
        return false;
    memcpy(dst, s, n + 1);
    return true;
}

/* Up to three capitals from the name's words and camel humps (TraceX's
 * abbreviation): "Motor Start" MS, "xTaskNotify" XTN. */
static void abbreviate(const char *name, char out[4])
{
    int n = 0;
    bool word_start = true, lower = false;
    for (const char *p = name; *p && n < 3; p++) {
        bool upper = *p >= 'A' && *p <= 'Z', small = *p >= 'a' && *p <= 'z';
        bool alnum = upper || small || (*p >= '0' && *p <= '9');
        if (alnum && (word_start || (upper && lower)))
            out[n++] = small ? (char)(*p - 'a' + 'A') : *p;
        word_start = !alnum;
        lower = small;
    }
    if (n == 0)
        out[n++] = 'U';
    out[n] = '\0';
}

static int read_row(char **cells, const columns *c, trx_custom_event *ev, uint64_t offset,
                    unsigned lineno, trx_error *err)
{
    memset(ev, 0, sizeof *ev);
    const char *id = cells[c->id];
    unsigned long v = 0;
    size_t digits = strspn(id, "0123456789");
    if (digits == 0 || digits > 5 || id[digits] != '\0' || (v = strtoul(id, NULL, 10)) > 65535)
        return trx_error_set(err, offset, "line %u: id \"%s\" is not a number from 0 to 65535",
                             lineno, id);
    ev->id = (uint32_t)v;
    if (!cells[c->name][0] || !copy_cell(ev->name, sizeof ev->name, cells[c->name]))
        return trx_error_set(err, offset, "line %u: name must be 1 to %zu characters", lineno,
                             sizeof ev->name - 1);
    abbreviate(ev->name, ev->abbreviation);
    if (c->meaning >= 0) {
        int m = trx_desc_meaning(cells[c->meaning]);
        if (m < 0)
            return trx_error_set(err, offset, "line %u: meaning \"%s\" is none of trx's (%s)",
                                 lineno, cells[c->meaning], "docs/event-descriptions.md");
        ev->meaning = (uint8_t)m;
    }
    for (int k = 0; k < 4; k++) {
        if (c->field[k] < 0)
            continue;
        char *cell = cells[c->field[k]];
        const char *what = "";
        if (trx_desc_field(cell, &ev->type[k], &ev->role[k], &what) != 0)
            return trx_error_set(err, offset, "line %u: field%d expects %s", lineno, k + 1, what);
        if (!copy_cell(ev->label[k], sizeof ev->label[k], cell))
            return trx_error_set(err, offset, "line %u: field%d's caption is longer than %zu",
                                 lineno, k + 1, sizeof ev->label[k] - 1);
    }
    return 0;
}

int trx_event_description_parse(trx_custom_events *ce, const char *text, size_t size,
                                trx_error *err)
{
    char line[LINE_MAX_BYTES + 1];
    char *cells[MAX_COLUMNS];
    columns c = {.count = 0};
    uint32_t cap = 0;
    unsigned lineno = 0;
    size_t pos = 0, next;
    while (pos < size) {
        size_t len = next_line(text, size, pos, &next);
        lineno++;
        if (!skipped(text + pos, len)) {
            if (len > LINE_MAX_BYTES)
                return trx_error_set(err, pos, "line %u: longer than %u bytes", lineno,
                                     LINE_MAX_BYTES);
            if (memchr(text + pos, '\0', len) || memchr(text + pos, '"', len))
                return trx_error_set(err, pos,
                                     "line %u: a NUL byte or a quote (no quoting in "
                                     "a description)",
                                     lineno);
            memcpy(line, text + pos, len);
            line[len] = '\0';
            int n = trx_desc_split(line, cells, MAX_COLUMNS);
            if (n < 0)
                return trx_error_set(err, pos, "line %u: more than %d columns", lineno,
                                     MAX_COLUMNS);
            if (c.count == 0) {
                if (read_header(cells, n, &c, pos, lineno, err) != 0)
                    return -1;
            } else {
                if (n != c.count)
                    return trx_error_set(err, pos, "line %u: %d cells, the header has %d", lineno,
                                         n, c.count);
                trx_custom_event ev;
                if (read_row(cells, &c, &ev, pos, lineno, err) != 0)
                    return -1;
                if (trx_custom_events_add(ce, &cap, &ev) != 0)
                    return trx_error_set(err, pos, "line %u: out of memory", lineno);
            }
        }
        pos = next;
    }
    if (c.count == 0)
        return trx_error_set(err, size, "no header row (id,name,...)");
    if (trx_custom_events_sort(ce) != 0)
        return trx_error_set(err, size, "out of memory");
    return 0;
}
