/*
 * uia_events.c - one line per UIA record for `trx events`: index, ticks,
 * sequence number, stream, module, event id, name, header type and argument
 * words (text, CSV) or every field (JSON Lines: seq, id, module, hdr_type,
 * args, sender, logger, snapshot, lost_before; time_us where the tick rate is
 * known). The module is the one that logged the record (its name where the
 * names give one). A record after a sequence
 * gap is preceded by a "lost" line in text and CSV and carries lost_before.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "output/events_names.h"
#include "output/json_string.h"
#include "output/uia_events.h"
#include "trx/elf.h"

/* True for the modules whose events the TXTB catalogue names: the default
 * module, 0, and the recorder's RTOS-hook module "TX". */
static bool catalogue_module(const trx_uia_names *n, uint32_t module)
{
    return module == (n ? n->default_module : 0) || module == 0 || module == TRX_UIA_TX_MODULE;
}

const char *trx_uia_event_name(const trx_trace *t, const trx_event *ev, const trx_custom_events *ce,
                               char buf[32])
{
    const trx_uia_names *names_in_use = t->uia_names;
    const trx_uia_name *n = trx_uia_names_find_exact(names_in_use, ev->module, ev->id);
    if (n && n->name[0])
        return n->name;
    if (catalogue_module(names_in_use, ev->module))
        return trx_event_name(ev->id, ce);
    if (ev->module == TRX_UIA_RECORDER_MODULE && ev->id >= 1 && ev->id <= 3) {
        static const char *const own[3] = {"TRX UIA DROPPED", "TRX UIA SNAPSHOT MEMORY",
                                           "TRX UIA SNAPSHOT STRING"};
        return own[ev->id - 1];
    }
    /* logged through another module (LogSync logging UIASync's sync points): by event id */
    n = trx_uia_names_find(names_in_use, ev->module, ev->id);
    if (n && n->name[0])
        return n->name;
    snprintf(buf, 32, "Event 0x%04" PRIX32 ":0x%04" PRIX32, (uint32_t)ev->module, ev->id);
    return buf;
}

const char *trx_uia_message_format(const trx_trace *t, uint32_t id, uint16_t module)
{
    const trx_uia_name *n = catalogue_module(t->uia_names, module)
                                ? trx_uia_names_find_exact(t->uia_names, module, id)
                                : trx_uia_names_find(t->uia_names, module, id);
    return n ? n->format : NULL;
}

static const char *message_format(const trx_trace *t, const trx_event *ev)
{
    return trx_uia_message_format(t, ev->id, ev->module);
}

/* Appends printf output to buf (bounded; truncated when full). */
static void put(char *buf, size_t cap, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
    if (*len + 1 >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *len, cap - *len, fmt, ap);
    va_end(ap);
    if (n > 0)
        *len = *len + (size_t)n < cap ? *len + (size_t)n : cap - 1;
}

void trx_uia_format_message(char *buf, size_t cap, const char *fmt, const uint32_t *args,
                            uint32_t nargs)
{
    trx_uia_format_message_elf(buf, cap, fmt, args, nargs, NULL, NULL);
}

/* " <symbol>" after an address argument (--elf), and marks it as one. */
static void address_arg(char *buf, size_t cap, size_t *len, const trx_elf *elf, uint32_t a,
                        uint32_t k, uint32_t nargs, bool *is_address)
{
    char sym[160];
    if (is_address && k < nargs)
        is_address[k] = true;
    if (elf && a && trx_elf_describe(elf, a, sym, sizeof sym))
        put(buf, cap, len, " <%s>", sym);
}

