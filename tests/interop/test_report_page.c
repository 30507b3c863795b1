/* test_report_page.c - the report page as written: self-contained (no URL, no
 * src/href, a CSP that forbids fetching), each inline element closed exactly
 * once although trace names hold "</script>" and quotes, and the data the page
 * reads (events, lanes, objects) present. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "decode/trace_builder.h"
#include "output/report.h"

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

/* Writes the report of `t` and returns it as a NUL-terminated string (free it). */
static char *report_text(trx_trace *t)
{
    static trx_out out;
    FILE *f = tmpfile();
    assert_non_null(f);
    trx_out_init(&out, f, false);
    trx_export_options o = {80000000u, NULL};
    assert_int_equal(trx_report_write(t, &out, &o), 0);
    assert_int_equal(trx_out_flush(&out), 0);
    long size = ftell(f);
    assert_true(size > 0);
    char *text = malloc((size_t)size + 1);
    assert_non_null(text);
    rewind(f);
    assert_int_equal(fread(text, 1, (size_t)size, f), (size_t)size);
    text[size] = '\0';
    fclose(f);
    return text;
}

static void hostile_names_stay_inside_their_element(void **state)
{
    (void)state;
    static test_trace b;
    tb_init(&b, 4, 16, false);
    tb_object(&b, 0, TRX_OBJ_THREAD, 0x1000, "</script><script>x()", 0x8000, 512, 5);
    tb_object(&b, 1, TRX_OBJ_QUEUE, 0x2000, "q\"uote</style>", 0, 0, 0);
    tb_event(&b, 0x1000, 5, 69, 100, 0x2000, 0, 0, 1); /* queue send */
    tb_event(&b, 0x1000, 5, 68, 150, 0x2000, 0, 0, 1); /* queue receive */
    tb_event(&b, 0x1000, 5, 4096, 200, 7, 8, 9, 10);   /* user event */
    trx_trace t;
    tb_open(&b, &t);
    char *html = report_text(&t);
    /* three data elements and the script: each closed once, nothing else */
    assert_int_equal(count(html, "<script"), 4);
    assert_int_equal(count(html, "</script>"), 4);
    assert_int_equal(count(html, "<style>"), 1);
    assert_int_equal(count(html, "</style>"), 1);
    assert_non_null(strstr(html, "\\u003c/script>\\u003cscript>x()"));
    assert_non_null(strstr(html, "q\\\"uote\\u003c/style>"));
    /* self-contained */
    assert_int_equal(count(html, "http:"), 0);
    assert_int_equal(count(html, "https:"), 0);
    assert_int_equal(count(html, " src="), 0);
    assert_int_equal(count(html, " href="), 0);
    assert_non_null(strstr(html, "default-src 'none'"));
    /* the data the page reads */
    assert_non_null(strstr(html, "\"ticks_per_second\":80000000"));
    assert_non_null(strstr(html, "{\"count\":3,\"types\":{"));
    assert_non_null(strstr(html, "\"4096\":[\"User Event\",\"user\",[\"info1\""));
    assert_int_equal(strncmp(html, "<!DOCTYPE html>", 15), 0);
    assert_non_null(strstr(html, "</html>"));
    free(html);
    trx_trace_close(&t);
}

static void events_are_compact_base64(void **state)
{
    (void)state;
    static test_trace b;
    tb_init(&b, 2, 64, false);
    tb_object(&b, 0, TRX_OBJ_THREAD, 0x1000, "worker", 0x8000, 512, 5);
    for (uint32_t i = 0; i < 50; i++)
        tb_event(&b, 0x1000, 5, 69, 100 + 10 * i, 0x2000, 0x3000, 0, i);
    trx_trace t;
    tb_open(&b, &t);
    char *html = report_text(&t);
    const char *start = strstr(html, "<script id=\"trx-events\" type=\"text/plain\">\n");
    assert_non_null(start);
    start += strlen("<script id=\"trx-events\" type=\"text/plain\">\n");
    const char *end = strstr(start, "\n</script>");
    assert_non_null(end);
    size_t len = (size_t)(end - start);
    for (const char *p = start; p < end; p++) /* one line of base64 */
        assert_non_null(
            strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=", *p));
    assert_int_equal(len % 4, 0);
    /* 50 repeating events: 1-byte fields after the first -> about 9 bytes each */
    assert_true(len < 50 * 16);
    free(html);
    trx_trace_close(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hostile_names_stay_inside_their_element),
        cmocka_unit_test(events_are_compact_base64),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
