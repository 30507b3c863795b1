/* test_tracex_labels.c - which outputs print TraceX's misaligned dump labels:
 * `events --format text` only under --compat tracex (TRX_MODE_TRACEX); the
 * correct mode keeps the readable catalogue names. Uses the corpus trace
 * z_every_event_id.trx, which holds every id 0..999. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "output/events_output.h"

/* The `events` text line of the first event with id `id`, in `mode`. */
static void line_for(trx_mode mode, uint32_t id, char *line, size_t size)
{
    trx_trace t;
    trx_error err;
    assert_int_equal(
        trx_trace_open(&t, TRX_SHARED_DIR "/corpus/z_every_event_id.trx", TRX_FORMAT_AUTO, &err),
        0);
    t.mode = mode;
    trx_trace_prepare(&t);
    FILE *f = tmpfile();
    assert_non_null(f);
    trx_out *o = malloc(sizeof *o);
    assert_non_null(o);
    trx_out_init(o, f, false);
    trx_cursor c;
    trx_event ev;
    assert_int_equal(trx_cursor_init(&c, &t), 0);
    bool found = false;
    while (!found && trx_cursor_next(&c, &ev))
        found = ev.id == id && !ev.synthetic;
    trx_cursor_free(&c);
    assert_true(found);
    trx_events_text_line(o, &t, &ev, NULL);
    assert_int_equal(trx_out_flush(o), 0);
    free(o);
    rewind(f);
    assert_non_null(fgets(line, (int)size, f));
    fclose(f);
    trx_trace_close(&t);
}

static void test_labels_by_mode(void **state)
{
    (void)state;
    char line[256];
    line_for(TRX_MODE_CORRECT, 632, line, sizeof line);
    assert_non_null(strstr(line, "  UX HST STK TRANSFER REQST "));
    line_for(TRX_MODE_TRACEX, 632, line, sizeof line);
    assert_non_null(strstr(line, "  UX HST STK TRNSFR REQ ABOR "));
    line_for(TRX_MODE_CORRECT, 750, line, sizeof line);
    assert_non_null(strstr(line, "  UX HST CLASS PRNTR ACTIVAT "));
    line_for(TRX_MODE_TRACEX, 750, line, sizeof line);
    assert_non_null(strstr(line, "  UX HST CLASS PRNTR DEACTIV "));
    line_for(TRX_MODE_TRACEX, 7, line, sizeof line);
    assert_non_null(strstr(line, "  INVALID                     "));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_labels_by_mode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
