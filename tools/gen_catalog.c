/*
 * gen_catalog.c - build-time generator of the event catalogue: reads
 * lib/catalog/events.csv (15 comma-separated columns, no quoting, one header
 * row) and writes C tables for lib/catalog/catalog.c: the rows, an id ->
 * row index for ids 0..max, and the 1000 names TraceX's raw dump prints.
 *
 * Usage: gen_catalog events.csv out.c
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

#define COLUMNS 15
#define MAX_ROWS 4096
#define DUMP_IDS 1000
#define INVALID_NAME "INVALID  "

enum {
    C_ID,
    C_COMPONENT,
    C_SYMBOL,
    C_DISPLAY,
    C_INFO1,
    C_INFO2,
    C_INFO3,
    C_INFO4,
    C_FILTER,
    C_GUI_NAME,
    C_GUI_ICON,
    C_DUMP,
    C_OTHER,
    C_CURRENT,
    C_NOTES
};

typedef struct row {
    uint32_t id;
    char *col[COLUMNS];
    uint32_t filter;
} row;

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

static void parse_csv(char *text, const char *path)
{
    int line = 0;
    char *p = text;
    while (*p) {
        char *end = strchr(p, '\n');
        char *next = end ? end + 1 : p + strlen(p);
        if (end)
            *end = '\0';
        if (end && end > p && end[-1] == '\r')
            end[-1] = '\0';
        line++;
        if (line == 1 || *p == '\0') { /* header, blank line */
            p = next;
            continue;
        }
        if (row_count == MAX_ROWS)
            die(path, line, "too many rows");
        row *r = &rows[row_count];
        int c = 0;
        char *field = p;
        for (;;) {
            char *comma = strchr(field, ',');
            if (c == COLUMNS)
                die(path, line, "more than 15 columns");
            r->col[c++] = field;
            if (!comma)
                break;
            *comma = '\0';
            field = comma + 1;
        }
        if (c != COLUMNS)
            die(path, line, "fewer than 15 columns");
        char *stop;
        unsigned long id = strtoul(r->col[C_ID], &stop, 10);
        if (*r->col[C_ID] == '\0' || *stop != '\0' || id > 65535)
            die(path, line, "bad id");
        if (by_id[id])
            die(path, line, "duplicate id");
        r->id = (uint32_t)id;
        r->filter = parse_filter(r->col[C_FILTER], path, line);
        by_id[id] = ++row_count;
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
    return r && r->col[C_DUMP][0] ? r->col[C_DUMP] : NULL;
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
        put_string(out, r->col[C_COMPONENT]);
        fputs(", ", out);
        put_string(out, r->col[C_SYMBOL]);
        fputs(", ", out);
        put_string(out, r->col[C_DISPLAY]);
        fputs(", {", out);
        for (int k = 0; k < 4; k++) {
            put_string(out, r->col[C_INFO1 + k]);
            fputs(k < 3 ? ", " : "}, ", out);
        }
        fprintf(out, "0x%08Xu, ", r->filter);
        put_string(out, r->col[C_GUI_NAME]);
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
    if (argc != 3) {
        fprintf(stderr, "usage: gen_catalog events.csv out.c\n");
        return 1;
    }
    size_t size;
    char *text = read_file(argv[1], &size);
    parse_csv(text, argv[1]);
    if (row_count == 0)
        die(argv[1], 1, "no rows");
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
