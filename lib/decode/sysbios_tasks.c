/* sysbios_tasks.c - SYS/BIOS's tasks as threads, per handle or per (core,
 * handle) on AMP captures (see sysbios_tasks.h). */
#include "decode/sysbios_tasks.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/core_names.h"
#include "decode/object_table.h"

#define EMPTY_KEY UINT64_MAX

static uint32_t pair_slot(const trx_pair_map *m, uint64_t key)
{
    uint64_t h = key * 0x9E3779B97F4A7C15u;
    return (uint32_t)(h >> 32) & (m->size - 1);
}

/* The value of (a, b), or NULL when absent. */
static uint32_t *pair_map_find(const trx_pair_map *m, uint64_t key)
{
    if (!m->size || key == EMPTY_KEY)
        return NULL;
    for (uint32_t h = pair_slot(m, key);; h = (h + 1) & (m->size - 1)) {
        if (m->key[h] == EMPTY_KEY)
            return NULL;
        if (m->key[h] == key)
            return &m->value[h];
    }
}

bool trx_pair_map_get(const trx_pair_map *m, uint32_t a, uint32_t b, uint32_t *value)
{
    const uint32_t *v = pair_map_find(m, (uint64_t)a << 32 | b);
    if (v)
        *value = *v;
    return v != NULL;
}

uint32_t *trx_pair_map_put(trx_pair_map *m, uint32_t a, uint32_t b, uint32_t initial)
{
    uint64_t key = (uint64_t)a << 32 | b;
    uint32_t *there = pair_map_find(m, key);
    if (there || key == EMPTY_KEY)
        return there;
    if ((m->used + 1) * 2 > m->size) { /* at most half full */
        uint32_t size = m->size ? m->size * 2 : 64;
        trx_pair_map n = {malloc((size_t)size * sizeof *n.key),
                          malloc((size_t)size * sizeof *n.value), size, m->used};
        if (!n.key || !n.value) {
            free(n.key);
            free(n.value);
            return NULL;
        }
        for (uint32_t i = 0; i < size; i++)
            n.key[i] = EMPTY_KEY;
        for (uint32_t i = 0; i < m->size; i++) {
            if (m->key[i] == EMPTY_KEY)
                continue;
            uint32_t h = pair_slot(&n, m->key[i]);
            while (n.key[h] != EMPTY_KEY)
                h = (h + 1) & (size - 1);
            n.key[h] = m->key[i];
            n.value[h] = m->value[i];
        }
        trx_pair_map_free(m);
        *m = n;
    }
    uint32_t h = pair_slot(m, key);
    while (m->key[h] != EMPTY_KEY)
        h = (h + 1) & (m->size - 1);
    m->key[h] = key;
    m->value[h] = initial;
    m->used++;
    return &m->value[h];
}

void trx_pair_map_free(trx_pair_map *m)
{
    free(m->key);
    free(m->value);
    memset(m, 0, sizeof *m);
}

sysbios_seen_task *trx_sysbios_tasks_entry(trx_sysbios_tasks *k, uint32_t stream, uint32_t handle,
                                           uint32_t function)
{
    uint32_t *at = trx_pair_map_put(&k->at, stream, handle, UINT32_MAX);
    if (!at)
        return NULL;
    if (*at == UINT32_MAX) {
        if (k->count == k->cap) {
            uint32_t cap = k->cap ? k->cap * 2 : 16;
            sysbios_seen_task *s = realloc(k->seen, (size_t)cap * sizeof *s);
            if (!s)
                return NULL;
            k->seen = s;
            k->cap = cap;
        }
        *at = k->count;
        k->seen[k->count++] =
            (sysbios_seen_task){stream, handle, function, TRX_UNKNOWN, TRX_UNKNOWN, false};
    }
    uint32_t r = trx_sysbios_recent_slot((uint64_t)stream << 32 | handle);
    k->recent_key[r] = ((uint64_t)stream << 32 | handle) + 1;
    k->recent_at[r] = *at;
    return &k->seen[*at];
}

void trx_sysbios_tasks_ran(trx_sysbios_tasks *k, uint32_t stream, uint32_t handle)
{
    uint64_t key = (uint64_t)stream << 32 | handle;
    uint32_t r = trx_sysbios_recent_slot(key), at;
    if (k->recent_key[r] == key + 1)
        k->seen[k->recent_at[r]].ran = true;
    else if (trx_pair_map_get(&k->at, stream, handle, &at))
        k->seen[at].ran = true;
}

static uint32_t core_of(const uint32_t *stream_core, uint32_t stream)
{
    return stream_core ? stream_core[stream] : 0;
}

bool trx_sysbios_tasks_on_several_cores(const trx_sysbios_tasks *k, const uint32_t *stream_core)
{
    trx_pair_map first = {0}; /* (0, handle) -> its first core + 1 */
    bool several = false;
    for (uint32_t i = 0; i < k->count && !several; i++) {
        uint32_t core = core_of(stream_core, k->seen[i].stream);
        uint32_t *c = trx_pair_map_put(&first, 0, k->seen[i].handle, core + 1);
        several = !c || *c != core + 1; /* out of memory: let the time-order check decide */
    }
    trx_pair_map_free(&first);
    return several;
}

int trx_sysbios_overlap_init(trx_sysbios_overlap *o, uint32_t cores)
{
    memset(o, 0, sizeof *o);
    o->cores = cores ? cores : 1;
    o->current = calloc(o->cores, sizeof *o->current);
    o->since = calloc(o->cores, sizeof *o->since);
    if (!o->current || !o->since) {
        trx_sysbios_overlap_free(o);
        return -1;
    }
    return 0;
}

