/*
 * description_format.h - the grammar of a trx event description (the
 * project's own format, docs/event-descriptions.md), shared by the
 * build-time generator of the built-in catalogues (tools/gen_catalog.c) and
 * the run-time loader (event_description.c), so that both read a file alike.
 *
 * A description is CSV text without quoting: '#' lines are comments, blank
 * lines are skipped, the first other line names the columns. `id` and `name`
 * are required; `meaning` and `field1`..`field4` are optional; any other
 * column is kept for its own reader (the ThreadX catalogue's TraceX columns)
 * and ignored otherwise. A field cell is "caption[:type[:role]]", empty when
 * the event does not use that information word.
 *
 * Header-only (static inline) so that the generator, which runs on the build
 * machine, needs no library.
 */
#ifndef TRX_DESCRIPTION_FORMAT_H
#define TRX_DESCRIPTION_FORMAT_H

#include <stdint.h>
#include <string.h>

#include "trx/catalog.h"

/* Names of trx_event_meaning, trx_field_type and trx_field_role values, in
 * their order ("" for the zero value of a meaning and a role). */
static const char *const trx_desc_meanings[TRX_MEANINGS] = {
    "",         "resume", "suspend", "isr_enter", "isr_exit", "time_slice",
    "running",  "yield",  "sleep",   "create",    "delete",   "lock_get",
    "lock_put", "send",   "receive", "signal",    "wait",     "priority_change"};
static const char *const trx_desc_types[TRX_FIELD_TYPES] = {"u32", "i32", "hex"};
static const char *const trx_desc_roles[TRX_ROLES] = {"",        "thread", "object", "priority",
                                                      "timeout", "count",  "size",   "address",
                                                      "stack",   "string", "state"};

/* Index of `word` in names[0..n), or -1. */
static inline int trx_desc_lookup(const char *const *names, int n, const char *word)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], word) == 0)
            return i;
    return -1;
}

/* Splits NUL-terminated `line` in place at its commas into cells[0..max);
 * the number of cells, or -1 when there are more than max. */
static inline int trx_desc_split(char *line, char **cells, int max)
{
    int n = 0;
    for (char *p = line;;) {
        if (n == max)
            return -1;
        cells[n++] = p;
        char *comma = strchr(p, ',');
        if (!comma)
            return n;
        *comma = '\0';
        p = comma + 1;
    }
}

/* Reads a field cell "caption[:type[:role]]" in place: `cell` keeps the
 * caption. The type defaults to hex for the roles that hold an address and
 * to u32 otherwise. 0, or -1 with *what naming the bad part. */
static inline int trx_desc_field(char *cell, uint8_t *type, uint8_t *role, const char **what)
{
    char *t = strchr(cell, ':');
    char *r = t ? strchr(t + 1, ':') : NULL;
    *type = TRX_FIELD_U32;
    *role = TRX_ROLE_NONE;
    if (t)
        *t++ = '\0';
    if (r)
        *r++ = '\0';
    if (r && strchr(r, ':')) {
        *what = "more than caption:type:role";
        return -1;
    }
    if (r && r[0]) {
        int k = trx_desc_lookup(trx_desc_roles, TRX_ROLES, r);
        if (k <= 0) {
            *what = "a role (thread, object, priority, timeout, count, size, address, stack, "
                    "string, state)";
            return -1;
        }
        *role = (uint8_t)k;
    }
    if (*role == TRX_ROLE_THREAD || *role == TRX_ROLE_OBJECT || *role == TRX_ROLE_ADDRESS ||
        *role == TRX_ROLE_STACK || *role == TRX_ROLE_STRING)
        *type = TRX_FIELD_HEX;
    if (t && t[0]) {
        int k = trx_desc_lookup(trx_desc_types, TRX_FIELD_TYPES, t);
        if (k < 0) {
            *what = "a type (u32, i32, hex)";
            return -1;
        }
        *type = (uint8_t)k;
    }
    if (!cell[0] && (t || r)) {
        *what = "a caption before the type";
        return -1;
    }
    return 0;
}

/* The meaning named `word` ("" = none), or -1. */
static inline int trx_desc_meaning(const char *word)
{
    return trx_desc_lookup(trx_desc_meanings, TRX_MEANINGS, word);
}

#endif
