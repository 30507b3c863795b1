/*
 * export_ctf.c - `trx export --to ctf`: a Common Trace Format 1.8 trace
 * (babeltrace2, Trace Compass): the binary stream and its TSDL metadata.
 *
 * Streams: one per core, as LTTng writes them (file "stream_N" for core N;
 * every packet's cpu_id is N); past TRX_CTF_MAX_CORE_STREAMS distinct cores
 * (hostile UIA input with many streams) the remaining cores share
 * "stream_more", whose packets each carry their own cpu_id. A stream is
 * little-endian, byte-aligned packets of at most 64 KiB, each a header
 * (magic, stream id), a context (first and last timestamp, content and
 * packet size in bits, events discarded so far in that stream, cpu_id) and
 * events. An event is
 * a header (uint16 id, uint64 timestamp in ticks on clock "trx") and a
 * payload: index (uint64), context, priority (int32: as the application
 * wrote it, trx_shown_priority; -1 where no thread runs), next_context and
 * the four information fields named after their captions (32 bits each,
 * typed by the event's description). Synthetic
 * RUNNING events are left out (the stream holds what the target recorded).
 * Metadata: one event class per id the stream used, the clock's frequency
 * from --ticks-per-second (else 1 MHz: 1 tick = 1 µs). Lost events (the
 * model's gaps) start a new packet whose events_discarded counts them, so
 * readers report where they were lost. Memory: one packet per stream
 * file (at most TRX_CTF_MAX_CORE_STREAMS + 1) and a table of the ids seen.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/export_args.h"
#include "output/export_formats.h"

#define PACKET_SIZE 65536u
#define HEADER_SIZE 52u /* magic, stream id, 5 x uint64 + uint32 cpu_id context */
#define EVENT_SIZE 46u  /* uint16 id, uint64 time, uint64 index, 7 x uint32 */
#define CTF_MAGIC 0xC1FC1FC1u

typedef struct ctf_packet {
    uint8_t data[PACKET_SIZE];
    size_t len;
    uint64_t first, last;
    uint64_t discarded; /* events lost so far in this stream (UIA sequence gaps; TXTB has none) */
    uint32_t cpu_id;
    trx_out *out; /* the stream file */
} ctf_packet;

/* The stream files of one export: a packet being filled per file. */
typedef struct ctf_streams {
    const trx_ctf_sink *sink;
    ctf_packet *pk[TRX_CTF_MAX_CORE_STREAMS + 1]; /* the last: "stream_more" */
    uint32_t core[TRX_CTF_MAX_CORE_STREAMS];
    unsigned n;         /* cores with a file of their own */
    ctf_packet *recent; /* the stream of the last event (consecutive events share cores) */
    uint32_t recent_core;
    int error; /* -1 out of memory, -2 a file could not be opened */
} ctf_streams;

