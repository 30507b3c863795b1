/*
 * test_cli.c - the `trx` program end to end: help and exit codes, `info
 * --json` numbers, `events` counts against TraceX's golden totals, filters,
 * -o, and bad inputs (each must exit 2 with exactly one stderr line
 * "trx: FILE: offset N: ..." at the right N and print nothing on stdout).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_run.h"
#include "json_check.h"

#define CORPUS TRX_SHARED_DIR "/corpus/"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    return cli_tmpdir_make(dir, sizeof dir, "cli");
}

static int teardown(void **state)
{
    (void)state;
    return cli_tmpdir_remove(dir);
}

static const char *tmp_path(char *buf, size_t cap, const char *name)
{
    return cli_path_in(buf, cap, dir, name);
}

#define RUN CLI_RUN

/* ------------------------------------------------------------ help, usage */

static void test_help_and_version(void **state)
{
    (void)state;
    cli_result r;
    RUN(&r, "--help");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "usage: trx COMMAND"));
    assert_non_null(strstr(r.out, "Exit status:"));
    assert_non_null(strstr(r.out, "  3  the output could not be written"));
    /* what trx reads now, not only ThreadX "the way TraceX does" */
    assert_non_null(strstr(
        r.out, "\n\nReads the event traces of embedded targets and analyses them: ThreadX's\n"
               "trace buffer (TXTB, TraceX's format; FreeRTOS too, through trx's recorder\n"
               "integration), TI UIA records (System Analyzer files, SYS/BIOS captures,\n"
               "halted logger buffers) and the streams trx capture records while the\n"
               "target runs. A dump may be raw binary, Intel HEX, Motorola S-record or\n"
               "ASCII hex.\n\nCommands:\n"));
    assert_null(strstr(r.out, "the way TraceX does"));
    assert_int_equal(r.err_len, 0);
    cli_result_free(&r);
    const char *commands[] = {"info", "dump", "events"};
    for (int i = 0; i < 3; i++) {
        RUN(&r, commands[i], "--help");
        assert_int_equal(r.status, 0);
        char expect[64];
        snprintf(expect, sizeof expect, "usage: trx %s [OPTIONS] FILE", commands[i]);
        assert_non_null(strstr(r.out, expect));
        cli_result_free(&r);
    }
    RUN(&r, "--version");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "trx 0.1.0\n");
    cli_result_free(&r);
}

/* Expects exit status 1, nothing on stdout, and `needle` on stderr. */
static void expect_usage_error(const char *const *args, const char *needle)
{
    cli_result r;
    cli_run(&r, args);
    assert_int_equal(r.status, 1);
    assert_int_equal(r.out_len, 0);
    if (!strstr(r.err, needle))
        fail_msg("stderr \"%s\" lacks \"%s\"", r.err, needle);
    cli_result_free(&r);
}

static void test_usage_errors(void **state)
{
    (void)state;
    const char *t = CORPUS "demo_threadx.trx";
    expect_usage_error((const char *const[]){NULL}, "usage: trx");
    expect_usage_error((const char *const[]){"--bogus", NULL}, "unknown option '--bogus'");
    expect_usage_error((const char *const[]){"frobnicate", t, NULL}, "unknown command");
    expect_usage_error((const char *const[]){"convert", t, NULL}, "--to FORMAT is required");
    expect_usage_error((const char *const[]){"diff", t, NULL}, "no input A B given");
    expect_usage_error((const char *const[]){"info", "--bogus", t, NULL}, "unknown option");
    expect_usage_error((const char *const[]){"info", NULL}, "no input FILE");
    expect_usage_error((const char *const[]){"info", t, t, NULL}, "one input FILE only");
    expect_usage_error((const char *const[]){"info", "--input-format", "elf", t, NULL},
                       "unknown format 'elf'");
    expect_usage_error((const char *const[]){"events", "--format", "xml", t, NULL},
                       "unknown format 'xml'");
    expect_usage_error((const char *const[]){"events", t, "--format", NULL}, "needs an argument");
    expect_usage_error((const char *const[]){"events", "--from", "-5", t, NULL},
                       "not a tick count");
    expect_usage_error((const char *const[]){"events", "--to", "12x", t, NULL}, "not a tick count");
    expect_usage_error((const char *const[]){"events", "--event", "NO SUCH EVENT", t, NULL},
                       "no event of that name");
    expect_usage_error((const char *const[]){"events", "--event", "70000", t, NULL}, "0 to 65535");
    expect_usage_error((const char *const[]){"events", "--thread", "nobody", t, NULL},
                       "no thread of that name");
    expect_usage_error((const char *const[]){"events", "--thread", "0xZZ", t, NULL},
                       "not a hex address");
    expect_usage_error((const char *const[]){"dump", "--json", t, NULL}, "unknown option");
}

