/*
 * test_cli_input.c - how every `trx` command takes its input: `-` reads
 * standard input (a file or a pipe), a stream that is no trace stops at once
 * with little memory (/dev/zero), --max-input-size refuses larger input
 * (files before mapping, streams before growing past the limit), and a bad
 * --custom file is exit 2 for every command that `trx --help` lists.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_run.h"

#define CORPUS TRX_SHARED_DIR "/corpus/"
#define DEMO CORPUS "demo_threadx.trx" /* 32768 bytes */

/* Peak memory a failed or small run may use. Sanitizer builds carry shadow
 * memory and allocator caches. */
#if defined(__SANITIZE_ADDRESS__)
#define SMALL_RUN_KB (96L * 1024)
#else
#define SMALL_RUN_KB (16L * 1024)
#endif

static char dir[64];

static int setup(void **state)
{
    (void)state;
    return cli_tmpdir_make(dir, sizeof dir, "input");
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

#define ARGS CLI_ARGS

/* Runs trx with standard input from `in` (a file, FIFO or device). */
static void run_stdin(cli_result *r, const char *in, const char *const *args, long *rss_kb)
{
    cli_run_options o = {in, NULL, 0};
    cli_run_with(r, args, &o);
    if (rss_kb)
        *rss_kb = o.max_rss_kb;
}

/* A writer process feeding `len` bytes of `data` (or, if NULL, `len` bytes of
 * "TXTB" and zeros) into a new FIFO; returns its pid, the FIFO in `fifo`. */
static pid_t feed_fifo(char *fifo, size_t cap, const char *name, const void *data, size_t len)
{
    tmp_path(fifo, cap, name);
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        signal(SIGPIPE, SIG_DFL); /* the reader may stop early: just die */
        int fd = open(fifo, O_WRONLY);
        if (fd < 0)
            _exit(1);
        static uint8_t chunk[1 << 16];
        memset(chunk, 0, sizeof chunk);
        memcpy(chunk, "TXTB", 4);
        size_t done = 0;
        while (done < len) {
            const uint8_t *src = data ? (const uint8_t *)data + done : chunk;
            size_t n = len - done;
            if (!data && n > sizeof chunk)
                n = sizeof chunk;
            ssize_t w = write(fd, src, n);
            if (w <= 0)
                _exit(1);
            done += (size_t)w;
            if (!data)
                memset(chunk, 0, 4);
        }
        _exit(0);
    }
    return pid;
}

static void reap(pid_t pid)
{
    int st;
    waitpid(pid, &st, 0);
}

/* ------------------------------------------------------------- streams */

/* `trx info /dev/zero` (and from standard input): exit 2 at once, one line,
 * nothing on stdout, a few MiB of memory at most. */
static void test_dev_zero(void **state)
{
    (void)state;
    static const char *const commands[] = {"info", "dump", "events", "stats"};
    for (size_t i = 0; i < 4; i++) {
        cli_result r;
        cli_run_options o = {NULL, NULL, 0};
        cli_run_with(&r, ARGS(commands[i], "/dev/zero"), &o);
        assert_int_equal(r.status, 2);
        assert_int_equal(r.out_len, 0);
        assert_string_equal(r.err, "trx: /dev/zero: offset 0: not a trace: no TXTB id at the start "
                                   "(found 00 00 00 00), no UIA records and no Intel HEX, "
                                   "S-record or ASCII hex text in the first 1048576 bytes "
                                   "(stopped reading)\n");
        assert_true(o.max_rss_kb < SMALL_RUN_KB);
        cli_result_free(&r);
    }
    cli_result r;
    long rss;
    run_stdin(&r, "/dev/zero", ARGS("info", "-"), &rss);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "trx: standard input: offset 0: not a trace"));
    assert_true(rss < SMALL_RUN_KB);
    cli_result_free(&r);
    /* a forced format is probed as that format */
    cli_run(&r, ARGS("info", "--input-format", "ihex", "/dev/zero"));
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "trx: /dev/zero: offset 0: no Intel HEX record in the first "
                               "1048576 bytes (stopped reading)\n");
    cli_result_free(&r);
    cli_run(&r, ARGS("info", "--input-format", "bin", "/dev/zero"));
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "not a trace: expected the id \"TXTB\" or UIA records at the"));
    cli_result_free(&r);
}

/* `-` reads standard input: from a file and from a pipe, binary and text,
 * with the same output as the file itself. */
