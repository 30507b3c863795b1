/*
 * test_inversions_json.c - `trx stats --json`'s inversion list
 * (trx_stats_inversions_json, lib/output/inversions_json.c: names escaped
 * once and kept by thread, object and recent address, records put straight
 * into the buffer) writes exactly what the plain writer this test keeps
 * writes (each name looked up and escaped anew, numbers by printf): on a
 * hand-built trace of 400 threads and 120 mutexes (far more addresses than
 * the table of recent ones holds) whose names need every kind of escape
 * (quotes, backslashes, control bytes, DEL, valid and broken UTF-8), 6,000
 * made-up inversions naming them, the special contexts, an Un-named Thread
 * and addresses nothing is at, numbers of every width up to UINT64_MAX, and
 * ranges of the list (first, count) as trx serve asks for them; LF and CRLF
 * output. trx_out_json_string, which now escapes through
 * trx_json_escape_some a buffer's room at a time, is checked against the
 * plain escaper on a string far longer than the buffer.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../decode/trace_builder.h"
#include "output/json_string.h"
#include "output/out_buffer.h"
#include "output/stats_json.h"
#include "trx/catalog.h"
#include "trx/stats.h"
#include "trx/trx.h"

enum { THREADS = 400, MUTEXES = 120, INVERSIONS = 6000 };

#define THREAD_AT(i) (0x20010000u + 0x100u * (uint32_t)(i))
#define MUTEX_AT(i) (0x20080000u + 0x40u * (uint32_t)(i))
#define UNNAMED_AT 0x20300000u /* a context in the events that no registry entry has */

static uint64_t rng = 88172645463325252u;

static uint64_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Pieces of names: each needs its own kind of escape (or none). */
static const char *const pieces[] = {
    "worker",
    " ",
    "\"",
    "\\",
    "\n",
    "\t",
    "\r",
    "\x01",
    "\x1f",
    "\x7f",
    "\xc3\xa9",
    "\xe2\x82\xac",
    "\xf0\x9f\x98\x80",
    "\xff",
    "\xc3",
    "\xe2\x82",
    "\xed\xa0\x80",
    "/",
    "<",
};

/* A name of up to 31 bytes from the pieces, different for each `n`. */
static void make_name(char *out, const char *kind, uint32_t n)
{
    int len = snprintf(out, 32, "%s%u", kind, n);
    while (len < 31) {
        const char *p = pieces[next_random() % (sizeof pieces / sizeof pieces[0])];
        size_t k = strlen(p);
        if ((size_t)len + k > 31 || next_random() % 5 == 0)
            break;
        memcpy(out + len, p, k);
        len += (int)k;
    }
    out[len] = '\0';
}

static test_trace built;

static void build(trx_trace *t)
{
    tb_init(&built, THREADS + MUTEXES, 8, false);
    char name[32];
    for (uint32_t i = 0; i < THREADS; i++) {
        make_name(name, "t", i);
        tb_object(&built, i, TRX_OBJ_THREAD, THREAD_AT(i), name, 0x30000000u + 0x1000u * i, 1024,
                  i % 32);
    }
    for (uint32_t i = 0; i < MUTEXES; i++) {
        make_name(name, "m", i);
        tb_object(&built, THREADS + i, TRX_OBJ_MUTEX, MUTEX_AT(i), name, 1, 0, 0);
    }
    tb_event(&built, THREAD_AT(0), 0, 4098, 10, 0, 0, 0, 0);
    tb_event(&built, UNNAMED_AT, 5, 4098, 20, 0, 0, 0, 0);
    tb_event(&built, THREAD_AT(1), 1, 4098, 30, 0, 0, 0, 0);
    tb_open(&built, t);
    trx_trace_prepare(t); /* adds the Un-named Thread, as the statistics do */
}

/* A context an inversion may name. */
static uint32_t some_context(void)
{
    switch (next_random() % 12) {
    case 0:
        return TRX_CONTEXT_ISR;
    case 1:
        return TRX_CONTEXT_INIT;
    case 2:
        return TRX_CONTEXT_IDLE;
    case 3:
        return UNNAMED_AT;
    case 4:
        return 0x2F000000u + (uint32_t)(next_random() % 64) * 4; /* nothing there */
    case 5:
        return MUTEX_AT(next_random() % MUTEXES); /* an object, but no thread */
    default:
        return THREAD_AT(next_random() % THREADS);
    }
}

/* A number of 1 to 20 digits. */
static uint64_t some_number(void)
{
    uint64_t v = next_random();
    switch (next_random() % 8) {
    case 0:
        return 0;
    case 1:
        return UINT64_MAX;
    default:
        return v >> (next_random() % 64);
    }
}