/* ------------------------------------------------------------------ info */

static uint64_t member_u64(const char *json, const char *key)
{
    char v[64];
    if (!json_member(json, key, v, sizeof v))
        fail_msg("no member %s in %s", key, json);
    return strtoull(v, NULL, 10);
}

static const char *member_raw(const char *json, const char *key)
{
    static char v[256];
    if (!json_member(json, key, v, sizeof v))
        fail_msg("no member %s in %s", key, json);
    return v;
}

static void test_info_json_wrapped(void **state)
{
    (void)state;
    cli_result r;
    RUN(&r, "info", "--json", CORPUS "b_sample_wrap.trx");
    assert_int_equal(r.status, 0);
    assert_int_equal(r.err_len, 0);
    char keys[40][64];
    size_t nkeys;
    assert_true(json_valid(r.out, r.out_len, keys, 40, &nkeys));
    assert_int_equal(nkeys, 38); /* "format" (trace format) + "input_format", registry_full,
                                    unregistered_contexts */
    assert_int_equal(cli_count_lines(r.out), 1);
    /* a single-core trace: one core with every entry */
    assert_int_equal(member_u64(r.out, "cores"), 1);
    assert_string_equal(member_raw(r.out, "multi_core"), "false");
    assert_non_null(strstr(r.out, "\"events_per_core\":[1986],"));
    /* b_sample_wrap.truth.txt: capacity 1986, wrapped, oldest index 290,
     * base 0x56594180, 40 registry entries; golden: Max Relative Ticks 1705135 */
    assert_int_equal(member_u64(r.out, "capacity"), 1986);
    assert_string_equal(member_raw(r.out, "wrapped"), "true");
    assert_int_equal(member_u64(r.out, "oldest_index"), 290);
    assert_int_equal(member_u64(r.out, "entries_used"), 1986);
    assert_int_equal(member_u64(r.out, "registry_entries"), 40);
    assert_int_equal(member_u64(r.out, "registry_used"), 15);
    assert_string_equal(member_raw(r.out, "registry_full"), "false");
    assert_string_equal(member_raw(r.out, "rtos"), "\"threadx\"");
    assert_int_equal(member_u64(r.out, "unregistered_contexts"), 0);
    assert_int_equal(member_u64(r.out, "base_address"), 0x56594180u);
    assert_int_equal(member_u64(r.out, "buffer_oldest"), 0x56596D70u);
    assert_int_equal(member_u64(r.out, "timer_mask"), 0xFFFFFFFFu);
    assert_int_equal(member_u64(r.out, "object_name_size"), 32);
    assert_int_equal(member_u64(r.out, "first_ticks"), 0);
    assert_int_equal(member_u64(r.out, "last_ticks"), 1705135);
    assert_int_equal(member_u64(r.out, "trace_id"), 0x42545854u);
    assert_string_equal(member_raw(r.out, "format"), "\"txtb\"");
    assert_string_equal(member_raw(r.out, "input_format"), "\"bin\"");
    assert_string_equal(member_raw(r.out, "byte_order"), "\"little\"");
    assert_string_equal(member_raw(r.out, "counts_up"), "true");
    assert_string_equal(member_raw(r.out, "timer_direction"), "\"up\"");
    assert_string_equal(member_raw(r.out, "time_source"), "\"ok\"");
    assert_int_equal(member_u64(r.out, "time_steps"), 1985);
    cli_result_free(&r);
}

static void test_info_json_demo(void **state)
{
    (void)state;
    cli_result r;
    RUN(&r, "info", "--json", CORPUS "demo_threadx.trx");
    assert_int_equal(r.status, 0);
    assert_true(json_valid(r.out, r.out_len, NULL, 0, NULL));
    /* demo_threadx.txt header: Timer Mask 0000FFFF, Buffer Start 000072D4,
     * Buffer End 0000EC94, Buffer Oldest 0000E1D4 (entry 888 of 974),
     * Max Relative Ticks 156206; its time stamps count down */
    assert_int_equal(member_u64(r.out, "capacity"), 974);
    assert_int_equal(member_u64(r.out, "entries_used"), 974);
    assert_int_equal(member_u64(r.out, "oldest_index"), 888);
    assert_string_equal(member_raw(r.out, "wrapped"), "true");
    assert_int_equal(member_u64(r.out, "timer_mask"), 0xFFFF);
    assert_int_equal(member_u64(r.out, "buffer_start"), 0x72D4);
    assert_int_equal(member_u64(r.out, "buffer_end"), 0xEC94);
    assert_int_equal(member_u64(r.out, "last_ticks"), 156206);
    assert_string_equal(member_raw(r.out, "counts_up"), "false");
    assert_true(member_u64(r.out, "votes_down") > member_u64(r.out, "votes_up"));
    cli_result_free(&r);
}