void trx_uia_format_message_elf(char *buf, size_t cap, const char *fmt, const uint32_t *args,
                                uint32_t nargs, const struct trx_elf *elf, bool *is_address)
{
    size_t len = 0;
    uint32_t k = 0;
    buf[0] = 0;
    for (uint32_t i = 0; is_address && i < nargs; i++)
        is_address[i] = false;
    for (const char *p = fmt; *p; p++) {
        if (*p != '%') {
            put(buf, cap, &len, "%c", *p);
            continue;
        }
        const char *pct = p++;
        if (*p == '%') {
            put(buf, cap, &len, "%%");
            continue;
        }
        if (*p == '$' && (p[1] == 'F' || p[1] == 'S')) {
            p++;
            uint32_t a = k < nargs ? args[k] : 0;
            k++;
            if (*p == 'F') {
                uint32_t line = k < nargs ? args[k] : 0;
                k++;
                put(buf, cap, &len, "[0x%08" PRIX32 ":%" PRIu32 "] ", a, line);
            } else {
                put(buf, cap, &len, "0x%08" PRIX32, a);
                address_arg(buf, cap, &len, elf, a, k - 1, nargs, is_address);
            }
            continue;
        }
        while (*p && strchr("-+ #0123456789.hlLzjt", *p))
            p++;
        if (!*p)
            break;
        if (k >= nargs) {
            put(buf, cap, &len, "<missing>");
            k++;
            continue;
        }
        /* "0x%x": SYS/BIOS's handles and code addresses */
        bool hex_address = pct >= fmt + 2 && pct[-1] == 'x' && pct[-2] == '0';
        uint32_t a = args[k++];
        switch (*p) {
        case 'd':
        case 'i':
            put(buf, cap, &len, "%" PRId32, (int32_t)a);
            break;
        case 'u':
            put(buf, cap, &len, "%" PRIu32, a);
            break;
        case 'x':
            put(buf, cap, &len, "%" PRIx32, a);
            if (hex_address)
                address_arg(buf, cap, &len, elf, a, k - 1, nargs, is_address);
            break;
        case 'X':
            put(buf, cap, &len, "%" PRIX32, a);
            break;
        case 'o':
            put(buf, cap, &len, "%" PRIo32, a);
            break;
        case 'c':
            put(buf, cap, &len, "%c", a >= 0x20 && a < 0x7F ? (char)a : '?');
            break;
        case 's': { /* a target address: with --elf, the string it holds in read-only data */
            char text[256];
            if (is_address && k - 1 < nargs)
                is_address[k - 1] = true;
            if (trx_elf_string_at(elf, a, text, sizeof text)) {
                put(buf, cap, &len, "%s", text);
                break;
            }
            put(buf, cap, &len, "0x%08" PRIX32, a);
            break;
        }
        case 'p':
            put(buf, cap, &len, "0x%08" PRIX32, a); /* a target address */
            address_arg(buf, cap, &len, elf, a, k - 1, nargs, is_address);
            break;
        default:
            put(buf, cap, &len, "<%%%c: 0x%08" PRIX32 ">", *p, a);
            break;
        }
    }
}

/* The record's argument words (at most 64 kept). */
static uint32_t record_args(const trx_trace *t, const trx_event *ev, trx_uia_record *r,
                            uint32_t args[64])
{
    if (!trx_uia_record_get(t, ev->entry, r)) {
        memset(r, 0, sizeof *r);
        return 0;
    }
    uint32_t n = r->nargs < 64 ? r->nargs : 64;
    for (uint32_t k = 0; k < n; k++)
        args[k] = trx_uia_record_arg(r, k);
    return n;
}

static void gap_text(trx_out *o, const trx_event *ev, uint32_t stream)
{
    if (ev->lost_before)
        trx_out_printf(o,
                       "       -  *** %" PRIu32 " event%s lost here (sequence gap, stream %" PRIu32
                       ") ***\n",
                       ev->lost_before, ev->lost_before == 1 ? "" : "s", stream);
}

void trx_uia_events_text_header(trx_out *o)
{
    trx_out_str(o, "   Index                 Ticks         Seq  Strm  Module      Id  Event        "
                   "                 Type  Args\n");
}

