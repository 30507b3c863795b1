/*
 * custom_events.c - reads a TraceX custom-event file (.trxc, tracex.md 5.3;
 * a trx event description goes to event_description.c):
 * lines before one exactly "Start" are comments; each line up to one exactly
 * "End" defines a user event as at least 13 comma-separated fields:
 *   number, name, abbreviation, (r, g, b), (r, g, b), label1, ..., label4
 * Fields are not trimmed (TraceX keeps leading spaces). Colours are checked
 * as TraceX checks them but not kept. Differences from TraceX: blank lines
 * between Start and End are skipped instead of rejected, names/labels
 * longer than 63 characters are rejected (TraceX has no limit), and so are
 * event numbers outside the user-event range 4096-65535 (no user event can
 * have them).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "catalog/custom_events_internal.h"

#define TRXC_MAX_FILE (16u << 20)
#define TRXC_MIN_FIELDS 13
#define TRXC_USER_EVENT_LAST 65535u /* ThreadX's TX_TRACE_USER_EVENT_END */

/* A field: pointer into the line and its length. */
typedef struct field {
    const char *p;
    size_t n;
} field;

/* True when the field is a number C# double.Parse would accept (roughly:
 * optional white space around a decimal number). */
static bool is_number(const char *p, size_t n, double *value)
{
    char buf[64];
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, p, n);
    buf[n] = '\0';
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (end == buf || errno == ERANGE)
        return false;
    while (*end == ' ' || *end == '\t')
        end++;
    if (*end != '\0' || v != v || v > 1e300 || v < -1e300) /* NaN, infinities */
        return false;
    /* strtod also takes hex and "inf"; double.Parse does not. */
    for (size_t i = 0; i < n; i++)
        if (buf[i] == 'x' || buf[i] == 'X')
            return false;
    if (value)
        *value = v;
    return true;
}

/* The field without the first occurrence of `c`, if it has one, as a number. */
static bool is_number_without(field f, char c)
{
    char buf[64];
    if (f.n >= sizeof buf)
        return false;
    size_t k = 0;
    bool removed = false;
    for (size_t i = 0; i < f.n; i++) {
        if (f.p[i] == c && !removed) {
            removed = true;
            continue;
        }
        buf[k++] = f.p[i];
    }
    return removed && is_number(buf, k, NULL);
}

static bool copy_text(char *dst, size_t cap, field f)
{
    if (f.n == 0 || f.n >= cap)
        return false;
    memcpy(dst, f.p, f.n);
    dst[f.n] = '\0';
    return true;
}

/* Parses one definition line; -1 with `err` set (offset of the line). */
static int parse_definition(const char *line, size_t len, uint64_t offset, unsigned lineno,
                            trx_custom_event *out, trx_error *err)
{
    field f[TRXC_MIN_FIELDS];
    size_t count = 0, start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == len || line[i] == ',') {
            if (count < TRXC_MIN_FIELDS)
                f[count] = (field){line + start, i - start};
            count++;
            start = i + 1;
        }
    }
    if (count < TRXC_MIN_FIELDS)
        return trx_error_set(err, offset,
                             "line %u: custom event needs at least 13 comma-separated fields, "
                             "found %zu",
                             lineno, count);
    double number;
    if (!is_number(f[0].p, f[0].n, &number))
        return trx_error_set(err, offset, "line %u: event number is not a number", lineno);
    if (number < 0 || number > 4294967295.0 || number != (double)(uint64_t)number)
        return trx_error_set(err, offset,
                             "line %u: event number must be a whole number from 0 to 4294967295",
                             lineno);
    if (number < TRX_USER_EVENT_START || number > TRXC_USER_EVENT_LAST)
        return trx_error_set(err, offset,
                             "line %u: event number %.0f is outside the user-event range %u to %u",
                             lineno, number, TRX_USER_EVENT_START, TRXC_USER_EVENT_LAST);
    memset(out, 0, sizeof *out);
    out->id = (uint32_t)number;
    if (f[1].n == 0)
        return trx_error_set(err, offset, "line %u: event name is empty", lineno);
    if (!copy_text(out->name, sizeof out->name, f[1]))
        return trx_error_set(err, offset, "line %u: event name is longer than %zu characters",
                             lineno, sizeof out->name - 1);
    if (!copy_text(out->abbreviation, sizeof out->abbreviation, f[2]))
        return trx_error_set(err, offset, "line %u: abbreviation must be 1 to 3 characters",
                             lineno);
    for (int triple = 0; triple < 2; triple++) {
        const field *c = &f[3 + 3 * triple];
        const char *which = triple == 0 ? "first" : "second";
        if (!is_number_without(c[0], '('))
            return trx_error_set(err, offset, "line %u: %s colour must start with '(' and a number",
                                 lineno, which);
        if (!is_number(c[1].p, c[1].n, NULL))
            return trx_error_set(err, offset, "line %u: %s colour's green value is not a number",
                                 lineno, which);
        if (!is_number_without(c[2], ')'))
            return trx_error_set(err, offset, "line %u: %s colour must end with a number and ')'",
                                 lineno, which);
    }
    for (int k = 0; k < 4; k++) {
        if (f[9 + k].n == 0)
            return trx_error_set(err, offset, "line %u: label %d is empty", lineno, k + 1);
        if (!copy_text(out->label[k], sizeof out->label[k], f[9 + k]))
            return trx_error_set(err, offset, "line %u: label %d is longer than %zu characters",
                                 lineno, k + 1, sizeof out->label[k] - 1);
    }
    return 0;
}

