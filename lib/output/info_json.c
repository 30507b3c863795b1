/* info_json.c - `trx info --json`: the trace summary as one JSON object. */
#include "output/info_elf.h"
#include "output/info_json.h"
#include "output/stream_info.h"
#include "trx/elf.h"

#include "output/info_cores.h"

#include "output/json_string.h"

static void key(trx_out *o, const char *name, bool first)
{
    trx_out_str(o, first ? "{\"" : ",\"");
    trx_out_str(o, name);
    trx_out_str(o, "\":");
}

static void num(trx_out *o, const char *name, uint64_t v)
{
    key(o, name, false);
    trx_out_u64_pad(o, v, 0, ' ');
}

static void boolean(trx_out *o, const char *name, bool v)
{
    key(o, name, false);
    trx_out_str(o, v ? "true" : "false");
}

void trx_info_write_json(const trx_trace *t, const trx_time_check *tc,
                         const trx_core_summary *cores, trx_out *o)
{
    const trx_header *h = &t->header;
    key(o, "file", true);
    trx_out_json_string(o, t->path ? t->path : "");
    key(o, "format", false);
    trx_out_json_string(o, trx_trace_format_name(t->format));
    key(o, "input_format", false);
    trx_out_json_string(o, trx_input_format_name(t->image.format));
    num(o, "image_size", t->image.size);
    num(o, "image_base", t->image.base);
    num(o, "skipped_lines", t->image.skipped_lines);
    key(o, "byte_order", false);
    trx_out_json_string(o, h->big_endian ? "big" : "little");
    num(o, "trace_id", h->id_as_read);
    num(o, "base_address", h->base_address);
    num(o, "timer_mask", h->timer_mask);
    num(o, "object_name_size", h->name_size);
    num(o, "registry_start", h->registry_start);
    num(o, "registry_end", h->registry_end);
    num(o, "registry_entries", t->registry_entries);
    if (t->elf) { /* --elf: is it the firmware that wrote the trace? */
        key(o, "elf", false);
        trx_info_elf_json(t, o);
    }
    key(o, "rtos", false);
    trx_out_json_string(o, t->rtos == TRX_RTOS_FREERTOS ? "freertos" : "threadx");
    if (t->rtos == TRX_RTOS_FREERTOS) {
        num(o, "freertos_max_priorities", t->rtos_priorities);
        if (t->idle_task != 0)
            num(o, "freertos_idle_task", t->idle_task);
    }
    num(o, "registry_used", t->registry_used);
    boolean(o, "registry_full", trx_registry_full(t));
    if (cores) {
        int64_t unregistered = trx_core_summary_unregistered(cores);
        if (unregistered >= 0)
            num(o, "unregistered_contexts", (uint64_t)unregistered);
    }
    num(o, "buffer_start", h->buffer_start);
    num(o, "buffer_end", h->buffer_end);
    num(o, "buffer_oldest", h->buffer_current);
    num(o, "capacity", t->capacity);
    num(o, "entries_used", t->used);
    boolean(o, "wrapped", t->wrapped);
    num(o, "oldest_index", t->oldest);
    if (t->damaged_count > 0) { /* only for damaged buffers: intact output stays as it was */
        num(o, "damaged_entries", t->damaged_count);
        boolean(o, "damaged_skipped", t->mode != TRX_MODE_TRACEX);
        key(o, "damaged", false);
        for (uint32_t k = 0; k < t->damaged_count; k++) {
            trx_out_str(o, k ? ",{\"index\":" : "[{\"index\":");
            trx_out_u64_pad(o, t->damaged[k].index, 0, ' ');
            trx_out_str(o, ",\"reason\":");
            trx_out_json_string(o, trx_damage_name(t->damaged[k].reason));
            trx_out_char(o, '}');
        }
        trx_out_char(o, ']');
    }
    num(o, "first_ticks", 0);
    num(o, "last_ticks", tc->span);
    key(o, "timer_direction", false);
    trx_out_json_string(o, t->counts_up ? "up" : "down");
    boolean(o, "counts_up", t->counts_up);
    num(o, "votes_up", t->votes_up);
    num(o, "votes_down", t->votes_down);
    key(o, "time_source", false); /* "ok", "constant" or "implausible" */
    trx_out_json_string(o, tc->verdict == TRX_TIME_CONSTANT      ? "constant"
                           : tc->verdict == TRX_TIME_IMPLAUSIBLE ? "implausible"
                                                                 : "ok");
    num(o, "time_steps", tc->steps);
    num(o, "time_large_steps", tc->large_steps);
    if (tc->late_start) { /* only then: other output stays as it was */
        key(o, "time_late_start", false);
        trx_out_str(o, "{\"events\":");
        trx_out_u64_pad(o, tc->leading_same, 0, ' ');
        trx_out_str(o, ",\"stamp\":");
        trx_out_u64_pad(o, tc->first_stamp, 0, ' ');
        trx_out_char(o, '}');
    }
    if (t->stream_source) { /* read from a stream: what was lost on the way */
        num(o, "lost_events", t->lost_events);
        trx_stream_info_json(t, o);
    }
    if (cores)
        trx_info_cores_json(t, cores, o);
    trx_out_str(o, "}\n");
}