static void test_info_text(void **state)
{
    (void)state;
    cli_result r;
    RUN(&r, "info", CORPUS "c_prio_inversion_mutex_noinherit.trx");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\nWrapped:            no\n"));
    assert_non_null(strstr(r.out, "\nEntries used:       142\n"));
    assert_non_null(strstr(r.out, "\nByte order:         little-endian\n"));
    assert_non_null(strstr(r.out, "\nRelative ticks:     0 - 50430205\n"));
    cli_result_free(&r);
}

/* ---------------------------------------------------------------- events */

/* "Total Events:" of a golden dump. */
static unsigned long golden_total(const char *golden)
{
    size_t n;
    char *text = cli_read_file(golden, &n);
    assert_non_null(text);
    const char *p = strstr(text, "\nTotal Events:");
    assert_non_null(p);
    unsigned long v = strtoul(p + 14, NULL, 10);
    free(text);
    return v;
}

static void test_events_count_matches_tracex(void **state)
{
    (void)state;
    static const struct {
        const char *name, *golden;
        unsigned long raw; /* entries in the buffer (corpus README) */
    } traces[] = {
        {"demo_threadx", "demo_threadx.txt", 974},
        {"demo_filex", "demo_filex.txt", 950},
        {"demo_netx_tcp", "demo_netx_tcp.txt", 950},
        {"demo_netx_udp", "demo_netx_udp.txt", 950},
        {"b_sample_wrap", "b_sample_wrap.tml.txt", 1986},
        {"c_prio_inversion_mutex_noinherit", "c_prio_inversion_mutex_noinherit.tml.txt", 142},
        {"d_interrupts_nested", "d_interrupts_nested.tml.txt", 1391},
        {"e_user_events_filter", "e_user_events_filter.tml.txt", 422},
    };
    for (size_t i = 0; i < sizeof traces / sizeof traces[0]; i++) {
        char trace[512], golden[512];
        snprintf(trace, sizeof trace, CORPUS "%s.trx", traces[i].name);
        snprintf(golden, sizeof golden, CORPUS "%s", traces[i].golden);
        unsigned long total = golden_total(golden);
        cli_result r;
        RUN(&r, "events", "--format", "jsonl", trace);
        assert_int_equal(r.status, 0);
        assert_int_equal(r.err_len, 0);
        assert_int_equal(cli_count_lines(r.out), total);
        cli_result_free(&r);
        RUN(&r, "events", "--format", "jsonl", "--no-synthetic", trace);
        assert_int_equal(r.status, 0);
        assert_int_equal(cli_count_lines(r.out), traces[i].raw);
        assert_null(strstr(r.out, "\"synthetic\":true"));
        cli_result_free(&r);
    }
}

static void test_events_jsonl_fields(void **state)
{
    (void)state;
    static const char *const expected[] = {
        "index",  "ticks",       "timestamp", "id",   "core",      "name", "context",
        "thread", "thread_name", "priority",  "info", "synthetic", "args"};
    cli_result r;
    RUN(&r, "events", "--format", "jsonl", CORPUS "d_interrupts_nested.trx");
    assert_int_equal(r.status, 0);
    size_t lines = 0, synthetic = 0, isr = 0;
    char *line = r.out;
    while (*line) {
        char *nl = strchr(line, '\n');
        assert_non_null(nl);
        char keys[16][64];
        size_t nkeys;
        if (!json_valid(line, (size_t)(nl - line), keys, 16, &nkeys))
            fail_msg("line %zu is not valid JSON: %.*s", lines, (int)(nl - line), line);
        assert_int_equal(nkeys, 13);
        for (size_t k = 0; k < 13; k++)
            assert_string_equal(keys[k], expected[k]);
        *nl = '\0';
        char want[32];
        snprintf(want, sizeof want, "{\"index\":%zu,", lines);
        assert_memory_equal(line, want, strlen(want)); /* indexes count up from 0 */
        synthetic += strstr(line, "\"synthetic\":true") != NULL;
        if (strstr(line, "\"context\":\"isr\"")) {
            isr++;
            assert_non_null(strstr(line, "\"priority\":null"));
            assert_non_null(strstr(line, "\"thread_name\":\"Interrupt\""));
        }
        lines++;
        line = nl + 1;
    }
    assert_int_equal(lines, 1567);
    assert_int_equal(synthetic, 1567 - 1391);
    assert_true(isr > 0);
    cli_result_free(&r);

    /* catalogue captions become args; the first event of demo_threadx */
    RUN(&r, "events", "--format", "jsonl", CORPUS "demo_threadx.trx");
    char *nl = strchr(r.out, '\n');
    assert_non_null(nl);
    *nl = '\0';
    assert_string_equal(r.out, "{\"index\":0,\"ticks\":0,\"timestamp\":2100,\"id\":68,\"core\":0,"
                               "\"name\":\"TX QUEUE RECEIVE\",\"context\":\"thread\","
                               "\"thread\":26516,\"thread_name\":\"thread 2\",\"priority\":16,"
                               "\"info\":[27524,71072,4294967295,19],\"synthetic\":false,"
                               "\"args\":{\"Queue Ptr\":27524,\"Destination Ptr\":71072,"
                               "\"Wait Option\":4294967295,\"Enqueued\":19}}");
    cli_result_free(&r);
}

