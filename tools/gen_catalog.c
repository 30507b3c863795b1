/*
 * gen_catalog.c - build-time generator of the built-in event descriptions
 * (docs/event-descriptions.md; grammar in lib/catalog/description_format.h):
 *
 *   gen_catalog events.csv out.c                 the ThreadX/FileX/NetX/USBX
 *       catalogue (lib/catalog/events.csv; its TraceX columns component,
 *       symbol, filter_group, gui_name and dump_string_at_id too): C tables
 *       for lib/catalog/catalog.c - the rows, an id -> row index for ids
 *       0..max, and the 1000 names TraceX's raw dump prints.
 *   gen_catalog --vocabulary NAME file.csv out.c  an RTOS's own names (e.g.
 *       recorder/integrations/freertos/trx_freertos_events.csv):
 *       trx_vocabulary_NAME_[] for lib/catalog/vocabulary.h.
 *
 * Dump names. TraceX prints tml_event_type[id] for ids < 1000. That table
 * is misaligned from id 631 on (a missing separator joins two labels at 631
 * and 672, surplus and missing entries elsewhere: research/tracex.md 3.4,
 * corpus/README.md), so many USBX ids print a neighbour's label. The CSV
 * column dump_string_at_id holds the printed literal of every id that has a
 * row. An id without a row prints "INVALID  " except the few listed in
 * row_less_literals below: what TraceX prints for them, read from its dump of
 * corpus/z_every_event_id.trx (which has every id 0..999 and is a golden
 * test, so this table is checked on every run).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/description_format.h"

#define MAX_CELLS 64
#define MAX_ROWS 4096
#define DUMP_IDS 1000
#define INVALID_NAME "INVALID  "

/* The columns this generator reads, by header name. */
enum {
    C_ID,
    C_NAME,
    C_MEANING,
    C_FIELD1,
    C_FIELD2,
    C_FIELD3,
    C_FIELD4,
    C_COMPONENT,
    C_SYMBOL,
    C_FILTER,
    C_GUI_NAME,
    C_DUMP,
    C_KNOWN
};
static const char *const column_names[C_KNOWN] = {
    "id",     "name",      "meaning", "field1",       "field2",   "field3",
    "field4", "component", "symbol",  "filter_group", "gui_name", "dump_string_at_id"};
static int column_at[C_KNOWN]; /* index in a row, -1: absent */
static int column_count;

typedef struct row {
    uint32_t id;
    char *cell[MAX_CELLS];
    uint32_t filter;
    uint8_t meaning, type[4], role[4];
} row;

/* The row's cell of column c ("" when the file has no such column). */
static const char *col(const row *r, int c)
{
    return column_at[c] >= 0 ? r->cell[column_at[c]] : "";
}

static row rows[MAX_ROWS];
static int row_count;
static int by_id[65536]; /* row index + 1, 0 = none */

static void die(const char *path, int line, const char *msg)
{
    fprintf(stderr, "gen_catalog: %s:%d: %s\n", path, line, msg);
    exit(1);
}