static void le(uint8_t *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void flush_packet(ctf_packet *pk)
{
    if (pk->len == HEADER_SIZE)
        return;
    uint8_t *h = pk->data;
    le(h, CTF_MAGIC, 4);
    le(h + 4, 0, 4);
    le(h + 8, pk->first, 8);
    le(h + 16, pk->last, 8);
    le(h + 24, (uint64_t)pk->len * 8, 8);
    le(h + 32, (uint64_t)pk->len * 8, 8);
    le(h + 40, pk->discarded, 8);
    le(h + 48, pk->cpu_id, 4);
    trx_out_mem(pk->out, pk->data, pk->len);
    pk->len = HEADER_SIZE;
}

/* A new stream file and its packet; NULL (with s->error) when it fails. */
static ctf_packet *new_stream(ctf_streams *s, const char *name)
{
    ctf_packet *pk = malloc(sizeof *pk);
    if (!pk) {
        s->error = -1;
        return NULL;
    }
    pk->out = s->sink->open(s->sink->ctx, name);
    if (!pk->out) {
        free(pk);
        s->error = -2;
        return NULL;
    }
    pk->len = HEADER_SIZE;
    pk->discarded = 0;
    pk->cpu_id = 0;
    return pk;
}

/* The packet of `core`'s stream, its file opened on first use; NULL on error. */
static ctf_packet *stream_of(ctf_streams *s, uint32_t core)
{
    if (s->recent && s->recent_core == core)
        return s->recent;
    s->recent_core = core;
    for (unsigned k = 0; k < s->n; k++)
        if (s->core[k] == core)
            return s->recent = s->pk[k];
    ctf_packet **slot = &s->pk[TRX_CTF_MAX_CORE_STREAMS];
    char name[32];
    if (s->n < TRX_CTF_MAX_CORE_STREAMS) {
        slot = &s->pk[s->n];
        snprintf(name, sizeof name, "stream_%lu", (unsigned long)core);
    } else {
        snprintf(name, sizeof name, "stream_more");
    }
    if (!*slot && !(*slot = new_stream(s, name))) {
        s->recent = NULL;
        return NULL;
    }
    if (s->n < TRX_CTF_MAX_CORE_STREAMS)
        s->core[s->n++] = core;
    return s->recent = *slot;
}

static void add_event(ctf_packet *pk, const trx_trace *t, const trx_event *ev)
{
    if (pk->len + EVENT_SIZE > PACKET_SIZE || (pk->len > HEADER_SIZE && ev->core != pk->cpu_id))
        flush_packet(pk);
    if (pk->len == HEADER_SIZE) {
        pk->first = ev->ticks;
        pk->cpu_id = ev->core;
    }
    pk->last = ev->ticks;
    uint8_t *p = pk->data + pk->len;
    le(p, ev->id, 2);
    le(p + 2, ev->ticks, 8);
    le(p + 10, ev->index, 8);
    le(p + 18, ev->context, 4);
    /* an interrupt or initialization has no priority (the word holds other things) */
    bool thread = trx_context_kind_of(ev->context) == TRX_CTX_THREAD;
    le(p + 22, thread ? trx_shown_priority(t, ev->priority) : UINT32_MAX, 4);
    le(p + 26, ev->next_context, 4);
    for (int k = 0; k < 4; k++)
        le(p + 30 + 4 * k, ev->info[k], 4);
    pk->len += EVENT_SIZE;
}

/* ------------------------------------------------------------- metadata */

static const char *const keywords[] = {
    "align",   "callsite", "const",          "char",        "clock",   "double",   "enum",
    "env",     "event",    "floating_point", "float",       "integer", "int",      "long",
    "short",   "signed",   "stream",         "string",      "struct",  "trace",    "typealias",
    "typedef", "unsigned", "variant",        "void",        "_Bool",   "_Complex", "_Imaginary",
    "index",   "context",  "priority",       "next_context"};

/* A TSDL identifier from a caption: lower case, other characters '_', never a keyword. */
static void identifier(const char *label, int k, char *out, size_t cap)
{
    size_t n = 0;
    for (const char *s = label; *s && n + 2 < cap; s++) {
        char c = *s;
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
            c = '_';
        if (c == '_' && (n == 0 || out[n - 1] == '_'))
            continue;
        out[n++] = c;
    }
    while (n > 0 && out[n - 1] == '_')
        n--;
    out[n] = '\0';
    bool bad = n == 0 || (out[0] >= '0' && out[0] <= '9');
    for (size_t i = 0; !bad && i < sizeof keywords / sizeof keywords[0]; i++)
        bad = strcmp(out, keywords[i]) == 0;
    if (bad) {
        char tmp[80];
        memcpy(tmp, out, n + 1);
        int r = snprintf(out, cap, "info%d%s%s", k + 1, n ? "_" : "", tmp);
        (void)r;
    }
}

/* Writes `s` as a TSDL string literal (ASCII; other bytes as '?'). */
static void tsdl_string(trx_out *w, const char *s)
{
    trx_out_char(w, '"');
    for (; *s; s++) {
        char c = *s;
        if (c == '"' || c == '\\')
            trx_out_char(w, '\\');
        trx_out_char(w, (unsigned char)c >= 0x20 && (unsigned char)c < 0x7F ? c : '?');
    }
    trx_out_char(w, '"');
}

/* Names already given to an event class (hash of string pointers' contents). */
typedef struct name_set {
    const char **slot;
    uint32_t size;
} name_set;

static uint32_t hash_text(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

/* Adds `s`; false when an equal name was there. */
static bool name_add(name_set *ns, const char *s)
{
    for (uint32_t i = hash_text(s) & (ns->size - 1);; i = (i + 1) & (ns->size - 1)) {
        if (!ns->slot[i]) {
            ns->slot[i] = s;
            return true;
        }
        if (strcmp(ns->slot[i], s) == 0)
            return false;
    }
}

static void write_event_class(trx_out *w, const trx_trace *t, uint32_t id, uint16_t module,
                              name_set *ns, const trx_custom_events *ce)
{
    char buf[32];
    const char *name = trx_export_type_name(t, id, module, ce, buf);
    trx_out_str(w, "\nevent {\n    name = ");
    if (name_add(ns, name)) {
        tsdl_string(w, name);
    } else {
        char unique[128];
        snprintf(unique, sizeof unique, "%.100s (id %u)", name, id);
        tsdl_string(w, unique);
    }
    trx_out_printf(w,
                   ";\n    id = %u;\n    stream_id = 0;\n    fields := struct {\n"
                   "        uint64_t index;\n        uint32_t context;\n"
                   "        int32_t priority;\n        uint32_t next_context;\n",
                   id);
    const char *labels[4];
    uint8_t types[4];
    trx_export_labels(t, id, module, ce, labels);
    trx_export_field_types(t, id, module, ce, types);
    char names[4][72];
    for (int k = 0; k < 4; k++) {
        if (labels[k][0])
            identifier(labels[k], k, names[k], sizeof names[k]);
        else
            snprintf(names[k], sizeof names[k], "info%d", k + 1);
        for (int j = 0; j < k; j++)
            if (strcmp(names[j], names[k]) == 0) {
                char tmp[72];
                memcpy(tmp, names[k], sizeof tmp);
                snprintf(names[k], sizeof names[k], "%.60s_%d", tmp, k + 1);
            }
        static const char *const ctf_types[TRX_FIELD_TYPES] = {"uint32_t", "int32_t", "hex32_t"};
        trx_out_printf(w, "        %s %s;\n", ctf_types[types[k] < TRX_FIELD_TYPES ? types[k] : 0],
                       names[k]);
    }
    trx_out_str(w, "    };\n};\n");
}

static void write_metadata(trx_out *w, const trx_trace *t, const trx_export_options *o,
                           const uint32_t *seen, name_set *ns)
{
    trx_out_str(w, "/* CTF 1.8 */\n\n"
                   "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
                   "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
                   "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
                   "typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
                   "typealias integer { size = 32; align = 8; signed = false; base = 16; } "
                   ":= hex32_t;\n"
                   "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n\n"
                   "trace {\n    major = 1;\n    minor = 8;\n    byte_order = le;\n"
                   "    packet.header := struct {\n        uint32_t magic;\n"
                   "        uint32_t stream_id;\n    };\n};\n\n"
                   "env {\n    tracer_name = \"trx\";\n    tracer_version = \"" TRX_VERSION_STRING
                   "\";\n    trace_file = ");
    tsdl_string(w, t->path ? t->path : "");
    trx_out_printf(
        w,
        ";\n    trace_format = \"%s\";\n};\n\n"
        "clock {\n    name = trx;\n    description = \"relative trace ticks\";\n"
        "    freq = %llu;\n    precision = 1;\n    offset_s = 0;\n    offset = 0;\n"
        "    absolute = false;\n};\n\n"
        "typealias integer { size = 64; align = 8; signed = false; "
        "map = clock.trx.value; } := uint64_clock_t;\n\n"
        "stream {\n    id = 0;\n    packet.context := struct {\n"
        "        uint64_clock_t timestamp_begin;\n        uint64_clock_t timestamp_end;\n"
        "        uint64_t content_size;\n        uint64_t packet_size;\n"
        "        uint64_t events_discarded;\n        uint32_t cpu_id;\n    };\n"
        "    event.header := struct {\n        uint16_t id;\n"
        "        uint64_clock_t timestamp;\n    };\n};\n",
        t->format == TRX_TRACE_UIA ? "uia" : "txtb", (unsigned long long)trx_export_rate(o));
    for (uint32_t id = 0; id < 65536; id++)
        if (seen[id])
            write_event_class(w, t, id, (uint16_t)(seen[id] - 1), ns, o->custom);
}

int trx_export_ctf(trx_trace *t, const trx_ctf_sink *files, trx_out *metadata,
                   const trx_export_options *o)
{
    trx_trace_prepare(t);
    ctf_streams s = {.sink = files};
    uint32_t *seen = calloc(65536, sizeof *seen); /* by id: 1 + module of its first event */
    name_set ns = {calloc(1u << 17, sizeof(const char *)), 1u << 17};
    trx_cursor c;
    int rc = -1;
    if (!seen || !ns.slot || trx_cursor_init(&c, t) < 0)
        goto out;
    trx_event ev;
    while (trx_cursor_next(&c, &ev)) {
        if (ev.synthetic && !ev.lost_before)
            continue; /* no file for a core that only has TraceX's RUNNING events */
        ctf_packet *pk = stream_of(&s, ev.core);
        if (!pk)
            break;
        if (ev.lost_before) { /* lost right before this event: a new packet counts them */
            flush_packet(pk);
            pk->discarded += ev.lost_before;
        }
        if (ev.synthetic)
            continue;
        if (!seen[ev.id])
            seen[ev.id] = 1u + ev.module;
        add_event(pk, t, &ev);
        if (pk->out->error)
            break;
    }
    trx_cursor_free(&c);
    for (unsigned k = 0; k <= TRX_CTF_MAX_CORE_STREAMS; k++)
        if (s.pk[k])
            flush_packet(s.pk[k]);
    write_metadata(metadata, t, o, seen, &ns);
    rc = s.error;
out:
    for (unsigned k = 0; k <= TRX_CTF_MAX_CORE_STREAMS; k++)
        free(s.pk[k]);
    free(seen);
    free(ns.slot);
    return rc;
}
