/*
 * test_cli_salvage.c - damaged copies of corpus traces through the `trx`
 * program: a zero thread word at the newest entry of a wrapped buffer (the
 * halted lock-free insert), a stale newest entry, an entry written past the
 * write position, and a buffer with nothing intact. Checks what `info`
 * (text and JSON), `events`, `stats` and `dump` make of each.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_run.h"
#include "json_check.h"

#define CORPUS TRX_SHARED_DIR "/corpus/"
#define RUN CLI_RUN

static char dir[64];

static int setup(void **state)
{
    (void)state;
    return cli_tmpdir_make(dir, sizeof dir, "salvage");
}

static int teardown(void **state)
{
    (void)state;
    return cli_tmpdir_remove(dir);
}

static uint32_t rd32(const char *p)
{
    const unsigned char *u = (const unsigned char *)p;
    return (uint32_t)u[0] | (uint32_t)u[1] << 8 | (uint32_t)u[2] << 16 | (uint32_t)u[3] << 24;
}

static void wr32(char *p, uint32_t v)
{
    for (int k = 0; k < 4; k++)
        p[k] = (char)(v >> (8 * k));
}

/* A little-endian corpus trace in memory and where its entries are. */
typedef struct trace_copy {
    char *bytes;
    size_t size;
    uint32_t entries_off, capacity, oldest;
    char path[128];
} trace_copy;

static void load(trace_copy *c, const char *name, const char *out_name)
{
    char path[256];
    snprintf(path, sizeof path, CORPUS "%s", name);
    c->bytes = cli_read_file(path, &c->size);
    assert_non_null(c->bytes);
    uint32_t base = rd32(c->bytes + 8), start = rd32(c->bytes + 24), end = rd32(c->bytes + 28);
    c->entries_off = start - base;
    c->capacity = (end - start) / 32;
    c->oldest = (rd32(c->bytes + 32) - start) / 32;
    cli_path_in(c->path, sizeof c->path, dir, out_name);
}

static char *entry(trace_copy *c, uint32_t i)
{
    return c->bytes + c->entries_off + 32 * i;
}

static void save(trace_copy *c)
{
    assert_int_equal(cli_write_file(c->path, c->bytes, c->size), 0);
    free(c->bytes);
}

static const char *member(const char *json, const char *key)
{
    static char v[4096];
    if (!json_member(json, key, v, sizeof v))
        fail_msg("no member %s in %s", key, json);
    return v;
}

/* The case: a 1,986-entry wrapped buffer whose newest entry has a
 * zero thread word. TraceX reads 289 entries, "not wrapped"; trx lists the
 * other 1,985 and reports the one. */
static void test_zero_thread_word_at_newest(void **state)
{
    (void)state;
    trace_copy c;
    load(&c, "b_sample_wrap.trx", "hole.trx");
    assert_int_equal(c.oldest, 290);
    wr32(entry(&c, 289), 0);
    save(&c);
    cli_result r;

    RUN(&r, "info", c.path);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "Entries used:       1985\n"));
    assert_non_null(strstr(r.out, "Wrapped:            yes\n"));
    assert_non_null(strstr(r.out, "Damaged:            1 damaged entry (1 half-written), skipped"));
    assert_non_null(strstr(r.out, "Relative ticks:     0 - 1692506\n"));
    cli_result_free(&r);

    RUN(&r, "info", "--json", c.path);
    assert_int_equal(r.status, 0);
    assert_true(json_valid(r.out, r.out_len, NULL, 0, NULL));
    assert_string_equal(member(r.out, "damaged_entries"), "1");
    assert_non_null(strstr(r.out, "\"damaged\":[{\"index\":289,\"reason\":\"half-written\"}]"));
    assert_string_equal(member(r.out, "wrapped"), "true");
    assert_string_equal(member(r.out, "entries_used"), "1985");
    cli_result_free(&r);

    /* TraceX's reading under --compat tracex: 289 entries, not wrapped. */
    RUN(&r, "info", "--compat", "tracex", c.path);
    assert_non_null(strstr(r.out, "Entries used:       289\n"));
    assert_non_null(strstr(r.out, "Wrapped:            no\n"));
    assert_non_null(strstr(r.out, "kept as TraceX reads them"));
    cli_result_free(&r);

    RUN(&r, "events", "--format", "csv", "--no-synthetic", c.path);
    assert_int_equal(r.status, 0);
    assert_int_equal(cli_count_lines(r.out), 1 + 1985);
    assert_non_null(strstr(r.err, "warning: 1 damaged entry (1 half-written) skipped"));
    cli_result_free(&r);

    RUN(&r, "stats", c.path);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "Events:   1985 "));
    assert_non_null(strstr(r.out, "Damaged:  1 damaged entry (1 half-written) skipped"));
    cli_result_free(&r);

    RUN(&r, "stats", "--json", c.path);
    assert_true(json_valid(r.out, r.out_len, NULL, 0, NULL));
    assert_non_null(strstr(r.out, "\"damaged_entries\": 1, \"damaged_skipped\": true"));
    cli_result_free(&r);

    RUN(&r, "export", "--to", "chrome-json", c.path);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.err, "warning: 1 damaged entry (1 half-written) skipped"));
    cli_result_free(&r);
    RUN(&r, "report", c.path);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.err, "warning: 1 damaged entry (1 half-written) skipped"));
    cli_result_free(&r);

    /* dump: TraceX's text (289 events) and a warning. */
    RUN(&r, "dump", c.path);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.err, "warning: 1 damaged entry (1 half-written) in the buffer"));
    assert_non_null(strstr(r.out, "Total Events:"));
    cli_result_free(&r);
}

