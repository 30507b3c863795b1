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
    /* a name TraceX does not have: the GUI name, else the symbol */
    assert_string_equal(t->name, "UX_TRACE_DEVICE_CLASS_PRINTER_ACTIVATE");
}

/* The meanings the event model relies on (lib/decode/event_cursor.c works
 * by these ids): the catalogue must say the same. */
static void test_meanings(void **state)
{
    (void)state;
    static const struct {
        uint32_t id;
        trx_event_meaning meaning;
    } want[] = {{1, TRX_MEANING_RESUME},    {2, TRX_MEANING_SUSPEND},    {3, TRX_MEANING_ISR_ENTER},
                {4, TRX_MEANING_ISR_EXIT},  {5, TRX_MEANING_TIME_SLICE}, {6, TRX_MEANING_RUNNING},
                {52, TRX_MEANING_LOCK_GET}, {57, TRX_MEANING_LOCK_PUT},  {69, TRX_MEANING_SEND},
                {68, TRX_MEANING_RECEIVE},  {100, TRX_MEANING_CREATE},   {109, TRX_MEANING_YIELD},
                {112, TRX_MEANING_SLEEP}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        assert_int_equal(trx_catalog_find(want[i].id)->meaning, want[i].meaning);
    assert_string_equal(trx_event_meaning_name(TRX_MEANING_LOCK_GET), "lock_get");
    assert_int_equal(trx_catalog_find(1)->role[0], TRX_ROLE_THREAD);
    assert_int_equal(trx_catalog_find(1)->type[0], TRX_FIELD_HEX);
    assert_int_equal(trx_catalog_find(10)->role[2], TRX_ROLE_TIMEOUT);
}

/* Stack usage reads the field whose role is "stack": exactly TraceX's table
 * (tracex.md 2.11), every other id none. */
static void test_stack_roles(void **state)
{
    (void)state;
    int want[65536 / 64] = {0}; /* ids < 256 only */
    static const uint32_t f1[] = {3, 4, 109};
    static const uint32_t f2[] = {12, 22, 30, 31, 40, 51, 61, 62, 82, 101, 120, 125, 127};
    static const uint32_t f3[] = {1,  2,   16,  26,  50,  56,  67,  81,
                                  87, 100, 102, 111, 112, 114, 115, 117};
    static const uint32_t f4[] = {17, 21, 57, 83, 88};
    for (size_t i = 0; i < 3; i++)
        want[f1[i]] = 1;
    for (size_t i = 0; i < 13; i++)
        want[f2[i]] = 2;
    for (size_t i = 0; i < 16; i++)
        want[f3[i]] = 3;
    for (size_t i = 0; i < 5; i++)
        want[f4[i]] = 4;
    for (uint32_t id = 0; id < 65536; id++) {
        int got = trx_catalog_field_with_role(id, TRX_ROLE_STACK) + 1;
        if (got != (id < 1024 ? want[id] : 0))
            fail_msg("id %u: stack in field %d, TraceX reads %d", id, got,
                     id < 1024 ? want[id] : 0);
    }
}

/* A description: names, meanings, typed fields, any id; errors name the line. */
static void test_description(void **state)
{
    (void)state;
    const char *text = "# comment\n\nid,name,extra,meaning,field1,field2,field3\n"
                       "4096,Motor Start,x,,speed,dir:i32,sensor::object\n"
                       "12,Pool Gone,y,delete,Pool::object,,\n"
                       "4096,Motor Go,z,send,speed:hex:count,,\n";
    trx_custom_events ce;
    trx_error err;
    assert_int_equal(trx_custom_events_parse(&ce, text, strlen(text), &err), 0);
    assert_int_equal(ce.count, 2);
    const trx_custom_event *e = trx_custom_events_find(&ce, 4096);
    assert_string_equal(e->name, "Motor Go"); /* the later definition wins */
    assert_string_equal(e->abbreviation, "MG");
    assert_int_equal(e->meaning, TRX_MEANING_SEND);
    assert_int_equal(e->type[0], TRX_FIELD_HEX);
    assert_int_equal(e->role[0], TRX_ROLE_COUNT);
    e = trx_custom_events_find(&ce, 12);
    assert_string_equal(e->name, "Pool Gone");
    assert_string_equal(e->label[0], "Pool");
    assert_int_equal(e->role[0], TRX_ROLE_OBJECT);
    assert_int_equal(e->type[0], TRX_FIELD_HEX);
    assert_string_equal(e->label[3], "");
    trx_custom_events_free(&ce);
    static const struct {
        const char *text, *error;
    } bad[] = {
        {"id,name\n70000,x\n", "line 2: id \"70000\" is not a number from 0 to 65535"},
        {"id,name,field1\n4096,x,a:float\n", "line 2: field1 expects a type (u32"},
        {"id,name,field1\n4096,x,a::who\n", "line 2: field1 expects a role (thread"},
        {"id,name,meaning\n4096,x,jump\n", "line 2: meaning \"jump\" is none of trx's"},
        {"id,name\n4096,x,y\n", "line 2: 3 cells, the header has 2"},
        {"id,label\n4096,x\n", "line 1: the header row needs the columns id and name"},
        {"id,name\n4096,\"x\"\n", "line 2: a NUL byte or a quote"},
        {"id,name\n4096,\n", "line 2: name must be 1 to 63 characters"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(trx_custom_events_parse(&ce, bad[i].text, strlen(bad[i].text), &err), -1);
        if (strstr(err.message, bad[i].error) == NULL)
            fail_msg("\"%s\": got \"%s\"", bad[i].error, err.message);
        assert_null(ce.items);
    }
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
        cmocka_unit_test(test_dump_names_all_sane), cmocka_unit_test(test_meanings),
        cmocka_unit_test(test_stack_roles),         cmocka_unit_test(test_description),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
