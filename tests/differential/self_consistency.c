/* self_consistency.c - trx checked against itself on one buffer (see
 * self_consistency.h): dumps of four encodings of the same bytes, and the
 * JSON Lines event listing against the dump's event lines, the statistics
 * over segments against the one walk's. */
#include "self_consistency.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/stats_segments.h"
#include "decode/object_table.h"
#include "output/dump_text.h"
#include "output/event_filter.h"
#include "output/events_output.h"
#include "output/stats_json.h"
#include "reencode.h"
#include "trx/stats.h"
#include "txtb_swap.h"

static char failure[600];

static const char *failf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(failure, sizeof failure, fmt, ap);
    va_end(ap);
    return failure;
}

/* Loads `bytes` as `format` and opens the trace; NULL or what failed. */
static const char *open_as(const uint8_t *bytes, size_t size, trx_input_format format,
                           const char *what, trx_trace *t)
{
    trx_image img;
    trx_error err;
    if (trx_image_load_memory(&img, bytes, size, format, &err) < 0)
        return failf("%s: load failed at offset %llu: %s", what, (unsigned long long)err.offset,
                     err.message);
    if (trx_trace_open_image(t, &img, "mutant.trx", &err) < 0)
        return failf("%s: open failed at offset %llu: %s", what, (unsigned long long)err.offset,
                     err.message);
    return NULL;
}

typedef int (*writer_fn)(trx_trace *t, trx_out *o);

static int write_dump(trx_trace *t, trx_out *o)
{
    return trx_dump_write(t, o, "mutant.trx", "mutant.txt");
}

static int write_jsonl(trx_trace *t, trx_out *o)
{
    trx_event_filter all;
    memset(&all, 0, sizeof all);
    return trx_events_write(t, o, TRX_EVENTS_JSONL, &all, NULL);
}

/* What `w` writes for `t`, as a heap string (a temporary file in between, so
 * that this works wherever stdio does). NULL when out of memory or I/O fails. */
static char *render(trx_trace *t, writer_fn w)
{
    FILE *f = tmpfile();
    trx_out *o = malloc(sizeof *o);
    char *text = NULL;
    if (f && o) {
        trx_out_init(o, f, false);
        int r = w(t, o);
        long n = trx_out_flush(o) == 0 && r == 0 ? ftell(f) : -1;
        if (n >= 0 && (text = malloc((size_t)n + 1)) != NULL) {
            rewind(f);
            if (fread(text, 1, (size_t)n, f) != (size_t)n) {
                free(text);
                text = NULL;
            } else {
                text[n] = '\0';
            }
        }
    }
    free(o);
    if (f)
        fclose(f);
    return text;
}

/* Compares two dumps line by line, skipping "Trace ID:" lines when asked. */
static const char *compare_dumps(const char *want, const char *got, const char *what,
                                 bool skip_trace_id)
{
    unsigned line = 1;
    for (;;) {
        size_t a = strcspn(want, "\n"), b = strcspn(got, "\n");
        bool id_line = skip_trace_id && strncmp(want, "Trace ID:", 9) == 0 &&
                       strncmp(got, "Trace ID:", 9) == 0;
        if (!id_line && (a != b || memcmp(want, got, a) != 0))
            return failf("%s dump differs from the binary dump at line %u: \"%.*s\" vs \"%.*s\"",
                         what, line, (int)(a < 200 ? a : 200), want, (int)(b < 200 ? b : 200), got);
        if (!want[a] || !got[b])
            return want[a] == got[b] ? NULL : failf("%s dump has a different length", what);
        want += a + 1;
        got += b + 1;
        line++;
    }
}

/* One event as the dump shows it and as the JSON Lines give it. */
typedef struct seen_event {
    unsigned long long index, ticks;
    unsigned long id, address;
    char kind; /* 't' thread, 'i' isr, 'n' init, 'd' idle */
    bool synthetic;
} seen_event;

static bool is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F');
}

