/* test_catalog.c - the generated event catalogue: rows, labels, filter groups
 * and the exact names TraceX's raw dump prints (USBX misalignment included). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "trx/catalog.h"

static void test_queue_receive(void **state)
{
    (void)state;
    const trx_event_type *t = trx_catalog_find(68);
    assert_non_null(t);
    assert_int_equal(t->id, 68);
    assert_string_equal(t->name, "TX QUEUE RECEIVE");
    assert_string_equal(t->component, "threadx");
    assert_string_equal(trx_catalog_dump_name(68), "TX QUEUE RECEIVE          ");
    assert_int_equal(strlen(trx_catalog_dump_name(68)), 26);
    assert_int_equal(t->filter_group, 0x40);
}

static void test_labels_of_resume(void **state)
{
    (void)state;
    const trx_event_type *t = trx_catalog_find(1);
    assert_non_null(t);
    assert_string_equal(t->symbol, "TML_TRACE_THREAD_RESUME");
    assert_string_equal(t->label[0], "Thread Ptr");
    assert_string_equal(t->label[1], "Previous State");
    assert_string_equal(t->label[2], "Stack Pointer");
    assert_string_equal(t->label[3], "Next Thread Ptr");
    assert_int_equal(t->filter_group, 0x1);
    assert_string_equal(t->gui_name, "Internal Thread Resume");
}

static void test_filter_groups(void **state)
{
    (void)state;
    assert_int_equal(trx_catalog_find(69)->filter_group, 0x40);       /* queue send */
    assert_int_equal(trx_catalog_find(6)->filter_group, 0x1);         /* running */
    assert_int_equal(trx_catalog_find(999)->filter_group, 0x1000000); /* UX errors */
    /* "(inferred)" suffix: 328 is NX_TRACE_INTERNAL_EVENTS (inferred). */
    assert_int_equal(trx_catalog_find(328)->filter_group, 0x8000);
    /* every row has a known group */
    uint32_t rows = 0;
    for (uint32_t id = 0; id < 65536; id++) {
        const trx_event_type *t = trx_catalog_find(id);
        if (!t)
            continue;
        rows++;
        assert_int_equal(t->id, id);
        assert_int_not_equal(t->filter_group, 0);
        assert_non_null(t->name);
        for (int k = 0; k < 4; k++)
            assert_non_null(t->label[k]);
    }
    assert_int_equal(rows, trx_catalog_size());
    assert_int_equal(trx_catalog_size(), 648);
}

static void test_unknown_ids(void **state)
{
    (void)state;
    assert_null(trx_catalog_find(0));
    assert_null(trx_catalog_find(7));
    assert_null(trx_catalog_find(4096));
    assert_null(trx_catalog_find(0xFFFFFFFFu));
    assert_string_equal(trx_catalog_dump_name(0), "INVALID  ");
    assert_string_equal(trx_catalog_dump_name(7), "INVALID  ");
    assert_string_equal(trx_catalog_dump_name(5000), "INVALID  ");
    /* NetX ids that TraceX has no dump name for */
    assert_string_equal(trx_catalog_dump_name(325), "INVALID  ");
}

static void test_usbx_misalignment(void **state)
{
    (void)state;
    /* a missing separator joins the labels of 631 and 632 at 631 ... */
    assert_string_equal(trx_catalog_dump_name(631),
                        "UX HST STK RH DEV INSERT  UX HST STK TRANSFER REQST ");
    /* ... so later ids print the label meant for a higher id */
    assert_string_equal(trx_catalog_dump_name(632), "UX HST STK TRNSFR REQ ABOR");
    assert_string_equal(trx_catalog_dump_name(750), "UX HST CLASS PRNTR DEACTIV");
    assert_string_equal(trx_catalog_dump_name(999), "INVALID  ");
    assert_string_equal(trx_catalog_dump_name(743), "INVALID  ");
    /* ids without a CSV row */
    assert_string_equal(trx_catalog_dump_name(307), "INVALID                   ");
    assert_string_equal(trx_catalog_dump_name(650), "UX HST CLASS ASIX ACTIVATE");
    assert_string_equal(trx_catalog_dump_name(749), "UX HST CLASS PRNTR ACTIVAT");
    assert_string_equal(trx_catalog_dump_name(758), "INVALID  ");
    assert_string_equal(trx_catalog_dump_name(775), "INVALID  ");
    assert_string_equal(trx_catalog_dump_name(791), "UX HST CLS STRG UNT RDY T");
    assert_string_equal(trx_catalog_dump_name(958), "UX DEV CLS RNDIS MSG SET ");
    assert_string_equal(trx_catalog_dump_name(989), "INVALID  ");
}

static void test_usbx_intended_names(void **state)
{
    (void)state;
    /* the row keeps the intended name even where the dump shows a neighbour */
    assert_string_equal(trx_catalog_find(751)->name, "UX HST CLASS PRNTR DEACTIV");
    assert_string_equal(trx_catalog_find(999)->name, "UX TRACE ERROR");
    /* ids >= 1000 exist in the catalogue with their symbol (current USBX) */
    const trx_event_type *t = trx_catalog_find(1000);
    assert_non_null(t);
    assert_string_equal(t->symbol, "UX_TRACE_DEVICE_CLASS_PRINTER_ACTIVATE");
    assert_string_equal(t->name, "");
}

static void test_dump_names_all_sane(void **state)
{
    (void)state;
    for (uint32_t id = 0; id < 1000; id++) {
        const char *s = trx_catalog_dump_name(id);
        size_t n = strlen(s);
        if (id == 631 || id == 672) /* two labels joined */
            assert_true(n > 26 && n <= 52);
        else
            assert_true(n == 9 || (n >= 20 && n <= 26));
        if (n == 9)
            assert_string_equal(s, "INVALID  ");
    }
    /* every ThreadX name below 200 that has a row prints its own name */
    for (uint32_t id = 1; id < 200; id++) {
        const trx_event_type *t = trx_catalog_find(id);
        if (t && t->name[0])
            assert_memory_equal(trx_catalog_dump_name(id), t->name, strlen(t->name));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_queue_receive),       cmocka_unit_test(test_labels_of_resume),
        cmocka_unit_test(test_filter_groups),       cmocka_unit_test(test_unknown_ids),
        cmocka_unit_test(test_usbx_misalignment),   cmocka_unit_test(test_usbx_intended_names),
        cmocka_unit_test(test_dump_names_all_sane),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