/* Filter-group symbol -> bit (tx_api.h, fx_api.h, nx_api.h, ux_api.h). */
static const struct {
    const char *symbol;
    uint32_t bit;
} filter_bits[] = {
    {"TX_TRACE_INTERNAL_EVENTS", 0x1u},
    {"TX_TRACE_BLOCK_POOL_EVENTS", 0x2u},
    {"TX_TRACE_BYTE_POOL_EVENTS", 0x4u},
    {"TX_TRACE_EVENT_FLAGS_EVENTS", 0x8u},
    {"TX_TRACE_INTERRUPT_CONTROL_EVENT", 0x10u},
    {"TX_TRACE_INTERRUPT_CONTROL_EVENTS", 0x10u},
    {"TX_TRACE_MUTEX_EVENTS", 0x20u},
    {"TX_TRACE_QUEUE_EVENTS", 0x40u},
    {"TX_TRACE_SEMAPHORE_EVENTS", 0x80u},
    {"TX_TRACE_THREAD_EVENTS", 0x100u},
    {"TX_TRACE_TIME_EVENTS", 0x200u},
    {"TX_TRACE_TIMER_EVENTS", 0x400u},
    {"TX_TRACE_USER_EVENTS", 0x80000000u},
    {"FX_TRACE_INTERNAL_EVENTS", 0x800u},
    {"FX_TRACE_MEDIA_EVENTS", 0x1000u},
    {"FX_TRACE_DIRECTORY_EVENTS", 0x2000u},
    {"FX_TRACE_FILE_EVENTS", 0x4000u},
    {"NX_TRACE_INTERNAL_EVENTS", 0x8000u},
    {"NX_TRACE_ARP_EVENTS", 0x10000u},
    {"NX_TRACE_ICMP_EVENTS", 0x20000u},
    {"NX_TRACE_IGMP_EVENTS", 0x40000u},
    {"NX_TRACE_IP_EVENTS", 0x80000u},
    {"NX_TRACE_PACKET_EVENTS", 0x100000u},
    {"NX_TRACE_RARP_EVENTS", 0x200000u},
    {"NX_TRACE_TCP_EVENTS", 0x400000u},
    {"NX_TRACE_UDP_EVENTS", 0x800000u},
    {"UX_TRACE_ERRORS", 0x1000000u},
    {"UX_TRACE_HOST_STACK_EVENTS", 0x2000000u},
    {"UX_TRACE_DEVICE_STACK_EVENTS", 0x4000000u},
    {"UX_TRACE_HOST_CONTROLLER_EVENTS", 0x8000000u},
    {"UX_TRACE_DEVICE_CONTROLLER_EVENTS", 0x10000000u},
    {"UX_TRACE_HOST_CLASS_EVENTS", 0x20000000u},
    {"UX_TRACE_DEVICE_CLASS_EVENTS", 0x40000000u},
};

/* "A|B (inferred)" -> bit(A) | bit(B); "" -> 0. Unknown symbols are fatal. */
static uint32_t parse_filter(const char *text, const char *path, int line)
{
    uint32_t bits = 0;
    const char *p = text;
    while (*p) {
        size_t n = strcspn(p, "| ");
        if (n > 0) {
            size_t i;
            for (i = 0; i < sizeof filter_bits / sizeof filter_bits[0]; i++)
                if (strlen(filter_bits[i].symbol) == n && memcmp(filter_bits[i].symbol, p, n) == 0)
                    break;
            if (i == sizeof filter_bits / sizeof filter_bits[0])
                die(path, line, "unknown filter_group symbol");
            bits |= filter_bits[i].bit;
        }
        p += n;
        if (*p == '|') {
            p++;
        } else if (*p == ' ') {
            if (strcmp(p, " (inferred)") != 0)
                die(path, line, "unexpected text in filter_group");
            break;
        }
    }
    return bits;
}

