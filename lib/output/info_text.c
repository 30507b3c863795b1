/* info_text.c - `trx info` as text: what the dump is and what its header says. */
#include "output/info_elf.h"
#include "output/info_text.h"
#include "output/stream_info.h"
#include "trx/elf.h"

#include "output/info_cores.h"
#include "output/registry_warning.h"
#include "output/time_warnings.h"

/* Writes a row's caption (the line break before it included). */
static void label(trx_out *o, const char *text)
{
    trx_out_str(o, text);
}

static void hex(trx_out *o, uint32_t v)
{
    trx_out_str(o, "0x");
    trx_out_hex32(o, v);
}

static void dec(trx_out *o, uint64_t v)
{
    trx_out_u64_pad(o, v, 0, ' ');
}

/* Writes an address range as "0x<start> - 0x<end>". */
static void range(trx_out *o, uint32_t start, uint32_t end)
{
    hex(o, start);
    trx_out_str(o, " - ");
    hex(o, end);
}

void trx_info_write_text(const trx_trace *t, const trx_time_check *tc,
                         const trx_core_summary *cores, trx_out *o)
{
    const trx_header *h = &t->header;
    label(o, "File:               ");
    trx_out_str(o, t->path ? t->path : "-");
    label(o, "\nFormat:             ");
    trx_out_str(o, trx_input_format_name(t->image.format));
    label(o, "\nImage:              ");
    dec(o, t->image.size);
    trx_out_str(o, " bytes at 0x");
    trx_out_hex32(o, (uint32_t)t->image.base);
    if (t->image.skipped_lines > 0) {
        label(o, "\nSkipped lines:      ");
        dec(o, t->image.skipped_lines);
        trx_out_str(o, " (not records: console output around the capture)");
    }
    if (t->elf) {
        label(o, "\nELF:                ");
        trx_info_elf_text(t, o);
    }
    label(o, "\nRTOS:               ");
    trx_out_str(o, trx_rtos_name(t));
    if (t->rtos == TRX_RTOS_FREERTOS) {
        trx_out_str(o, " (configMAX_PRIORITIES ");
        dec(o, t->rtos_priorities);
        trx_out_str(o, t->mode == TRX_MODE_TRACEX
                           ? "; priorities as recorded, TraceX's order: 0 most urgent)"
                           : "; priorities as the application wrote them: higher = more urgent)");
        if (t->idle_task != 0) {
            const char *name = trx_context_name(t, t->idle_task);
            label(o, "\nIdle task:          ");
            trx_out_str(o, name ? name : "?");
            trx_out_str(o, " at 0x");
            trx_out_hex32(o, t->idle_task);
            trx_out_str(o, trx_context_is_idle_task(t, t->idle_task)
                               ? " (its time is idle time)"
                               : " (a thread of its own, as TraceX shows it)");
        }
    }
    label(o, "\nByte order:         ");
    trx_out_str(o, h->big_endian ? "big-endian" : "little-endian");
    label(o, "\nTrace ID:           ");
    trx_out_hex32(o, h->id_as_read);
    label(o, "\nBase address:       ");
    hex(o, h->base_address);
    label(o, "\nTimer mask:         ");
    hex(o, h->timer_mask);
    label(o, "\nObject name size:   ");
    dec(o, h->name_size);
    label(o, "\nRegistry:           ");
    range(o, h->registry_start, h->registry_end);
    trx_out_str(o, ", ");
    dec(o, t->registry_used);
    trx_out_str(o, " of ");
    dec(o, t->registry_entries);
    trx_out_str(o, " entries used");
    label(o, "\nBuffer:             ");
    range(o, h->buffer_start, h->buffer_end);
    trx_out_str(o, ", capacity ");
    dec(o, t->capacity);
    trx_out_str(o, " entries");
    label(o, "\nEntries used:       ");
    dec(o, t->used);
    label(o, "\nWrapped:            ");
    trx_out_str(o, t->wrapped ? "yes" : "no");
    label(o, "\nOldest entry:       ");
    dec(o, t->oldest);
    trx_out_str(o, " (pointer ");
    hex(o, h->buffer_current);
    trx_out_char(o, ')');
    if (t->damaged_count > 0) {
        char summary[160];
        trx_trace_damage_summary(t, summary, sizeof summary);
        label(o, "\nDamaged:            ");
        trx_out_str(o, summary);
        trx_out_str(o, t->mode == TRX_MODE_TRACEX ? ", kept as TraceX reads them (--compat tracex)"
                                                  : ", skipped (info --json lists them)");
    }
    label(o, "\nRelative ticks:     0 - ");
    dec(o, tc->span);
    label(o, "\nTimer direction:    ");
    trx_out_str(o, t->counts_up ? "counts up" : "counts down");
    trx_out_str(o, " (");
    dec(o, t->votes_up);
    trx_out_str(o, " increases, ");
    dec(o, t->votes_down);
    trx_out_str(o, " decreases)\n");
    trx_time_warnings_write(t, tc, "Warning:            ", o);
    trx_registry_warning_write(t, cores ? trx_core_summary_unregistered(cores) : -1,
                               "Warning:            ", o);
    if (cores)
        trx_info_cores_text(t, cores, o);
    trx_stream_info_text(t, o); /* read from a stream: how it arrived, what was lost */
}