static void test_events_csv_and_text(void **state)
{
    (void)state;
    cli_result r;
    RUN(&r, "events", "--format", "csv", CORPUS "demo_threadx.trx");
    assert_int_equal(r.status, 0);
    assert_int_equal(cli_count_lines(r.out), 975); /* header + 974 */
    assert_memory_equal(r.out, "index,ticks,timestamp,id,core,name,context,thread,thread_name,",
                        62);
    assert_non_null(strstr(r.out, "\n0,0,0x00000834,68,0,TX QUEUE RECEIVE,thread,0x00006794,"
                                  "thread 2,16,0x00006B84,0x000115A0,0xFFFFFFFF,0x00000013,0\n"));
    cli_result_free(&r);
    RUN(&r, "events", "--crlf", CORPUS "demo_threadx.trx");
    assert_int_equal(r.status, 0);
    assert_int_equal(cli_count_lines(r.out), 975);
    /* every line ends in CR LF, and all lines have the same length */
    size_t first_len = 0, lines = 0;
    for (char *p = r.out; *p;) {
        char *nl = strchr(p, '\n');
        assert_non_null(nl);
        assert_true(nl > p && nl[-1] == '\r');
        size_t len = (size_t)(nl - p);
        if (lines == 1)
            first_len = len;
        else if (lines > 1 && !strstr(p, "(inserted)"))
            assert_int_equal(len, first_len);
        lines++;
        p = nl + 1;
    }
    cli_result_free(&r);
}

static size_t count_runs(const char *const *args)
{
    cli_result r;
    cli_run(&r, args);
    assert_int_equal(r.status, 0);
    size_t n = cli_count_lines(r.out);
    cli_result_free(&r);
    return n;
}

