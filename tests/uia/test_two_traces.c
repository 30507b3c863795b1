/* test_two_traces.c - two UIA traces read by one program, each with its own
 * names (trx_trace.uia_names): interleaved event naming and statistics never
 * see the other trace's names. Nothing in the library is process-wide
 * (issue 17 item 5); run under ASan and TSan too (two threads, one trace
 * each). */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "output/uia_events.h"
#include "trx/uia_names.h"
#include "uia_builder.h"

/* A trace of 50 records of module 0x8005 event 0x0010 with one argument. */
static void open_trace(trx_trace *t, const char *name)
{
    ub b;
    ub_init(&b, false);
    for (uint32_t i = 0; i < 50; i++)
        ub_event(&b, 1, i, 1000u + 10u * i, 0x0010, 0x8005, &i, 1);
    trx_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(trx_trace_open(t, ub_write_temp(&b, name), TRX_FORMAT_AUTO, &err), 0);
    ub_free(&b);
}

static void names(trx_uia_names *n, const char *event_name)
{
    char text[200];
    snprintf(text, sizeof text, "module 0x8005 Sensor\nevent 0x8005 0x0010 %s value %%d\n",
             event_name);
    trx_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(trx_uia_names_parse(n, text, strlen(text), &err), 0);
}

/* The name of each event of `t`, checked against `want`. */
static void names_are(trx_trace *t, const char *want)
{
    trx_cursor c;
    assert_int_equal(trx_cursor_init(&c, t), 0);
    const trx_event *ev;
    unsigned n = 0;
    char buf[32];
    while ((ev = trx_cursor_next_ref(&c)) != NULL) {
        assert_string_equal(trx_uia_event_name(t, ev, NULL, buf), want);
        n++;
    }
    trx_cursor_free(&c);
    assert_int_equal(n, 50);
}

static void test_interleaved(void **state)
{
    (void)state;
    trx_trace a, b;
    trx_uia_names na, nb;
    names(&na, "Motor_start");
    names(&nb, "Valve_open");
    open_trace(&a, "two_a.uia");
    open_trace(&b, "two_b.uia");
    a.uia_names = &na;
    b.uia_names = &nb;
    for (int round = 0; round < 3; round++) { /* A, B, A, B ... */
        names_are(&a, "Motor_start");
        names_are(&b, "Valve_open");
    }
    trx_trace c; /* a third without names: the catalogue's fallback */
    open_trace(&c, "two_c.uia");
    names_are(&c, "Event 0x8005:0x0010");
    names_are(&a, "Motor_start");
    trx_trace_close(&a);
    trx_trace_close(&b);
    trx_trace_close(&c);
    trx_uia_names_free(&na);
    trx_uia_names_free(&nb);
}

typedef struct job {
    trx_trace t;
    trx_uia_names n;
    const char *name;
} job;

static void *run(void *arg)
{
    job *j = arg;
    for (int round = 0; round < 20; round++)
        names_are(&j->t, j->name);
    return NULL;
}

/* Two threads, one trace each, naming at the same time. */
static void test_two_threads(void **state)
{
    (void)state;
    job j[2] = {{.name = "Motor_start"}, {.name = "Valve_open"}};
    pthread_t th[2];
    for (int k = 0; k < 2; k++) {
        names(&j[k].n, j[k].name);
        open_trace(&j[k].t, k ? "two_t1.uia" : "two_t0.uia");
        j[k].t.uia_names = &j[k].n;
    }
    for (int k = 0; k < 2; k++)
        assert_int_equal(pthread_create(&th[k], NULL, run, &j[k]), 0);
    for (int k = 0; k < 2; k++) {
        pthread_join(th[k], NULL);
        trx_trace_close(&j[k].t);
        trx_uia_names_free(&j[k].n);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_interleaved),
        cmocka_unit_test(test_two_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