static void make_inversions(trx_stats *s)
{
    memset(s, 0, sizeof *s);
    s->inversion_list = calloc(INVERSIONS, sizeof *s->inversion_list);
    assert_non_null(s->inversion_list);
    s->inversion_count = INVERSIONS;
    for (uint32_t i = 0; i < INVERSIONS; i++) {
        trx_inversion *v = &s->inversion_list[i];
        v->waiter = some_context();
        v->holder = some_context();
        uint64_t r = next_random();
        v->lock = r % 7 == 0   ? 0x2E000000u + (uint32_t)(r % 100) /* nothing there */
                  : r % 7 == 1 ? THREAD_AT(r % THREADS)
                               : MUTEX_AT(r % MUTEXES);
        v->lock_type = (uint8_t)(next_random() % 2);
        v->waiter_priority = (uint32_t)some_number();
        v->holder_priority = (uint32_t)some_number();
        v->closed = next_random() % 2;
        v->unbounded = next_random() % 2;
        v->ran_inside_count = (uint8_t)(next_random() % (TRX_RAN_INSIDE_MAX + 1));
        for (uint32_t k = 0; k < v->ran_inside_count; k++)
            v->ran_inside_list[k] = some_context();
        v->ran_inside = v->ran_inside_count ? v->ran_inside_list[0] : 0;
        v->ran_inside_more = v->ran_inside_count == TRX_RAN_INSIDE_MAX && next_random() % 2;
        v->start_index = some_number();
        v->end_index = some_number();
        v->start_ticks = some_number();
        v->end_ticks = some_number();
    }
}

/* The plain escaper: json_string.h's rules, byte by byte. */
static void plain_string(trx_out *o, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    trx_out_char(o, '"');
    while (*p) {
        unsigned c = *p;
        int n = c >= 0x80 ? trx_utf8_sequence(p) : 0;
        if (n > 0) {
            trx_out_mem(o, p, (size_t)n);
            p += n;
            continue;
        }
        if (c == '"' || c == '\\')
            trx_out_printf(o, "\\%c", c);
        else if (c == '\n')
            trx_out_mem(o, "\\n", 2);
        else if (c == '\t')
            trx_out_mem(o, "\\t", 2);
        else if (c == '\r')
            trx_out_mem(o, "\\r", 2);
        else if (c < 0x20 || c >= 0x7F)
            trx_out_printf(o, "\\u%04x", c);
        else
            trx_out_char(o, (char)c);
        p++;
    }
    trx_out_char(o, '"');
}

static const char *name_or_empty(const char *s)
{
    return s ? s : "";
}

#define U(x) ((unsigned long long)(x))

/* The plain writer: what trx_stats_inversions_json must write. */
static void plain_inversions(trx_out *o, const trx_trace *t, const trx_stats *s, uint32_t first,
                             uint32_t count)
{
    uint32_t end = first < s->inversion_count && count < s->inversion_count - first
                       ? first + count
                       : s->inversion_count;
    for (uint32_t i = first; i < end; i++) {
        const trx_inversion *v = &s->inversion_list[i];
        trx_out_printf(o, "%s\n    {\"waiter\": ", i > first ? "," : "");
        plain_string(o, name_or_empty(trx_context_name(t, v->waiter)));
        trx_out_printf(o,
                       ", \"waiter_address\": %u, \"waiter_priority\": %u, \"lock\": ", v->waiter,
                       trx_shown_priority(t, v->waiter_priority));
        int32_t obj = trx_trace_find_object(t, v->lock);
        plain_string(o, obj >= 0 ? t->objects[obj].name : "");
        trx_out_printf(o, ", \"lock_address\": %u, \"lock_type\": \"%s\", \"holder\": ", v->lock,
                       v->lock_type == TRX_LOCK_MUTEX ? "mutex" : "semaphore");
        plain_string(o, name_or_empty(trx_context_name(t, v->holder)));
        trx_out_printf(o,
                       ", \"holder_address\": %u, \"holder_priority\": %u, \"start_index\": %llu, "
                       "\"end_index\": %llu, \"start_ticks\": %llu, \"end_ticks\": %llu, "
                       "\"closed\": %s, \"unbounded\": %s, \"ran_inside\": [",
                       v->holder, trx_shown_priority(t, v->holder_priority), U(v->start_index),
                       U(v->end_index), U(v->start_ticks), U(v->end_ticks),
                       v->closed ? "true" : "false", v->unbounded ? "true" : "false");
        for (uint32_t k = 0; k < v->ran_inside_count; k++) {
            if (k)
                trx_out_str(o, ", ");
            plain_string(o, name_or_empty(trx_context_name(t, v->ran_inside_list[k])));
        }
        trx_out_printf(o, "], \"ran_inside_more\": %s}", v->ran_inside_more ? "true" : "false");
    }
}