/* A claimed but unwritten slot of a lock-free buffer: the newest entry is
 * the previous lap's, older than the oldest. Unwrapping it as a full timer
 * wrap made the last tick ~4.29e9; it is skipped as stale. */
static void test_stale_newest_entry(void **state)
{
    (void)state;
    trace_copy c;
    load(&c, "b_sample_wrap.trx", "stale.trx");
    wr32(entry(&c, 289) + 12, rd32(entry(&c, 290) + 12) - 515);
    save(&c);
    cli_result r;
    RUN(&r, "info", "--json", c.path);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"damaged\":[{\"index\":289,\"reason\":\"stale\"}]"));
    assert_string_equal(member(r.out, "last_ticks"), "1692506");
    assert_string_equal(member(r.out, "entries_used"), "1985");
    cli_result_free(&r);
    RUN(&r, "info", "--json", "--compat", "tracex", c.path);
    assert_true(strtoull(member(r.out, "last_ticks"), NULL, 10) > 4000000000ull);
    cli_result_free(&r);
}

/* An unwrapped buffer with a copy of an entry far past the write position. */
static void test_entry_past_write_position(void **state)
{
    (void)state;
    trace_copy c;
    load(&c, "c_prio_inversion_mutex_noinherit.trx", "past.trx");
    assert_int_equal(c.oldest, 142);
    memcpy(entry(&c, 500), entry(&c, 10), 32);
    save(&c);
    cli_result r;
    RUN(&r, "info", "--json", c.path);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"damaged\":[{\"index\":500,\"reason\":\"stale\"}]"));
    assert_string_equal(member(r.out, "wrapped"), "false");
    assert_string_equal(member(r.out, "entries_used"), "142");
    cli_result_free(&r);
}

/* Nothing intact: every thread word before the pointer is zero. */
static void test_nothing_intact_is_an_error(void **state)
{
    (void)state;
    trace_copy c;
    load(&c, "c_prio_inversion_mutex_noinherit.trx", "none.trx");
    for (uint32_t i = 0; i < c.oldest; i++)
        wr32(entry(&c, i), 0);
    uint32_t off = c.entries_off;
    save(&c);
    cli_result r;
    const char *cmds[] = {"info", "events", "stats", "dump"};
    for (int k = 0; k < 4; k++) {
        RUN(&r, cmds[k], c.path);
        assert_int_equal(r.status, 2);
        assert_int_equal(r.out_len, 0);
        assert_int_equal(cli_count_lines(r.err), 1);
        char want[200];
        snprintf(want, sizeof want,
                 ": offset %u: no intact trace entry: all 142 entries are damaged (0 empty, 142 "
                 "half-written, 0 stale, 0 torn)",
                 off);
        if (!strstr(r.err, want))
            fail_msg("%s: %s", cmds[k], r.err);
        cli_result_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_thread_word_at_newest),
        cmocka_unit_test(test_stale_newest_entry),
        cmocka_unit_test(test_entry_past_write_position),
        cmocka_unit_test(test_nothing_intact_is_an_error),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
