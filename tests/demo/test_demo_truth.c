/*
 * test_demo_truth.c - runs the simulated-RTOS demo (trx_demo) and checks that
 * what `trx dump` reports about its trace equals what the simulation knows it
 * did (demo.truth): interrupts, nested interrupts, user events, priority
 * inversions (TraceX's "a/b": a = every window started, b = the unbounded
 * ones), thread suspensions/resumptions and context switches.
 *
 * Context switches are TraceX's quirkiest count (tracex.md section 2.9: it
 * counts again around idle periods). The demo never idles (a background
 * thread is always ready) and its kernel logs RESUME/SUSPEND with the
 * next-thread field as ThreadX does, so there the TraceX count is the plain
 * number of thread-to-thread switches, and it is asserted exactly too.
 * The Intel HEX copy of the buffer (written by the recorder's export helper)
 * must give the same dump as the raw image.
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

/* Reads a whole file; NULL if it cannot. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text;
    long n;
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    text = malloc((size_t)n + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = '\0';
    fclose(f);
    return text;
}

/* The value of "key=" in a truth file; fails the test when missing. */
static unsigned long truth_value(const char *truth, const char *key)
{
    char pattern[128];
    const char *p;
    snprintf(pattern, sizeof pattern, "\n%s=", key);
    p = strstr(truth, pattern);
    if (p == NULL)
        fail_msg("demo.truth has no %s", key);
    return strtoul(p + strlen(pattern), NULL, 10);
}

/* The number after a "Label:" line of the dump's statistics. */
static unsigned long dump_value(const char *dump, const char *label)
{
    const char *p = strstr(dump, label);
    if (p == NULL)
        fail_msg("dump has no '%s'", label);
    return strtoul(p + strlen(label), NULL, 10);
}

/* Sum of the Popular Services counts of user events (id >= 4096), and how
 * many distinct user-event ids were listed. */
static unsigned long dump_user_events(const char *dump, unsigned *ids)
{
    const char *p = strstr(dump, "Popular Services");
    const char *end = strstr(dump, " Trace Events ");
    unsigned long total = 0;
    assert_non_null(p);
    assert_non_null(end);
    *ids = 0;
    while ((p = strstr(p, "USER EVENT")) != NULL && p < end) {
        const char *open = strchr(p, '(');
        unsigned long id, count;
        char *after;
        assert_non_null(open);
        id = strtoul(open + 1, &after, 10);
        assert_int_equal(*after, ')');
        count = strtoul(after + 1, NULL, 10);
        if (id >= 4096) {
            total += count;
            (*ids)++;
        }
        p = after;
    }
    return total;
}

/* Runs a shell command; fails the test when it does not exit 0. */
static void run(const char *cmd)
{
    int rc = system(cmd);
    if (rc != 0)
        fail_msg("command failed (%d): %s", rc, cmd);
}

/* Runs the demo for `cycles` and compares its truth with the dump. */
static void check_run(unsigned long cycles)
{
    char dir[] = "/tmp/trx_demo_testXXXXXX";
    char cmd[1024], path[512];
    char *truth, *dump, *dump_hex;
    unsigned ids;

    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "'%s' '%s' --cycles %lu >/dev/null", TRX_DEMO_PATH, dir, cycles);
    run(cmd);
    snprintf(cmd, sizeof cmd, "'%s' dump '%s/demo.trx' > '%s/dump.txt'", TRX_CLI_PATH, dir, dir);
    run(cmd);
    snprintf(cmd, sizeof cmd, "'%s' dump '%s/demo.hex' > '%s/dump_hex.txt'", TRX_CLI_PATH, dir,
             dir);
    run(cmd);

    snprintf(path, sizeof path, "%s/demo.truth", dir);
    truth = slurp(path);
    assert_non_null(truth);
    snprintf(path, sizeof path, "%s/dump.txt", dir);
    dump = slurp(path);
    assert_non_null(dump);
    snprintf(path, sizeof path, "%s/dump_hex.txt", dir);
    dump_hex = slurp(path);
    assert_non_null(dump_hex);

    assert_int_equal(truth_value(truth, "buffer_wrapped"), 0);
    /* the workload did what it is meant to show */
    assert_true(truth_value(truth, "nested_interrupts") > 0);
    assert_true(truth_value(truth, "priority_inversions_unbounded") > 0);
    assert_true(truth_value(truth, "priority_inversions_inheritance") > 0);

    assert_int_equal(dump_value(dump, "\nInterrupts:"), truth_value(truth, "interrupts"));
    assert_int_equal(dump_value(dump, "\nNested Interrupts:"),
                     truth_value(truth, "nested_interrupts"));
    assert_int_equal(dump_value(dump, "\nThread Suspensions:"),
                     truth_value(truth, "thread_suspensions"));
    assert_int_equal(dump_value(dump, "\nThread Resumptions:"),
                     truth_value(truth, "thread_resumptions"));
    assert_int_equal(dump_value(dump, "\nContext Switches:"),
                     truth_value(truth, "context_switches"));
    {
        const char *p = strstr(dump, "\nPriority Inversions:");
        char *slash;
        unsigned long a, b;
        assert_non_null(p);
        a = strtoul(p + strlen("\nPriority Inversions:"), &slash, 10);
        assert_int_equal(*slash, '/');
        b = strtoul(slash + 1, NULL, 10);
        assert_int_equal(a, truth_value(truth, "priority_inversions"));
        assert_int_equal(b, truth_value(truth, "priority_inversions_unbounded"));
    }
    assert_int_equal(dump_user_events(dump, &ids), truth_value(truth, "user_events"));
    assert_int_equal(ids, 7); /* the seven user-event ids of demo_workload.h */

    /* the Intel HEX export of the same buffer reads back to the same trace:
     * identical dumps apart from the "Input Trace File:" line */
    {
        const char *a = strstr(dump, "Output Trace File:");
        const char *b = strstr(dump_hex, "Output Trace File:");
        assert_non_null(a);
        assert_non_null(b);
        assert_string_equal(a, b);
    }

    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    run(cmd);
    free(truth);
    free(dump);
    free(dump_hex);
}

static void test_default_run(void **state)
{
    (void)state;
    check_run(800000UL);
}

static void test_short_run(void **state)
{
    (void)state;
    check_run(150000UL);
}

/* Same input, same trace: the truth does not depend on the run. */
static void test_deterministic(void **state)
{
    (void)state;
    char dir[] = "/tmp/trx_demo_detXXXXXX";
    char cmd[1024], path[512];
    char *first, *second;
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "'%s' '%s' >/dev/null && mv '%s/demo.truth' '%s/first.truth'",
             TRX_DEMO_PATH, dir, dir, dir);
    run(cmd);
    snprintf(cmd, sizeof cmd, "'%s' '%s' >/dev/null", TRX_DEMO_PATH, dir);
    run(cmd);
    snprintf(path, sizeof path, "%s/first.truth", dir);
    first = slurp(path);
    snprintf(path, sizeof path, "%s/demo.truth", dir);
    second = slurp(path);
    assert_non_null(first);
    assert_non_null(second);
    assert_string_equal(first, second);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    run(cmd);
    free(first);
    free(second);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_run),
        cmocka_unit_test(test_short_run),
        cmocka_unit_test(test_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