static void test_events_filters(void **state)
{
    (void)state;
    const char *e = CORPUS "e_user_events_filter.trx";
    const char *d = CORPUS "demo_threadx.trx";
    /* e_user_events_filter.truth.txt: 80 QUEUE_SEND (69), 81 QUEUE_RECEIVE (68),
     * user events 4096 x21, 5000 x21, 65535 x18 */
    assert_int_equal(count_runs((const char *const[]){"events", "--format", "jsonl", "--event",
                                                      "tx queue send", e, NULL}),
                     80);
    assert_int_equal(count_runs((const char *const[]){"events", "--format", "jsonl", "--event",
                                                      "TML_TRACE_QUEUE_SEND", e, NULL}),
                     80);
    assert_int_equal(count_runs((const char *const[]){"events", "--format", "jsonl", "--event",
                                                      "0x44", e, NULL}),
                     81);
    assert_int_equal(count_runs((const char *const[]){"events", "--format", "jsonl", "--event",
                                                      "68", "--event", "69", e, NULL}),
                     161);
    assert_int_equal(count_runs((const char *const[]){"events", "--format", "jsonl", "--event",
                                                      "4096", e, NULL}),
                     21);
    assert_int_equal(count_runs((const char *const[]){"events", "--format", "jsonl", "--event",
                                                      "65535", e, NULL}),
                     18);
    /* threads: TraceX's per-thread totals (demo_threadx.tml-stats.json) */
    assert_int_equal(count_runs((const char *const[]){"events", "--format", "jsonl", "--thread",
                                                      "thread 2", d, NULL}),
                     437);
    assert_int_equal(count_runs((const char *const[]){"events", "--format", "jsonl", "--thread",
                                                      "0x000066EC", d, NULL}),
                     502);
    assert_int_equal(count_runs((const char *const[]){"events", "--format", "jsonl", "--thread",
                                                      "thread 2", "--thread", "thread 1", d, NULL}),
                     939);
    assert_int_equal(count_runs((const char *const[]){"events", "--format", "jsonl", "--thread",
                                                      "producer", e, NULL}),
                     241);
    /* tick range, inclusive: events 1..3 of demo_threadx are at ticks 161, 322, 483 */
    cli_result r;
    RUN(&r, "events", "--format", "jsonl", "--from", "161", "--to", "483", d);
    assert_int_equal(r.status, 0);
    assert_int_equal(cli_count_lines(r.out), 3);
    assert_memory_equal(r.out, "{\"index\":1,\"ticks\":161,", 23);
    assert_non_null(strstr(r.out, "\n{\"index\":3,\"ticks\":483,"));
    cli_result_free(&r);
    assert_int_equal(count_runs((const char *const[]){"events", "--format", "jsonl", "--from",
                                                      "156206", d, NULL}),
                     1);
    assert_int_equal(count_runs((const char *const[]){"events", "--format", "jsonl", "--from",
                                                      "156207", d, NULL}),
                     0);
    /* filters combine: thread 2's QUEUE RECEIVE events in a window */
    size_t all =
        count_runs((const char *const[]){"events", "--format", "jsonl", "--thread", "thread 2",
                                         "--event", "TX QUEUE RECEIVE", d, NULL});
    size_t early =
        count_runs((const char *const[]){"events", "--format", "jsonl", "--thread", "thread 2",
                                         "--event", "TX QUEUE RECEIVE", "--to", "644", d, NULL});
    assert_true(all > early);
    assert_int_equal(early, 5);
}

static void test_events_custom_file(void **state)
{
    (void)state;
    char trxc[256];
    tmp_path(trxc, sizeof trxc, "custom.trxc");
    const char *text = "My events\n"
                       "Start\n"
                       "5000,Phase Marker,PM,(255,0,0),(0,0,0),Phase Seq,Magic,Id,Not Seq\n"
                       "End\n";
    assert_int_equal(cli_write_file(trxc, text, strlen(text)), 0);
    const char *e = CORPUS "e_user_events_filter.trx";
    cli_result r;
    RUN(&r, "events", "--format", "jsonl", "--custom", trxc, "--event", "phase marker", e);
    assert_int_equal(r.status, 0);
    assert_int_equal(cli_count_lines(r.out), 21);
    /* I2 = 0xDEADBEEF, I3 = the id (truth file) */
    assert_non_null(strstr(r.out, "\"name\":\"Phase Marker\""));
    assert_non_null(strstr(r.out, "\"Magic\":3735928559,\"Id\":5000,"));
    cli_result_free(&r);
    /* without the definition the event is a plain user event */
    RUN(&r, "events", "--format", "jsonl", "--event", "5000", e);
    assert_non_null(strstr(r.out, "\"name\":\"User Event\""));
    assert_non_null(strstr(r.out, "\"args\":{}}"));
    cli_result_free(&r);
    /* a broken .trxc is bad input: exit 2, its offset and line */
    const char *bad = "Start\n5000,Phase Marker,PMXX,(1,2,3),(4,5,6),a,b,c,d\nEnd\n";
    assert_int_equal(cli_write_file(trxc, bad, strlen(bad)), 0);
    RUN(&r, "events", "--custom", trxc, e);
    assert_int_equal(r.status, 2);
    assert_int_equal(r.out_len, 0);
    char want[320];
    snprintf(want, sizeof want, "trx: %s: offset 6: line 2: abbreviation", trxc);
    assert_memory_equal(r.err, want, strlen(want));
    assert_int_equal(cli_count_lines(r.err), 1);
    cli_result_free(&r);
}

/* ------------------------------------------------------------- -o, dump */