void trx_uia_events_text_line(trx_out *o, const trx_trace *t, const trx_event *ev,
                              const trx_custom_events *ce)
{
    char buf[32];
    trx_uia_record r;
    uint32_t args[64];
    uint32_t n = record_args(t, ev, &r, args);
    gap_text(o, ev, r.stream);
    trx_out_u64_pad(o, ev->index, 8, ' ');
    trx_out_str(o, "  ");
    if (ev->flags & TRX_EV_TIMESTAMP)
        trx_out_u64_pad(o, ev->ticks, 20, ' ');
    else
        trx_out_str(o, "                   -");
    trx_out_str(o, "  ");
    trx_out_u64_pad(o, ev->seq, 10, ' ');
    trx_out_str(o, "  ");
    trx_out_u64_pad(o, r.stream, 4, ' ');
    const char *module_name = trx_uia_module_name(t->uia_names, ev->module);
    if (module_name) { /* the logging module's name: its last component ("LogSync") */
        const char *dot = strrchr(module_name, '.');
        trx_out_printf(o, "  %-6s  0x%04" PRIX32 "  ", dot ? dot + 1 : module_name, ev->id);
    } else {
        trx_out_printf(o, "  0x%04" PRIX32 "  0x%04" PRIX32 "  ", (uint32_t)ev->module, ev->id);
    }
    const char *name = trx_uia_event_name(t, ev, ce, buf);
    size_t len = strlen(name);
    for (size_t i = 0; i < 26; i++) {
        unsigned char c = i < len ? (unsigned char)name[i] : ' ';
        trx_out_char(o, c < 0x20 || c == 0x7F ? '?' : (char)c);
    }
    trx_out_printf(o, "  %4" PRIu32, r.hdr_type);
    const char *fmt = message_format(t, ev);
    if (fmt && !r.snapshot) {
        char line[1024];
        trx_uia_format_message_elf(line, sizeof line, fmt, args, n, t->elf, NULL);
        trx_out_str(o, "  ");
        trx_out_str(o, line);
    } else if (r.snapshot) {
        trx_out_printf(
            o, "  snapshot %" PRIu32 " at 0x%08" PRIX32 ", %" PRIu32 " of %" PRIu32 " bytes",
            r.snapshot_id, r.address, r.this_length, r.total_length);
    } else {
        for (uint32_t k = 0; k < n; k++) {
            trx_out_str(o, "  ");
            trx_out_hex32(o, args[k]);
        }
    }
    trx_out_char(o, '\n');
}

void trx_uia_events_csv_header(trx_out *o)
{
    trx_out_str(o, "index,ticks,timestamp,seq,stream,module,id,name,hdr_type,lost_before,args\n");
}

void trx_uia_events_csv_line(trx_out *o, const trx_trace *t, const trx_event *ev,
                             const trx_custom_events *ce)
{
    char buf[32];
    trx_uia_record r;
    uint32_t args[64];
    uint32_t n = record_args(t, ev, &r, args);
    trx_out_printf(o, "%" PRIu64 ",", ev->index);
    if (ev->flags & TRX_EV_TIMESTAMP)
        trx_out_printf(o, "%" PRIu64 ",%" PRIu64, ev->ticks, ev->time);
    else
        trx_out_char(o, ',');
    trx_out_printf(o, ",%" PRIu64 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",", ev->seq, r.stream,
                   (uint32_t)ev->module, ev->id);
    const char *name = trx_uia_event_name(t, ev, ce, buf);
    if (strpbrk(name, ",\"\r\n")) {
        trx_out_char(o, '"');
        for (const char *s = name; *s; s++) {
            if (*s == '"')
                trx_out_char(o, '"');
            trx_out_char(o, *s);
        }
        trx_out_char(o, '"');
    } else {
        trx_out_str(o, name);
    }
    trx_out_printf(o, ",%" PRIu32 ",%" PRIu32 ",", r.hdr_type, ev->lost_before);
    for (uint32_t k = 0; k < n; k++) {
        trx_out_str(o, k ? " 0x" : "0x");
        trx_out_hex32(o, args[k]);
    }
    trx_out_char(o, '\n');
}