/* Sort key: the id, then the order of definition. */
typedef struct order {
    uint32_t id, seq;
} order;

static int compare_order(const void *a, const void *b)
{
    const order *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int trx_custom_events_sort(trx_custom_events *ce)
{
    if (ce->count < 2)
        return 0;
    order *ord = malloc(ce->count * sizeof *ord);
    trx_custom_event *out = malloc(ce->count * sizeof *out);
    if (!ord || !out) {
        free(ord);
        free(out);
        return -1;
    }
    for (uint32_t i = 0; i < ce->count; i++)
        ord[i] = (order){ce->items[i].id, i};
    qsort(ord, ce->count, sizeof *ord, compare_order);
    uint32_t n = 0;
    for (uint32_t i = 0; i < ce->count; i++)
        if (i + 1 == ce->count || ord[i + 1].id != ord[i].id)
            out[n++] = ce->items[ord[i].seq];
    free(ord);
    free(ce->items);
    ce->items = out;
    ce->count = n;
    return 0;
}

int trx_custom_events_add(trx_custom_events *ce, uint32_t *cap, const trx_custom_event *ev)
{
    if (ce->count == *cap) {
        if (*cap > UINT32_MAX / 2 / sizeof *ev)
            return -1;
        uint32_t n = *cap ? *cap * 2 : 16;
        trx_custom_event *p = realloc(ce->items, n * sizeof *p);
        if (!p)
            return -1;
        ce->items = p;
        *cap = n;
    }
    ce->items[ce->count++] = *ev;
    return 0;
}

/* True when the first `len` bytes of `line` are all blanks or tabs. */
static bool is_blank(const char *line, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (line[i] != ' ' && line[i] != '\t')
            return false;
    return true;
}

/* Parses the whole text; definitions go to `ce`. */
static int parse_text(trx_custom_events *ce, const char *text, size_t size, trx_error *err)
{
    uint32_t cap = 0;
    bool started = false, ended = false;
    unsigned lineno = 0;
    size_t pos = 0;
    while (pos < size && !ended) {
        const char *nl = memchr(text + pos, '\n', size - pos);
        size_t end = nl ? (size_t)(nl - text) : size;
        size_t len = end - pos;
        const char *line = text + pos;
        lineno++;
        if (len > 0 && line[len - 1] == '\r')
            len--;
        if (memchr(line, '\0', len))
            return trx_error_set(err, pos, "line %u: NUL byte in a text file", lineno);
        if (!started) {
            started = len == 5 && memcmp(line, "Start", 5) == 0;
        } else if (len == 3 && memcmp(line, "End", 3) == 0) {
            ended = true;
        } else if (!is_blank(line, len)) {
            trx_custom_event ev;
            if (parse_definition(line, len, pos, lineno, &ev, err) != 0)
                return -1;
            if (trx_custom_events_add(ce, &cap, &ev) != 0)
                return trx_error_set(err, pos, "line %u: out of memory", lineno);
        }
        pos = nl ? end + 1 : size;
    }
    if (!started || !ended)
        return trx_error_set(err, size,
                             "custom event file needs a line \"Start\" and a line "
                             "\"End\" around the definitions (missing %s)",
                             started ? "End" : "Start");
    if (trx_custom_events_sort(ce) != 0)
        return trx_error_set(err, size, "out of memory");
    return 0;
}

int trx_custom_events_parse(trx_custom_events *ce, const char *text, size_t size, trx_error *err)
{
    ce->items = NULL;
    ce->count = 0;
    int rc = trx_is_event_description(text, size) ? trx_event_description_parse(ce, text, size, err)
                                                  : parse_text(ce, text, size, err);
    if (rc != 0)
        trx_custom_events_free(ce);
    return rc;
}

int trx_custom_events_load(trx_custom_events *ce, const char *path, trx_error *err)
{
    ce->items = NULL;
    ce->count = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return trx_error_set(err, 0, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return trx_error_set(err, 0, "not a regular file");
    }
    if ((uint64_t)st.st_size > TRXC_MAX_FILE) {
        fclose(f);
        return trx_error_set(err, 0, "event definitions larger than %u bytes", TRXC_MAX_FILE);
    }
    size_t size = (size_t)st.st_size;
    char *text = malloc(size + 1);
    if (!text) {
        fclose(f);
        return trx_error_set(err, 0, "out of memory");
    }
    size_t got = fread(text, 1, size, f);
    int read_error = ferror(f);
    fclose(f);
    if (read_error || got != size) {
        free(text);
        return trx_error_set(err, got, "read error");
    }
    int rc = trx_custom_events_parse(ce, text, size, err);
    free(text);
    return rc;
}

const trx_custom_event *trx_custom_events_find(const trx_custom_events *ce, uint32_t id)
{
    if (!ce || ce->count == 0)
        return NULL;
    uint32_t lo = 0, hi = ce->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (ce->items[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < ce->count && ce->items[lo].id == id ? &ce->items[lo] : NULL;
}

void trx_custom_events_free(trx_custom_events *ce)
{
    if (ce) {
        free(ce->items);
        ce->items = NULL;
        ce->count = 0;
    }
}