void trx_sysbios_overlap_switch(trx_sysbios_overlap *o, uint32_t core, uint32_t next,
                                uint64_t ticks)
{
    if (o->amp || o->oom || core >= o->cores)
        return;
    uint32_t *r;
    o->current[core] = next;
    o->since[core] = ticks;
    if (next == 0 || next == TRX_CONTEXT_ISR || next == TRX_CONTEXT_INIT)
        return;
    if (!(r = trx_pair_map_put(&o->running, 0, next, 0))) {
        o->oom = true;
        return;
    }
    uint32_t last = *r; /* the core that switched to it last + 1 */
    if (last && last != core + 1 && o->current[last - 1] == next && o->since[last - 1] < ticks) {
        o->amp = true; /* that core has run it since an earlier tick: two instances */
        return;
    }
    *r = core + 1;
}

void trx_sysbios_overlap_free(trx_sysbios_overlap *o)
{
    trx_pair_map_free(&o->running);
    free(o->current);
    free(o->since);
    memset(o, 0, sizeof *o);
}

/* An AMP task's name: "N/Task 0x..." (kept as long as the trace). */
static const char *amp_name(trx_trace *t, uint32_t core, uint32_t handle)
{
    char name[40];
    snprintf(name, sizeof name, "Task 0x%08" PRIx32, handle);
    return trx_core_task_name(t, core, name);
}

#define SEVERAL_CORES (TRX_UNKNOWN - 1) /* more than one core */

/* *one (the one core so far, TRX_UNKNOWN: none yet) with core `core` too. */
static void add_core(uint32_t *one, uint32_t core)
{
    if (*one == TRX_UNKNOWN)
        *one = core;
    else if (*one != core)
        *one = SEVERAL_CORES;
}

/* Each thread's ran_core: the one core its task was switched to on, or,
 * never switched to, the one core whose records name it; TRX_UNKNOWN for
 * several (SMP: it keeps its plain name). `thread_of`: each seen task's
 * thread. 0, or -1 when out of memory. */
static int find_ran_cores(const trx_sysbios_tasks *k, trx_trace *t, const uint32_t *stream_core,
                          const int32_t *thread_of)
{
    uint32_t *seen_core = malloc((t->thread_count ? t->thread_count : 1) * sizeof *seen_core);
    if (!seen_core)
        return -1;
    for (uint32_t i = 0; i < t->thread_count; i++)
        seen_core[i] = TRX_UNKNOWN;
    for (uint32_t i = 0; i < k->count; i++) {
        uint32_t core = core_of(stream_core, k->seen[i].stream);
        if (k->seen[i].ran)
            add_core(&t->threads[thread_of[i]].ran_core, core);
        add_core(&seen_core[thread_of[i]], core);
    }
    for (uint32_t i = 0; i < t->thread_count; i++) {
        trx_thread *th = &t->threads[i];
        if (th->ran_core == TRX_UNKNOWN)
            th->ran_core = seen_core[i];
        if (th->ran_core == SEVERAL_CORES)
            th->ran_core = TRX_UNKNOWN;
    }
    free(seen_core);
    return 0;
}

/* Thread `th` takes the priorities and function of `s`. */
static void take(trx_thread *th, const sysbios_seen_task *s)
{
    if (s->prio_lowest != TRX_UNKNOWN) {
        trx_sysbios_widen(&th->prio_lowest, &th->prio_highest, s->prio_lowest);
        trx_sysbios_widen(&th->prio_lowest, &th->prio_highest, s->prio_highest);
    }
    if (s->function && !th->entry)
        th->entry = s->function;
}

int trx_sysbios_tasks_make_threads(const trx_sysbios_tasks *k, trx_trace *t,
                                   const uint32_t *stream_core, bool amp, trx_pair_map *amp_threads)
{
    int32_t *thread_of = malloc((k->count ? k->count : 1) * sizeof *thread_of);
    if (!thread_of)
        return -1;
    for (uint32_t i = 0; i < k->count; i++) {
        const sysbios_seen_task *s = &k->seen[i];
        int32_t th;
        if (!amp) { /* one instance: one thread per handle */
            bool added;
            th = trx_objects_thread_or_unnamed(t, s->handle, TRX_UNKNOWN, &added);
            if (th < 0)
                goto oom;
            trx_object *o = &t->objects[t->threads[th].object_index];
            if (added && o->unnamed && !(o->name = trx_objects_made_name(t, "Task", s->handle)))
                goto oom;
        } else { /* one thread per (core, handle), its own context key (odd: no handle) */
            uint32_t core = core_of(stream_core, s->stream);
            uint32_t *slot = trx_pair_map_put(amp_threads, core, s->handle, UINT32_MAX);
            if (!slot)
                goto oom;
            if (*slot == UINT32_MAX) {
                trx_object o;
                memset(&o, 0, sizeof o);
                o.address = 2 * amp_threads->used + 1;
                o.type = TRX_OBJ_THREAD;
                o.unnamed = true;
                o.registry_slot = UINT32_MAX;
                if (!(o.name = amp_name(t, core, s->handle)))
                    goto oom;
                int32_t idx = trx_objects_add(t, &o);
                if (idx < 0)
                    goto oom;
                *slot = (uint32_t)trx_trace_find_thread(t, o.address);
                t->threads[*slot].handle = s->handle;
                t->threads[*slot].core = core;
            }
            th = (int32_t)*slot;
        }
        take(&t->threads[th], s);
        thread_of[i] = th;
    }
    int rc = find_ran_cores(k, t, stream_core, thread_of);
    free(thread_of);
    return rc;
oom:
    free(thread_of);
    return -1;
}

void trx_sysbios_tasks_free(trx_sysbios_tasks *k)
{
    free(k->seen);
    trx_pair_map_free(&k->at);
    memset(k, 0, sizeof *k);
}
