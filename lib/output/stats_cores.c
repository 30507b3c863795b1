/* stats_cores.c - `trx stats`'s per-core section, text and JSON (see stats_cores.h). */
#include "output/stats_cores.h"
#include "trx/uia.h"

#include "output/json_string.h"
#include "output/top_rows.h"

#define U(x) ((unsigned long long)(x))

double trx_core_load_percent(const trx_core_profile *p)
{
    uint64_t busy = p->thread_ticks + p->interrupt_ticks, known = busy + p->idle_ticks;
    return known ? 100.0 * (double)busy / (double)known : 0.0;
}

static const char *thread_name(const trx_trace *t, int32_t i)
{
    return t->objects[t->threads[i].object_index].name;
}

/* A number in decimal, without printf (rows can be millions). */
static void num(trx_out *o, uint64_t v)
{
    trx_out_u64_pad(o, v, 0, ' ');
}

static double percent(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* What the row writers need: one core's profile rows (from `first`), or
 * the per-thread rows. */
typedef struct rows_of {
    const trx_trace *t;
    const trx_core_stats *s;
    uint32_t first;
} rows_of;

static uint64_t core_thread_key(const void *ctx, uint32_t i)
{
    const rows_of *r = ctx;
    return r->s->profile[r->first + i].ticks;
}

static void core_thread_row(trx_out *o, const void *ctx, uint32_t i)
{
    const rows_of *r = ctx;
    const trx_core_thread *p = &r->s->profile[r->first + i];
    trx_out_printf(o, "  %-28s %12llu  %6.2f\n", thread_name(r->t, p->thread), U(p->ticks),
                   percent(p->ticks, r->s->span_ticks));
}

static uint64_t thread_cores_key(const void *ctx, uint32_t i)
{
    return ((const rows_of *)ctx)->s->threads[i].run_ticks;
}

static void thread_cores_row(trx_out *o, const void *ctx, uint32_t i)
{
    const rows_of *r = ctx;
    const trx_thread_cores *tc = &r->s->threads[i];
    if (trx_context_is_idle_task(r->t, r->t->threads[i].address))
        return; /* its time is each core's Idle row */
    trx_out_printf(o, "  %-28s %12llu  %10llu  ", thread_name(r->t, (int32_t)i), U(tc->run_ticks),
                   U(tc->migrations));
    bool any = false;
    for (uint32_t c = trx_core_stats_thread_next_core(r->s, i, 0); c < r->s->core_count;
         c = trx_core_stats_thread_next_core(r->s, i, c + 1)) {
        trx_out_printf(o, any ? ",%u" : "%u", c);
        any = true;
    }
    trx_out_str(o, any ? "\n" : "-\n");
}

void trx_stats_cores_text(const trx_trace *t, const trx_core_stats *s, uint32_t rows, trx_out *o)
{
    trx_out_printf(o,
                   "\nCores: %u    Threads in parallel: %llu ticks (%.2f%% of %llu), at most %llu "
                   "at once\n",
                   s->core_count, U(s->parallel_ticks), percent(s->parallel_ticks, s->span_ticks),
                   U(s->span_ticks), U(s->max_parallel));
    uint32_t k = 0;
    const char *no_load = trx_trace_load_missing(t);
    for (uint32_t c = 0; c < s->core_count; c++) {
        const trx_core_profile *p = &s->cores[c];
        if (no_load)
            trx_out_printf(o, "\nCore %u: load unavailable, %llu events, %llu thread switches\n", c,
                           U(p->events), U(p->switches));
        else
            trx_out_printf(o, "\nCore %u: load %.2f%%, %llu events, %llu thread switches\n", c,
                           trx_core_load_percent(p), U(p->events), U(p->switches));
        rows_of r = {t, s, k};
        while (k < s->profile_count && s->profile[k].core == c)
            k++;
        trx_write_top_rows(o, k - r.first, rows, core_thread_key, core_thread_row, &r, "threads");
        const char *const rest[] = {trx_idle_name(t), "Interrupt", "Initialization", "Unknown"};
        const uint64_t v[] = {p->idle_ticks, p->interrupt_ticks, p->init_ticks, p->unknown_ticks};
        for (int i = 0; i < 4; i++)
            if (i != 2 || t->format != TRX_TRACE_UIA) /* SYS/BIOS: no initialization state */
                trx_out_printf(o, "  %-28s %12llu  %6.2f\n", rest[i], U(v[i]),
                               percent(v[i], s->span_ticks));
    }
    trx_out_str(o, "\nThreads across cores           run ticks  migrations  cores\n");
    const rows_of all = {t, s, 0};
    trx_write_top_rows(o, s->thread_count, rows, thread_cores_key, thread_cores_row, &all,
                       "threads");
}

/* The sender (source address) whose time axis core `core` is, TRX_UIA_NONE
 * for none (TXTB, raw UIA records). */
static uint32_t sender_of(const trx_trace *t, uint32_t core)
{
    const trx_uia_info *u = t->format == TRX_TRACE_UIA ? trx_uia_info_of(t) : NULL;
    for (uint32_t i = 0; u && i < u->stream_count; i++)
        if (u->streams[i].core == core)
            return u->streams[i].sender;
    return TRX_UIA_NONE;
}

void trx_stats_cores_json(const trx_trace *t, const trx_core_stats *s, trx_out *o)
{
    trx_out_printf(o,
                   ",\n  \"smp\": {\"cores\": %u, \"span_ticks\": %llu, \"parallel_ticks\": %llu, "
                   "\"max_parallel\": %llu,\n    \"per_core\": [",
                   s->core_count, U(s->span_ticks), U(s->parallel_ticks), U(s->max_parallel));
    uint32_t k = 0;
    const char *no_load = trx_trace_load_missing(t);
    for (uint32_t c = 0; c < s->core_count; c++) {
        const trx_core_profile *p = &s->cores[c];
        trx_out_printf(o, "%s\n      {\"core\": %u, \"events\": %llu, \"load_percent\": ",
                       c ? "," : "", c, U(p->events));
        if (no_load) { /* null with the reason, never 100 % */
            trx_out_str(o, "null, \"load_unavailable\": ");
            trx_out_json_string(o, no_load);
        } else {
            trx_out_printf(o, "%.2f", trx_core_load_percent(p));
        }
        trx_out_printf(o,
                       ", \"thread_ticks\": %llu, \"interrupt_ticks\": %llu, \"idle_ticks\": %llu, "
                       "\"init_ticks\": %llu, \"unknown_ticks\": %llu, \"switches\": %llu",
                       U(p->thread_ticks), U(p->interrupt_ticks), U(p->idle_ticks),
                       U(p->init_ticks), U(p->unknown_ticks), U(p->switches));
        uint32_t sender = sender_of(t, c); /* UIA: the core's packet source address */
        if (sender != TRX_UIA_NONE)
            trx_out_printf(o, ", \"sender\": %u", sender);
        trx_out_str(o, ", \"threads\": [");
        for (uint32_t first = k; k < s->profile_count && s->profile[k].core == c; k++) {
            trx_out_str(o, k > first ? ", {\"name\": " : "{\"name\": ");
            trx_out_json_string(o, thread_name(t, s->profile[k].thread));
            trx_out_str(o, ", \"address\": ");
            num(o, t->threads[s->profile[k].thread].handle);
            trx_out_str(o, ", \"ticks\": ");
            num(o, s->profile[k].ticks);
            trx_out_str(o, ", \"events\": ");
            num(o, s->profile[k].events);
            trx_out_char(o, '}');
        }
        trx_out_str(o, "]}");
    }
    trx_out_str(o, "],\n    \"threads\": [");
    for (uint32_t i = 0; i < s->thread_count; i++) {
        const trx_thread_cores *tc = &s->threads[i];
        trx_out_str(o, i ? ",\n      {\"name\": " : "\n      {\"name\": ");
        trx_out_json_string(o, thread_name(t, (int32_t)i));
        trx_out_str(o, ", \"address\": ");
        num(o, t->threads[i].handle);
        trx_out_str(o, ", \"run_ticks\": ");
        num(o, tc->run_ticks);
        trx_out_str(o, ", \"cores\": [");
        bool any = false;
        for (uint32_t c = trx_core_stats_thread_next_core(s, i, 0); c < s->core_count;
             c = trx_core_stats_thread_next_core(s, i, c + 1)) {
            if (any)
                trx_out_str(o, ", ");
            num(o, c);
            any = true;
        }
        trx_out_str(o, "], \"migrations\": ");
        num(o, tc->migrations);
        trx_out_str(o, ", \"first_migration_event\": ");
        if (tc->migrations) {
            num(o, tc->first_migration);
            trx_out_char(o, '}');
        } else {
            trx_out_str(o, "null}");
        }
    }
    trx_out_str(o, "]");
    if (s->beyond)
        trx_out_printf(o, ", \"events_beyond_core_255\": %llu", U(s->beyond));
    trx_out_char(o, '}');
}