static void test_stdin(void **state)
{
    (void)state;
    cli_result ref, r;
    cli_run(&ref, ARGS("events", "--format", "jsonl", DEMO));
    assert_int_equal(ref.status, 0);
    run_stdin(&r, DEMO, ARGS("events", "--format", "jsonl", "-"), NULL);
    assert_int_equal(r.status, 0);
    assert_int_equal(r.out_len, ref.out_len);
    assert_memory_equal(r.out, ref.out, ref.out_len);
    cli_result_free(&r);
    run_stdin(&r, DEMO, ARGS("info", "-"), NULL);
    assert_int_equal(r.status, 0);
    assert_memory_equal(r.out, "File:               -\n", 22);
    cli_result_free(&r);

    /* through a pipe (read, not mapped) */
    size_t len;
    char *bytes = cli_read_file(DEMO, &len);
    assert_non_null(bytes);
    assert_int_equal(len, 32768);
    char fifo[128];
    pid_t pid = feed_fifo(fifo, sizeof fifo, "bin.fifo", bytes, len);
    run_stdin(&r, fifo, ARGS("events", "--format", "jsonl", "-"), NULL);
    reap(pid);
    assert_int_equal(r.status, 0);
    assert_int_equal(r.out_len, ref.out_len);
    assert_memory_equal(r.out, ref.out, ref.out_len);
    cli_result_free(&r);

    /* ASCII hex through a pipe: the stream is converted as a file would be */
    char *hex = malloc(3 * len + 1), *p = hex;
    assert_non_null(hex);
    for (size_t i = 0; i < len; i++)
        p += sprintf(p, "%02x%s", (unsigned char)bytes[i], i % 32 == 31 ? "\n" : "");
    pid = feed_fifo(fifo, sizeof fifo, "hex.fifo", hex, (size_t)(p - hex));
    run_stdin(&r, fifo, ARGS("events", "--format", "jsonl", "-"), NULL);
    reap(pid);
    assert_int_equal(r.status, 0);
    assert_int_equal(r.out_len, ref.out_len);
    assert_memory_equal(r.out, ref.out, ref.out_len);
    cli_result_free(&r);
    cli_result_free(&ref);
    free(hex);
    free(bytes);
}

/* --max-input-size: a file larger than the limit is refused before it is
 * read; a stream when it passes the limit; the limit itself is fine. */
static void test_max_input_size(void **state)
{
    (void)state;
    cli_result r;
    cli_run(&r, ARGS("info", "--max-input-size", "10K", DEMO));
    assert_int_equal(r.status, 2);
    assert_int_equal(r.out_len, 0);
    assert_string_equal(r.err, "trx: " DEMO ": offset 0: input is 32768 bytes, more than the "
                               "limit of 10240 bytes (trx --max-input-size)\n");
    cli_result_free(&r);
    static const char *const fits[] = {"32768", "32K", "32KiB", "1M", "1g", "4T"};
    for (size_t i = 0; i < sizeof fits / sizeof fits[0]; i++) {
        cli_run(&r, ARGS("stats", "--max-input-size", fits[i], DEMO));
        assert_int_equal(r.status, 0);
        cli_result_free(&r);
    }
    static const char *const bad[] = {"0", "-1", "10X", "1KB", "", "K", "99999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cli_run(&r, ARGS("info", "--max-input-size", bad[i], DEMO));
        assert_int_equal(r.status, 1);
        assert_non_null(strstr(r.err, "--max-input-size: '"));
        cli_result_free(&r);
    }
    /* a stream: stopped at the limit, memory never much past it */
    char fifo[128];
    pid_t pid = feed_fifo(fifo, sizeof fifo, "long.fifo", NULL, (size_t)256 << 20);
    long rss;
    run_stdin(&r, fifo, ARGS("info", "--max-input-size", "8M", "-"), &rss);
    reap(pid);
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "trx: standard input: offset 8388608: input larger than the limit "
                               "of 8388608 bytes (trx --max-input-size)\n");
    assert_true(rss < SMALL_RUN_KB + 9 * 1024);
    cli_result_free(&r);
    /* the same stream under the limit by one byte is read whole (and then
     * fails as a trace: its header is zeros) */
    pid = feed_fifo(fifo, sizeof fifo, "short.fifo", NULL, (size_t)1 << 20);
    run_stdin(&r, fifo, ARGS("info", "--max-input-size", "1048576", "-"), NULL);
    reap(pid);
    assert_int_equal(r.status, 2);
    assert_null(strstr(r.err, "limit"));
    cli_result_free(&r);
}