/* Parses a dump event line; false when it is not one. */
static bool parse_dump_line(const char *line, size_t len, seen_event *e)
{
    char *p;
    e->index = strtoull(line, &p, 10);
    e->ticks = strtoull(p, &p, 10);
    const char *open = memchr(p, '(', len - (size_t)(p - line));
    if (!open)
        return false;
    e->id = strtoul(open + 1, &p, 10);
    if (*p != ')' || strncmp(p + 1, "       ", 7) != 0)
        return false;
    const char *col = p + 8;
    size_t room = len - (size_t)(col - line);
    e->address = 0;
    if (room >= 10 && strncmp(col, "Interrupt ", 10) == 0) {
        e->kind = 'i';
    } else if (room >= 15 && strncmp(col, "Initialization ", 15) == 0) {
        e->kind = 'n';
    } else if (room >= 5 && strncmp(col, "Idle ", 5) == 0) {
        e->kind = 'd';
    } else {
        /* name (16 columns at most) " (XXXXXXXX)": the last such group */
        e->kind = 't';
        bool found = false;
        for (size_t i = 0; i + 11 <= 34 && i + 11 <= room; i++) {
            const char *q = col + i;
            if (q[0] != ' ' || q[1] != '(' || q[10] != ')')
                continue;
            bool hex = true;
            for (int k = 2; k < 10; k++)
                hex = hex && is_hex(q[k]);
            if (hex) {
                e->address = strtoul(q + 2, NULL, 16);
                found = true;
            }
        }
        if (!found)
            return false;
    }
    return true;
}

/* Reads the number after `"key":` in a JSON line; false when absent. */
static bool json_number(const char *line, const char *key, unsigned long long *v)
{
    const char *p = strstr(line, key);
    if (!p)
        return false;
    char *end;
    *v = strtoull(p + strlen(key), &end, 10);
    return end != p + strlen(key);
}

static bool parse_jsonl_line(const char *text, size_t len, seen_event *e)
{
    char line[2048]; /* the line alone, so that searches stop at its end */
    if (len >= sizeof line)
        return false;
    memcpy(line, text, len);
    line[len] = '\0';
    unsigned long long id, address;
    const char *ctx = strstr(line, "\"context\":\"");
    if (!json_number(line, "\"index\":", &e->index) ||
        !json_number(line, "\"ticks\":", &e->ticks) || !json_number(line, "\"id\":", &id) ||
        !json_number(line, "\"thread\":", &address) || !ctx)
        return false;
    e->id = (unsigned long)id;
    e->address = (unsigned long)address;
    ctx += strlen("\"context\":\"");
    e->kind = strncmp(ctx, "isr\"", 4) == 0    ? 'i'
              : strncmp(ctx, "init\"", 5) == 0 ? 'n'
              : strncmp(ctx, "idle\"", 5) == 0 ? 'd'
                                               : 't';
    e->synthetic = strstr(line, "\"synthetic\":true") != NULL;
    return true;
}

/* Whether JSON Lines event `e` is a RUNNING event the correct mode gives to
 * another context than TraceX's (dump event `d`) because the next event
 * (the JSON line at `next`) contradicts TraceX's guess: it names the thread
 * of that next event, whose context TraceX's RUNNING does not have
 * (docs/analyses.md, "Contradicted RUNNING events"). */
static bool overruled_running(const seen_event *d, const seen_event *e, const char *next)
{
    seen_event n;
    if (!e->synthetic || d->kind == 'i' || (d->kind == e->kind && d->address == e->address))
        return false;
    size_t nl = strcspn(next, "\n");
    return nl > 0 && parse_jsonl_line(next, nl, &n) && !n.synthetic && n.kind == 't' &&
           e->kind == 't' && n.address == e->address;
}

/* The dump's event lines against the JSON Lines. `tracex` is the trace the
 * dump was written from (TraceX mode), for its thread-0 attribution. */
