/* rtos_profile.c - the RTOS profile of a TXTB trace (see rtos_profile.h): the
 * FreeRTOS integration marks the header's reserved3, which ThreadX fills
 * with 0xBBBBBBBB and TraceX reads without using, and names its idle task
 * in reserved4 (ThreadX: 0xCCCCCCCC). Also the vocabulary every output
 * speaks for a trace (ThreadX, FreeRTOS, SYS/BIOS or none) and its words. */
#include "decode/rtos_profile.h"

#include <stdlib.h>
#include <string.h>

#include "decode/object_table.h"
#include "decode/sysbios_model.h"

void trx_rtos_profile_detect(trx_trace *t)
{
    uint32_t r3 = t->header.reserved3;
    t->rtos = TRX_RTOS_THREADX;
    t->rtos_priorities = 0;
    t->idle_task = 0;
    if (t->format == TRX_TRACE_TXTB && r3 >> 16 == TRX_RTOS_MARK_FREERTOS && (r3 & 0xFFFFu)) {
        t->rtos = TRX_RTOS_FREERTOS;
        t->rtos_priorities = r3 & 0xFFFFu;
        /* reserved4: the idle task, when it is a registered thread (older
         * traces keep ThreadX's filler there) */
        uint32_t r4 = t->header.reserved4;
        if (r4 != 0 && trx_thread_for_context(t, r4) >= 0)
            t->idle_task = r4;
    }
}

bool trx_context_is_idle_task(const trx_trace *t, uint32_t context)
{
    if (t->mode == TRX_MODE_TRACEX)
        return false;
    if (t->idle_task != 0 && context == t->idle_task)
        return true;
    int32_t th = t->idle_threads ? trx_thread_for_context(t, context) : -1;
    return th >= 0 && t->threads[th].idle;
}

uint32_t trx_shown_priority(const trx_trace *t, uint32_t recorded)
{
    if (t->rtos != TRX_RTOS_FREERTOS || t->mode == TRX_MODE_TRACEX ||
        recorded >= t->rtos_priorities)
        return recorded;
    return t->rtos_priorities - 1 - recorded;
}

const char *trx_rtos_name(const trx_trace *t)
{
    return t->rtos == TRX_RTOS_FREERTOS ? "FreeRTOS" : "ThreadX";
}

trx_vocab trx_trace_vocab(const trx_trace *t)
{
    if (t->rtos == TRX_RTOS_FREERTOS)
        return TRX_VOCAB_FREERTOS;
    if (t->format == TRX_TRACE_TXTB)
        return TRX_VOCAB_THREADX;
    return trx_sysbios_named(t->uia_names) ? TRX_VOCAB_SYSBIOS : TRX_VOCAB_NONE;
}

const char *trx_vocab_category(trx_vocab v)
{
    switch (v) {
    case TRX_VOCAB_THREADX:
        return "threadx";
    case TRX_VOCAB_FREERTOS:
        return "freertos";
    case TRX_VOCAB_SYSBIOS:
        return "sysbios";
    default:
        return "rtos";
    }
}

const char *trx_interrupt_word(const trx_trace *t)
{
    return trx_trace_vocab(t) == TRX_VOCAB_SYSBIOS ? "Hwi" : "ISR";
}

const char *trx_idle_name(const trx_trace *t)
{
    return t->mode == TRX_MODE_TRACEX ? "Idle System" : "Idle";
}

const char *trx_profile_rest_name(const trx_trace *t)
{
    return t->format == TRX_TRACE_UIA && t->mode != TRX_MODE_TRACEX ? "Unknown" : "Initialization";
}

/* `name` without a per-core prefix "N/" (core_names.h). */
static const char *without_core(const char *name)
{
    const char *p = name;
    while (*p >= '0' && *p <= '9')
        p++;
    return p > name && *p == '/' ? p + 1 : name;
}

/* Marks the threads `spec` (one name or handle, `len` characters) names:
 * by name, also each core's task of that name ("1/name"). */
static uint32_t mark_idle_one(trx_trace *t, const char *spec, size_t len)
{
    char text[TRX_NAME_MAX + 1];
    if (len == 0 || len > TRX_NAME_MAX)
        return 0;
    memcpy(text, spec, len);
    text[len] = '\0';
    char *end;
    unsigned long long handle = strtoull(text, &end, 0);
    bool numeric = *text >= '0' && *text <= '9' && *end == '\0' && handle <= UINT32_MAX;
    uint32_t marked = 0;
    for (uint32_t i = 0; i < t->thread_count; i++) {
        trx_thread *x = &t->threads[i];
        const char *name = t->objects[x->object_index].name;
        if (!(numeric ? x->address == (uint32_t)handle
                      : strcmp(name, text) == 0 || strcmp(without_core(name), text) == 0))
            continue;
        marked++;
        if (!x->idle) {
            x->idle = true;
            t->idle_threads++;
        }
    }
    return marked;
}

uint32_t trx_trace_mark_idle(trx_trace *t, const char *spec)
{
    uint32_t marked = 0;
    for (const char *p = spec;; p++) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        marked += mark_idle_one(t, p, len);
        if (!comma)
            return marked;
        p = comma;
    }
}