void trx_uia_events_jsonl_line(trx_out *o, const trx_trace *t, const trx_event *ev,
                               const trx_custom_events *ce)
{
    char buf[32];
    trx_uia_record r;
    uint32_t args[64];
    uint32_t n = record_args(t, ev, &r, args);
    trx_out_printf(o, "{\"index\":%" PRIu64 ",\"ticks\":", ev->index);
    uint64_t rate = trx_trace_ticks_per_second(t); /* the metadata's: time in us too */
    if (ev->flags & TRX_EV_TIMESTAMP) {
        trx_out_printf(o, "%" PRIu64 ",\"timestamp\":%" PRIu64, ev->ticks, ev->time);
        if (rate)
            trx_out_printf(o, ",\"time_us\":%.3f", (double)ev->ticks * 1e6 / (double)rate);
    } else {
        trx_out_str(o, "null,\"timestamp\":null");
    }
    trx_out_printf(o, ",\"seq\":%" PRIu64 ",\"id\":%" PRIu32 ",\"module\":%" PRIu32 ",\"name\":",
                   ev->seq, ev->id, (uint32_t)ev->module);
    trx_out_json_string(o, trx_uia_event_name(t, ev, ce, buf));
    const trx_uia_names *nm = t->uia_names;
    const char *mod = trx_uia_module_name(nm, ev->module);
    if (mod) {
        trx_out_str(o, ",\"module_name\":");
        trx_out_json_string(o, mod);
    }
    trx_out_printf(o, ",\"hdr_type\":%" PRIu32 ",\"stream\":%" PRIu32 ",\"core\":%" PRIu32,
                   r.hdr_type, r.stream, ev->core);
    const trx_uia_info *u = trx_uia_info_of(t);
    if (u && r.stream < u->stream_count && u->streams[r.stream].sender != TRX_UIA_NONE)
        trx_out_printf(o, ",\"sender\":%" PRIu32 ",\"logger\":%" PRIu32,
                       u->streams[r.stream].sender, u->streams[r.stream].logger);
    if (ev->flags & TRX_EV_CONTEXT) { /* SYS/BIOS's tasks and interrupts (sysbios_model.c) */
        trx_out_str(o, ",\"context\":\"");
        trx_out_str(o, trx_event_context_word(ev));
        trx_out_char(o, '"');
        if (trx_context_kind_of(ev->context) == TRX_CTX_THREAD) {
            trx_out_printf(o, ",\"thread\":%" PRIu32 ",\"thread_name\":",
                           trx_context_handle(t, ev->context)); /* AMP: the key's handle */
            trx_out_json_string(o, trx_event_thread_name(t, ev));
        }
    }
    trx_out_printf(o, ",\"lost_before\":%" PRIu32 ",\"args\":[", ev->lost_before);
    for (uint32_t k = 0; k < n; k++)
        trx_out_printf(o, "%s%" PRIu32, k ? "," : "", args[k]);
    trx_out_char(o, ']');
    const char *fmt = message_format(t, ev);
    bool is_address[64];
    if (fmt && !r.snapshot) {
        char line[1024];
        trx_uia_format_message_elf(line, sizeof line, fmt, args, n, t->elf, is_address);
        trx_out_str(o, ",\"text\":");
        trx_out_json_string(o, line);
    }
    if (t->elf && !r.snapshot) { /* --elf: each argument's symbol, null where none */
        trx_out_str(o, ",\"arg_symbols\":[");
        for (uint32_t k = 0; k < n; k++) {
            char sym[160];
            /* with a format: its address arguments; without: a symbol's own address */
            bool address = fmt ? is_address[k] : trx_elf_at(t->elf, args[k]) != NULL;
            const char *s = address ? trx_elf_describe(t->elf, args[k], sym, sizeof sym) : NULL;
            if (k)
                trx_out_char(o, ',');
            if (s)
                trx_out_json_string(o, s);
            else
                trx_out_str(o, "null");
        }
        trx_out_char(o, ']');
    }
    if (r.snapshot) {
        trx_out_printf(o, ",\"snapshot\":{\"id\":%" PRIu32 ",\"address\":%" PRIu32, r.snapshot_id,
                       r.address);
        const trx_uia_snapshot *s = trx_uia_snapshot_at(t, ev->entry);
        if (s) {
            trx_out_printf(o,
                           ",\"total_length\":%" PRIu32 ",\"length\":%" PRIu32
                           ",\"records\":%" PRIu32 ",\"incomplete\":%s,\"data\":\"",
                           s->total_length, s->length, s->records,
                           s->incomplete ? "true" : "false");
            static const char hexd[] = "0123456789abcdef";
            for (uint32_t k = 0; k < s->length; k++) {
                trx_out_char(o, hexd[s->data[k] >> 4]);
                trx_out_char(o, hexd[s->data[k] & 15]);
            }
            trx_out_str(o, "\"}");
        } else {
            trx_out_printf(o, ",\"total_length\":%" PRIu32 ",\"continued\":true}", r.total_length);
        }
    }
    trx_out_str(o, "}\n");
}