static const char *cross_check(const char *dump, const char *jsonl, const trx_trace *tracex,
                               uint64_t *events)
{
    const char *p = strstr(dump, "\n  Event Number");
    if (!p)
        return failf("dump: no event table");
    p = strchr(p + 1, '\n');
    p = p ? strchr(p + 1, '\n') : NULL; /* the blank line after the header */
    if (!p)
        return failf("dump: event table cut short");
    p++;
    const char *j = jsonl;
    uint64_t n = 0;
    while (*p && *p != '*') {
        size_t len = strcspn(p, "\n");
        seen_event d, e;
        if (!parse_dump_line(p, len, &d))
            return failf("dump: event line %llu unreadable: \"%.*s\"", (unsigned long long)n,
                         (int)(len < 200 ? len : 200), p);
        size_t jl = strcspn(j, "\n");
        if (jl == 0)
            return failf("jsonl: %llu events, the dump has more", (unsigned long long)n);
        if (!parse_jsonl_line(j, jl, &e))
            return failf("jsonl: line %llu unreadable", (unsigned long long)n);
        if (overruled_running(&d, &e, j + jl + (j[jl] == '\n'))) {
            d.kind = e.kind; /* the correct mode's own RUNNING event */
            d.address = e.address;
        }
        if (d.index != e.index || d.ticks != e.ticks || d.id != e.id || d.kind != e.kind)
            return failf("event %llu: dump says index %llu ticks %llu id %lu context '%c', "
                         "jsonl index %llu ticks %llu id %lu context '%c'",
                         (unsigned long long)n, d.index, d.ticks, d.id, d.kind, e.index, e.ticks,
                         e.id, e.kind);
        if (d.kind == 't' && d.address != e.address) {
            /* TraceX shows a RUNNING event for a next context that is no
             * thread as thread index 0 */
            bool thread0 = e.synthetic && tracex->thread_count > 0 &&
                           d.address == tracex->threads[0].address &&
                           trx_thread_for_context(tracex, (uint32_t)e.address) < 0;
            if (!thread0)
                return failf("event %llu: dump context %08lX, jsonl %08lX", (unsigned long long)n,
                             d.address, e.address);
        }
        n++;
        p += len + (p[len] == '\n');
        j += jl + (j[jl] == '\n');
    }
    if (*j)
        return failf("jsonl: more events than the dump's %llu", (unsigned long long)n);
    *events = n;
    return NULL;
}

/* The dump of `text` loaded as `format`, compared with `want`. */
static const char *check_encoding(const uint8_t *text, size_t len, trx_input_format format,
                                  const char *what, const char *want, bool skip_trace_id)
{
    trx_trace t;
    const char *bad = open_as(text, len, format, what, &t);
    if (bad)
        return bad;
    t.mode = TRX_MODE_TRACEX;
    char *got = render(&t, write_dump);
    trx_trace_close(&t);
    if (!got)
        return failf("%s: dump failed", what);
    bad = compare_dumps(want, got, what, skip_trace_id);
    free(got);
    return bad;
}

/* The statistics JSON of `bytes` in `mode`: one walk, or (`cuts`) over
 * segments from those entries (a fresh, unprepared trace each time). */
