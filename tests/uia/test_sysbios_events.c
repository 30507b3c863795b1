/* test_sysbios_events.c - SYS/BIOS's tasks and interrupts as the library
 * models them (lib/decode/sysbios_model.c), event by event: UIA records of
 * Task, Hwi, Swi and Semaphore events written here (uia_builder.c) on two
 * cores, with TI's names, and per event the kind, subject, context and next
 * context the writer knows to be true: task switches name the new task,
 * nested Hwis end in the order they began (the inner one first), a Hwi
 * inside a Swi ends as that Hwi, each core on its own. No CLI output shows
 * the subject of an interrupt's end or of a switch, hence this test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "trx/trx.h"
#include "trx/uia_names.h"
#include "uia_builder.h"

enum { MOD_TASK = 0x8030, MOD_HWI, MOD_SWI, MOD_SEM };
enum {
    SWITCH = 1,
    READY,
    BLOCK,
    HWI_BEGIN,
    HWI_END,
    SWI_BEGIN,
    SWI_END,
    SWI_POST,
    SEM_POST,
    SEM_PEND
};

static const char names_xml[] =
    "<uia>"
    "<evtMap id=\"1\" moduleId=\"32816\" longName=\"ti.sysbios.knl.Task.LM_switch\"/>"
    "<evtMap id=\"2\" moduleId=\"32816\" longName=\"ti.sysbios.knl.Task.LD_ready\"/>"
    "<evtMap id=\"3\" moduleId=\"32816\" longName=\"ti.sysbios.knl.Task.LD_block\"/>"
    "<evtMap id=\"4\" moduleId=\"32817\" longName=\"ti.sysbios.family.arm.m3.Hwi.LM_begin\"/>"
    "<evtMap id=\"5\" moduleId=\"32817\" longName=\"ti.sysbios.family.arm.m3.Hwi.LD_end\"/>"
    "<evtMap id=\"6\" moduleId=\"32818\" longName=\"ti.sysbios.knl.Swi.LM_begin\"/>"
    "<evtMap id=\"7\" moduleId=\"32818\" longName=\"ti.sysbios.knl.Swi.LD_end\"/>"
    "<evtMap id=\"8\" moduleId=\"32818\" longName=\"ti.sysbios.knl.Swi.LM_post\"/>"
    "<evtMap id=\"9\" moduleId=\"32819\" longName=\"ti.sysbios.knl.Semaphore.LM_post\"/>"
    "<evtMap id=\"10\" moduleId=\"32819\" longName=\"ti.sysbios.knl.Semaphore.LM_pend\"/>"
    "</uia>";

/* Tasks, their functions, Hwi and Swi handles, a semaphore. */
#define TASK_A 0x20001000u
#define FUNC_A 0x00001101u
#define TASK_B 0x20002000u
#define FUNC_B 0x00001201u
#define TASK_C 0x20003000u
#define FUNC_C 0x00001301u
#define TASK_D 0x20003100u /* core 1's second task (B runs on core 0 then: one instance) */
#define FUNC_D 0x00001341u
#define HWI_1 0x20004000u
#define HWI_2 0x20004040u
#define HWI_3 0x20004080u
#define SWI_W 0x20005000u
#define SEM_S 0x20006000u
#define ISR TRX_CONTEXT_ISR
#define INIT TRX_CONTEXT_INIT

/* One record the target writes, and what the model must make of it. */
typedef struct scripted {
    uint32_t event, module, nargs, args[5];
    uint32_t kind, subject, context, next_context;
} scripted;

/* Core 0: a switch from initialization, one between tasks, two nested Hwis
 * (a semaphore posted in the inner one), a Swi with a Hwi inside it, a task
 * readied, a pend, a block and the switch back. */