static char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    size_t cap = 1 << 18, len = 0;
    char *buf = malloc(cap + 1);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            cap *= 2;
            buf = realloc(buf, cap + 1);
        }
    }
    if (!buf || ferror(f)) {
        fprintf(stderr, "gen_catalog: cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    buf[len] = '\0';
    *size = len;
    return buf;
}

static void read_header(char *line, const char *path, int lineno, bool catalogue)
{
    char *cells[MAX_CELLS];
    column_count = trx_desc_split(line, cells, MAX_CELLS);
    if (column_count < 0)
        die(path, lineno, "too many columns");
    for (int c = 0; c < C_KNOWN; c++) {
        column_at[c] = -1;
        for (int i = 0; i < column_count; i++)
            if (strcmp(cells[i], column_names[c]) == 0) {
                if (column_at[c] >= 0)
                    die(path, lineno, "a column named twice");
                column_at[c] = i;
            }
        /* a vocabulary needs id and name; the catalogue its TraceX columns too */
        if (column_at[c] < 0 && (c <= C_NAME || (catalogue && c != C_MEANING)))
            die(path, lineno, "a required column is missing");
    }
}

static void read_row(char *line, const char *path, int lineno)
{
    if (row_count == MAX_ROWS)
        die(path, lineno, "too many rows");
    row *r = &rows[row_count];
    if (trx_desc_split(line, r->cell, MAX_CELLS) != column_count)
        die(path, lineno, "not as many cells as the header has columns");
    char *stop;
    unsigned long id = strtoul(col(r, C_ID), &stop, 10);
    if (*col(r, C_ID) == '\0' || *stop != '\0' || id > 65535)
        die(path, lineno, "bad id");
    if (by_id[id])
        die(path, lineno, "duplicate id");
    if (!col(r, C_NAME)[0])
        die(path, lineno, "empty name");
    int m = trx_desc_meaning(col(r, C_MEANING));
    if (m < 0)
        die(path, lineno, "unknown meaning");
    r->meaning = (uint8_t)m;
    for (int k = 0; k < 4; k++) {
        const char *what;
        if (column_at[C_FIELD1 + k] >= 0 &&
            trx_desc_field(r->cell[column_at[C_FIELD1 + k]], &r->type[k], &r->role[k], &what) != 0)
            die(path, lineno, what);
    }
    r->id = (uint32_t)id;
    r->filter = parse_filter(col(r, C_FILTER), path, lineno);
    by_id[id] = ++row_count;
}

/* Reads the description: '#' comments and blank lines skipped, the first
 * other line names the columns. */
static void parse_csv(char *text, const char *path, bool catalogue)
{
    int lineno = 0;
    bool header = true;
    char *p = text;
    while (*p) {
        char *end = strchr(p, '\n');
        char *next = end ? end + 1 : p + strlen(p);
        if (end)
            *end = '\0';
        if (end && end > p && end[-1] == '\r')
            end[-1] = '\0';
        lineno++;
        if (*p != '\0' && *p != '#') {
            if (header)
                read_header(p, path, lineno, catalogue);
            else
                read_row(p, path, lineno);
            header = false;
        }
        p = next;
    }
}

static const row *find(uint32_t id)
{
    return id < 65536 && by_id[id] ? &rows[by_id[id] - 1] : NULL;
}

/* The printed literal of `id`'s own row, or NULL when it has none. */
static const char *row_literal(uint32_t id)
{
    const row *r = find(id);
    return r && col(r, C_DUMP)[0] ? col(r, C_DUMP) : NULL;
}

/* Row-less ids whose printed label is not "INVALID  " (see the top comment):
 * the label the misaligned table holds at that index. */
static const struct {
    uint32_t id;
    const char *literal;
} row_less_literals[] = {
    {307, "INVALID                   "}, {650, "UX HST CLASS ASIX ACTIVATE"},
    {659, "UX HST CLASS AUDIO ACTIVAT"}, {669, "UX HST CLS CDC ACM ACTIVAT"},
    {708, "UX HOST CLASS HUB ACTIVATE"}, {711, "UX HST HUB PRT CHNG C PROC"},
    {719, "UX HST CLASS PIMA DEACTIVA"}, {749, "UX HST CLASS PRNTR ACTIVAT"},
    {791, "UX HST CLS STRG UNT RDY T"},  {804, "UX HST CLS DPUMP WRITE   "},
    {914, "UX DEV CLS CDC WRITE     "},  {958, "UX DEV CLS RNDIS MSG SET "},
};

static const char *dump_names[DUMP_IDS];
static bool listed[DUMP_IDS];

static void build_dump_names(const char *path)
{
    for (uint32_t id = 0; id < DUMP_IDS; id++)
        dump_names[id] = row_literal(id) ? row_literal(id) : INVALID_NAME;
    for (size_t i = 0; i < sizeof row_less_literals / sizeof row_less_literals[0]; i++) {
        uint32_t id = row_less_literals[i].id;
        if (row_literal(id))
            die(path, 0, "an id of row_less_literals has a row with dump_string_at_id");
        dump_names[id] = row_less_literals[i].literal;
        listed[id] = true;
    }
}

static void put_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20 || c >= 0x7f)
            fprintf(out, "\\%03o", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

/* ", meaning, {types}, {roles}" of a row. */
static void put_codes(FILE *out, const row *r)
{
    fprintf(out, ", %u, {%u, %u, %u, %u}, {%u, %u, %u, %u}", r->meaning, r->type[0], r->type[1],
            r->type[2], r->type[3], r->role[0], r->role[1], r->role[2], r->role[3]);
}

/* An RTOS vocabulary (lib/catalog/vocabulary.h), rows ascending by id. */
static void write_vocabulary(FILE *out, const char *csv_path, const char *name)
{
    fprintf(out, "/* GENERATED by tools/gen_catalog.c from %s; do not edit. */\n", csv_path);
    fprintf(out, "#include \"catalog/vocabulary.h\"\n\n");
    fprintf(out, "const trx_vocabulary_row trx_vocabulary_%s_[] = {\n", name);
    for (uint32_t id = 0; id < 65536; id++) {
        if (!by_id[id])
            continue;
        const row *r = &rows[by_id[id] - 1];
        fprintf(out, "    {%u, ", r->id);
        put_string(out, col(r, C_NAME));
        fputs(", {", out);
        for (int k = 0; k < 4; k++) {
            put_string(out, col(r, C_FIELD1 + k));
            fputs(k < 3 ? ", " : "}", out);
        }
        put_codes(out, r);
        fputs("},\n", out);
    }
    fprintf(out, "};\nconst uint32_t trx_vocabulary_%s_count_ = %d;\n", name, row_count);
}

static void write_c(FILE *out, const char *csv_path)
{
    fprintf(out, "/* catalog_table.c - GENERATED by tools/gen_catalog.c from %s; do not edit. */\n",
            csv_path);
    fprintf(out, "#include \"catalog/catalog_table.h\"\n\n");
    fprintf(out, "const uint32_t trx_catalog_row_count_ = %d;\n\n", row_count);
    fprintf(out, "const trx_event_type trx_catalog_rows_[%d] = {\n", row_count);
    for (int i = 0; i < row_count; i++) {
        const row *r = &rows[i];
        fprintf(out, "    {%u, ", r->id);
        put_string(out, col(r, C_COMPONENT));
        fputs(", ", out);
        put_string(out, col(r, C_SYMBOL));
        fputs(", ", out);
        put_string(out, col(r, C_NAME));
        fputs(", {", out);
        for (int k = 0; k < 4; k++) {
            put_string(out, col(r, C_FIELD1 + k));
            fputs(k < 3 ? ", " : "}, ", out);
        }
        fprintf(out, "0x%08Xu, ", r->filter);
        put_string(out, col(r, C_GUI_NAME));
        put_codes(out, r);
        fputs("},\n", out);
    }
    fputs("};\n\n", out);

    uint32_t max_id = 0;
    for (int i = 0; i < row_count; i++)
        if (rows[i].id > max_id)
            max_id = rows[i].id;
    fprintf(out, "const uint32_t trx_catalog_max_id_ = %u;\n\n", max_id);
    fprintf(out, "const uint16_t trx_catalog_index_[%u] = {\n", max_id + 1);
    for (uint32_t id = 0; id <= max_id; id++)
        fprintf(out, "%s%d,%s", id % 16 == 0 ? "    " : " ", by_id[id],
                id % 16 == 15 || id == max_id ? "\n" : "");
    fputs("};\n\n", out);

    fprintf(out, "const char *const trx_catalog_dump_names_[%d] = {\n", DUMP_IDS);
    for (uint32_t id = 0; id < DUMP_IDS; id++) {
        fputs("    ", out);
        put_string(out, dump_names[id]);
        if (listed[id])
            fprintf(out, ", /* %u: no row (row_less_literals) */\n", id);
        else
            fprintf(out, ", /* %u */\n", id);
    }
    fputs("};\n", out);
}

int main(int argc, char **argv)
{
    const char *vocabulary = NULL;
    if (argc == 5 && strcmp(argv[1], "--vocabulary") == 0) {
        vocabulary = argv[2];
        argv += 2;
        argc -= 2;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: gen_catalog [--vocabulary NAME] description.csv out.c\n");
        return 1;
    }
    size_t size;
    char *text = read_file(argv[1], &size);
    parse_csv(text, argv[1], vocabulary == NULL);
    if (row_count == 0)
        die(argv[1], 1, "no rows");
    if (!vocabulary)
        build_dump_names(argv[1]);

    /* Write to a temporary name, then rename: no half-written output. */
    size_t n = strlen(argv[2]);
    char *tmp = malloc(n + 5);
    if (!tmp)
        return 1;
    memcpy(tmp, argv[2], n);
    memcpy(tmp + n, ".tmp", 5);
    FILE *out = fopen(tmp, "w");
    if (!out) {
        perror(tmp);
        return 1;
    }
    if (vocabulary)
        write_vocabulary(out, argv[1], vocabulary);
    else
        write_c(out, argv[1]);
    if (fclose(out) != 0 || rename(tmp, argv[2]) != 0) {
        perror(argv[2]);
        remove(tmp);
        return 1;
    }
    free(tmp);
    free(text);
    return 0;
}