static void test_output_file(void **state)
{
    (void)state;
    char out[256];
    tmp_path(out, sizeof out, "events.csv");
    cli_result r, ref;
    RUN(&ref, "events", "--format", "csv", CORPUS "c_prio_inversion_mutex_noinherit.trx");
    RUN(&r, "events", "--format", "csv", "-o", out, CORPUS "c_prio_inversion_mutex_noinherit.trx");
    assert_int_equal(r.status, 0);
    assert_int_equal(r.out_len, 0);
    size_t n;
    char *written = cli_read_file(out, &n);
    assert_non_null(written);
    assert_int_equal(n, ref.out_len);
    assert_memory_equal(written, ref.out, n);
    free(written);
    cli_result_free(&r);
    cli_result_free(&ref);
    /* bad input with -o: the old file stays as it was, no temporary left */
    RUN(&r, "events", "-o", out, "/nonexistent/trace.trx");
    assert_int_equal(r.status, 2);
    written = cli_read_file(out, &n);
    assert_non_null(written);
    assert_int_equal(n, strlen(written));
    assert_memory_equal(written, "index,ticks", 11);
    free(written);
    cli_result_free(&r);
    /* an output that cannot be created: exit 3 */
    RUN(&r, "info", "-o", "/nonexistent-dir/x.txt", CORPUS "demo_threadx.trx");
    assert_int_equal(r.status, 3);
    assert_int_equal(r.out_len, 0);
    assert_non_null(strstr(r.err, "trx: /nonexistent-dir/x.txt: cannot create"));
    cli_result_free(&r);
    /* only the one output file in the directory (no temporaries left) */
    char cmd[160], listing[256];
    snprintf(cmd, sizeof cmd, "ls %s | grep -v custom.trxc | grep -vx 'bad_.*' | wc -l", dir);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    assert_non_null(fgets(listing, sizeof listing, p));
    pclose(p);
    assert_int_equal(atoi(listing), 1);
}

static void test_write_error(void **state)
{
    (void)state;
    if (access("/dev/full", W_OK) != 0) {
#ifdef __linux__
        fail_msg("/dev/full is not writable"); /* every Linux has it */
#else
        skip();
#endif
    }
    cli_result r;
    cli_run_stdout(&r, (const char *const[]){"events", CORPUS "demo_threadx.trx", NULL},
                   "/dev/full");
    assert_int_equal(r.status, 3);
    assert_non_null(strstr(r.err, "trx: standard output: write error: No space left on device"));
    cli_result_free(&r);
}

static void test_dump(void **state)
{
    (void)state;
    cli_result r;
    RUN(&r, "dump", CORPUS "demo_threadx.trx");
    assert_int_equal(r.status, 0);
    assert_int_equal(r.err_len, 0);
    assert_non_null(strstr(r.out, "\nTotal Events:        974\n"));
    assert_non_null(strstr(r.out, "\nMax Relative Ticks:  00000000000000156206\n"));
    assert_null(strchr(r.out, '\r'));
    size_t lf_lines = cli_count_lines(r.out), lf_len = r.out_len;
    cli_result_free(&r);
    RUN(&r, "dump", "--crlf", CORPUS "demo_threadx.trx");
    assert_int_equal(r.status, 0);
    assert_int_equal(r.out_len, lf_len + lf_lines);
    cli_result_free(&r);
}

/* `trx stats --compat tracex`: TraceX's numbers (demo_threadx.txt, its
 * Performance Statistics and Thread Execution sections) in text and JSON;
 * the default mode says it is the correct one. */
static void test_stats(void **state)
{
    (void)state;
    cli_result r;
    RUN(&r, "stats", CORPUS "demo_threadx.trx");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\nMode:     correct"));
    cli_result_free(&r);
    RUN(&r, "stats", "--compat", "tracex", CORPUS "demo_threadx.trx");
    assert_int_equal(r.status, 0);
    assert_int_equal(r.err_len, 0);
    assert_non_null(strstr(r.out, "\nMode:     tracex"));
    assert_non_null(strstr(r.out, "\n  Context switches       18\n"));
    assert_non_null(strstr(r.out, "\n  Thread preemptions     5\n"));
    assert_non_null(strstr(r.out, "\n  Interrupts             3\n"));
    assert_non_null(strstr(r.out, "\n  thread 1                            79507   50.90\n"));
    assert_non_null(strstr(r.out, "\n  TX QUEUE SEND (69)                        493"));
    assert_null(strstr(r.out, "FileX statistics")); /* no FileX events in this trace */
    cli_result_free(&r);
    RUN(&r, "stats", "--json", "--compat", "tracex", CORPUS "demo_threadx.trx");
    assert_int_equal(r.status, 0);
    char keys[40][64];
    size_t nkeys;
    assert_true(json_valid(r.out, r.out_len, keys, 40, &nkeys));
    assert_non_null(strstr(r.out, "\"mode\": \"tracex\""));
    assert_non_null(strstr(r.out, "\"context_switches\": 18, \"thread_preemptions\": 5"));
    assert_non_null(strstr(r.out, "\"total_events\": 974"));
    cli_result_free(&r);
    RUN(&r, "stats", CORPUS "demo_filex.trx");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\n  Media opens                  19\n"));
    cli_result_free(&r);
}

