/* test_custom_events.c - the .trxc custom-event parser: good files, later
 * definitions winning, and each kind of syntax error with its byte offset
 * and line number. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "trx/catalog.h"

static char dir[64];
static char path[128];

static int make_dir(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/trx-trxc-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(path, sizeof path, "%s/custom.trxc", dir);
    return 0;
}

static int remove_dir(void **state)
{
    (void)state;
    unlink(path);
    rmdir(dir);
    return 0;
}

static void write_file(const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
    assert_int_equal(fclose(f), 0);
}

static const char good[] = "Comment lines, before Start\n"
                           "Another comment, 1, 2, 3\n"
                           "Start\n"
                           "4096,Sensor Read,SR,(255,0,0),(0,0,255),Channel,Value,Raw,Flags\n"
                           "5000, Motor Step,MS,(10, 20, 30),(0,0,0), Steps,Dir,Speed,Pos,extra\n"
                           "\n"
                           "4096,Sensor Read v2,S2,(1,2,3),(4,5,6),A,B,C,D\r\n"
                           "End\n"
                           "9999,after end is ignored\n";

static void test_good_file(void **state)
{
    (void)state;
    write_file(good);
    trx_custom_events ce;
    trx_error err;
    assert_int_equal(trx_custom_events_load(&ce, path, &err), 0);
    assert_int_equal(ce.count, 2);
    const trx_custom_event *e = trx_custom_events_find(&ce, 4096);
    assert_non_null(e);
    assert_string_equal(e->name, "Sensor Read v2"); /* the later definition wins */
    assert_string_equal(e->abbreviation, "S2");
    assert_string_equal(e->label[3], "D"); /* CR stripped */
    e = trx_custom_events_find(&ce, 5000);
    assert_non_null(e);
    assert_string_equal(e->name, " Motor Step"); /* fields are not trimmed */
    assert_string_equal(e->label[0], " Steps");
    assert_string_equal(e->label[3], "Pos");
    assert_null(trx_custom_events_find(&ce, 9999));
    assert_null(trx_custom_events_find(&ce, 4097));
    trx_custom_events_free(&ce);
    assert_null(ce.items);
    trx_custom_events_free(&ce); /* twice is safe */
}

/* Loads `text`, expects failure at `offset` with "line N:" and `needle`. */
static void expect_error(const char *text, uint64_t offset, unsigned line, const char *needle)
{
    write_file(text);
    trx_custom_events ce;
    trx_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(trx_custom_events_load(&ce, path, &err), -1);
    assert_int_equal(err.offset, offset);
    char prefix[32];
    snprintf(prefix, sizeof prefix, "line %u: ", line);
    if (line)
        assert_memory_equal(err.message, prefix, strlen(prefix));
    if (!strstr(err.message, needle))
        fail_msg("message \"%s\" lacks \"%s\"", err.message, needle);
    assert_null(ce.items);
    assert_int_equal(ce.count, 0);
}

static void test_errors(void **state)
{
    (void)state;
    const char *head = "Start\n"; /* 6 bytes: the bad line starts at offset 6, line 2 */
    char buf[512];
    static const struct {
        const char *line;
        const char *needle;
    } cases[] = {
        {"4096,Too,Few,(1,2,3),(4,5,6),A,B,C\n", "at least 13"},
        {"abc,Name,AB,(1,2,3),(4,5,6),A,B,C,D\n", "not a number"},
        {"40.5,Name,AB,(1,2,3),(4,5,6),A,B,C,D\n", "whole number"},
        {"-1,Name,AB,(1,2,3),(4,5,6),A,B,C,D\n", "whole number"},
        {"100,Name,AB,(1,2,3),(4,5,6),A,B,C,D\n",
         "line 2: event number 100 is outside the user-event range 4096 to 65535"},
        {"4095,Name,AB,(1,2,3),(4,5,6),A,B,C,D\n", "event number 4095 is outside"},
        {"65536,Name,AB,(1,2,3),(4,5,6),A,B,C,D\n", "event number 65536 is outside"},
        {"70000,Name,AB,(1,2,3),(4,5,6),A,B,C,D\n", "event number 70000 is outside"},
        {"4096,,AB,(1,2,3),(4,5,6),A,B,C,D\n", "name is empty"},
        {"4096,Name,,(1,2,3),(4,5,6),A,B,C,D\n", "abbreviation"},
        {"4096,Name,ABCD,(1,2,3),(4,5,6),A,B,C,D\n", "abbreviation"},
        {"4096,Name,AB,1,2,3),(4,5,6),A,B,C,D\n", "first colour must start"},
        {"4096,Name,AB,(1,x,3),(4,5,6),A,B,C,D\n", "green"},
        {"4096,Name,AB,(1,2,3,(4,5,6),A,B,C,D\n", "first colour must end"},
        {"4096,Name,AB,(1,2,3),(4,5,6,A,B,C,D\n", "second colour must end"},
        {"4096,Name,AB,(1,2,3),(4,5,6),A,,C,D\n", "label 2 is empty"},
        {"4096,Name,AB,(1,2,3),(4,5,6),A,B,C,\n", "label 4 is empty"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(buf, sizeof buf, "%s%sEnd\n", head, cases[i].line);
        expect_error(buf, 6, 2, cases[i].needle);
    }
    /* the offset is the start of the bad line, after good ones */
    expect_error(
        "# c\nStart\n4096,A,B,(1,2,3),(4,5,6),a,b,c,d\n65535,A,B,(1,2,3),(4,5,6),a,b,c\nEnd\n", 43,
        4, "at least 13");
}

static void test_missing_start_or_end(void **state)
{
    (void)state;
    expect_error("1,A,B,(1,2,3),(4,5,6),a,b,c,d\nEnd\n", 34, 0, "missing Start");
    expect_error("Start\n4096,A,B,(1,2,3),(4,5,6),a,b,c,d\n", 39, 0, "missing End");
    expect_error("", 0, 0, "missing Start");
    /* "Start " with a trailing space is not the Start line */
    expect_error("Start \n1,A,B,(1,2,3),(4,5,6),a,b,c,d\nEnd\n", 41, 0, "missing Start");
}

static void test_not_a_file(void **state)
{
    (void)state;
    trx_custom_events ce;
    trx_error err;
    assert_int_equal(trx_custom_events_load(&ce, "/nonexistent/x.trxc", &err), -1);
    assert_int_equal(err.offset, 0);
    assert_int_equal(trx_custom_events_load(&ce, dir, &err), -1);
    assert_null(ce.items);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_file),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_missing_start_or_end),
        cmocka_unit_test(test_not_a_file),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
