/* core_names.c - per-core task names, "core/task" (see core_names.h). */
#include "decode/core_names.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/object_table.h"

const char *trx_core_task_name(trx_trace *t, uint32_t core, const char *name)
{
    char text[TRX_NAME_MAX + 1];
    snprintf(text, sizeof text, "%" PRIu32 "/%s", core, name);
    return trx_objects_kept_name(t, text);
}

/* The name of thread `i`. */
static const char *name_of(const trx_trace *t, uint32_t i)
{
    return t->objects[t->threads[i].object_index].name;
}

/* The one core of thread `i`, or TRX_UNKNOWN. */
static uint32_t one_core(const trx_trace *t, uint32_t i)
{
    return t->threads[i].core != TRX_UNKNOWN ? t->threads[i].core : t->threads[i].ran_core;
}

typedef struct named_thread {
    const char *name;
    uint32_t thread;
} named_thread;

static int by_name(const void *x, const void *y)
{
    const named_thread *a = x, *b = y;
    int c = strcmp(a->name, b->name);
    return c ? c : (a->thread > b->thread) - (a->thread < b->thread);
}

/* True when `name` already starts with core `core`'s prefix "N/". */
static bool has_prefix(const char *name, uint32_t core)
{
    char prefix[16];
    int n = snprintf(prefix, sizeof prefix, "%" PRIu32 "/", core);
    return strncmp(name, prefix, (size_t)n) == 0;
}

int trx_trace_name_cores_apart(trx_trace *t)
{
    uint32_t n = t->thread_count;
    if (n == 0)
        return 0;
    named_thread *order = malloc((size_t)n * sizeof *order);
    const char **rename = calloc(n, sizeof *rename);
    if (!order || !rename) {
        free(order);
        free(rename);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++)
        order[i] = (named_thread){name_of(t, i), i};
    qsort(order, n, sizeof *order, by_name);
    int rc = 0;
    for (uint32_t a = 0, b; a < n; a = b) {
        for (b = a + 1; b < n && strcmp(order[a].name, order[b].name) == 0; b++)
            ;
        for (uint32_t k = a; k < b; k++) {
            uint32_t i = order[k].thread, core = one_core(t, i);
            bool amp = t->threads[i].core != TRX_UNKNOWN;
            if (core == TRX_UNKNOWN || (b - a == 1 && !amp) ||
                (amp && has_prefix(order[k].name, core)))
                continue; /* no one core, a name of its own, or already "N/..." */
            if (!(rename[i] = trx_core_task_name(t, core, order[k].name)))
                rc = -1;
        }
    }
    for (uint32_t i = 0; i < n; i++) /* after the groups: the sort read the old names */
        if (rename[i])
            t->objects[t->threads[i].object_index].name = rename[i];
    free(order);
    free(rename);
    return rc;
}