/* ------------------------------------------------------------ bad input */

static uint8_t *demo;
static size_t demo_len;

static void put32le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static uint32_t get32le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Runs `trx info` and `trx events` on `path`: both must fail as bad input at `offset`. */
static void expect_bad_input(const char *path, unsigned long long offset, const char *needle)
{
    const char *commands[] = {"info", "events", "dump"};
    for (int i = 0; i < 3; i++) {
        cli_result r;
        RUN(&r, commands[i], path);
        char want[512];
        snprintf(want, sizeof want, "trx: %s: offset %llu: ", path, offset);
        if (r.status != 2 || r.out_len != 0 || strncmp(r.err, want, strlen(want)) != 0 ||
            cli_count_lines(r.err) != 1 || r.err[r.err_len - 1] != '\n')
            fail_msg("trx %s %s: status %d, %zu bytes on stdout, stderr \"%s\"; expected "
                     "status 2 and \"%s...\"",
                     commands[i], path, r.status, r.out_len, r.err, want);
        if (needle && !strstr(r.err, needle))
            fail_msg("stderr \"%s\" lacks \"%s\"", r.err, needle);
        cli_result_free(&r);
    }
}

/* Writes a modified copy of demo_threadx.trx: `len` bytes, header word at `field` = `value`. */
static const char *broken_copy(const char *name, size_t len, int field, uint32_t value)
{
    static char path[256];
    uint8_t *copy = malloc(demo_len);
    assert_non_null(copy);
    memcpy(copy, demo, demo_len);
    if (field >= 0)
        put32le(copy + field, value);
    tmp_path(path, sizeof path, name);
    assert_int_equal(cli_write_file(path, copy, len), 0);
    free(copy);
    return path;
}

static void test_bad_binary_inputs(void **state)
{
    (void)state;
    demo = (uint8_t *)cli_read_file(CORPUS "demo_threadx.trx", &demo_len);
    assert_non_null(demo);
    assert_int_equal(demo_len, 32768);
    uint32_t base = get32le(demo + 8), reg_start = get32le(demo + 12);
    uint32_t reg_end = get32le(demo + 20), buf_end = get32le(demo + 28);

    expect_bad_input(broken_copy("bad_empty.trx", 0, -1, 0), 0, "empty");
    expect_bad_input(broken_copy("bad_short.trx", 40, -1, 0), 40, "header");
    /* cut inside the registry: the registry end pointer (offset 20) points past the end */
    expect_bad_input(broken_copy("bad_truncated.trx", 1000, -1, 0), 20, "outside");
    expect_bad_input(broken_copy("bad_id.trx", demo_len, 0, 0x58585858u), 0, "TXTB");
    /* buffer end pointer (offset 28) far past the dump */
    expect_bad_input(broken_copy("bad_outside.trx", demo_len, 28, base + 0x100000u), 28, "outside");
    /* pointers out of order: registry end before registry start; start below the base */
    expect_bad_input(broken_copy("bad_order.trx", demo_len, 20, reg_start - 48), 20, "order");
    expect_bad_input(broken_copy("bad_below.trx", demo_len, 12, base - 4), 12, "below");
    /* misaligned: a pointer not on 4 bytes; areas that are not whole entries */
    expect_bad_input(broken_copy("bad_align.trx", demo_len, 12, reg_start + 2), 12, "aligned");
    expect_bad_input(broken_copy("bad_area.trx", demo_len, 28, buf_end - 4), 28, "multiple");
    expect_bad_input(broken_copy("bad_registry.trx", demo_len, 20, reg_end - 4), 20, "multiple");
    /* the oldest-entry pointer (offset 32) not on an entry */
    expect_bad_input(broken_copy("bad_oldest.trx", demo_len, 32, buf_end), 32, "oldest");
    free(demo);
    demo = NULL;
}

static void test_bad_paths(void **state)
{
    (void)state;
    expect_bad_input("/nonexistent/missing.trx", 0, "No such file");
    expect_bad_input(dir, 0, "directory");
}