/* ------------------------------------------------------------ --custom */

/* The commands `trx --help` lists (the lines under "Commands:"). */
static size_t listed_commands(char names[][32], size_t cap)
{
    cli_result r;
    cli_run(&r, ARGS("--help"));
    assert_int_equal(r.status, 0);
    const char *p = strstr(r.out, "\nCommands:\n");
    assert_non_null(p);
    p += strlen("\nCommands:\n");
    size_t n = 0;
    while (*p && *p != '\n') {
        const char *eol = strchr(p, '\n');
        if (!eol)
            break;
        if (p[0] == ' ' && p[1] == ' ' && p[2] != ' ' && n < cap) {
            size_t k = strcspn(p + 2, " \n");
            assert_true(k < 32);
            memcpy(names[n], p + 2, k);
            names[n++][k] = '\0';
        }
        p = eol + 1;
    }
    cli_result_free(&r);
    return n;
}

/* Every command: a bad --custom file is exit 2 with its line and reason,
 * nothing on stdout, whatever else the command needs. */
static void test_bad_custom_every_command(void **state)
{
    (void)state;
    char names[32][32];
    size_t n = listed_commands(names, 32);
    const char *need[] = {"info", "dump", "events", "stats", "check", "diff"};
    for (size_t k = 0; k < sizeof need / sizeof need[0]; k++) {
        bool found = false;
        for (size_t i = 0; i < n; i++)
            found |= strcmp(names[i], need[k]) == 0;
        assert_true(found);
    }
    char range[128], syntax[128];
    tmp_path(range, sizeof range, "range.trxc");
    tmp_path(syntax, sizeof syntax, "syntax.trxc");
    const char *bad_range = "Start\n100,Low,LO,(1,2,3),(4,5,6),a,b,c,d\nEnd\n";
    const char *bad_syntax = "Start\n5000,Name,TOOLONG,(1,2,3),(4,5,6),a,b,c,d\nEnd\n";
    assert_int_equal(cli_write_file(range, bad_range, strlen(bad_range)), 0);
    assert_int_equal(cli_write_file(syntax, bad_syntax, strlen(bad_syntax)), 0);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(names[i], "capture") == 0)
            continue; /* it records a stream: it reads no trace, names no events */
        for (int which = 0; which < 2; which++) {
            const char *trxc = which ? syntax : range;
            cli_result r;
            /* what a command needs besides its input (a new command that
             * needs more fails here until it is added) */
            const char *argv[12];
            int k = 0;
            argv[k++] = names[i];
            if (strcmp(names[i], "export") == 0)
                argv[k++] = "--to=csv";
            if (strcmp(names[i], "convert") == 0)
                argv[k++] = "--to=bin";
            if (strcmp(names[i], "why") == 0) { /* one thread, one instance */
                argv[k++] = "--thread=thread 1";
                argv[k++] = "--worst";
            }
            if (strcmp(names[i], "describe") == 0) { /* the definitions are its input */
                argv[k++] = "--to=csv";
                argv[k++] = trxc;
            } else {
                argv[k++] = "--custom";
                argv[k++] = trxc;
                argv[k++] = DEMO;
            }
            if (strcmp(names[i], "check") == 0)
                argv[k++] = "no-lost-events";
            argv[k] = NULL;
            cli_run(&r, argv);
            if (r.status == 1) { /* a command taking two inputs */
                cli_result_free(&r);
                argv[k++] = DEMO;
                argv[k] = NULL;
                cli_run(&r, argv);
            }
            if (r.status != 2)
                fail_msg("trx %s --custom %s: exit %d (%s)", names[i], trxc, r.status, r.err);
            assert_int_equal(r.out_len, 0);
            char want[256];
            snprintf(want, sizeof want, "trx: %s: offset 6: line 2: %s", trxc,
                     which ? "abbreviation" : "event number 100 is outside the user-event range");
            if (strncmp(r.err, want, strlen(want)) != 0)
                fail_msg("trx %s: stderr \"%s\", wanted \"%s...\"", names[i], r.err, want);
            assert_int_equal(cli_count_lines(r.err), 1);
            cli_result_free(&r);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dev_zero),
        cmocka_unit_test(test_stdin),
        cmocka_unit_test(test_max_input_size),
        cmocka_unit_test(test_bad_custom_every_command),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