typedef enum writer { FAST, PLAIN } writer;

static trx_out out; /* 64 KiB: not on the stack */

/* What `w` writes for inversions first .. first+count-1 (malloc'd, `len` bytes). */
static char *written(writer w, const trx_trace *t, const trx_stats *s, uint32_t first,
                     uint32_t count, bool crlf, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    assert_non_null(f);
    trx_out_init(&out, f, crlf);
    if (w == FAST)
        trx_stats_inversions_json(&out, t, s, first, count);
    else
        plain_inversions(&out, t, s, first, count);
    assert_int_equal(trx_out_flush(&out), 0);
    fclose(f);
    return buf;
}

/* Where two outputs first differ, and their bytes there (the failure says). */
static void same_bytes(const char *what, const char *a, size_t na, const char *b, size_t nb)
{
    size_t i = 0;
    while (i < na && i < nb && a[i] == b[i])
        i++;
    if (i == na && i == nb)
        return;
    fprintf(stderr, "%s: differ at byte %zu of %zu / %zu:\n  fast:  %.80s\n  plain: %.80s\n", what,
            i, na, nb, a + (i > 20 ? i - 20 : 0), b + (i > 20 ? i - 20 : 0));
    fail();
}

static void test_list_as_plain_writer(void **state)
{
    (void)state;
    static trx_trace t;
    build(&t);
    trx_stats s;
    make_inversions(&s);
    const struct {
        uint32_t first, count;
    } ranges[] = {{0, UINT32_MAX}, {0, 0},       {0, 1},          {1, 1},
                  {17, 500},       {2999, 1500}, {5990, 100},     {INVERSIONS, 5},
                  {9000, 1},       {5999, 1},    {0, INVERSIONS}, {100, UINT32_MAX}};
    size_t nonempty = 0;
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++)
        for (int crlf = 0; crlf < 2; crlf++) {
            size_t nf, np;
            char *fast = written(FAST, &t, &s, ranges[r].first, ranges[r].count, crlf, &nf);
            char *plain = written(PLAIN, &t, &s, ranges[r].first, ranges[r].count, crlf, &np);
            char what[80];
            snprintf(what, sizeof what, "first %u count %u%s", ranges[r].first, ranges[r].count,
                     crlf ? " CRLF" : "");
            same_bytes(what, fast, nf, plain, np);
            nonempty += np > 0;
            free(fast);
            free(plain);
        }
    assert_int_equal(nonempty, 2 * 9); /* all but the empty ranges wrote */
    /* the names did need escaping, and the list is longer than the buffer */
    size_t n;
    char *all = written(PLAIN, &t, &s, 0, UINT32_MAX, false, &n);
    assert_true(n > 20 * sizeof out.buf);
    assert_non_null(strstr(all, "\\\""));
    assert_non_null(strstr(all, "\\\\"));
    assert_non_null(strstr(all, "\\u007f"));
    assert_non_null(strstr(all, "\\u00ff"));
    assert_non_null(strstr(all, "\xf0\x9f\x98\x80"));
    assert_non_null(strstr(all, "\"Un-named Thread\""));
    assert_non_null(strstr(all, "\"Interrupt\""));
    assert_non_null(strstr(all, "18446744073709551615"));
    free(all);
    free(s.inversion_list);
    trx_trace_close(&t);
}

static void test_long_string_as_plain_escaper(void **state)
{
    (void)state;
    size_t len = 5 * sizeof out.buf + 7;
    char *text = malloc(len + 1);
    assert_non_null(text);
    size_t at = 0;
    while (at < len) {
        const char *p = pieces[next_random() % (sizeof pieces / sizeof pieces[0])];
        size_t k = strlen(p);
        if (at + k > len)
            break;
        memcpy(text + at, p, k);
        at += k;
    }
    text[at] = '\0';
    for (int crlf = 0; crlf < 2; crlf++) {
        size_t n[2];
        char *bytes[2];
        for (int w = 0; w < 2; w++) {
            bytes[w] = NULL;
            FILE *f = open_memstream(&bytes[w], &n[w]);
            assert_non_null(f);
            trx_out_init(&out, f, crlf);
            trx_out_str(&out, "x"); /* the string starts off the buffer's edge */
            if (w == 0)
                trx_out_json_string(&out, text);
            else
                plain_string(&out, text);
            assert_int_equal(trx_out_flush(&out), 0);
            fclose(f);
        }
        same_bytes(crlf ? "long string CRLF" : "long string", bytes[0], n[0], bytes[1], n[1]);
        free(bytes[0]);
        free(bytes[1]);
    }
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_list_as_plain_writer),
        cmocka_unit_test(test_long_string_as_plain_escaper),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