/* Writes demo_threadx.trx as Intel HEX (16 data bytes a line, 44 characters). */
static char *to_ihex(const uint8_t *d, size_t n, size_t *len)
{
    char *s = malloc(n / 16 * 44 + 64), *p = s;
    assert_non_null(s);
    for (size_t a = 0; a < n; a += 16) {
        unsigned sum = 16 + (unsigned)(a >> 8) + (unsigned)(a & 0xFF);
        p += sprintf(p, ":10%04X00", (unsigned)a);
        for (int i = 0; i < 16; i++) {
            p += sprintf(p, "%02X", d[a + i]);
            sum += d[a + i];
        }
        p += sprintf(p, "%02X\n", (0x100 - (sum & 0xFF)) & 0xFF);
    }
    p += sprintf(p, ":00000001FF\n");
    *len = (size_t)(p - s);
    return s;
}

/* Writes it as S-records (S1, 16 data bytes a line, 43 characters). */
static char *to_srec(const uint8_t *d, size_t n, size_t *len)
{
    char *s = malloc(n / 16 * 43 + 64), *p = s;
    assert_non_null(s);
    for (size_t a = 0; a < n; a += 16) {
        unsigned sum = 0x13 + (unsigned)(a >> 8) + (unsigned)(a & 0xFF);
        p += sprintf(p, "S113%04X", (unsigned)a);
        for (int i = 0; i < 16; i++) {
            p += sprintf(p, "%02X", d[a + i]);
            sum += d[a + i];
        }
        p += sprintf(p, "%02X\n", ~sum & 0xFF);
    }
    p += sprintf(p, "S9030000FC\n");
    *len = (size_t)(p - s);
    return s;
}

static void test_bad_text_inputs(void **state)
{
    (void)state;
    size_t n, len;
    uint8_t *d = (uint8_t *)cli_read_file(CORPUS "demo_threadx.trx", &n);
    assert_non_null(d);
    char path[256];
    char *hex = to_ihex(d, n, &len);
    /* the good conversion reads like the binary */
    tmp_path(path, sizeof path, "bad_good.hex");
    assert_int_equal(cli_write_file(path, hex, len), 0);
    assert_int_equal(count_runs((const char *const[]){"events", "--no-synthetic", "--format",
                                                      "jsonl", path, NULL}),
                     974);
    /* a non-hex character in the data of line 2 (offset 44 + 9) */
    hex[44 + 9] = 'G';
    tmp_path(path, sizeof path, "bad_digit.hex");
    assert_int_equal(cli_write_file(path, hex, len), 0);
    expect_bad_input(path, 53, "hex digit");
    hex[44 + 9] = (char)"0123456789ABCDEF"[d[16] >> 4];
    /* a wrong checksum on line 3: its two digits start at 88 + 41 */
    hex[88 + 41] = hex[88 + 41] == '0' ? '1' : '0';
    tmp_path(path, sizeof path, "bad_checksum.hex");
    assert_int_equal(cli_write_file(path, hex, len), 0);
    expect_bad_input(path, 129, "checksum");
    free(hex);

    char *srec = to_srec(d, n, &len);
    tmp_path(path, sizeof path, "bad_good.srec");
    assert_int_equal(cli_write_file(path, srec, len), 0);
    assert_int_equal(count_runs((const char *const[]){"events", "--no-synthetic", "--format",
                                                      "jsonl", path, NULL}),
                     974);
    srec[43 + 8] = 'x';
    tmp_path(path, sizeof path, "bad_digit.srec");
    assert_int_equal(cli_write_file(path, srec, len), 0);
    expect_bad_input(path, 51, "hex digit");
    srec[43 + 8] = (char)"0123456789ABCDEF"[d[16] >> 4];
    srec[86 + 40] = srec[86 + 40] == '0' ? '1' : '0';
    tmp_path(path, sizeof path, "bad_checksum.srec");
    assert_int_equal(cli_write_file(path, srec, len), 0);
    expect_bad_input(path, 126, "checksum");
    free(srec);
    free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help_and_version),
        cmocka_unit_test(test_usage_errors),
        cmocka_unit_test(test_info_json_wrapped),
        cmocka_unit_test(test_info_json_demo),
        cmocka_unit_test(test_info_text),
        cmocka_unit_test(test_events_count_matches_tracex),
        cmocka_unit_test(test_events_jsonl_fields),
        cmocka_unit_test(test_events_csv_and_text),
        cmocka_unit_test(test_events_filters),
        cmocka_unit_test(test_events_custom_file),
        cmocka_unit_test(test_output_file),
        cmocka_unit_test(test_write_error),
        cmocka_unit_test(test_dump),
        cmocka_unit_test(test_stats),
        cmocka_unit_test(test_bad_binary_inputs),
        cmocka_unit_test(test_bad_paths),
        cmocka_unit_test(test_bad_text_inputs),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