static const scripted core0[] = {
    {SWITCH, MOD_TASK, 4, {0, 0, TASK_A, FUNC_A}, TRX_KIND_SWITCH, TASK_A, INIT, TASK_A},
    {SWITCH,
     MOD_TASK,
     4,
     {TASK_A, FUNC_A, TASK_B, FUNC_B},
     TRX_KIND_SWITCH,
     TASK_B,
     TASK_A,
     TASK_B},
    {HWI_BEGIN, MOD_HWI, 5, {HWI_1, 0x2001, 0, 15, 0x3001}, TRX_KIND_ISR_ENTER, 15, TASK_B, ISR},
    {HWI_BEGIN, MOD_HWI, 5, {HWI_2, 0x2041, 1, 42, 0x3041}, TRX_KIND_ISR_ENTER, 42, ISR, ISR},
    {SEM_POST, MOD_SEM, 2, {SEM_S, 1}, TRX_KIND_POST, SEM_S, ISR, ISR},
    {HWI_END, MOD_HWI, 1, {HWI_2}, TRX_KIND_ISR_EXIT, 42, ISR, ISR},
    {HWI_END, MOD_HWI, 1, {HWI_1}, TRX_KIND_ISR_EXIT, 15, ISR, TASK_B},
    {SWI_POST, MOD_SWI, 3, {SWI_W, 0x2101, 3}, TRX_KIND_POST, SWI_W, TASK_B, TASK_B},
    {SWI_BEGIN, MOD_SWI, 3, {SWI_W, 0x2101, 0}, TRX_KIND_SWI_BEGIN, SWI_W, TASK_B, ISR},
    {HWI_BEGIN, MOD_HWI, 5, {HWI_3, 0x2081, 2, 7, 0x3081}, TRX_KIND_ISR_ENTER, 7, ISR, ISR},
    {HWI_END, MOD_HWI, 1, {HWI_3}, TRX_KIND_ISR_EXIT, 7, ISR, ISR},
    {SWI_END, MOD_SWI, 1, {SWI_W}, TRX_KIND_SWI_END, SWI_W, ISR, TASK_B},
    {READY, MOD_TASK, 3, {TASK_A, FUNC_A, 5}, TRX_KIND_RESUME, TASK_A, TASK_B, TASK_B},
    {SEM_PEND, MOD_SEM, 3, {SEM_S, 0, 100}, TRX_KIND_PEND, SEM_S, TASK_B, TASK_B},
    {BLOCK, MOD_TASK, 2, {TASK_B, FUNC_B}, TRX_KIND_SUSPEND, TASK_B, TASK_B, TASK_B},
    {SWITCH,
     MOD_TASK,
     4,
     {TASK_B, FUNC_B, TASK_A, FUNC_A},
     TRX_KIND_SWITCH,
     TASK_A,
     TASK_B,
     TASK_A},
};

/* Core 1, at the same time: its own task, and a Hwi while core 0 is in its own. */
static const scripted core1[] = {
    {SWITCH, MOD_TASK, 4, {0, 0, TASK_C, FUNC_C}, TRX_KIND_SWITCH, TASK_C, INIT, TASK_C},
    {HWI_BEGIN, MOD_HWI, 5, {HWI_1, 0x2001, 0, 3, 0x3101}, TRX_KIND_ISR_ENTER, 3, TASK_C, ISR},
    {HWI_END, MOD_HWI, 1, {HWI_1}, TRX_KIND_ISR_EXIT, 3, ISR, TASK_C},
    {SWITCH,
     MOD_TASK,
     4,
     {TASK_C, FUNC_C, TASK_D, FUNC_D},
     TRX_KIND_SWITCH,
     TASK_D,
     TASK_C,
     TASK_D},
};

/* One packet per core (sender 10 + core): the script's records, a record
 * every 100 ticks (core 1 50 ticks later). */
static void write_core(ub *b, uint32_t core, const scripted *s, size_t n)
{
    size_t p = ub_packet_begin(b, 0, 0, 0, 10 + core);
    for (size_t k = 0; k < n; k++)
        ub_event(b, 1, (uint32_t)k, 1000 + 100 * k + 50 * core, s[k].event, s[k].module, s[k].args,
                 s[k].nargs);
    ub_packet_end(b, p);
}

static void test_events_against_the_script(void **state)
{
    (void)state;
    const size_t counts[2] = {sizeof core0 / sizeof core0[0], sizeof core1 / sizeof core1[0]};
    const scripted *script[2] = {core0, core1};
    ub b;
    ub_init(&b, false);
    write_core(&b, 0, core0, counts[0]);
    write_core(&b, 1, core1, counts[1]);
    trx_uia_names names;
    trx_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(trx_uia_names_parse(&names, names_xml, strlen(names_xml), &err), 0);
    trx_image img;
    assert_int_equal(trx_image_load_memory(&img, b.buf, b.len, TRX_FORMAT_BIN, &err), 0);
    trx_open_options o = {
        .input_format = TRX_FORMAT_BIN, .trace_format = TRX_TRACE_TXTB, .uia_names = &names};
    trx_trace t;
    if (trx_trace_open_image_with(&t, &img, "sysbios", &o, &err) != 0)
        fail_msg("open: offset %llu: %s", (unsigned long long)err.offset, err.message);
    trx_trace_prepare(&t);
    trx_cursor c;
    assert_int_equal(trx_cursor_init(&c, &t), 0);
    size_t seen[2] = {0, 0};
    trx_event ev;
    while (trx_cursor_next(&c, &ev)) {
        assert_true(ev.core < 2);
        size_t k = seen[ev.core]++;
        assert_true(k < counts[ev.core]);
        const scripted *want = &script[ev.core][k];
        assert_int_equal(ev.id, want->event);
        if (ev.kind != want->kind || ev.subject != want->subject || ev.context != want->context ||
            ev.next_context != want->next_context)
            fail_msg("core %u record %zu: kind %u subject 0x%x context 0x%x next 0x%x; the writer "
                     "says kind %u subject 0x%x context 0x%x next 0x%x",
                     (unsigned)ev.core, k, (unsigned)ev.kind, ev.subject, ev.context,
                     ev.next_context, want->kind, want->subject, want->context, want->next_context);
    }
    assert_int_equal(seen[0], counts[0]);
    assert_int_equal(seen[1], counts[1]);
    trx_cursor_free(&c);
    trx_trace_close(&t);
    trx_uia_names_free(&names);
    ub_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_events_against_the_script),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