static char *stats_text(const uint8_t *bytes, size_t size, trx_mode mode, const uint64_t *cuts,
                        uint32_t n)
{
    trx_trace t;
    if (open_as(bytes, size, TRX_FORMAT_BIN, "binary (statistics)", &t) != NULL)
        return NULL;
    trx_trace_set_mode(&t, mode);
    trx_stats s;
    int rc = cuts ? trx_stats_compute_segments(&t, &s, 0, cuts, n, 64, false, NULL)
                  : trx_stats_compute(&t, &s);
    if (rc == TRX_STATS_SEGMENTS_UNPREPARED) {
        trx_trace_prepare(&t);
        rc = trx_stats_compute_segments(&t, &s, 0, cuts, n, 64, false, NULL);
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = rc == 0 ? open_memstream(&buf, &len) : NULL;
    if (f) {
        trx_out o;
        trx_out_init(&o, f, false);
        trx_stats_write_json(&t, &s, NULL, &o);
        trx_out_flush(&o);
        fclose(f);
    }
    if (rc == 0)
        trx_stats_free(&s);
    trx_trace_close(&t);
    return buf;
}

/* The statistics over segments (cut at a third and two thirds of the
 * entries) equal the one walk's, both modes; NULL or what differed. */
static const char *segments_check(const uint8_t *bytes, size_t size, uint32_t used)
{
    const uint64_t cuts[2] = {used / 3, 2 * (uint64_t)used / 3};
    for (int m = 0; m < 2; m++) {
        trx_mode mode = m ? TRX_MODE_TRACEX : TRX_MODE_CORRECT;
        char *one = stats_text(bytes, size, mode, NULL, 0);
        char *parts = stats_text(bytes, size, mode, cuts, 2);
        bool same = one && parts && strcmp(one, parts) == 0;
        free(one);
        free(parts);
        if (!same)
            return failf(
                "statistics over segments (%s mode, cuts %llu, %llu) differ from one walk's",
                m ? "tracex" : "default", (unsigned long long)cuts[0], (unsigned long long)cuts[1]);
    }
    return NULL;
}

const char *consistency_check(const uint8_t *bytes, size_t size, uint64_t *events)
{
    trx_trace t, tj;
    const char *bad = open_as(bytes, size, TRX_FORMAT_BIN, "binary", &t);
    if (bad)
        return bad;
    t.mode = TRX_MODE_TRACEX;
    char *dump = render(&t, write_dump), *jsonl = NULL;
    if (!dump) {
        bad = failf("binary: dump failed");
        goto done;
    }
    if ((bad = open_as(bytes, size, TRX_FORMAT_BIN, "binary (events)", &tj)) != NULL)
        goto done;
    jsonl = render(&tj, write_jsonl); /* the default (correct) mode, as `trx events` */
    trx_stats stats;                  /* and every correct-mode analysis must run through */
    int stats_ok = trx_stats_compute(&tj, &stats);
    if (stats_ok == 0)
        trx_stats_free(&stats);
    if (jsonl && tj.damaged_count > 0) {
        /* The salvaging view skips damaged entries (rendered above without
         * failing); the dump reads the buffer as TraceX does: compare with
         * the events of that reading. */
        free(jsonl);
        trx_trace_set_mode(&tj, TRX_MODE_TRACEX);
        jsonl = render(&tj, write_jsonl);
    }
    trx_trace_close(&tj);
    if (stats_ok < 0) {
        bad = failf("statistics (correct mode) failed");
        goto done;
    }
    if (!jsonl) {
        bad = failf("events jsonl failed");
        goto done;
    }
    if ((bad = cross_check(dump, jsonl, &t, events)) != NULL)
        goto done;
    if ((bad = segments_check(bytes, size, t.used)) != NULL)
        goto done;

    size_t len;
    char *hex = reencode_ihex(bytes, size, t.header.base_address, &len);
    bad = hex ? check_encoding((const uint8_t *)hex, len, TRX_FORMAT_AUTO, "Intel HEX", dump, false)
              : failf("out of memory");
    free(hex);
    if (bad)
        goto done;
    char *srec = reencode_srec(bytes, size, t.header.base_address, &len);
    bad = srec
              ? check_encoding((const uint8_t *)srec, len, TRX_FORMAT_AUTO, "S-record", dump, false)
              : failf("out of memory");
    free(srec);
    if (bad)
        goto done;
    uint8_t *swapped = malloc(size);
    if (!swapped) {
        bad = failf("out of memory");
        goto done;
    }
    memcpy(swapped, bytes, size);
    const char *why = txtb_swap_byte_order(swapped, size);
    bad = why ? failf("byte swap: %s", why)
              : check_encoding(swapped, size, TRX_FORMAT_BIN, "other byte order", dump, true);
    free(swapped);
done:
    free(dump);
    free(jsonl);
    trx_trace_close(&t);
    return bad;
}
